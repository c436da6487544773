package workforce_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// fake starts a fake API and returns it with a Private Pool client whose
// retries wait a millisecond at most.
func fake(t *testing.T) (*workforcetest.Server, *workforce.Client) {
	t.Helper()
	srv := workforcetest.NewServer(t)
	c, err := srv.Client(workforce.WithRetry(3, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	return srv, c
}

func TestE2EJobLifecycle(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID, RequestorNotes: "gate B"})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobFilled, job.State)
	assert.Equal(t, "gate B", job.RequestorNotes)
	require.NotNil(t, job.Worker)
	assert.Equal(t, seed.WorkerIDs[0], job.Worker.ID)
	require.Len(t, job.Transitions, 1)
	assert.Equal(t, workforce.JobFilled, job.Transitions[0].Name)
	assert.False(t, job.CreatedAt.IsZero())

	require.NoError(t, srv.StartJob(job.ID))
	require.NoError(t, srv.Complete(job.ID))
	minutes := 95
	job, _, err = c.Jobs.Update(ctx, job.ID, &workforce.JobUpdate{ActualDuration: &minutes})
	require.NoError(t, err)
	assert.Equal(t, "95", job.ActualDuration.String())
	assert.Equal(t, workforce.JobCompleted, job.State)

	got, _, err := c.Jobs.Get(ctx, job.ID)
	require.NoError(t, err)
	assert.Equal(t, []workforce.JobState{workforce.JobCompleted, workforce.JobInProgress, workforce.JobFilled}, states(got.Transitions))

	_, _, err = c.Jobs.Cancel(ctx, job.ID, workforce.CancelAskedToCancel)
	assert.ErrorIs(t, err, workforce.ErrUnprocessable, "a completed Job cannot be cancelled")

	_, _, err = c.Jobs.Get(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
}

func TestE2EAssignAndCancel(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	job, _, err := c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequestW2ID})
	require.NoError(t, err)
	assert.Equal(t, workforce.ClassificationW2, job.Classification)
	assert.True(t, job.W2HourlyRate.Valid())

	job, _, err = c.Jobs.Cancel(ctx, job.ID, workforce.CancelDecidedToCancel)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobCancelled, job.State)
	assert.Equal(t, workforce.CancelDecidedToCancel, job.CancelledReason)
	state, _ := srv.JobState(job.ID)
	assert.Equal(t, "cancelled", state)
}

func TestE2EPendingApplicationIsDecided(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	granted, err := srv.Apply(seed.PendingJobRequestID, seed.WorkerIDs[0])
	require.NoError(t, err)
	rejected, err := srv.Apply(seed.PendingJobRequestID, seed.WorkerIDs[1])
	require.NoError(t, err)

	job, _, err := c.Jobs.Update(ctx, granted, &workforce.JobUpdate{State: workforce.JobFilled})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobFilled, job.State)
	job, _, err = c.Jobs.Update(ctx, rejected, &workforce.JobUpdate{State: workforce.JobRejected})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRejected, job.State)

	_, _, err = c.Jobs.Update(ctx, granted, &workforce.JobUpdate{State: workforce.JobRejected})
	assert.ErrorIs(t, err, workforce.ErrUnprocessable, "only a pending Job can be rejected")
}

func TestE2EListFiltersAndIterates(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	create := func() *workforce.Job {
		job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID})
		require.NoError(t, err)
		return job
	}
	for range 59 { // a Worker holds one open Job per Job Request: cancel each before the next
		_, _, err := c.Jobs.Cancel(ctx, create().ID, "")
		require.NoError(t, err)
	}
	srv.Advance(time.Minute)
	latest := create()

	page, resp, err := c.Jobs.List(ctx, &workforce.JobListOptions{JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err)
	assert.Len(t, page, 25, "the server's default page size")
	assert.Equal(t, 2, resp.NextPage)

	var seen []int64
	for job, err := range c.Jobs.All(ctx, &workforce.JobListOptions{JobRequestID: seed.JobRequest1099ID, State: workforce.JobCancelled}) {
		require.NoError(t, err)
		assert.Equal(t, workforce.JobCancelled, job.State)
		seen = append(seen, job.ID)
	}
	require.Len(t, seen, 59)
	for i := 1; i < len(seen); i++ {
		assert.Greater(t, seen[i-1], seen[i], "newest first")
	}

	recent, _, err := c.Jobs.List(ctx, &workforce.JobListOptions{UpdatedAfter: srv.Now().Add(-time.Second)})
	require.NoError(t, err)
	require.Len(t, recent, 1)
	assert.Equal(t, latest.ID, recent[0].ID)

	var getPages int
	for _, r := range srv.Requests() {
		if r.Method == http.MethodGet && r.Path == "/api_v2/jobs" && r.Query.Get("state") == "cancelled" {
			getPages++
			assert.Equal(t, "50", r.Query.Get("per"))
		}
	}
	assert.Equal(t, 2, getPages, "59 Jobs: a full page, then a short one")
}

func TestE2EPublicPool(t *testing.T) {
	t.Parallel()
	srv := workforcetest.NewServer(t)
	c, err := srv.PublicClient()
	require.NoError(t, err)
	ctx := context.Background()
	seed := srv.Seed()

	_, _, err = c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.PublicJobRequestID})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = c.Jobs.Cancel(ctx, seed.PublicJobID, "")
	assert.ErrorIs(t, err, workforce.ErrForbidden)

	var ids []int64
	for job, err := range c.Jobs.All(ctx, nil) {
		require.NoError(t, err)
		ids = append(ids, job.ID)
	}
	assert.Equal(t, []int64{seed.PublicJobID}, ids, "a Public Pool key sees only its own Jobs")
}

func TestE2ERenewsAnExpiredToken(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()

	_, _, err := c.Jobs.List(ctx, nil)
	require.NoError(t, err)
	srv.Advance(25 * time.Hour) // the server now rejects the token the client holds

	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := c.Jobs.List(ctx, nil)
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	assert.Equal(t, 2, countRequests(srv, http.MethodPost, "/api_v2/authenticate"), "one token, then one renewal")
}

func TestE2ERetriesAndFaults(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	srv.InjectFault(workforcetest.Fault{Method: http.MethodGet, Path: "/api_v2/jobs", Times: 2, Status: http.StatusServiceUnavailable})
	_, _, err := c.Jobs.List(ctx, nil)
	require.NoError(t, err, "two 503s, then the page")

	srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/jobs", Times: 1, Status: http.StatusServiceUnavailable})
	_, _, err = c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID})
	assert.ErrorIs(t, err, workforce.ErrServer, "a create is not sent twice")
	assert.Equal(t, 1, countRequests(srv, http.MethodPost, "/api_v2/jobs"))

	srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/jobs", Times: 1, Status: http.StatusTooManyRequests, RetryAfter: "0"})
	_, _, err = c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err, "a 429 means the server did not act: the create is sent again")

	srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/jobs", Times: 1, Drop: true})
	_, _, err = c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID})
	var transportErr *workforce.TransportError
	assert.ErrorAs(t, err, &transportErr, "a dropped create may have been acted on: not sent again")

	srv.InjectFault(workforcetest.Fault{Method: http.MethodGet, Path: "/api_v2/jobs", Times: 1, Delay: time.Hour})
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, _, err = c.Jobs.List(short, nil)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func countRequests(srv *workforcetest.Server, method, path string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

func states(ts []workforce.Transition) []workforce.JobState {
	out := make([]workforce.JobState, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}
