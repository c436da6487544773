package workforcetest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

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
	known := map[int]bool{200: true, 401: true, 403: true, 404: true, 405: true, 413: true, 422: true}
	f.Fuzz(func(t *testing.T, method, target, contentType string, body []byte) {
		req, err := http.NewRequestWithContext(t.Context(), method, srv.URL+target, bytes.NewReader(body))
		if err != nil || strings.HasPrefix(req.URL.Path, "/_fake/faults") {
			t.Skip() // an injected fault could make every later request hang or fail
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
		if !known[resp.StatusCode] {
			t.Fatalf("status %d for %s %q: %s", resp.StatusCode, method, target, raw)
		}
		if method != http.MethodHead && !json.Valid(raw) {
			t.Fatalf("not JSON for %s %q: %q", method, target, raw)
		}
	})
}
