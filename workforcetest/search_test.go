package workforcetest_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSearchMatchesWhatTheKeySees(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	status, body := f.get("/api_v2/search", f.private, "q", "FORKLIFT")
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, sorted("users", "customers", "job_requests", "badges"), keys(body))
	assert.Equal(t, []int64{seed.BadgeID}, listIDs(t, body, "badges"))
	assert.Equal(t, []int64{seed.BadgeJobRequestID}, listIDs(t, body, "job_requests"))
	assert.Empty(t, listIDs(t, body, "users"))

	status, body = f.get("/api_v2/search", f.private, "q", "chloe nguyen")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []int64{seed.WorkerIDs[2]}, listIDs(t, body, "users"), "the full name matches")
	status, body = f.get("/api_v2/search", f.private, "q", "@harbor.example")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []int64{seed.PendingEmployerID}, listIDs(t, body, "users"), "emails match")
	assert.Equal(t, []int64{seed.PendingCustomerID}, listIDs(t, body, "customers"))

	status, body = f.get("/api_v2/search", f.public, "q", "example.com")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []int64{seed.WorkerIDs[0]}, listIDs(t, body, "users"), "the Public Pool finds only whom it may see")
	status, body = f.get("/api_v2/search", f.public, "q", "e")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []int64{seed.PublicJobRequestID}, listIDs(t, body, "job_requests"))

	for i := range 55 {
		status, body := f.json(http.MethodPost, "/api_v2/badges", with(f.private), obj{"badge": obj{"name": "Zebra " + itoa(int64(i)), "description": "z"}})
		require.Equal(t, http.StatusOK, status, body)
	}
	status, body = f.get("/api_v2/search", f.private, "q", "zebra")
	require.Equal(t, http.StatusOK, status)
	assert.Len(t, listIDs(t, body, "badges"), 50, "at most 50 of each")

	for _, q := range []string{"", "   "} {
		status, body = f.get("/api_v2/search", f.private, "q", q)
		assert.Equal(t, http.StatusUnprocessableEntity, status)
		assert.Contains(t, fieldErrors(t, body), "q")
	}
	status, _ = f.get("/api_v2/search", "bad-token", "q", "a")
	assert.Equal(t, http.StatusUnauthorized, status)
}
