package contract_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/internal/contract"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// get sends GET path to srv and closes the answer, returning its status.
func get(t *testing.T, srv *workforcetest.Server, path string) int {
	t.Helper()
	resp, err := http.Get(srv.URL + path)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	return resp.StatusCode
}

// TestCheckLogFindsWhatBreaksTheDocument checks a directory of exchange logs: a fake's own
// (a good answer, a fault's teapot left out) and a log holding answers, a 2xx request and a
// webhook delivery that break the document, each found, and each kind summed up once.
func TestCheckLogFindsWhatBreaksTheDocument(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := workforcetest.NewServer(t, workforcetest.WithExchangeLog(dir))
	require.Equal(t, http.StatusOK, get(t, srv, "/api_v2/info"))
	srv.InjectFault(workforcetest.Fault{Path: "/api_v2/info", Status: http.StatusTeapot, Body: "short and stout"})
	require.Equal(t, http.StatusTeapot, get(t, srv, "/api_v2/info"))
	srv.Close()

	bad := []workforcetest.Exchange{
		{Method: http.MethodGet, Path: "/api_v2/info", Status: http.StatusOK,
			ResponseHeader: http.Header{"Content-Type": {"application/json"}}, ResponseBody: []byte(`{"utc_time_now": 5}`)},
		{Method: http.MethodGet, Path: "/api_v2/info", Status: http.StatusOK,
			ResponseHeader: http.Header{"Content-Type": {"application/json"}}, ResponseBody: []byte(`{"utc_time_now": 6}`)},
		{Method: http.MethodPatch, Path: "/api_v2/jobs/7", Query: "token=[REDACTED]", Status: http.StatusUnprocessableEntity,
			RequestHeader: http.Header{"Content-Type": {"application/json"}}, RequestBody: []byte(`{"actual_duration": "ninety"}`),
			ResponseHeader: http.Header{"Content-Type": {"application/json"}},
			ResponseBody:   []byte(`{"status": 422, "error": "validation failed", "errors": {"actual_duration": ["is not a number"]}}`)},
		{Method: http.MethodPatch, Path: "/api_v2/jobs/7", Query: "token=[REDACTED]", Status: http.StatusOK,
			RequestHeader: http.Header{"Content-Type": {"application/json"}}, RequestBody: []byte(`{"actual_duration": "ninety"}`),
			ResponseHeader: http.Header{"Content-Type": {"application/json"}}, ResponseBody: []byte(`{"job": {"id": 7}}`)},
		{Webhook: true, Method: http.MethodPost, Path: "/hooks", Status: http.StatusOK,
			RequestHeader: http.Header{"Content-Type": {"application/json"}}, RequestBody: []byte(`{"job": {"id": 7}}`)},
	}
	var lines []string
	for _, e := range bad {
		line, err := json.Marshal(e)
		require.NoError(t, err)
		lines = append(lines, string(line))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "exchanges-1-made.jsonl"), []byte(strings.Join(lines, "\n")), 0o600))

	c, err := contract.Load()
	require.NoError(t, err)
	report, err := c.CheckLog(dir)
	require.NoError(t, err)
	assert.Equal(t, 2, report.Files)
	assert.Equal(t, 6, report.Checked, "the fake's good answer and the five made")
	assert.Equal(t, 1, report.Webhooks)
	assert.Equal(t, 1, report.Faults, "the teapot is the test's own")
	sides := map[string]int{}
	for _, v := range report.Violations {
		sides[v.Side]++
	}
	assert.Equal(t, map[string]int{"response": 3, "request": 1, "webhook": 1}, sides,
		"two bad answers, the 2xx's request and its answer, a webhook without its signature and its Job's keys; "+
			"a refused request answered 422 is no violation")

	summary := c.Summary(report.Violations)
	require.Len(t, summary, 4, "the two bad infos are one kind")
	assert.True(t, strings.HasPrefix(summary[0], "2× GET /api_v2/info -> 200: response: "), summary[0])
	assert.Contains(t, strings.Join(summary, "\n"), `PATCH /api_v2/jobs/{id} -> 200: request: `)
	assert.Contains(t, strings.Join(summary, "\n"), `"{\"actual_duration\": \"ninety\"}"`, "what was sent shows")
}

// TestCheckLogRefusesALineThatIsNoExchange checks that a log line that is not JSON is an error
// naming the file and line, not a pass.
func TestCheckLogRefusesALineThatIsNoExchange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "exchanges-2-made.jsonl"), []byte("{}\nnot json\n"), 0o600))
	c, err := contract.Load()
	require.NoError(t, err)
	_, err = c.CheckLog(dir)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exchanges-2-made.jsonl:2")
}

// TestRecorderLeavesOutInjectedFaults checks that the Recorder does not hold a fault's answer
// (a status no operation lists, a body that is not JSON) to the document: it is the test's own.
func TestRecorderLeavesOutInjectedFaults(t *testing.T) {
	t.Parallel()
	c, err := contract.Load()
	require.NoError(t, err)
	rec := c.NewRecorder()
	srv := workforcetest.NewServer(t, workforcetest.WithMiddleware(rec.Middleware))
	srv.InjectFault(workforcetest.Fault{Path: "/api_v2/info", Status: http.StatusTeapot, Body: "short and stout"})
	require.Equal(t, http.StatusTeapot, get(t, srv, "/api_v2/info"))
	require.Equal(t, http.StatusOK, get(t, srv, "/api_v2/info"))
	srv.Close()
	assert.Empty(t, rec.Violations())
	assert.Equal(t, []string{"getInfo"}, rec.Answered())
}
