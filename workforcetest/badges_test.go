package workforcetest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBadgesAreWrittenReadFilteredAndDeleted(t *testing.T) {
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
