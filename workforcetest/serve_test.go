package workforcetest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// FuzzRequest sends arbitrary requests: the fake must answer every one with JSON and a status
// of the contract, never crash.
func FuzzRequest(f *testing.F) {
	srv := workforcetest.NewServer(f)
	f.Add("POST", "/api_v2/authenticate", "application/json", []byte(`{"api_key": "pk_test_x", "secret_key": ""}`))
	f.Add("POST", "/api_v2/jobs", "application/x-www-form-urlencoded", []byte("job[worker_id]=1&job[job_request_id][]=2&token=x"))
	f.Add("PATCH", "/api_v2/jobs/1001", "", []byte(`{"state": ["cancelled"], "actual_duration": {}}`))
	f.Add("GET", "/api_v2/jobs?page=-1&per=x&token=y", "application/json", []byte("null"))
	f.Add("DELETE", "/api_v2/info/..", "text/plain", []byte{0xff, '[', ']'})
	f.Add("POST", "/api_v2/job_requests", "application/x-www-form-urlencoded",
		[]byte("job_request[badge_requirements_attributes][0][badge_id]=301&job_request[ban_list][]=x&job_request[slots][a]=1"))
	f.Add("PATCH", "/api_v2/customers/11", "application/json", []byte(`{"customer": {"name": null, "fee_percentage": [1]}}`))
	f.Add("POST", "/api_v2/customers/timesheet_import", "multipart/form-data; boundary=b",
		[]byte("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"t.csv\"\r\n\r\njob_id,actual_duration\n1001,5\r\n--b--\r\n"))
	f.Add("POST", "/api_v2/job_requests/501/resend_notifications?push_all_notifications_asap=on", "", []byte(nil))
	known := map[int]bool{200: true, 400: true, 401: true, 403: true, 404: true, 405: true, 413: true, 422: true}
	f.Fuzz(func(t *testing.T, method, target, contentType string, body []byte) {
		req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+target, bytes.NewReader(body))
		if err != nil || strings.HasPrefix(req.URL.Path, "/_fake/faults") {
			t.Skip() // an injected fault could make every later request hang or fail
		}
		if strings.ContainsAny(req.URL.RequestURI(), " \t\r\n") {
			t.Skip() // net/http's server refuses such a request line itself, with a plain 400
		}
		req.Header.Set("Content-Type", contentType)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Skip() // a request the client itself refuses to send
		}
		defer resp.Body.Close()
		raw, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Header.Get("X-Request-Id") == "" && resp.StatusCode == http.StatusBadRequest {
			// net/http's own answer to a request it could not parse (a request line with a
			// space in its target, say): the fake never saw it, and stamps every answer it writes.
			return
		}
		if !known[resp.StatusCode] {
			t.Fatalf("status %d for %s %q: %s", resp.StatusCode, method, target, raw)
		}
		if method != http.MethodHead && !json.Valid(raw) {
			t.Fatalf("not JSON for %s %q: %q", method, target, raw)
		}
	})
}

func TestRequestIDs(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seen := map[string]bool{}
	for _, path := range []string{"/api_v2/info", "/api_v2/info", "/nowhere", "/api_v2/jobs"} {
		resp := f.send(http.MethodGet, path, nil, "", nil)
		id := resp.Header.Get("X-Request-Id")
		require.NoError(t, resp.Body.Close())
		assert.Regexp(t, `^[0-9a-f]{32}$`, id)
		assert.False(t, seen[id], "request ids are unique")
		seen[id] = true
	}
}
