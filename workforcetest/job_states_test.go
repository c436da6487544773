package workforcetest_test

import (
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
		id, err = f.ApplyToJobRequest(seed.PendingJobRequestID, seed.WorkerIDs[1])
	} else {
		id, err = f.AcceptJobRequest(seed.JobRequestW2ID, seed.WorkerIDs[1])
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
	id, err := f.AcceptJobRequest(f.Seed().JobRequest1099ID, f.Seed().WorkerIDs[1])
	require.NoError(t, err)
	require.NoError(t, f.StartJob(id))
	assert.ErrorContains(t, f.PauseJob(id), "W2")
}

func TestWorkTimestamps(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	id, err := f.AcceptJobRequest(seed.JobRequestW2ID, seed.WorkerIDs[2])
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
	require.NoError(t, f.PauseJob(id))
	f.Advance(time.Hour) // paused time is not worked
	require.NoError(t, f.StartJob(id))
	f.Advance(30 * time.Minute)
	require.NoError(t, f.CompleteJob(id))
	job = f.getJob(id)
	assert.Equal(t, started["started_at"], job["started_at"], "started_at is the first start")
	assert.InDelta(t, 2.5, job["hours_worked"], 0.001)
	assert.Regexp(t, localStamp, job["completed_at"])
	assert.Nil(t, job["finished_at"])

	require.NoError(t, f.ApproveJob(id))
	job = f.getJob(id)
	assert.Regexp(t, localStamp, job["finished_at"])
	assert.Equal(t, "pending", job["w2_pay_status"])
	require.NoError(t, f.PayW2Job(id, "ADP-77"))
	job = f.getJob(id)
	assert.Equal(t, "paid", job["w2_pay_status"])
	assert.Equal(t, "ADP-77", job["w2_payment_ref"])
	assert.Equal(t, []string{"approved", "completed", "in_progress", "paused", "in_progress", "filled"}, transitionNames(job))
}
