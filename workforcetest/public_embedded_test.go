package workforcetest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// embedded answers the worker and employer a Job answer embeds.
func embedded(t *testing.T, job obj) (worker, employer any) {
	t.Helper()
	w, ok := job["worker"]
	require.True(t, ok, "a Job always has the worker key")
	e, ok := job["employer"]
	require.True(t, ok, "a Job always has the employer key")
	return w, e
}

// TestPublicPoolSeesEmbeddedUsersAsUsers checks that the Users embedded in
// a Job follow what GET /users shows the Public Pool: the Worker while it
// has an active Job on the pool's Job Requests, then null (the Job keeps
// worker_id); the Employer never. The Private Pool sees both throughout.
// Show, list and the webhook of the change agree.
func TestPublicPoolSeesEmbeddedUsersAsUsers(t *testing.T) {
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

	status, body := f.get(jobPath, f.public)
	require.Equal(t, http.StatusOK, status)
	worker, employer := embedded(t, body["job"].(obj))
	assert.NotNil(t, worker, "the Worker of an active Job is visible")
	assert.Nil(t, employer, "an Employer never is")

	require.NoError(t, f.Withdraw(seed.PublicJobID)) // no longer active
	status, _ = f.get(workerPath, f.public)
	require.Equal(t, http.StatusNotFound, status, "GET /users hides the Worker")

	status, body = f.get(jobPath, f.public)
	require.Equal(t, http.StatusOK, status)
	job := body["job"].(obj)
	worker, employer = embedded(t, job)
	assert.Nil(t, worker, "nor is it embedded")
	assert.Nil(t, employer)
	assert.EqualValues(t, seed.WorkerIDs[0], job["worker_id"], "the id stays")

	status, body = f.get("/api_v2/jobs", f.public, "per", "50")
	require.Equal(t, http.StatusOK, status)
	for _, j := range body["jobs"].([]any) {
		worker, employer = embedded(t, j.(obj))
		assert.Nil(t, worker, "a list agrees")
		assert.Nil(t, employer)
	}

	status, body = f.get(jobPath, f.private)
	require.Equal(t, http.StatusOK, status)
	worker, employer = embedded(t, body["job"].(obj))
	assert.NotNil(t, worker, "the Private Pool sees every User")
	assert.NotNil(t, employer)
	assert.Equal(t, seed.WorkerIDs[0], int64(worker.(obj)["id"].(float64)))

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := f.PublicClient()
	require.NoError(t, err)
	sdkJob, _, err := c.Jobs.Get(ctx, seed.PublicJobID)
	require.NoError(t, err, "the SDK takes a Job without its Users")
	assert.Nil(t, sdkJob.Worker)
	assert.Nil(t, sdkJob.Employer)

	require.NoError(t, f.WaitWebhooks(ctx))
	mu.Lock()
	defer mu.Unlock()
	var seen bool
	for _, b := range bodies {
		if j, ok := b["job"].(obj); ok && j["state"] == "withdrawn" && int64(j["id"].(float64)) == seed.PublicJobID {
			seen = true
			worker, employer = embedded(t, j)
			assert.Nil(t, worker, "the webhook of a Public Pool Job agrees")
			assert.Nil(t, employer)
		}
	}
	assert.True(t, seen, "the withdrawal was delivered")
}
