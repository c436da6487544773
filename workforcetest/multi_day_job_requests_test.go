package workforcetest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMultiDayJobRequests(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	status, body := f.get(idPath("multi_day_job_requests", seed.MultiDayJobRequestID), f.private)
	require.Equal(t, http.StatusOK, status, body)
	m := body["multi_day_job_request"].(obj)
	assert.Equal(t, sorted("id", "repeat_type", "same_workers", "repeat_number", "job_request_ids", "created_at", "updated_at"), keys(m))
	assert.Equal(t, "daily", m["repeat_type"])
	assert.Equal(t, true, m["same_workers"])
	assert.EqualValues(t, 2, m["repeat_number"])
	assert.Equal(t, []any{float64(seed.MultiDayDayIDs[0]), float64(seed.MultiDayDayIDs[1])}, m["job_request_ids"], "oldest first")

	status, body = f.json(http.MethodPost, "/api_v2/multi_day_job_requests", with(f.private),
		obj{"multi_day_job_request": obj{"repeat_type": "weekly"}})
	require.Equal(t, http.StatusOK, status, body)
	created := body["multi_day_job_request"].(obj)
	id := idOf(created)
	assert.Equal(t, false, created["same_workers"])
	assert.Nil(t, created["repeat_number"])
	assert.Equal(t, []any{}, created["job_request_ids"])
	day := idOf(f.createJobRequest(obj{"multi_day": true, "multi_day_job_request_id": id}))
	f.createJobRequest(obj{"multi_day": false, "multi_day_job_request_id": id}) // not a day: multi_day is false
	f.Advance(time.Minute)
	status, body = f.json(http.MethodPatch, idPath("multi_day_job_requests", id), with(f.private),
		obj{"multi_day_job_request": obj{"repeat_number": 3, "same_workers": "true"}})
	require.Equal(t, http.StatusOK, status, body)
	updated := body["multi_day_job_request"].(obj)
	assert.EqualValues(t, 3, updated["repeat_number"])
	assert.Equal(t, true, updated["same_workers"])
	assert.Equal(t, []any{float64(day)}, updated["job_request_ids"])
	assert.NotEqual(t, created["updated_at"], updated["updated_at"])

	resp := f.send(http.MethodGet, "/api_v2/multi_day_job_requests", with(f.private), "", nil)
	assert.Equal(t, "POST", resp.Header.Get("Allow"))
	status, _ = f.decode(resp)
	assert.Equal(t, http.StatusMethodNotAllowed, status, "the contract has no list of Multi-day Job Requests")
	status, body = f.get(idPath("multi_day_job_requests", seed.MultiDayJobRequestID), f.public)
	require.Equal(t, http.StatusOK, status, "the Public Pool reads them")
	assert.Equal(t, []any{}, body["multi_day_job_request"].(obj)["job_request_ids"], "without days it cannot see")

	f.requireInvalid(map[string]invalidCase{
		"no repeat_type":    {http.MethodPost, "/api_v2/multi_day_job_requests", obj{"multi_day_job_request": obj{"same_workers": true}}, "repeat_type"},
		"repeat_type":       {http.MethodPost, "/api_v2/multi_day_job_requests", obj{"multi_day_job_request": obj{"repeat_type": "monthly"}}, "repeat_type"},
		"repeat_number":     {http.MethodPatch, idPath("multi_day_job_requests", id), obj{"multi_day_job_request": obj{"repeat_number": 0}}, "repeat_number"},
		"nothing to update": {http.MethodPatch, idPath("multi_day_job_requests", id), obj{}, "multi_day_job_request"},
	})
	for _, method := range []string{http.MethodGet, http.MethodPatch} {
		status, _ = f.json(method, idPath("multi_day_job_requests", 999999), with(f.private), obj{"multi_day_job_request": obj{"repeat_number": 2}})
		assert.Equal(t, http.StatusNotFound, status, method)
	}
}
