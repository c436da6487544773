package workforcetest_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// TestCommitsHandOnEveryStateChangeOutsideTheLock checks that every state change of a Job or a Job Request, made by the API,
// by an outside move or by the clock, is handed on once committed, outside the lock.
func TestCommitsHandOnEveryStateChangeOutsideTheLock(t *testing.T) {
	t.Parallel()
	f := newFake(t, workforcetest.WithClock(time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC)))
	seed := f.Seed()
	var mu sync.Mutex
	var got [][]workforcetest.Change
	f.OnCommit(func(changes []workforcetest.Change) {
		f.JobState(seed.PublicJobID) // would deadlock if the lock were held
		mu.Lock()
		defer mu.Unlock()
		got = append(got, changes)
	})
	take := func() [][]workforcetest.Change {
		mu.Lock()
		defer mu.Unlock()
		out := got
		got = nil
		return out
	}

	jr := idOf(f.createJobRequest(obj{"start_time": "2026-06-01 09:00"}))
	assert.Equal(t, [][]workforcetest.Change{{{Kind: "job_request", ID: jr, State: "posted"}}}, take())
	job := idOf(f.createJob(seed.WorkerIDs[1], jr))
	assert.Equal(t, [][]workforcetest.Change{{{Kind: "job", ID: job, State: "filled"}, {Kind: "job_request", ID: jr, State: "filled"}}}, take())
	f.getJobRequest(jr)
	assert.Empty(t, take(), "a read changes nothing")
	status, body := f.json(http.MethodPatch, jrPath(jr), with(f.private), obj{"state": "cancelled"})
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, [][]workforcetest.Change{{{Kind: "job_request", ID: jr, State: "cancelled"}, {Kind: "job", ID: job, State: "cancelled"}}}, take())

	open := idOf(f.createJobRequest(obj{"start_time": "2026-06-01 09:00"}))
	take()
	f.Advance(time.Hour)
	_, _ = f.JobRequestState(open)
	assert.Equal(t, [][]workforcetest.Change{{{Kind: "job_request", ID: open, State: "unfilled"}}}, take(), "the cut-off")
}
