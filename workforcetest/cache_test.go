package workforcetest_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestJobListFollowsChanges lists the same page again after each kind of change a Job's JSON
// depends on (its Worker, its state, the clock) and sees each one: the JSON the fake keeps for a
// list is never stale.
func TestJobListFollowsChanges(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	first := func() obj {
		t.Helper()
		status, body := f.get("/api_v2/jobs", f.private, "per", "50")
		require.Equal(t, http.StatusOK, status, body)
		return body["jobs"].([]any)[0].(obj)
	}
	id, err := f.AcceptJobRequest(seed.JobRequest1099ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	j := first()
	require.Equal(t, float64(id), j["id"])
	assert.Equal(t, "Ben", j["worker"].(obj)["first_name"])
	tts := j["time_to_start"].(float64)
	assert.Equal(t, j, first(), "the same answer twice")

	status, body := f.json(http.MethodPatch, "/api_v2/users/"+strconv.FormatInt(seed.WorkerIDs[1], 10),
		with(f.private), obj{"user": obj{"first_name": "Benjamin"}})
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, "Benjamin", first()["worker"].(obj)["first_name"], "a change of the Worker")

	f.Advance(10 * time.Minute)
	assert.Equal(t, tts-10, first()["time_to_start"], "the clock")

	require.NoError(t, f.StartJob(id))
	j = first()
	assert.Equal(t, "in_progress", j["state"], "an outside move")
	assert.Nil(t, j["time_to_start"])

	status, body = f.json(http.MethodPatch, "/api_v2/jobs/"+strconv.FormatInt(id, 10), with(f.private),
		obj{"actual_duration": 90})
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, 90.0, first()["actual_duration"], "a PATCH")

	status, body = f.get("/api_v2/jobs/"+strconv.FormatInt(id, 10), f.private)
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, first(), body["job"], "a list writes a Job as show does")
}
