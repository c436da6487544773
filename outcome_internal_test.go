package workforce

import (
	"net/http"
	"testing"
	"time"
)

// A 503 whose Retry-After date is its own Date says "now" by the server's
// clock, however far ahead of the client's that runs: no "not now"
// (outside attack 9, A9-2). One a second past its Date says "not now".
func TestNothingDoneReadsARetryAfterDateAgainstTheAnswersDate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		skew, after time.Duration
		want        bool
	}{
		{2 * time.Second, 0, false},
		{time.Hour, 0, false},
		{-time.Hour, 0, false},
		{time.Hour, time.Second, true},
		{-time.Hour, time.Second, true},
	} {
		server := time.Now().Add(tc.skew).UTC()
		h := http.Header{}
		h.Set("Date", server.Format(http.TimeFormat))
		h.Set("Retry-After", server.Add(tc.after).Format(http.TimeFormat))
		if got := nothingDone(&http.Response{StatusCode: http.StatusServiceUnavailable, Header: h}, nil); got != tc.want {
			t.Errorf("server clock %v ahead, Retry-After its Date + %v: nothing done %v, want %v", tc.skew, tc.after, got, tc.want)
		}
	}
}
