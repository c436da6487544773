package workforcetest_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRequestLogKeepsNoBodyOfTheUnauthenticated sends bodies of 1 MiB
// without a token, with a made-up one and to an unknown path: the log
// records the requests, not their bodies. With a token, the body is kept
// cut to 64 KiB, its secrets redacted first.
func TestRequestLogKeepsNoBodyOfTheUnauthenticated(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.ResetRequests()
	big := bytes.Repeat([]byte("x"), 1<<20)
	for _, path := range []string{"/api_v2/nowhere", "/api_v2/jobs"} {
		for _, query := range []string{"", "?token=made-up"} {
			resp := f.send(http.MethodPost, path+query, nil, "text/plain", big)
			resp.Body.Close()
		}
	}
	reqs := f.Requests()
	require.Len(t, reqs, 4)
	for _, r := range reqs {
		assert.Empty(t, r.Body, "%s %s", r.Method, r.Path)
		assert.EqualValues(t, 1<<20, r.BodySize)
	}

	notes := `{"job": {"worker_id": 7, "job_request_id": 9, "requestor_notes": "` + strings.Repeat("n", 100<<10) + `"}, "token": "` + f.private + `"}`
	resp := f.send(http.MethodPost, "/api_v2/nowhere", nil, "application/json", []byte(notes))
	resp.Body.Close()
	reqs = f.Requests()
	last := reqs[len(reqs)-1]
	assert.Len(t, last.Body, 64<<10, "cut to 64 KiB")
	assert.EqualValues(t, len(notes), last.BodySize)
	assert.NotContains(t, string(last.Body), f.private, "redacted before it was cut")
	assert.True(t, bytes.HasPrefix(last.Body, []byte(`{"job":{`)), "re-encoded without the token: %.40s", last.Body)
}
