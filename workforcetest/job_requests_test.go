package workforcetest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// jobRequestFields are the field names of CONTRACT §6 "Job Request fields" and those §10 adds.
var jobRequestFields = sorted("id", "state", "request_name", "customer_id", "employer_id", "zip", "city", "address",
	"venue", "slots", "filled_slots", "category", "description", "description_tasks", "description_company",
	"description_travel", "description_skills", "description_contact", "description_arrival", "start_time",
	"duration", "wage", "classification", "w2_hourly_rate", "open_request", "multi_day", "multi_day_job_request_id",
	"agent_code", "organizational_path", "use_pending_state", "notification_distance", "preferred_candidate_ids",
	"ban_list", "badge_requirements", "created_at", "updated_at",
	"company_id", "latitude", "longitude", "postal_code", "country", "flag_color", "timezone", "cached_job_states",
	"in_white_gloves_period", "re_ranked_worker_ids", "preferred_wonoloers_info", "push_all_notifications_asap", "can")

func TestCreateJobRequestShape(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 18, 34, 36, 820e6, time.UTC)
	f := newFake(t, workforcetest.WithClock(start))
	seed := f.Seed()
	jr := f.createJobRequest(obj{
		"slots": 3, "description": "Long text", "description_company": "Acme", "description_travel": "Bus 33",
		"description_skills": "Lifting|Forklift", "description_contact": "Sam", "description_arrival": "Gate 4",
		"start_time": "2026-12-01 09:00", "duration": 240, "venue": "Pier 4", "wage": "18.50",
		"preferred_candidate_ids": []int64{seed.WorkerIDs[2]}, "ban_list": []int64{seed.WorkerIDs[3]},
		"open_request": true, "badge_requirements_attributes": []obj{{"badge_id": seed.BadgeID}},
		"notification_distance": 25, "push_all_notifications_asap": "on", "can": "1",
		"agent_code": "AG-1", "organizational_path": "west/docks", "use_pending_state": false,
		"classification": "w2", "w2_hourly_rate": "22.75",
	})
	assert.Equal(t, jobRequestFields, keys(jr), "exactly the fields of the contract")
	assert.Equal(t, "posted", jr["state"])
	assert.Equal(t, "Dock Crew", jr["request_name"])
	assert.EqualValues(t, seed.CustomerID, jr["customer_id"])
	assert.EqualValues(t, seed.EmployerID, jr["employer_id"])
	assert.EqualValues(t, 3, jr["slots"])
	assert.EqualValues(t, 0, jr["filled_slots"])
	assert.Equal(t, "2026-12-01T09:00:00-08:00", jr["start_time"], "Pacific standard time in December")
	assert.EqualValues(t, 240, jr["duration"])
	assert.Equal(t, 18.5, jr["wage"], "wages are numbers")
	assert.Equal(t, "22.75", jr["w2_hourly_rate"], "text, as the real client's schema has it")
	assert.Equal(t, "w2", jr["classification"])
	assert.Equal(t, "Lifting|Forklift", jr["description_skills"])
	assert.Equal(t, []any{obj{"id": float64(95002), "badge_id": float64(seed.BadgeID), "job_request_id": jr["id"],
		"badge_name": "Forklift Certified", "badge_icon_url": nil, "badge_description": "Operates a forklift safely (OSHA class IV).",
		"created_at": jr["created_at"], "updated_at": jr["created_at"]}}, jr["badge_requirements"])
	assert.Equal(t, []any{float64(seed.WorkerIDs[2])}, jr["preferred_candidate_ids"], "ID lists are lists of integers")
	assert.Equal(t, []any{}, jr["preferred_wonoloers_info"], "its meaning is unknown: sent empty, never names")
	assert.Equal(t, []any{float64(seed.WorkerIDs[3])}, jr["ban_list"])
	assert.Equal(t, true, jr["open_request"])
	assert.Equal(t, false, jr["multi_day"])
	assert.Nil(t, jr["multi_day_job_request_id"])
	assert.EqualValues(t, 25, jr["notification_distance"])
	assert.Equal(t, true, jr["push_all_notifications_asap"], "a boolean in answers, though written on or off")
	assert.Equal(t, "1", jr["can"])
	assert.Equal(t, jr["customer_id"], jr["company_id"], "company_id is the Customer's id, beside customer_id")
	assert.Equal(t, "90015", jr["postal_code"])
	assert.Equal(t, "US", jr["country"])
	assert.Equal(t, "America/Los_Angeles", jr["timezone"])
	assert.Equal(t, obj{}, jr["cached_job_states"])
	assert.Equal(t, false, jr["in_white_gloves_period"])
	assert.Nil(t, jr["re_ranked_worker_ids"])
	assert.Nil(t, jr["flag_color"])
	assert.Equal(t, "2026-11-22T10:34:36.820-08:00", jr["created_at"])
	assert.Equal(t, jr["created_at"], jr["updated_at"])
	assert.Equal(t, jr, f.getJobRequest(idOf(jr)), "show answers what create answered")

	status, body := f.form(http.MethodPost, "/api_v2/job_requests", with(f.private), url.Values{
		"job_request[request_name]": {"Form Crew"}, "job_request[zip]": {"90015"}, "job_request[city]": {"LA"},
		"job_request[address]": {"2 Pier Way"}, "job_request[slots]": {"2"}, "job_request[description]": {"Lift"},
		"job_request[category]": {"Events"}, "job_request[state]": {"draft"}, "job_request[ban_list][]": {strconv.FormatInt(seed.WorkerIDs[1], 10), strconv.FormatInt(seed.WorkerIDs[2], 10)},
		"job_request[badge_requirements_attributes][0][badge_id]": {strconv.FormatInt(seed.BadgeID, 10)},
	})
	require.Equal(t, http.StatusOK, status, body)
	form := body["job_request"].(obj)
	assert.Equal(t, "draft", form["state"], "created draft when sent so")
	assert.Equal(t, "1099", form["classification"], "1099 by default")
	assert.Nil(t, form["start_time"])
	assert.Nil(t, form["wage"])
	assert.Equal(t, "", form["w2_hourly_rate"], `"" on a 1099 Job Request`)
	assert.Equal(t, []any{float64(seed.WorkerIDs[1]), float64(seed.WorkerIDs[2])}, form["ban_list"])
	require.Len(t, form["badge_requirements"], 1)
	assert.Equal(t, float64(seed.BadgeID), form["badge_requirements"].([]any)[0].(obj)["badge_id"])
}

func TestJobRequestValidation(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	for name, tc := range map[string]struct {
		body  obj
		field string
	}{
		"no name":               {obj{"request_name": nil}, "request_name"},
		"no zip":                {obj{"zip": ""}, "zip"},
		"no description":        {obj{"description_tasks": nil}, "description_tasks"},
		"no state":              {obj{"state": nil}, "state"},
		"state cancelled":       {obj{"state": "cancelled"}, "state"},
		"slots 0":               {obj{"slots": 0}, "slots"},
		"slots text":            {obj{"slots": "many"}, "slots"},
		"agent_code too long":   {obj{"agent_code": strings.Repeat("a", 26)}, "agent_code"},
		"agent_code empty":      {obj{"agent_code": ""}, "agent_code"},
		"classification":        {obj{"classification": "contract"}, "classification"},
		"w2 without rate":       {obj{"classification": "w2"}, "w2_hourly_rate"},
		"w2 not allowed":        {obj{"classification": "w2", "w2_hourly_rate": "20", "employer_id": seed.PendingEmployerID}, "classification"},
		"employer is a worker":  {obj{"employer_id": seed.WorkerIDs[1]}, "employer_id"},
		"unknown multi-day":     {obj{"multi_day": true, "multi_day_job_request_id": 999999}, "multi_day_job_request_id"},
		"unknown badge":         {obj{"badge_requirements_attributes": []obj{{"badge_id": 999999}}}, "badge_requirements_attributes"},
		"malformed badges":      {obj{"badge_requirements_attributes": []obj{{"badge_id": "x"}}}, "badge_requirements_attributes"},
		"start_time":            {obj{"start_time": "tomorrow"}, "start_time"},
		"wage":                  {obj{"wage": "-1"}, "wage"},
		"ban list not workers":  {obj{"ban_list": []int64{seed.EmployerID}}, "ban_list"},
		"push switch":           {obj{"push_all_notifications_asap": "maybe"}, "push_all_notifications_asap"},
		"boolean":               {obj{"open_request": "sometimes"}, "open_request"},
		"name is an object":     {obj{"request_name": obj{"a": 1}}, "request_name"},
		"preferred not numbers": {obj{"preferred_candidate_ids": []any{"x"}}, "preferred_candidate_ids"},
	} {
		status, body := f.json(http.MethodPost, "/api_v2/job_requests", with(f.private), obj{"job_request": jobRequestBody(tc.body)})
		require.Equal(t, http.StatusUnprocessableEntity, status, name, body)
		assert.Contains(t, fieldErrors(t, body), tc.field, name)
	}
	status, body := f.get("/api_v2/job_requests", f.private)
	require.Equal(t, http.StatusOK, status)
	assert.Len(t, body["job_requests"], 8, "nothing was created")

	id := idOf(f.createJobRequest(nil))
	for name, tc := range map[string]struct {
		body  obj
		field string
	}{
		"nothing":             {obj{}, "job_request"},
		"top-level state":     {obj{"state": "filled"}, "state"},
		"posted to draft":     {obj{"job_request": obj{"state": "draft"}}, "state"},
		"slots":               {obj{"job_request": obj{"slots": -1}}, "slots"},
		"slots cleared":       {obj{"job_request": obj{"slots": nil}}, "slots"},
		"name cleared":        {obj{"job_request": obj{"request_name": nil}}, "request_name"},
		"descriptions gone":   {obj{"job_request": obj{"description_tasks": ""}}, "description_tasks"},
		"all or nothing":      {obj{"job_request": obj{"request_name": "New", "agent_code": strings.Repeat("x", 30)}}, "agent_code"},
		"w2 rate cleared":     {obj{"job_request": obj{"classification": "w2", "w2_hourly_rate": nil}}, "w2_hourly_rate"},
		"cancel and bad slot": {obj{"state": "cancelled", "job_request": obj{"slots": 0}}, "slots"},
	} {
		status, body := f.json(http.MethodPatch, jrPath(id), with(f.private), tc.body)
		require.Equal(t, http.StatusUnprocessableEntity, status, name, body)
		assert.Contains(t, fieldErrors(t, body), tc.field, name)
	}
	jr := f.getJobRequest(id)
	assert.Equal(t, "Dock Crew", jr["request_name"])
	assert.Equal(t, "posted", jr["state"])
}

func TestUpdateJobRequest(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	jr := f.createJobRequest(obj{"agent_code": "A1", "slots": 2})
	id := idOf(jr)
	f.Advance(time.Minute)

	status, body := f.json(http.MethodPatch, jrPath(id), with(f.private), obj{"job_request": obj{"agent_code": "A1", "slots": 2}})
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, jr["updated_at"], body["job_request"].(obj)["updated_at"], "no change, no bump")

	status, body = f.form(http.MethodPatch, jrPath(id), with(f.private), url.Values{
		"job_request[request_name]": {"Renamed"}, "job_request[agent_code]": {""}, "job_request[slots]": {"1"},
		"job_request[preferred_candidate_ids][]": {strconv.FormatInt(seed.WorkerIDs[4], 10)}})
	require.Equal(t, http.StatusUnprocessableEntity, status, body, "a blank agent_code is too short")

	status, body = f.json(http.MethodPatch, jrPath(id), with(f.private), obj{"job_request": obj{
		"request_name": "Renamed", "agent_code": nil, "venue": "Hall B", "multi_day": true,
		"multi_day_job_request_id": seed.MultiDayJobRequestID}})
	require.Equal(t, http.StatusOK, status, body)
	got := body["job_request"].(obj)
	assert.Equal(t, "Renamed", got["request_name"])
	assert.Nil(t, got["agent_code"], "null clears")
	assert.Equal(t, "Hall B", got["venue"])
	assert.EqualValues(t, seed.MultiDayJobRequestID, got["multi_day_job_request_id"])
	assert.NotEqual(t, jr["updated_at"], got["updated_at"])

	for _, path := range []string{jrPath(999999), jrPath(0), "/api_v2/job_requests/abc"} {
		status, _ = f.json(http.MethodPatch, path, with(f.private), obj{"state": "cancelled"})
		assert.Equal(t, http.StatusNotFound, status, path)
	}
}

func TestJobRequestsPublicPool(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	status, body := f.get("/api_v2/job_requests", f.public)
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, []int64{seed.PublicJobRequestID}, listIDs(t, body, "job_requests"), "only its own")
	status, body = f.get(jrPath(seed.PublicJobRequestID), f.public)
	require.Equal(t, http.StatusOK, status, body)
	assert.EqualValues(t, 1, body["job_request"].(obj)["filled_slots"])
	status, _ = f.get(jrPath(seed.JobRequest1099ID), f.public)
	assert.Equal(t, http.StatusNotFound, status, "others are invisible")

	for _, r := range []struct {
		method, path string
		body         obj
	}{
		{http.MethodPost, "/api_v2/job_requests", obj{"job_request": jobRequestBody(nil)}},
		{http.MethodPatch, jrPath(seed.PublicJobRequestID), obj{"job_request": obj{"slots": 3}}},
		{http.MethodPatch, jrPath(seed.PublicJobRequestID), obj{"state": "cancelled"}},
		{http.MethodGet, jrPath(seed.PublicJobRequestID, "rankings"), nil},
		{http.MethodPost, jrPath(seed.PublicJobRequestID, "resend_notifications"), nil},
		{http.MethodPost, jrPath(seed.PublicJobRequestID, "re_rank_workers"), nil},
		{http.MethodPost, "/api_v2/multi_day_job_requests", obj{"multi_day_job_request": obj{"repeat_type": "daily"}}},
		{http.MethodPatch, idPath("multi_day_job_requests", seed.MultiDayJobRequestID), obj{"multi_day_job_request": obj{"repeat_number": 4}}},
	} {
		var b any
		if r.body != nil {
			b = r.body
		}
		status, body := f.json(r.method, r.path, with(f.public), b)
		assert.Equal(t, http.StatusForbidden, status, "%s %s", r.method, r.path)
		assert.NotEmpty(t, body["error"])
	}
	state, _ := f.JobRequestState(seed.PublicJobRequestID)
	assert.Equal(t, "posted", state)

	status, body = f.get("/api_v2/jobs", f.public, "job_request_id", strconv.FormatInt(seed.PublicJobRequestID, 10))
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []int64{seed.PublicJobID}, listIDs(t, body, "jobs"), "its Job Requests' Jobs")
}

func TestJobRequestListFilters(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	f := newFake(t, workforcetest.WithClock(start))
	seed := f.Seed()
	f.Advance(time.Hour)
	coded := idOf(f.createJobRequest(obj{"agent_code": "AG-9"}))
	f.Advance(time.Hour)
	w2 := idOf(f.createJobRequest(obj{"classification": "w2", "w2_hourly_rate": "30.5", "employer_id": seed.EmployerID}))
	cancelled := idOf(f.createJobRequest(nil))
	status, body := f.json(http.MethodPatch, jrPath(cancelled), with(f.private), obj{"state": "cancelled"})
	require.Equal(t, http.StatusOK, status, body)
	seeded := []int64{seed.MultiDayDayIDs[1], seed.MultiDayDayIDs[0], seed.DraftJobRequestID, seed.BadgeJobRequestID,
		seed.PublicJobRequestID, seed.PendingJobRequestID, seed.JobRequestW2ID, seed.JobRequest1099ID}
	later := start.Add(2 * time.Hour).Format(time.RFC3339)

	for name, tc := range map[string]struct {
		kv   []string
		want []int64
	}{
		"state":           {[]string{"state", "cancelled"}, []int64{cancelled}},
		"states":          {[]string{"state", "draft,cancelled"}, []int64{cancelled, seed.DraftJobRequestID}},
		"unknown state":   {[]string{"state", "sleeping"}, []int64{}},
		"company_id":      {[]string{"company_id", strconv.FormatInt(seed.PendingCustomerID, 10)}, []int64{seed.PendingJobRequestID}},
		"multi-day":       {[]string{"multi_day_job_request_id", strconv.FormatInt(seed.MultiDayJobRequestID, 10)}, []int64{seed.MultiDayDayIDs[1], seed.MultiDayDayIDs[0]}},
		"classification":  {[]string{"classification", "w2"}, []int64{w2, seed.MultiDayDayIDs[1], seed.MultiDayDayIDs[0], seed.JobRequestW2ID}},
		"w2_hourly_rate":  {[]string{"w2_hourly_rate", "30.50"}, []int64{w2}},
		"agent_code":      {[]string{"agent_code", "AG-9"}, []int64{coded}},
		"agent_code Null": {[]string{"agent_code", "Null", "updated_after", start.Format(time.RFC3339)}, []int64{cancelled, w2}},
		"updated_after":   {[]string{"updated_after", later}, []int64{cancelled, w2}},
		"updated_before":  {[]string{"updated_before", later}, append([]int64{coded}, seeded...)},
	} {
		status, body := f.get("/api_v2/job_requests", f.private, tc.kv...)
		require.Equal(t, http.StatusOK, status, name, body)
		assert.Equal(t, tc.want, listIDs(t, body, "job_requests"), name)
	}
	for _, kv := range [][]string{{"company_id", "x"}, {"multi_day_job_request_id", "-1"}, {"w2_hourly_rate", "lots"},
		{"updated_after", "yesterday"}, {"per", "0"}} {
		status, body := f.get("/api_v2/job_requests", f.private, kv...)
		require.Equal(t, http.StatusUnprocessableEntity, status, kv)
		assert.Contains(t, fieldErrors(t, body), kv[0])
	}
}

func TestJobRequestNotFound(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for _, r := range []struct{ method, path string }{
		{http.MethodGet, jrPath(999999)}, {http.MethodGet, "/api_v2/job_requests/abc"},
		{http.MethodGet, jrPath(1001)}, // a Job's id is not a Job Request's
		{http.MethodGet, jrPath(999999, "rankings")}, {http.MethodPost, jrPath(999999, "resend_notifications")},
		{http.MethodPost, jrPath(999999, "re_rank_workers")},
	} {
		status, body := f.json(r.method, r.path, with(f.private), nil)
		assert.Equal(t, http.StatusNotFound, status, r.path)
		assert.NotEmpty(t, body["error"])
	}
}

// TestJobRequestsWriteCoordinatesAsNumbers checks every answer that writes a Job Request: its
// latitude and longitude are JSON numbers, as the real client's schema has them (CONTRACT §10.1).
func TestJobRequestsWriteCoordinatesAsNumbers(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	id := seed.JobRequest1099ID
	answers := map[string]any{"GET /job_requests/:id": f.getJobRequest(id)}
	status, body := f.get("/api_v2/job_requests", f.private, "per", "50")
	require.Equal(t, http.StatusOK, status, body)
	for _, jr := range body["job_requests"].([]any) {
		if idOf(jr) == id {
			answers["GET /job_requests"] = jr
		}
	}
	status, body = f.get("/api_v2/search", f.private, "q", "warehouse loader")
	require.Equal(t, http.StatusOK, status, body)
	require.Len(t, body["job_requests"], 1)
	answers["GET /search"] = body["job_requests"].([]any)[0]
	status, body = f.json(http.MethodPatch, jrPath(id), with(f.private), obj{"job_request": obj{"slots": 4}})
	require.Equal(t, http.StatusOK, status, body)
	answers["PATCH /job_requests/:id"] = body["job_request"]
	status, body = f.json(http.MethodPost, jrPath(id, "re_rank_workers"), with(f.private), nil)
	require.Equal(t, http.StatusOK, status, body)
	answers["POST /job_requests/:id/re_rank_workers"] = body["job_request"]
	require.Len(t, answers, 5)
	for answer, jr := range answers {
		assert.Equal(t, 34.042019, jr.(obj)["latitude"], answer)
		assert.Equal(t, -118.267109, jr.(obj)["longitude"], answer)
	}
	assert.Nil(t, f.createJobRequest(nil)["latitude"], "no coordinates are null")
}

// TestPublicPoolSeesInItsJobRequestsOnlyTheWorkersItMaySee sets, with the Private Pool, Workers
// the Public Pool may not see (GET /users/:id is a 404 to it) among the preferred candidates, the
// banned and the re-ranked of the Public Pool's Job Request: its answers to the Public Pool name
// only the Worker it sees, by id or by name, in show, list and search alike, and in the webhook
// signed for it. The Private Pool still reads them all.
func TestPublicPoolSeesInItsJobRequestsOnlyTheWorkersItMaySee(t *testing.T) {
	t.Parallel()
	received := make(chan []byte, 16)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		received <- body
	}))
	t.Cleanup(receiver.Close)
	f := newFake(t, workforcetest.WithWebhookReceiver(receiver.URL))
	seed := f.Seed()
	seen, hidden, banned := seed.WorkerIDs[0], seed.WorkerIDs[3], seed.WorkerIDs[5] // Ana Garcia has the Public Pool's Job
	for _, id := range []int64{hidden, banned} {
		status, _ := f.get(idPath("users", id), f.public)
		require.Equal(t, http.StatusNotFound, status, "the Public Pool may not see user %d", id)
	}
	id := seed.PublicJobRequestID
	status, body := f.json(http.MethodPatch, jrPath(id), with(f.private), obj{"job_request": obj{
		"preferred_candidate_ids": []int64{hidden, seen}, "ban_list": []int64{banned}}})
	require.Equal(t, http.StatusOK, status, body)
	status, body = f.json(http.MethodPost, jrPath(id, "re_rank_workers"), with(f.private), nil)
	require.Equal(t, http.StatusOK, status, body)
	private := body["job_request"].(obj)
	assert.Equal(t, []any{float64(hidden), float64(seen)}, private["preferred_candidate_ids"], "the Private Pool sees every Worker")
	assert.Equal(t, []any{}, private["preferred_wonoloers_info"], "its meaning is unknown: sent empty, never names")
	assert.Contains(t, private["re_ranked_worker_ids"], itoa(hidden))

	answers := map[string]any{"GET /job_requests/:id": nil, "GET /job_requests": nil, "GET /search": nil}
	status, body = f.get(jrPath(id), f.public)
	require.Equal(t, http.StatusOK, status, body)
	answers["GET /job_requests/:id"] = body["job_request"]
	status, body = f.get("/api_v2/job_requests", f.public)
	require.Equal(t, http.StatusOK, status, body)
	answers["GET /job_requests"] = body["job_requests"].([]any)[0]
	status, body = f.get("/api_v2/search", f.public, "q", "event setup")
	require.Equal(t, http.StatusOK, status, body)
	answers["GET /search"] = body["job_requests"].([]any)[0]
	require.NoError(t, f.StartJob(seed.PublicJobID)) // the Job Request moves: a webhook signed for the Public Pool
	require.NoError(t, f.WaitWebhooks(t.Context()))
	for len(received) > 0 {
		var hook struct {
			JobRequest obj `json:"job_request"`
		}
		require.NoError(t, json.Unmarshal(<-received, &hook))
		if hook.JobRequest != nil {
			answers["webhook"] = hook.JobRequest
		}
	}
	require.Contains(t, answers, "webhook")
	for answer, jr := range answers {
		jr := jr.(obj)
		assert.Equal(t, []any{float64(seen)}, jr["preferred_candidate_ids"], answer)
		assert.Equal(t, []any{}, jr["preferred_wonoloers_info"], answer)
		assert.Equal(t, []any{}, jr["ban_list"], answer)
		assert.Equal(t, itoa(seen), jr["re_ranked_worker_ids"], answer)
	}
}
