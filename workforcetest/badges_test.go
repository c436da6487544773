package workforcetest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBadges(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	status, body := f.json(http.MethodPost, "/api_v2/badges", with(f.private), obj{"badge": obj{
		"name": "Food Handler", "description": "Holds a food handler card.", "info_url": "https://x.example/food",
		"remote_icon_url": "https://x.example/food.png", "is_soft": true}})
	require.Equal(t, http.StatusOK, status, body)
	b := body["badge"].(obj)
	assert.Equal(t, sorted("id", "name", "description", "icon_url", "info_url", "is_soft", "created_at", "updated_at"), keys(b))
	assert.Equal(t, "https://x.example/food.png", b["icon_url"], "remote_icon_url is written as icon_url")
	assert.Equal(t, true, b["is_soft"])
	id := idOf(b)
	status, body = f.get(idPath("badges", id), f.private)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, b, body["badge"])

	f.Advance(time.Minute)
	status, body = f.json(http.MethodPatch, idPath("badges", id), with(f.private), obj{"badge": obj{"is_soft": false, "info_url": nil}})
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, false, body["badge"].(obj)["is_soft"])
	assert.Nil(t, body["badge"].(obj)["info_url"])
	assert.NotEqual(t, b["updated_at"], body["badge"].(obj)["updated_at"])

	status, body = f.get("/api_v2/badges", f.private, "query", "FOOD")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []int64{id}, listIDs(t, body, "badges"), "query filters names case-insensitively")
	status, body = f.get("/api_v2/badges", f.public)
	require.Equal(t, http.StatusOK, status, "the Public Pool reads Badges")
	assert.Equal(t, []int64{id, seed.BadgeID}, listIDs(t, body, "badges"))

	f.requireInvalid(map[string]invalidCase{
		"no name":           {http.MethodPost, "/api_v2/badges", obj{"badge": obj{"description": "d"}}, "name"},
		"no description":    {http.MethodPost, "/api_v2/badges", obj{"badge": obj{"name": "n"}}, "description"},
		"blank name":        {http.MethodPatch, idPath("badges", id), obj{"badge": obj{"name": " "}}, "name"},
		"description null":  {http.MethodPatch, idPath("badges", id), obj{"badge": obj{"description": nil}}, "description"},
		"is_soft":           {http.MethodPatch, idPath("badges", id), obj{"badge": obj{"is_soft": "soft"}}, "is_soft"},
		"nothing to update": {http.MethodPatch, idPath("badges", id), obj{}, "badge"},
		"required, deleted": {http.MethodDelete, idPath("badges", seed.BadgeID), nil, "badge"},
	})

	require.NoError(t, f.GrantBadge(seed.WorkerIDs[1], id))
	status, body = f.json(http.MethodDelete, idPath("badges", id), with(f.private), nil)
	require.Equal(t, http.StatusOK, status, body)
	assert.EqualValues(t, id, body["badge"].(obj)["id"], "answers the deleted Badge")
	assert.Equal(t, []any{}, f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID)["worker"].(obj)["user_badges"],
		"the Workers lost it")
	for _, method := range []string{http.MethodGet, http.MethodPatch, http.MethodDelete} {
		status, _ = f.json(method, idPath("badges", id), with(f.private), obj{"badge": obj{"name": "x"}})
		assert.Equal(t, http.StatusNotFound, status, method)
	}
}

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
		"nothing to update": {http.MethodPatch, idPath("multi_day_job_requests", id), obj{"repeat_number": 2}, "multi_day_job_request"},
	})
	for _, method := range []string{http.MethodGet, http.MethodPatch} {
		status, _ = f.json(method, idPath("multi_day_job_requests", 999999), with(f.private), obj{"multi_day_job_request": obj{"repeat_number": 2}})
		assert.Equal(t, http.StatusNotFound, status, method)
	}
}

// TestResourceListPaging checks the paging of the lists of Customers, Badges, Job Requests and
// Users: 25 by default, at most 50, newest first, an empty page past the end.
func TestResourceListPaging(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		plural string
		create func(f *fake, i int) obj
	}{
		{"customers", func(f *fake, i int) obj {
			return obj{"customer": obj{"name": "Customer " + itoa(int64(i))}}
		}},
		{"badges", func(f *fake, i int) obj {
			return obj{"badge": obj{"name": "Badge " + itoa(int64(i)), "description": "d"}}
		}},
		{"job_requests", func(f *fake, i int) obj { return obj{"job_request": jobRequestBody(nil)} }},
		{"users", func(f *fake, i int) obj {
			return obj{"user": obj{"type": "Worker", "first_name": "Paged", "last_name": "Worker" + itoa(int64(i)),
				"email": "paged" + itoa(int64(i)) + "@example.com"}}
		}},
	} {
		t.Run(tc.plural, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			for i := range 60 {
				status, body := f.json(http.MethodPost, "/api_v2/"+tc.plural, with(f.private), tc.create(f, i))
				require.Equal(t, http.StatusOK, status, body)
			}
			_, body := f.get("/api_v2/"+tc.plural, f.private, "per", "1000")
			all := listIDs(t, body, tc.plural)
			require.Len(t, all, 50, "at most 50 whatever per says")
			for i := 1; i < len(all); i++ {
				require.Greater(t, all[i-1], all[i], "newest first")
			}
			_, body = f.get("/api_v2/"+tc.plural, f.private)
			assert.Equal(t, all[:25], listIDs(t, body, tc.plural), "25 by default")
			_, body = f.get("/api_v2/"+tc.plural, f.private, "page", "2", "per", "10")
			assert.Equal(t, all[10:20], listIDs(t, body, tc.plural))
			status, body := f.get("/api_v2/"+tc.plural, f.private, "page", "99")
			require.Equal(t, http.StatusOK, status)
			assert.Equal(t, []any{}, body[tc.plural], "a page past the end is empty")
			status, body = f.get("/api_v2/"+tc.plural, f.private, "per", "0")
			require.Equal(t, http.StatusUnprocessableEntity, status)
			assert.Contains(t, fieldErrors(t, body), "per")
		})
	}
}
