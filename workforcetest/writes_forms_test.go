package workforcetest_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A write of the API, as a test sends it: its resource's name and its
// parameters, and what its answer shows (a member of the record it answers).
type writeCase struct {
	method, path string
	name         string
	params       obj
	shows        string // the key of params the answer echoes, if any
}

// everyWrite returns every write of the API on a fresh fake's seed, with
// parameters that succeed once.
func everyWrite(t *testing.T, f *fake) []writeCase {
	t.Helper()
	seed := f.Seed()
	job := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID))
	badge := readJSON(t, readReal(t, "badge_create_request.json"))
	invite := readJSON(t, readReal(t, "user_invite_request.json"))
	assign := readJSON(t, readReal(t, "job_assign_request.json"))
	assign["worker_id"], assign["job_request_id"] = seed.WorkerIDs[3], seed.JobRequest1099ID // "ids to be replaced"
	return []writeCase{
		{http.MethodPost, "/api_v2/badges", "badge", badge, "name"},
		{http.MethodPatch, idPath("badges", seed.BadgeID), "badge", obj{"description": "Renamed."}, "description"},
		{http.MethodPost, "/api_v2/users/invite", "user", invite, "first_name"},
		{http.MethodPost, "/api_v2/users", "user", obj{"type": "Worker", "first_name": "Ana", "last_name": "Ng", "email": "ana@example.com"}, "email"},
		{http.MethodPatch, idPath("users", seed.WorkerIDs[4]), "user", obj{"city": "Pasadena"}, "city"},
		{http.MethodPut, idPath("users", seed.WorkerIDs[5]), "user", obj{"city": "Burbank"}, "city"},
		{http.MethodPost, "/api_v2/jobs/assign", "job", assign, "requestor_notes"},
		{http.MethodPost, "/api_v2/jobs", "job", obj{"worker_id": seed.WorkerIDs[4], "job_request_id": seed.JobRequest1099ID}, ""},
		{http.MethodPatch, idPath("jobs", job), "job", obj{"actual_duration": 90}, "actual_duration"},
		{http.MethodPost, "/api_v2/job_requests", "job_request", jobRequestBody(nil), "request_name"},
		{http.MethodPatch, jrPath(seed.JobRequest1099ID), "job_request", obj{"request_name": "Renamed"}, "request_name"},
		{http.MethodPatch, jrPath(seed.JobRequestW2ID), "job_request", obj{"state": "cancelled"}, "state"},
		{http.MethodPost, jrPath(seed.PendingJobRequestID, "resend_notifications"), "job_request", obj{"push_all_notifications_asap": "on"}, ""},
		{http.MethodPost, "/api_v2/multi_day_job_requests", "multi_day_job_request", obj{"repeat_type": "weekly"}, "repeat_type"},
		{http.MethodPatch, idPath("multi_day_job_requests", seed.MultiDayJobRequestID), "multi_day_job_request", obj{"repeat_number": 3}, "repeat_number"},
		{http.MethodPost, "/api_v2/customers", "customer", obj{"name": "Blue Harbor"}, "name"},
		{http.MethodPatch, idPath("customers", seed.CustomerID), "customer", obj{"city": "Alameda"}, "city"},
		{http.MethodPut, idPath("customers", seed.PendingCustomerID), "customer", obj{"city": "Oakland"}, "city"},
		{http.MethodPost, "/api_v2/messages", "message", obj{"body": "Gate B", "job_id": job, "sender_id": seed.EmployerID, "receiver_id": seed.WorkerIDs[1]}, "body"},
	}
}

// readJSON reads a JSON object as the fake's tests hold them.
func readJSON(t *testing.T, data []byte) obj {
	t.Helper()
	var o obj
	require.NoError(t, json.Unmarshal(data, &o))
	return o
}

// formOf writes params as a Rails form wraps them: name[key]=value, nulls
// left out (a form cannot write one).
func formOf(name string, params obj) url.Values {
	form := url.Values{}
	for k, v := range params {
		if v != nil {
			form.Set(name+"["+k+"]", fmt.Sprint(v))
		}
	}
	return form
}

// Every write takes its parameters in the three forms the live API (Rails)
// takes: a flat JSON body, as the provider's guides send (the real requests
// of testdata/realworld among them), a JSON body wrapped in the resource's
// name, and a form of bracketed keys (CONTRACT §10.1).
func TestEveryWriteTakesFlatWrappedAndFormBodies(t *testing.T) {
	t.Parallel()
	for _, encoding := range []string{"flat", "wrapped", "form"} {
		f := newFake(t)
		for _, w := range everyWrite(t, f) {
			var status int
			var body obj
			switch encoding {
			case "flat":
				status, body = f.json(w.method, w.path, with(f.private), w.params)
			case "wrapped":
				status, body = f.json(w.method, w.path, with(f.private), obj{w.name: w.params})
			case "form":
				status, body = f.form(w.method, w.path, with(f.private), formOf(w.name, w.params))
			}
			what := encoding + " " + w.method + " " + w.path
			require.Equal(t, http.StatusOK, status, "%s: %v", what, body)
			if w.shows == "" {
				continue
			}
			record, ok := body[w.name].(obj)
			if !ok {
				record = body["job_request"].(obj) // a Job Request's action answers it
			}
			assert.Equal(t, fmt.Sprint(w.params[w.shows]), fmt.Sprint(record[w.shows]), what)
		}
	}
}
