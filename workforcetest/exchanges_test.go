package workforcetest_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// readExchanges returns the exchanges logged in dir, file by file, each in order.
func readExchanges(t *testing.T, dir string) []workforcetest.Exchange {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "exchanges-*.jsonl"))
	require.NoError(t, err)
	var out []workforcetest.Exchange
	for _, name := range files {
		f, err := os.Open(name)
		require.NoError(t, err)
		lines := bufio.NewScanner(f)
		lines.Buffer(nil, 64<<20)
		for lines.Scan() {
			var e workforcetest.Exchange
			require.NoError(t, json.Unmarshal(lines.Bytes(), &e))
			out = append(out, e)
		}
		require.NoError(t, lines.Err())
		require.NoError(t, f.Close())
	}
	return out
}

// TestExchangeLogKeepsEveryAPIExchange logs a fake's exchanges: every API request with its
// answer, as sent and answered, secrets replaced; not the control API, nor a request whose
// connection a fault dropped; a fault's answer marked.
func TestExchangeLogKeepsEveryAPIExchange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f := newFake(t, workforcetest.WithExchangeLog(dir))
	id := f.Seed().PublicJobID
	require.NoError(t, f.StartJob(id))
	status, _ := f.get(jobPath(id), f.private)
	require.Equal(t, http.StatusOK, status)
	status, _ = f.json(http.MethodPatch, jobPath(id), with(f.private), obj{"actual_duration": "90"})
	require.Equal(t, http.StatusOK, status)
	f.control(http.MethodGet, "latency")
	f.InjectFault(workforcetest.Fault{Path: "/api_v2/info", Status: http.StatusTeapot})
	status, _ = f.get("/api_v2/info", "")
	require.Equal(t, http.StatusTeapot, status)
	f.InjectFault(workforcetest.Fault{Path: "/api_v2/jobs", Drop: true})
	resp, err := http.Post(f.URL+"/api_v2/jobs", "application/json", strings.NewReader(`{}`)) // not retried
	if err == nil {
		resp.Body.Close()
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, err := w.CreateFormFile("file", "hours.csv")
	require.NoError(t, err)
	_, _ = io.WriteString(part, "job_id,actual_duration\n")
	require.NoError(t, w.Close())
	status, body := f.decode(f.send(http.MethodPost, "/api_v2/customers/timesheet_import", with(f.private),
		w.FormDataContentType(), buf.Bytes()))
	require.Equal(t, http.StatusOK, status, body)
	f.Close()

	logged := readExchanges(t, dir)
	var paths []string
	for _, e := range logged {
		paths = append(paths, e.Method+" "+e.Path)
	}
	require.Equal(t, []string{"POST /api_v2/authenticate", "POST /api_v2/authenticate", "GET " + jobPath(id),
		"PATCH " + jobPath(id), "GET /api_v2/info", "POST /api_v2/customers/timesheet_import"}, paths,
		"every API exchange but the dropped one; no control API")

	auth := logged[0]
	assert.Equal(t, http.StatusOK, auth.Status)
	for _, key := range []string{f.Private.APIKey, f.Private.SecretKey, f.private} {
		for _, e := range logged {
			line, err := json.Marshal(e)
			require.NoError(t, err)
			assert.NotContains(t, string(line)+string(e.RequestBody)+string(e.ResponseBody), key, "no secret is logged")
		}
	}
	assert.Contains(t, string(auth.ResponseBody), `"token":"[REDACTED]"`, "a token is still there, hidden")
	get := logged[2]
	assert.Equal(t, "token=[REDACTED]", get.Query)
	assert.Contains(t, get.ResponseHeader.Get("Content-Type"), "application/json")
	assert.Contains(t, string(get.ResponseBody), `"job":{`)
	patch := logged[3]
	assert.JSONEq(t, `{"actual_duration": "90"}`, string(patch.RequestBody), "the body as sent")
	assert.Equal(t, "application/json", patch.RequestHeader.Get("Content-Type"))
	assert.False(t, patch.Fault())

	fault := logged[4]
	assert.Equal(t, http.StatusTeapot, fault.Status)
	assert.True(t, fault.Fault(), "an injected fault's answer is marked")
	assert.Equal(t, "injected", fault.ResponseHeader.Get(workforcetest.FaultHeader))

	upload := logged[5]
	contentType := upload.RequestHeader.Get("Content-Type")
	assert.NotContains(t, contentType, "[REDACTED]", "the boundary, 60 hex digits, is not taken for a token")
	r, err := http.NewRequest(http.MethodPost, "/", bytes.NewReader(upload.RequestBody))
	require.NoError(t, err)
	r.Header.Set("Content-Type", contentType)
	require.NoError(t, r.ParseMultipartForm(1<<20), "the logged body still parses with the logged header")
	assert.Contains(t, r.MultipartForm.File, "file")
}

// TestNewServerLogsWhereTheEnvironmentSays checks that NewServer logs its exchanges in the
// directory WORKFORCE_CONTRACT_LOG names, and that Start, without the option, does not.
func TestNewServerLogsWhereTheEnvironmentSays(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(workforcetest.ExchangeLogEnv, dir)
	srv := workforcetest.NewServer(t)
	resp, err := http.Get(srv.URL + "/api_v2/info")
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	plain, err := workforcetest.Start()
	require.NoError(t, err)
	resp, err = http.Get(plain.URL + "/api_v2/info")
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	plain.Close()
	srv.Close()
	logged := readExchanges(t, dir)
	require.Len(t, logged, 1, "NewServer's exchange only")
	assert.Equal(t, "/api_v2/info", logged[0].Path)
	assert.Equal(t, http.StatusOK, logged[0].Status)
}

// TestExchangeLogRefusesAMissingDirectory checks that Start fails when the log's directory
// does not exist, naming the option's problem.
func TestExchangeLogRefusesAMissingDirectory(t *testing.T) {
	t.Parallel()
	_, err := workforcetest.Start(workforcetest.WithExchangeLog(filepath.Join(t.TempDir(), "missing")))
	require.Error(t, err)
	assert.True(t, strings.Contains(err.Error(), "exchange log"), err)
}

// TestEvery422NamesAField checks that a 422 whose refusal names no field (a Worker applying to a
// Job Request without the pending workflow) still carries "errors", on "base" as Rails puts it.
func TestEvery422NamesAField(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	status, body := f.control(http.MethodPost, "job_requests/"+itoa(seed.JobRequest1099ID)+"/apply",
		"worker_id", itoa(seed.WorkerIDs[4]))
	require.Equal(t, http.StatusUnprocessableEntity, status, body)
	assert.Contains(t, fieldErrors(t, body), "base")
}

// TestExchangeLogKeepsWebhookDeliveries checks that a webhook delivery a receiver answered is
// logged as sent, marked Webhook, with the receiver's status.
func TestExchangeLogKeepsWebhookDeliveries(t *testing.T) {
	t.Parallel()
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusAccepted)
	}))
	t.Cleanup(receiver.Close)
	dir := t.TempDir()
	f := newFake(t, workforcetest.WithExchangeLog(dir), workforcetest.WithWebhookReceiver(receiver.URL+"/hooks"))
	job := f.createJob(f.Seed().WorkerIDs[4], f.Seed().JobRequest1099ID)
	require.NoError(t, f.WaitWebhooks(t.Context()))
	f.Close()
	var hooks []workforcetest.Exchange
	for _, e := range readExchanges(t, dir) {
		if e.Webhook {
			hooks = append(hooks, e)
		}
	}
	require.NotEmpty(t, hooks)
	var found bool
	for _, e := range hooks {
		assert.Equal(t, "POST /hooks", e.Method+" "+e.Path)
		assert.Equal(t, http.StatusAccepted, e.Status)
		assert.NotEmpty(t, e.RequestHeader.Get("X-Service-Webhook-Token"))
		var body struct{ Job obj }
		require.NoError(t, json.Unmarshal(e.RequestBody, &body))
		found = found || body.Job["id"] == job["id"]
	}
	assert.True(t, found, "the new Job's delivery is logged")
}
