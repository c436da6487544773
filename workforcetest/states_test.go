package workforcetest_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// allowedFrom is CONTRACT §6 "Job states", written again here so that the fake is checked
// against the contract, not against itself. "filled" lists only what PATCH may grant.
var allowedFrom = map[string][]string{
	"in_progress": {"filled", "paused"},
	"paused":      {"in_progress"},
	"completed":   {"in_progress", "paused"},
	"approved":    {"completed"},
	"withdrawn":   {"pending", "filled"},
	"no_show":     {"filled"},
	"cancelled":   {"pending", "filled", "in_progress", "paused"},
	"filled":      {"pending"},
	"rejected":    {"pending"},
}

// patchState moves a Job through PATCH /jobs/:id; a refusal is an error "status <code>: <body>".
func patchState(state string) func(*fake, int64) error {
	return func(f *fake, id int64) error {
		status, body := f.patchJob(id, obj{"state": state})
		if status != http.StatusOK {
			return fmt.Errorf("status %d: %v", status, body)
		}
		return nil
	}
}

// moves are the ways a test moves a Job, by the state they enter.
func moves() map[string]func(*fake, int64) error {
	return map[string]func(*fake, int64) error{
		"in_progress": func(f *fake, id int64) error { return f.StartJob(id) },
		"paused":      func(f *fake, id int64) error { return f.Pause(id) },
		"completed":   func(f *fake, id int64) error { return f.Complete(id) },
		"approved":    func(f *fake, id int64) error { return f.Approve(id) },
		"withdrawn":   func(f *fake, id int64) error { return f.Withdraw(id) },
		"no_show":     func(f *fake, id int64) error { return f.NoShow(id) },
		"cancelled":   patchState("cancelled"),
		"filled":      patchState("filled"),
		"rejected":    patchState("rejected"),
	}
}

// reach makes a Job in state: pending ones on the pending Job Request, others on the W2 one.
func reach(t *testing.T, f *fake, state string) int64 {
	t.Helper()
	seed := f.Seed()
	paths := map[string][]string{
		"pending": {}, "rejected": {"rejected"},
		"filled": {}, "in_progress": {"in_progress"}, "paused": {"in_progress", "paused"},
		"completed": {"in_progress", "completed"}, "approved": {"in_progress", "completed", "approved"},
		"cancelled": {"cancelled"}, "withdrawn": {"withdrawn"}, "no_show": {"no_show"},
	}
	var id int64
	var err error
	if state == "pending" || state == "rejected" {
		id, err = f.Apply(seed.PendingJobRequestID, seed.WorkerIDs[1])
	} else {
		id, err = f.Accept(seed.JobRequestW2ID, seed.WorkerIDs[1])
	}
	require.NoError(t, err)
	for _, step := range paths[state] {
		require.NoError(t, moves()[step](f, id), "to %s", step)
	}
	got, ok := f.JobState(id)
	require.True(t, ok)
	require.Equal(t, state, got)
	return id
}

func TestStateTable(t *testing.T) {
	t.Parallel()
	states := []string{"pending", "rejected", "filled", "in_progress", "paused", "completed", "approved", "cancelled", "withdrawn", "no_show"}
	for _, from := range states {
		for to, move := range moves() {
			t.Run(from+"→"+to, func(t *testing.T) {
				t.Parallel()
				f := newFake(t)
				id := reach(t, f, from)
				f.Advance(time.Minute)
				before := f.getJob(id)
				err := move(f, id)
				after := f.getJob(id)
				if !slices.Contains(allowedFrom[to], from) {
					require.Error(t, err)
					if strings.HasPrefix(err.Error(), "status ") {
						assert.True(t, strings.HasPrefix(err.Error(), "status 422:"), err)
					}
					assert.Equal(t, before, after, "a refused move changes nothing")
					return
				}
				require.NoError(t, err)
				assert.Equal(t, to, after["state"])
				assert.Equal(t, append([]string{to}, transitionNames(before)...), transitionNames(after), "newest first")
				assert.NotEqual(t, before["updated_at"], after["updated_at"])
			})
		}
	}
}

func TestPauseOnlyW2(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	id, err := f.Accept(f.Seed().JobRequest1099ID, f.Seed().WorkerIDs[1])
	require.NoError(t, err)
	require.NoError(t, f.StartJob(id))
	assert.ErrorContains(t, f.Pause(id), "W2")
}

func TestWorkTimestamps(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	id, err := f.Accept(seed.JobRequestW2ID, seed.WorkerIDs[2])
	require.NoError(t, err)
	job := f.getJob(id)
	assert.Regexp(t, localStamp, job["confirmed_at"])
	assert.Positive(t, job["time_to_start"])

	f.Advance(time.Hour)
	require.NoError(t, f.StartJob(id))
	started := f.getJob(id)
	assert.Regexp(t, localStamp, started["started_at"])
	assert.Nil(t, started["time_to_start"])
	tr := started["transitions"].([]any)[0].(obj)
	assert.Equal(t, "34.042019", tr["latitude"], "coordinates are strings")
	assert.Equal(t, "-118.267109", tr["longitude"])

	f.Advance(2 * time.Hour)
	require.NoError(t, f.Pause(id))
	f.Advance(time.Hour) // paused time is not worked
	require.NoError(t, f.StartJob(id))
	f.Advance(30 * time.Minute)
	require.NoError(t, f.Complete(id))
	job = f.getJob(id)
	assert.Equal(t, started["started_at"], job["started_at"], "started_at is the first start")
	assert.InDelta(t, 2.5, job["hours_worked"], 0.001)
	assert.Regexp(t, localStamp, job["completed_at"])
	assert.Nil(t, job["finished_at"])

	require.NoError(t, f.Approve(id))
	job = f.getJob(id)
	assert.Regexp(t, localStamp, job["finished_at"])
	assert.Equal(t, "pending", job["w2_pay_status"])
	require.NoError(t, f.PayW2(id, "ADP-77"))
	job = f.getJob(id)
	assert.Equal(t, "paid", job["w2_pay_status"])
	assert.Equal(t, "ADP-77", job["w2_payment_ref"])
	assert.Equal(t, []string{"approved", "completed", "in_progress", "paused", "in_progress", "filled"}, transitionNames(job))
}

func TestApply(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	_, err := f.Apply(seed.JobRequest1099ID, seed.WorkerIDs[1])
	assert.ErrorContains(t, err, "pending workflow")
	_, err = f.Apply(999999, seed.WorkerIDs[1])
	assert.ErrorContains(t, err, "999999")
	_, err = f.Apply(seed.PendingJobRequestID, seed.PendingEmployerID)
	assert.ErrorContains(t, err, "not a Worker")

	id, err := f.Apply(seed.PendingJobRequestID, seed.WorkerIDs[1])
	require.NoError(t, err)
	job := f.getJob(id)
	assert.Equal(t, "pending", job["state"])
	assert.Nil(t, job["confirmed_at"])
	assert.EqualValues(t, seed.PendingEmployerID, job["employer"].(obj)["id"])
	_, err = f.Apply(seed.PendingJobRequestID, seed.WorkerIDs[1])
	assert.ErrorContains(t, err, "already holds")

	require.NoError(t, patchState("filled")(f, id))
	assert.Regexp(t, localStamp, f.getJob(id)["confirmed_at"], "granting an application confirms it")
}

func TestAcceptRefillsWithdrawn(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	id, err := f.Accept(seed.JobRequest1099ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	_, err = f.Accept(seed.JobRequest1099ID, seed.WorkerIDs[1])
	assert.ErrorContains(t, err, "already holds")
	require.NoError(t, f.Withdraw(id))
	assert.NotNil(t, f.getJob(id)["finished_at"])

	again, err := f.Accept(seed.JobRequest1099ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	assert.Equal(t, id, again)
	job := f.getJob(id)
	assert.Equal(t, []string{"filled", "withdrawn", "filled"}, transitionNames(job))
	assert.Nil(t, job["finished_at"])

	require.NoError(t, f.NoShow(id))
	fresh, err := f.Accept(seed.JobRequest1099ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	assert.Greater(t, fresh, id, "a no-show is not filled again: a new Job")
}

func TestOutsideMovesUnknown(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for name, move := range moves() {
		assert.ErrorContains(t, move(f, 424242), "424242", name)
	}
	_, err := f.Accept(f.Seed().JobRequest1099ID, 424242)
	assert.ErrorContains(t, err, "does not exist")
	assert.ErrorContains(t, f.PayW2(424242, "x"), "424242")
	assert.ErrorContains(t, f.PayW2(f.Seed().PublicJobID, "x"), "approved")
	_, ok := f.JobState(424242)
	assert.False(t, ok)
}
