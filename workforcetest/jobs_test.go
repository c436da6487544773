package workforcetest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// embeddedUserKeys are exactly the keys of a User embedded in a Job (CONTRACT §10).
var embeddedUserKeys = []string{"address", "address_state", "avatar_url", "business_name", "city", "dob", "email",
	"external_id", "first_name", "gender", "id", "last_name", "latitude", "logo_url", "longitude", "rating", "ssn",
	"suspended", "type", "user_badges", "w2_employee_id", "w2_onboarding_started", "w2_onboarding_status",
	"workplace_image_url", "zip"}

func TestCreateJobShape(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 18, 34, 36, 820e6, time.UTC)
	f := newFake(t, workforcetest.WithClock(start))
	seed := f.Seed()
	status, body := f.json(http.MethodPost, "/api_v2/jobs", with(f.private),
		obj{"job": obj{"worker_id": seed.WorkerIDs[1], "job_request_id": seed.JobRequest1099ID, "requestor_notes": "Ask for Sam"}})
	require.Equal(t, http.StatusOK, status, body)
	require.Len(t, body, 1)
	job := body["job"].(obj)

	for _, field := range []string{"id", "state", "job_request_id", "worker_id", "created_at", "updated_at",
		"confirmed_at", "started_at", "completed_at", "finished_at", "hours_worked", "actual_duration",
		"time_to_start", "adjusted_wage", "requestor_notes", "classification", "w2_hourly_rate",
		"w2_payment_ref", "w2_pay_status", "cancelled_reason", "worker", "employer", "transitions"} {
		assert.Contains(t, job, field)
	}
	assert.Equal(t, "filled", job["state"])
	assert.EqualValues(t, seed.WorkerIDs[1], job["worker_id"])
	assert.EqualValues(t, seed.JobRequest1099ID, job["job_request_id"])
	assert.Equal(t, "Ask for Sam", job["requestor_notes"])
	assert.Equal(t, "1099", job["classification"])
	assert.Equal(t, 18.5, job["adjusted_wage"], "wages are numbers")
	assert.Equal(t, "2026-11-22T10:34:36.820-08:00", job["created_at"], "Pacific time, standard in November")
	assert.Equal(t, job["created_at"], job["updated_at"])
	assert.Equal(t, job["created_at"], job["confirmed_at"], "a record's own times share one style")
	assert.Equal(t, float64(0), job["hours_worked"], "a number, 0 before any work")
	assert.Equal(t, "", job["w2_hourly_rate"], `"" on a 1099 Job`)
	for _, null := range []string{"started_at", "completed_at", "finished_at", "actual_duration",
		"w2_payment_ref", "w2_pay_status", "cancelled_reason"} {
		assert.Nil(t, job[null], null)
	}
	assert.IsType(t, float64(0), job["time_to_start"])

	worker := job["worker"].(obj)
	assert.ElementsMatch(t, embeddedUserKeys, keys(worker), "exactly the keys of an embedded User")
	assert.EqualValues(t, seed.WorkerIDs[1], worker["id"])
	assert.Equal(t, "Worker", worker["type"])
	assert.Equal(t, "4.8", worker["rating"], "ratings are strings")
	assert.Equal(t, "34.044911", worker["latitude"], "coordinates are strings")
	assert.Regexp(t, `^\d{4}-\d\d-\d\d$`, worker["dob"])
	assert.Equal(t, "", worker["ssn"])
	assert.Regexp(t, localStamp, worker["w2_onboarding_started"], "a time, never a boolean (CONTRACT §10.1)")
	assert.Nil(t, worker["business_name"])
	assert.Equal(t, []any{}, worker["user_badges"])
	employer := job["employer"].(obj)
	assert.ElementsMatch(t, embeddedUserKeys, keys(employer))
	assert.EqualValues(t, seed.EmployerID, employer["id"])
	assert.Equal(t, "Employer", employer["type"])
	assert.Equal(t, "Acme Logistics", employer["business_name"], "an Employer's business is its Customer")

	transitions := job["transitions"].([]any)
	require.Len(t, transitions, 1)
	tr := transitions[0].(obj)
	assert.ElementsMatch(t, []string{"id", "job_id", "created_at", "name", "latitude", "longitude"}, keys(tr))
	assert.Equal(t, "filled", tr["name"])
	assert.Equal(t, job["id"], tr["job_id"])
	assert.Equal(t, "2026-11-22T18:34:36Z", tr["created_at"], "UTC, to the second")
	assert.Nil(t, tr["latitude"])
	assert.Contains(t, tr, "longitude")
}

func TestCreateJobW2(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	job := f.createJob(f.Seed().WorkerIDs[1], f.Seed().JobRequestW2ID)
	assert.Equal(t, "w2", job["classification"])
	assert.Equal(t, 22.75, job["w2_hourly_rate"], "a number on a W2 Job")
	assert.Equal(t, "not_started", job["w2_pay_status"])
	assert.Nil(t, job["adjusted_wage"])
}

func TestCreateJobEncodingsAndAssign(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	jr := strconv.FormatInt(seed.JobRequest1099ID, 10)
	status, body := f.form(http.MethodPost, "/api_v2/jobs", nil, url.Values{
		"token": {f.private}, "job[worker_id]": {strconv.FormatInt(seed.WorkerIDs[1], 10)}, "job[job_request_id]": {jr},
	})
	require.Equal(t, http.StatusOK, status, body)
	assert.EqualValues(t, seed.WorkerIDs[1], body["job"].(obj)["worker_id"])

	status, body = f.json(http.MethodPost, "/api_v2/jobs/assign", nil,
		obj{"token": f.private, "job": obj{"worker_id": strconv.FormatInt(seed.WorkerIDs[2], 10), "job_request_id": jr}})
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, "filled", body["job"].(obj)["state"])
	assert.Nil(t, body["job"].(obj)["requestor_notes"])
}

func TestCreateJobValidation(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	for name, tc := range map[string]struct {
		body   obj
		fields obj
	}{
		"missing": {obj{"job": obj{}}, obj{"worker_id": []any{"can't be blank"}, "job_request_id": []any{"can't be blank"}}},
		"no ids": {obj{"job": obj{"requestor_notes": "No ids."}},
			obj{"worker_id": []any{"can't be blank"}, "job_request_id": []any{"can't be blank"}}},
		"malformed": {obj{"job": obj{"worker_id": "seven", "job_request_id": -2}},
			obj{"worker_id": []any{"must be a positive integer"}, "job_request_id": []any{"must be a positive integer"}}},
		"unknown": {obj{"job": obj{"worker_id": 999999, "job_request_id": seed.WorkerIDs[1]}},
			obj{"worker_id": []any{"does not exist"}, "job_request_id": []any{"does not exist"}}},
		"employer as worker": {obj{"job": obj{"worker_id": seed.EmployerID, "job_request_id": seed.JobRequest1099ID}},
			obj{"worker_id": []any{"is not a Worker"}}},
	} {
		t.Run(name, func(t *testing.T) {
			status, body := f.json(http.MethodPost, "/api_v2/jobs", with(f.private), tc.body)
			require.Equal(t, http.StatusUnprocessableEntity, status, body)
			assert.Equal(t, tc.fields, fieldErrors(t, body))
		})
	}

	f.createJob(seed.WorkerIDs[3], seed.JobRequest1099ID)
	status, body := f.json(http.MethodPost, "/api_v2/jobs", with(f.private),
		obj{"job": obj{"worker_id": seed.WorkerIDs[3], "job_request_id": seed.JobRequest1099ID}})
	require.Equal(t, http.StatusUnprocessableEntity, status, "one open Job per Worker and Job Request")
	assert.Contains(t, fieldErrors(t, body), "worker_id")
}

func TestGetJob(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	created := f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID)
	assert.Equal(t, created, f.getJob(idOf(created)))

	for _, path := range []string{"/api_v2/jobs/999999", "/api_v2/jobs/abc", "/api_v2/jobs/0", "/api_v2/jobs/"} {
		status, body := f.get(path, f.private)
		assert.Equal(t, http.StatusNotFound, status, path)
		assert.NotEmpty(t, body["error"], path)
	}
}

func TestPublicPoolSeesOnlyItsJobs(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	private := f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID)

	status, body := f.get(jobPath(seed.PublicJobID), f.public)
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, "filled", body["job"].(obj)["state"])
	status, _ = f.get(jobPath(idOf(private)), f.public)
	assert.Equal(t, http.StatusNotFound, status, "a Private Pool Job is invisible to the Public Pool")

	status, body = f.get("/api_v2/jobs", f.public)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []int64{seed.PublicJobID}, listIDs(t, body, "jobs"))
	status, body = f.get("/api_v2/jobs", f.private)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []int64{idOf(private), seed.PublicJobID}, listIDs(t, body, "jobs"), "the Private Pool sees all")

	create := obj{"job": obj{"worker_id": seed.WorkerIDs[2], "job_request_id": seed.PublicJobRequestID}}
	for _, path := range []string{"/api_v2/jobs", "/api_v2/jobs/assign"} {
		status, body = f.json(http.MethodPost, path, with(f.public), create)
		assert.Equal(t, http.StatusForbidden, status, path)
		assert.NotEmpty(t, body["error"])
	}
	status, _ = f.json(http.MethodPatch, jobPath(seed.PublicJobID), with(f.public), obj{"state": "cancelled"})
	assert.Equal(t, http.StatusForbidden, status)
	state, _ := f.JobState(seed.PublicJobID)
	assert.Equal(t, "filled", state)
}

func TestPatchJob(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	id := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID))
	f.Advance(time.Minute)

	status, body := f.patchJob(id, obj{"actual_duration": 90})
	require.Equal(t, http.StatusOK, status, body)
	job := body["job"].(obj)
	assert.EqualValues(t, 90, job["actual_duration"])
	assert.Equal(t, "filled", job["state"])
	assert.NotEqual(t, job["created_at"], job["updated_at"], "updated_at bumped")

	status, body = f.form(http.MethodPatch, jobPath(id), with(f.private),
		url.Values{"state": {"cancelled"}, "cancelled_reason": {"decided_to_cancel"}})
	require.Equal(t, http.StatusOK, status, body)
	job = body["job"].(obj)
	assert.Equal(t, "cancelled", job["state"])
	assert.Equal(t, "decided_to_cancel", job["cancelled_reason"])
	assert.Regexp(t, localStamp, job["finished_at"])
	assert.Equal(t, []string{"cancelled", "filled"}, transitionNames(job))
	assert.Equal(t, job, f.getJob(id))

	status, _ = f.patchJob(999999, obj{"state": "cancelled"})
	assert.Equal(t, http.StatusNotFound, status)
}

// PATCH /jobs/:id reads state, actual_duration and cancelled_reason at the top level, also beside a
// job object (a body that wraps some of them, or a query string): the top level first.
func TestPatchJobReadsTheTopLevelBesideJob(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	id := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID))
	status, body := f.patchJob(id, obj{"job": obj{"actual_duration": 30}, "state": "cancelled"})
	require.Equal(t, http.StatusOK, status, body)
	job := body["job"].(obj)
	assert.Equal(t, "cancelled", job["state"], "the top-level state beside job")
	assert.EqualValues(t, 30, job["actual_duration"], "job[actual_duration] when the top level has none")
}

func TestPatchJobValidation(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	job := f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID)
	for name, tc := range map[string]struct {
		body  obj
		field string
	}{
		"unknown state":      {obj{"state": "exploded"}, "state"},
		"worker-only state":  {obj{"state": "in_progress"}, "state"},
		"grant non-pending":  {obj{"state": "filled"}, "state"},
		"reject non-pending": {obj{"state": "rejected"}, "state"},
		"negative duration":  {obj{"actual_duration": -1}, "actual_duration"},
		"text duration":      {obj{"actual_duration": "an hour"}, "actual_duration"},
		"fraction duration":  {obj{"actual_duration": 1.5, "state": "cancelled"}, "actual_duration"},
	} {
		t.Run(name, func(t *testing.T) {
			status, body := f.patchJob(idOf(job), tc.body)
			require.Equal(t, http.StatusUnprocessableEntity, status, body)
			assert.Contains(t, fieldErrors(t, body), tc.field)
		})
	}
	assert.Equal(t, job, f.getJob(idOf(job)), "a rejected PATCH changes nothing")
}

func TestPatchJobNothingChanged(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	id := idOf(f.createJob(f.Seed().WorkerIDs[2], f.Seed().JobRequestW2ID))
	f.Advance(time.Minute)
	status, body := f.patchJob(id, obj{"actual_duration": 90, "cancelled_reason": "asked_to_cancel"})
	require.Equal(t, http.StatusOK, status, body)
	before := body["job"].(obj)

	for name, patch := range map[string]obj{
		"empty":         {},
		"null state":    {"state": nil},
		"blank state":   {"state": " ", "actual_duration": nil},
		"wrapped empty": {"job": obj{"state": nil}},
		"unknown only":  {"status": "cancelled"},
	} {
		f.Advance(time.Minute)
		status, body := f.patchJob(id, patch)
		require.Equal(t, http.StatusUnprocessableEntity, status, name)
		assert.Equal(t, "nothing to update", body["error"], name)
		assert.Contains(t, fieldErrors(t, body), "state", name)
	}
	f.Advance(time.Minute)
	status, body = f.patchJob(id, obj{"actual_duration": "90", "cancelled_reason": "asked_to_cancel"})
	require.Equal(t, http.StatusOK, status, body)
	for _, job := range []obj{body["job"].(obj), f.getJob(id)} {
		assert.Equal(t, before["updated_at"], job["updated_at"], "the same values again: updated_at stays")
		assert.Equal(t, before["transitions"], job["transitions"], "no transition appended")
	}
}

func TestJobListFiltersSelectByEveryParameter(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	f := newFake(t, workforcetest.WithClock(start))
	seed := f.Seed()
	w2Paid := idOf(f.createJob(seed.WorkerIDs[2], seed.JobRequestW2ID))
	require.NoError(t, f.StartJob(w2Paid))
	require.NoError(t, f.CompleteJob(w2Paid))
	require.NoError(t, f.ApproveJob(w2Paid))
	require.NoError(t, f.PayW2Job(w2Paid, "PAY-1"))
	f.Advance(time.Hour + 500*time.Millisecond)
	w2Approved := idOf(f.createJob(seed.WorkerIDs[3], seed.JobRequestW2ID))
	require.NoError(t, f.StartJob(w2Approved))
	require.NoError(t, f.CompleteJob(w2Approved))
	require.NoError(t, f.ApproveJob(w2Approved))
	f.Advance(time.Hour)
	w2Filled := idOf(f.createJob(seed.WorkerIDs[4], seed.JobRequestW2ID))
	filled1099 := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID))
	pending, err := f.ApplyToJobRequest(seed.PendingJobRequestID, seed.WorkerIDs[5])
	require.NoError(t, err)

	secondHour := start.Add(time.Hour + 500*time.Millisecond)
	for name, tc := range map[string]struct {
		kv   []string
		want []int64
	}{
		"state":                    {[]string{"state", "filled"}, []int64{filled1099, w2Filled, seed.PublicJobID}},
		"states":                   {[]string{"state", "pending,approved"}, []int64{pending, w2Approved, w2Paid}},
		"unknown state":            {[]string{"state", "exploded"}, nil},
		"job_request_id":           {[]string{"job_request_id", strconv.FormatInt(seed.JobRequestW2ID, 10)}, []int64{w2Filled, w2Approved, w2Paid}},
		"classification":           {[]string{"classification", "1099"}, []int64{pending, filled1099, seed.PublicJobID}},
		"w2_hourly_rate":           {[]string{"w2_hourly_rate", "22.750"}, []int64{w2Filled, w2Approved, w2Paid}},
		"other w2_hourly_rate":     {[]string{"w2_hourly_rate", "18.5"}, nil},
		"w2_pay_status":            {[]string{"w2_pay_status", "not_started"}, []int64{w2Filled}},
		"w2_pay_status pending":    {[]string{"w2_pay_status", "pending"}, []int64{w2Approved}},
		"w2_pay_status paid":       {[]string{"w2_pay_status", "paid"}, []int64{w2Paid}},
		"updated_after":            {[]string{"updated_after", secondHour.Format(time.RFC3339Nano)}, []int64{pending, filled1099, w2Filled, w2Approved}},
		"updated_after offset":     {[]string{"updated_after", secondHour.Add(time.Hour).In(time.FixedZone("", 2*3600)).Format(time.RFC3339)}, []int64{pending, filled1099, w2Filled}},
		"updated_before":           {[]string{"updated_before", secondHour.Format(time.RFC3339Nano)}, []int64{w2Paid, seed.PublicJobID}},
		"updated between":          {[]string{"updated_after", start.Add(time.Minute).Format(time.RFC3339), "updated_before", start.Add(2 * time.Hour).Format(time.RFC3339)}, []int64{w2Approved}},
		"combined":                 {[]string{"classification", "w2", "state", "filled"}, []int64{w2Filled}},
		"empty value is no filter": {[]string{"state", ""}, []int64{pending, filled1099, w2Filled, w2Approved, w2Paid, seed.PublicJobID}},
	} {
		t.Run(name, func(t *testing.T) {
			status, body := f.get("/api_v2/jobs", f.private, tc.kv...)
			require.Equal(t, http.StatusOK, status, body)
			want := tc.want
			if want == nil {
				want = []int64{}
			}
			assert.Equal(t, want, listIDs(t, body, "jobs"))
		})
	}
}

func TestJobListRefusesMalformedFilters(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for _, kv := range [][]string{
		{"updated_after", "yesterday"}, {"updated_before", "2026-01-01"}, {"updated_after", "2026-01-01T00:00:00 01:00"},
		{"job_request_id", "abc"}, {"w2_hourly_rate", "lots"},
	} {
		status, body := f.get("/api_v2/jobs", f.private, kv...)
		require.Equal(t, http.StatusUnprocessableEntity, status, kv)
		assert.Contains(t, fieldErrors(t, body), kv[0], kv)
	}
}

// embedded returns the worker and employer a Job answer embeds.
func embedded(t *testing.T, job obj) (worker, employer any) {
	t.Helper()
	w, ok := job["worker"]
	require.True(t, ok, "a Job always has the worker key")
	e, ok := job["employer"]
	require.True(t, ok, "a Job always has the employer key")
	return w, e
}

// TestJobsEmbedTheirUsersForEveryPool checks that a Job embeds its Worker and its Job Request's
// Employer whoever asks, as every real Job does (CONTRACT §10.1, P: 50 of 50): the Public Pool
// too, after its Worker left the Job and GET /users hides that Worker. Show, list, the SDK and
// the webhook of the change agree.
func TestJobsEmbedTheirUsersForEveryPool(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var bodies []obj
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b obj
		_ = json.NewDecoder(r.Body).Decode(&b)
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
	}))
	defer receiver.Close()
	f := newFake(t, workforcetest.WithWebhookReceiver(receiver.URL))
	seed := f.Seed()
	jobPath, workerPath := idPath("jobs", seed.PublicJobID), idPath("users", seed.WorkerIDs[0])
	bothEmbedded := func(job obj, why string) {
		t.Helper()
		worker, employer := embedded(t, job)
		if assert.IsType(t, obj{}, worker, why) {
			assert.EqualValues(t, seed.WorkerIDs[0], worker.(obj)["id"], why)
		}
		assert.IsType(t, obj{}, employer, why)
	}

	status, body := f.get(jobPath, f.public)
	require.Equal(t, http.StatusOK, status)
	bothEmbedded(body["job"].(obj), "an active Job's")

	require.NoError(t, f.WithdrawJob(seed.PublicJobID)) // no longer active
	status, _ = f.get(workerPath, f.public)
	require.Equal(t, http.StatusNotFound, status, "GET /users hides the Worker")

	status, body = f.get(jobPath, f.public)
	require.Equal(t, http.StatusOK, status)
	bothEmbedded(body["job"].(obj), "a withdrawn Job's")
	status, body = f.get("/api_v2/jobs", f.public, "per", "50")
	require.Equal(t, http.StatusOK, status)
	for _, j := range body["jobs"].([]any) {
		bothEmbedded(j.(obj), "a list agrees")
	}
	status, body = f.get(jobPath, f.private)
	require.Equal(t, http.StatusOK, status)
	bothEmbedded(body["job"].(obj), "the Private Pool's")

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := f.PublicClient()
	require.NoError(t, err)
	sdkJob, _, err := c.Jobs.Get(ctx, seed.PublicJobID)
	require.NoError(t, err)
	require.NotNil(t, sdkJob.Worker)
	assert.Equal(t, seed.WorkerIDs[0], sdkJob.Worker.ID)
	assert.NotNil(t, sdkJob.Employer)

	require.NoError(t, f.WaitWebhooks(ctx))
	mu.Lock()
	defer mu.Unlock()
	var seen bool
	for _, b := range bodies {
		if j, ok := b["job"].(obj); ok && j["state"] == "withdrawn" && int64(j["id"].(float64)) == seed.PublicJobID {
			seen = true
			bothEmbedded(j, "the webhook of a Public Pool Job agrees")
		}
	}
	assert.True(t, seen, "the withdrawal was delivered")
}
