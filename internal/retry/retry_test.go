package retry

import (
	"crypto/x509"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/internal/auth"
)

var now = time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in     string
		second time.Duration
		want   time.Duration
		ok     bool
	}{
		{"", time.Second, 0, false},
		{"   ", time.Second, 0, false},
		{"0", time.Second, 0, true},
		{"5", time.Second, 5 * time.Second, true},
		{" 7 ", time.Second, 7 * time.Second, true},
		{"5", time.Millisecond, 5 * time.Millisecond, true},
		{"-1", time.Second, 0, false},
		{"1.5", time.Second, 0, false},
		{"+3", time.Second, 0, false}, // delay-seconds is digits alone
		{"soon", time.Second, 0, false},
		{"9223372036854775807", time.Second, math.MaxInt64, true}, // saturates, no overflow
		{"9223372036", time.Second, 9223372036 * time.Second, true},
		{"9223372037", time.Second, math.MaxInt64, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), time.Second, 90 * time.Second, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), time.Millisecond, 90 * time.Second, true}, // a date is absolute
		{now.Add(-time.Hour).Format(http.TimeFormat), time.Second, 0, true},                           // past: no wait
		{now.Add(time.Minute).Format(time.RFC850), time.Second, time.Minute, true},
		{now.Add(time.Minute).Format(time.ANSIC), time.Second, time.Minute, true},
		{now.Add(time.Minute).Format(time.RFC3339), time.Second, 0, false}, // not an HTTP date
	}
	for _, tt := range tests {
		t.Run(tt.in+"/"+tt.second.String(), func(t *testing.T) {
			t.Parallel()
			got, ok := ParseRetryAfter(tt.in, tt.second, now)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
}

// newPolicy returns a policy without jitter, each wait the longest, that
// waits from 1ms to 8ms, or up to a minute for a Retry-After.
func newPolicy() *Policy {
	return &Policy{MinWait: time.Millisecond, MaxWait: 8 * time.Millisecond, Second: time.Second,
		Now: func() time.Time { return now }, Jitter: func(d time.Duration) time.Duration { return d }}
}

func answer(status int, retryAfter string) *http.Response {
	h := http.Header{}
	if retryAfter != "" {
		h.Set("Retry-After", retryAfter)
	}
	return &http.Response{StatusCode: status, Header: h, Body: http.NoBody}
}

func TestDecideByStatus(t *testing.T) {
	t.Parallel()
	retried := map[int]bool{429: true, 502: true, 503: true, 504: true}
	readRetried := map[int]bool{429: true, 500: true, 502: true, 503: true, 504: true}
	for _, status := range []int{200, 201, 301, 400, 401, 403, 404, 409, 422, 429, 500, 501, 502, 503, 504, 505} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			t.Parallel()
			p := newPolicy()
			got, reason := p.Decide(Read, answer(status, ""), nil)
			assert.Equal(t, readRetried[status], got, "read")
			if got {
				assert.Contains(t, reason, strconv.Itoa(status), "the reason names the status")
			}

			got, _ = p.Decide(Write, answer(status, ""), nil)
			assert.Equal(t, retried[status], got, "write")

			got, _ = p.Decide(Create, answer(status, ""), nil)
			assert.Equal(t, status == 429, got, "create")
		})
	}
}

func TestDecideRetryAfterAboveTheLongestWaitEndsRetries(t *testing.T) {
	t.Parallel()
	p := newPolicy()
	p.MaxWait = time.Minute
	ok, _ := p.Decide(Read, answer(429, "60"), nil)
	assert.True(t, ok, "at the cap")
	ok, reason := p.Decide(Read, answer(429, "61"), nil)
	assert.False(t, ok, "above the cap")
	assert.Contains(t, reason, "Retry-After")
	ok, _ = p.Decide(Read, answer(503, now.Add(2*time.Minute).Format(http.TimeFormat)), nil)
	assert.False(t, ok, "a date above the cap")
}

func TestDecideOnTransportErrors(t *testing.T) {
	t.Parallel()
	urlErr := func(err error) error { return &url.Error{Op: "Post", URL: "https://api.example.com/x", Err: err} }
	dial := urlErr(&net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED})
	tests := []struct {
		name         string
		err          error
		read, create bool
	}{
		{"connection refused", dial, true, true},
		{"reset after sending", urlErr(&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}), true, false},
		{"EOF", urlErr(io.EOF), true, false},
		{"unexpected EOF", urlErr(io.ErrUnexpectedEOF), true, false},
		{"failed authentication", urlErr(&auth.FetchError{Err: errors.New("401")}), false, false},
		{"unknown authority", urlErr(x509.UnknownAuthorityError{}), false, false},
		{"wrong host name", urlErr(x509.HostnameError{Certificate: &x509.Certificate{}, Host: "x"}), false, false},
		{"redirect loop", urlErr(errors.New("stopped after 10 redirects")), false, false},
		{"bad scheme", urlErr(errors.New("unsupported protocol scheme \"ftp\"")), false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := newPolicy()
			got, _ := p.Decide(Read, nil, tt.err)
			assert.Equal(t, tt.read, got, "read")
			got, _ = p.Decide(Create, nil, tt.err)
			assert.Equal(t, tt.create, got, "create")
		})
	}
}

func TestWait(t *testing.T) {
	t.Parallel()
	p := newPolicy()
	assert.Equal(t, time.Millisecond, p.Wait(0, nil))
	assert.Equal(t, 2*time.Millisecond, p.Wait(1, answer(503, "")))
	assert.Equal(t, 8*time.Millisecond, p.Wait(10, nil), "capped at MaxWait")
	assert.Equal(t, 8*time.Millisecond, p.Wait(5000, nil), "no overflow")
	assert.Equal(t, 3*time.Second, p.Wait(0, answer(429, "3")), "Retry-After wins")
	assert.Equal(t, time.Millisecond, p.Wait(0, answer(502, "3")), "only 429 and 503 carry Retry-After")
}

// TestWaitHasFullJitter checks that without Retry-After each wait is
// drawn from 0 to the exponential ceiling, from the source given.
func TestWaitHasFullJitter(t *testing.T) {
	t.Parallel()
	var ceilings []time.Duration
	p := newPolicy()
	p.Jitter = func(d time.Duration) time.Duration { ceilings = append(ceilings, d); return d / 4 }
	assert.Equal(t, 250*time.Microsecond, p.Wait(0, nil))
	assert.Equal(t, time.Millisecond, p.Wait(2, answer(503, "")))
	assert.Equal(t, 2*time.Millisecond, p.Wait(9, answer(502, "")))
	assert.Equal(t, 3*time.Second, p.Wait(0, answer(429, "3")), "Retry-After is not jittered")
	assert.Equal(t, []time.Duration{time.Millisecond, 4 * time.Millisecond, 8 * time.Millisecond}, ceilings)
	p.MinWait, p.MaxWait = 0, 0
	assert.Zero(t, p.Wait(3, nil), "no wait asked, none drawn")
	assert.Len(t, ceilings, 3)
}

// TestWaitDefaultJitterSpreads checks the default source: every wait
// within [0, ceiling], and not all the same.
func TestWaitDefaultJitterSpreads(t *testing.T) {
	t.Parallel()
	p := &Policy{MinWait: time.Second, MaxWait: time.Minute, Second: time.Second, Now: time.Now}
	seen := map[time.Duration]bool{}
	for range 200 {
		w := p.Wait(3, nil)
		require.GreaterOrEqual(t, w, time.Duration(0))
		require.LessOrEqual(t, w, 8*time.Second)
		seen[w] = true
	}
	assert.Greater(t, len(seen), 100, "waits spread over the range")
}
