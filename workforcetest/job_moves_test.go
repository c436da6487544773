package workforcetest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestApply(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	_, err := f.ApplyToJobRequest(seed.JobRequest1099ID, seed.WorkerIDs[1])
	assert.ErrorContains(t, err, "pending workflow")
	_, err = f.ApplyToJobRequest(999999, seed.WorkerIDs[1])
	assert.ErrorContains(t, err, "999999")
	_, err = f.ApplyToJobRequest(seed.PendingJobRequestID, seed.PendingEmployerID)
	assert.ErrorContains(t, err, "not a Worker")

	id, err := f.ApplyToJobRequest(seed.PendingJobRequestID, seed.WorkerIDs[1])
	require.NoError(t, err)
	job := f.getJob(id)
	assert.Equal(t, "pending", job["state"])
	assert.Nil(t, job["confirmed_at"])
	assert.EqualValues(t, seed.PendingEmployerID, job["employer"].(obj)["id"])
	_, err = f.ApplyToJobRequest(seed.PendingJobRequestID, seed.WorkerIDs[1])
	assert.ErrorContains(t, err, "already holds")

	require.NoError(t, patchState("filled")(f, id))
	assert.Regexp(t, localStamp, f.getJob(id)["confirmed_at"], "granting an application confirms it")
}

func TestAcceptRefillsWithdrawn(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	id, err := f.AcceptJobRequest(seed.JobRequest1099ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	_, err = f.AcceptJobRequest(seed.JobRequest1099ID, seed.WorkerIDs[1])
	assert.ErrorContains(t, err, "already holds")
	require.NoError(t, f.WithdrawJob(id))
	assert.NotNil(t, f.getJob(id)["finished_at"])

	again, err := f.AcceptJobRequest(seed.JobRequest1099ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	assert.Equal(t, id, again)
	job := f.getJob(id)
	assert.Equal(t, []string{"filled", "withdrawn", "filled"}, transitionNames(job))
	assert.Nil(t, job["finished_at"])

	require.NoError(t, f.NoShowJob(id))
	fresh, err := f.AcceptJobRequest(seed.JobRequest1099ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	assert.Greater(t, fresh, id, "a no-show is not filled again: a new Job")
}

func TestOutsideMovesUnknown(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for name, move := range moves() {
		assert.ErrorContains(t, move(f, 424242), "424242", name)
	}
	_, err := f.AcceptJobRequest(f.Seed().JobRequest1099ID, 424242)
	assert.ErrorContains(t, err, "does not exist")
	assert.ErrorContains(t, f.PayW2Job(424242, "x"), "424242")
	assert.ErrorContains(t, f.PayW2Job(f.Seed().PublicJobID, "x"), "approved")
	_, ok := f.JobState(424242)
	assert.False(t, ok)
}

// The released names of the outside moves still make them.
func TestDeprecatedMoveNamesStillMove(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	id, err := f.Accept(seed.JobRequest1099ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	require.NoError(t, f.StartJob(id))
	require.NoError(t, f.Complete(id))
	require.NoError(t, f.Approve(id))
	state, _ := f.JobState(id)
	assert.Equal(t, "approved", state)
	id, err = f.Accept(seed.JobRequestW2ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	require.NoError(t, f.Withdraw(id))
	state, _ = f.JobState(id)
	assert.Equal(t, "withdrawn", state)
}
