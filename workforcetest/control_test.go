package workforcetest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// ctlMove moves a Job through the control API and returns the state it reports.
func (f *fake) ctlMove(id int64, move string) string {
	f.t.Helper()
	status, body := f.control(http.MethodPost, "jobs/"+strconv.FormatInt(id, 10)+"/"+move)
	require.Equal(f.t, http.StatusOK, status, body)
	return body["state"].(string)
}

func TestControlDrivesAJob(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	resp := f.send(http.MethodGet, "/_fake/seed", nil, "", nil)
	defer resp.Body.Close()
	want, err := json.Marshal(seed)
	require.NoError(t, err)
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(raw))
	accept := func(jobRequestID, workerID int64, verb string) int64 {
		status, body := f.control(http.MethodPost, "job_requests/"+strconv.FormatInt(jobRequestID, 10)+"/"+verb,
			"worker_id", strconv.FormatInt(workerID, 10))
		require.Equal(t, http.StatusOK, status, body)
		return int64(body["job_id"].(float64))
	}

	id := accept(seed.PendingJobRequestID, seed.WorkerIDs[1], "apply")
	state, _ := f.JobState(id)
	assert.Equal(t, "pending", state)
	status, body := f.patchJob(id, obj{"state": "filled"})
	require.Equal(t, http.StatusOK, status, body)
	for _, move := range []struct{ verb, state string }{{"start", "in_progress"}, {"complete", "completed"}, {"approve", "approved"}} {
		assert.Equal(t, move.state, f.ctlMove(id, move.verb), move.verb)
	}
	assert.Equal(t, []string{"approved", "completed", "in_progress", "filled", "pending"}, transitionNames(f.getJob(id)))

	w2 := accept(seed.JobRequestW2ID, seed.WorkerIDs[2], "accept")
	for _, move := range []struct{ verb, state string }{{"start", "in_progress"}, {"pause", "paused"}, {"start", "in_progress"}} {
		assert.Equal(t, move.state, f.ctlMove(w2, move.verb), move.verb)
	}
	assert.Equal(t, "withdrawn", f.ctlMove(accept(seed.JobRequest1099ID, seed.WorkerIDs[3], "accept"), "withdraw"))
	assert.Equal(t, "no_show", f.ctlMove(accept(seed.JobRequest1099ID, seed.WorkerIDs[4], "accept"), "no_show"))
}

func TestControlErrors(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	jr := func(id int64, verb string) string { return "job_requests/" + strconv.FormatInt(id, 10) + "/" + verb }
	worker := strconv.FormatInt(seed.WorkerIDs[1], 10)
	for name, tc := range map[string]struct {
		method, path string
		query        []string
		status       int
		field        string
	}{
		"unknown job":        {http.MethodPost, "jobs/999999/start", nil, http.StatusNotFound, ""},
		"malformed job id":   {http.MethodPost, "jobs/abc/start", nil, http.StatusNotFound, ""},
		"unknown move":       {http.MethodPost, "jobs/1001/explode", nil, http.StatusNotFound, ""},
		"unknown endpoint":   {http.MethodGet, "nothing", nil, http.StatusNotFound, ""},
		"refused move":       {http.MethodPost, "jobs/" + strconv.FormatInt(seed.PublicJobID, 10) + "/approve", nil, http.StatusUnprocessableEntity, "state"},
		"1099 pause":         {http.MethodPost, "jobs/" + strconv.FormatInt(seed.PublicJobID, 10) + "/pause", nil, http.StatusUnprocessableEntity, "state"},
		"no pending flow":    {http.MethodPost, jr(seed.JobRequest1099ID, "apply"), []string{"worker_id", worker}, http.StatusUnprocessableEntity, ""},
		"unknown request":    {http.MethodPost, jr(99, "accept"), []string{"worker_id", worker}, http.StatusUnprocessableEntity, "job_request_id"},
		"missing worker":     {http.MethodPost, jr(seed.JobRequest1099ID, "accept"), nil, http.StatusUnprocessableEntity, "worker_id"},
		"worker taken":       {http.MethodPost, jr(seed.PublicJobRequestID, "accept"), []string{"worker_id", strconv.FormatInt(seed.WorkerIDs[0], 10)}, http.StatusUnprocessableEntity, "worker_id"},
		"missing seconds":    {http.MethodPost, "clock/advance", nil, http.StatusUnprocessableEntity, "seconds"},
		"fraction seconds":   {http.MethodPost, "clock/advance", []string{"seconds", "1.5"}, http.StatusUnprocessableEntity, "seconds"},
		"overflow seconds":   {http.MethodPost, "clock/advance", []string{"seconds", "99999999999"}, http.StatusUnprocessableEntity, "seconds"},
		"method not allowed": {http.MethodPut, "requests", nil, http.StatusMethodNotAllowed, ""},
	} {
		status, body := f.control(tc.method, tc.path, tc.query...)
		assert.Equal(t, tc.status, status, "%s: %v", name, body)
		assert.NotEmpty(t, body["error"], name)
		if tc.field != "" {
			assert.Contains(t, fieldErrors(t, body), tc.field, name)
		}
	}
	state, _ := f.JobState(seed.PublicJobID)
	assert.Equal(t, "filled", state, "refused moves change nothing")
}

// TestControlBodyTooLarge checks the 413 that ControlAPI documents: a control body over 1 MiB is
// refused with a JSON error, and nothing is injected.
func TestControlBodyTooLarge(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	body := append([]byte(`{"status": 503, "body": "`), strings.Repeat("x", 1<<20)...)
	status, got := f.decode(f.send(http.MethodPost, "/_fake/faults", nil, "application/json", append(body, `"}`...)))
	assert.Equal(t, http.StatusRequestEntityTooLarge, status, got)
	assert.NotEmpty(t, got["error"])
	status, _ = f.get("/api_v2/info", "")
	assert.Equal(t, http.StatusOK, status, "no fault was injected")
}

func TestControlClock(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 4, 5, 6, 7, 8, 0, time.UTC)
	f := newFake(t, workforcetest.WithClock(start))
	status, body := f.control(http.MethodGet, "clock")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, obj{"now": "2026-04-05T06:07:08Z"}, body)
	status, body = f.control(http.MethodPost, "clock/advance", "seconds", "90")
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, obj{"now": "2026-04-05T06:08:38Z"}, body)
	f.control(http.MethodPost, "clock/advance", "seconds", "-3600")
	assert.Equal(t, start.Add(90*time.Second-time.Hour), f.Now())

	f.control(http.MethodPost, "clock/advance", "seconds", strconv.Itoa(25*3600))
	status, _ = f.get("/api_v2/jobs", f.private)
	assert.Equal(t, http.StatusUnauthorized, status, "tokens expire by the advanced clock")
}

func TestControlFaults(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	status, body := f.json(http.MethodPost, "/_fake/faults", nil, obj{"method": "GET", "path": "/api_v2/info", "times": 2,
		"status": 503, "retry_after": "3", "body": "busy", "delay_ms": 1})
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, obj{}, body)
	for range 2 {
		resp := f.send(http.MethodGet, "/api_v2/info", nil, "", nil)
		assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
		assert.Equal(t, "3", resp.Header.Get("Retry-After"))
		require.NoError(t, resp.Body.Close())
	}
	status, _ = f.get("/api_v2/info", "")
	assert.Equal(t, http.StatusOK, status, "used up")

	status, _ = f.json(http.MethodPost, "/_fake/faults", nil, obj{"path": "/api_v2/info", "drop": true})
	require.Equal(t, http.StatusOK, status)
	_, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Get(f.URL + "/api_v2/info")
	assert.Error(t, err, "dropped")

	f.InjectFault(workforcetest.Fault{Path: "/_fake/clock", Status: http.StatusInternalServerError})
	f.InjectFault(workforcetest.Fault{Path: "/_fake/seed", Drop: true})
	status, _ = f.control(http.MethodGet, "clock")
	assert.Equal(t, http.StatusOK, status, "control requests are never faulted")
	status, _ = f.control(http.MethodGet, "seed")
	assert.Equal(t, http.StatusOK, status)

	for _, p := range []string{"/api_v2/info", "/api_v2/jobs"} {
		status, _ = f.json(http.MethodPost, "/_fake/faults", nil, obj{"path": p, "status": 503, "times": 3})
		require.Equal(t, http.StatusOK, status)
	}
	status, body = f.control(http.MethodDelete, "faults")
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, obj{}, body)
	status, _ = f.get("/api_v2/info", "")
	assert.Equal(t, http.StatusOK, status, "DELETE /_fake/faults clears every pending fault")
	status, _ = f.get("/api_v2/jobs", f.private)
	assert.Equal(t, http.StatusOK, status)

	for name, bad := range map[string]obj{
		"path":     {"status": 503},
		"status":   {"path": "/api_v2/info", "status": 42},
		"times":    {"path": "/api_v2/info", "status": 503, "times": -1},
		"delay_ms": {"path": "/api_v2/info", "delay_ms": -1},
		"body":     {"path": "/api_v2/info", "delay": "1s"}, // a misspelt field
	} {
		status, body := f.json(http.MethodPost, "/_fake/faults", nil, bad)
		assert.Equal(t, http.StatusUnprocessableEntity, status, name)
		assert.Contains(t, fieldErrors(t, body), name, name)
	}
	status, body = f.decode(f.send(http.MethodPost, "/_fake/faults", nil, "application/x-www-form-urlencoded", []byte("path=/api_v2/info")))
	assert.Equal(t, http.StatusUnprocessableEntity, status, "JSON only")
	assert.Contains(t, fieldErrors(t, body), "body")
}

func TestControlRequests(t *testing.T) {
	t.Parallel()
	f := newFake(t) // two authentications
	f.form(http.MethodPatch, jobPath(f.Seed().PublicJobID), with(f.private, "x", "1"), url.Values{"state": {"cancelled"}})
	f.control(http.MethodGet, "seed")
	status, body := f.control(http.MethodGet, "requests")
	require.Equal(t, http.StatusOK, status)
	reqs := body["requests"].([]any)
	require.Len(t, reqs, 3, "control requests are not recorded")
	last := reqs[2].(obj)
	assert.Equal(t, "PATCH", last["method"])
	assert.Equal(t, jobPath(f.Seed().PublicJobID), last["path"])
	assert.Equal(t, obj{"x": []any{"1"}}, last["query"], "without the token")
	assert.Equal(t, "state=cancelled", last["body"], "the body as text")
	assert.Equal(t, []any{"application/x-www-form-urlencoded"}, last["header"].(obj)["Content-Type"])
	assert.Equal(t, f.Now().Format(time.RFC3339), last["time"])
	assert.JSONEq(t, `{"api_key": "[REDACTED]", "secret_key": "[REDACTED]"}`, reqs[0].(obj)["body"].(string))

	status, body = f.control(http.MethodDelete, "requests")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, obj{}, body)
	_, body = f.control(http.MethodGet, "requests")
	assert.Equal(t, obj{"requests": []any{}}, body)
	assert.Empty(t, f.Requests())
}

func TestControlJobRequestMoves(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	jr := func(id int64, verb string) string { return "job_requests/" + strconv.FormatInt(id, 10) + "/" + verb }

	status, body := f.control(http.MethodPost, jr(seed.DraftJobRequestID, "post"))
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, obj{"state": "posted"}, body)
	assert.Equal(t, "posted", f.jrState(seed.DraftJobRequestID))

	job := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID))
	status, body = f.control(http.MethodPost, jr(seed.JobRequest1099ID, "cancel"))
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, obj{"state": "cancelled"}, body)
	state, _ := f.JobState(job)
	assert.Equal(t, "cancelled", state, "its open Jobs with it")

	worker := strconv.FormatInt(seed.WorkerIDs[1], 10)
	status, body = f.control(http.MethodPost, "workers/"+worker+"/badges", "badge_id", strconv.FormatInt(seed.BadgeID, 10))
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, obj{"worker_id": float64(seed.WorkerIDs[1]), "badge_id": float64(seed.BadgeID)}, body)
	_, err := f.AcceptJobRequest(seed.BadgeJobRequestID, seed.WorkerIDs[1])
	require.NoError(t, err, "the granted Badge counts")

	for name, tc := range map[string]struct {
		path   string
		query  []string
		status int
		field  string
	}{
		"post a posted one":   {jr(seed.DraftJobRequestID, "post"), nil, http.StatusUnprocessableEntity, "state"},
		"post unknown":        {jr(999999, "post"), nil, http.StatusNotFound, ""},
		"cancel twice":        {jr(seed.JobRequest1099ID, "cancel"), nil, http.StatusUnprocessableEntity, "state"},
		"cancel unknown":      {jr(999999, "cancel"), nil, http.StatusNotFound, ""},
		"badge without id":    {"workers/" + worker + "/badges", nil, http.StatusUnprocessableEntity, "badge_id"},
		"unknown badge":       {"workers/" + worker + "/badges", []string{"badge_id", "999999"}, http.StatusNotFound, ""},
		"badge to a employer": {"workers/" + strconv.FormatInt(seed.EmployerID, 10) + "/badges", []string{"badge_id", "301"}, http.StatusNotFound, ""},
		"malformed worker":    {"workers/x/badges", []string{"badge_id", "301"}, http.StatusNotFound, ""},
	} {
		status, body := f.control(http.MethodPost, tc.path, tc.query...)
		assert.Equal(t, tc.status, status, "%s: %v", name, body)
		assert.NotEmpty(t, body["error"], name)
		if tc.field != "" {
			assert.Contains(t, fieldErrors(t, body), tc.field, name)
		}
	}
}

// TestControlAPIListsEveryControlRoute checks that ControlAPI, the control API's one
// description, names exactly the control routes the fake serves.
func TestControlAPIListsEveryControlRoute(t *testing.T) {
	t.Parallel()
	var listed, served []string
	for _, line := range strings.Split(workforcetest.ControlAPI, "\n") {
		if method, rest, ok := strings.Cut(line, " "); ok && method != "" {
			route, _, _ := strings.Cut(strings.Fields(rest)[0], "?")
			listed = append(listed, method+" "+route)
		}
	}
	for _, pattern := range workforcetest.NewServer(t).RoutePatterns() {
		if strings.Contains(pattern, " /_fake/") {
			served = append(served, pattern)
		}
	}
	assert.ElementsMatch(t, served, listed)
}
