package workforcetest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSeededIDsAreDistinctAndTheirWorkersFree(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	require.GreaterOrEqual(t, len(seed.WorkerIDs), 5)
	ids := append([]int64{seed.CustomerID, seed.PendingCustomerID, seed.EmployerID, seed.PendingEmployerID,
		seed.JobRequest1099ID, seed.JobRequestW2ID, seed.PendingJobRequestID, seed.PublicJobRequestID, seed.PublicJobID},
		seed.WorkerIDs...)
	unique := map[int64]bool{}
	for _, id := range ids {
		assert.Positive(t, id)
		unique[id] = true
	}
	assert.Len(t, unique, len(ids), "ids differ across tables")

	seed.WorkerIDs[0] = -1
	assert.Positive(t, f.Seed().WorkerIDs[0], "Seed answers a copy")

	for _, w := range f.Seed().WorkerIDs[1:] {
		for _, jr := range []int64{seed.JobRequest1099ID, seed.JobRequestW2ID, seed.PendingJobRequestID, seed.PublicJobRequestID} {
			_, err := f.AcceptJobRequest(jr, w)
			require.NoError(t, err, "every seeded Worker is free on every Job Request")
		}
	}
	job := f.getJob(seed.PublicJobID)
	assert.EqualValues(t, f.Seed().WorkerIDs[0], job["worker_id"])
	assert.EqualValues(t, seed.PublicJobRequestID, job["job_request_id"])
}
