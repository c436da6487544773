package workforcetest_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSeedJobs(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	start := time.Now()
	first, last := f.SeedJobs(100000)
	t.Logf("SeedJobs(100000) took %v", time.Since(start))
	require.Equal(t, first+99999, last)
	first0, last0 := f.SeedJobs(0)
	assert.Zero(t, first0+last0, "nothing for n < 1")

	status, body := f.get("/api_v2/jobs", f.private, "per", "50")
	require.Equal(t, http.StatusOK, status, body)
	ids := listIDs(t, body, "jobs")
	require.Len(t, ids, 50)
	assert.Equal(t, last, ids[0], "newest first")
	job := body["jobs"].([]any)[0].(obj)
	assert.Equal(t, "no_show", job["state"], "the tenth of every ten")
	assert.NotNil(t, job["worker"])
	assert.NotEmpty(t, job["transitions"])

	// updated_at is spread over 90 days: the last 9 days hold about a tenth.
	after := f.Now().Add(-9 * 24 * time.Hour).Format(time.RFC3339)
	count := 0
	for page := 1; ; page++ {
		status, body := f.get("/api_v2/jobs", f.private, "per", "50", "page", strconv.Itoa(page), "updated_after", after)
		require.Equal(t, http.StatusOK, status, body)
		n := len(listIDs(t, body, "jobs"))
		count += n
		if n < 50 {
			break
		}
	}
	assert.InDelta(t, 10000, count, 500, "plus those created just before, updated in it")

	// The states are filters like any other, and the Job Requests hold 50 Jobs each.
	status, body = f.get("/api_v2/jobs", f.private, "per", "50", "state", "no_show")
	require.Equal(t, http.StatusOK, status, body)
	for _, j := range body["jobs"].([]any) {
		assert.Equal(t, "no_show", j.(obj)["state"])
	}
	jr := int64(job["job_request_id"].(float64))
	status, body = f.get("/api_v2/jobs", f.private, "per", "50", "page", "2", "job_request_id", strconv.FormatInt(jr, 10))
	require.Equal(t, http.StatusOK, status, body)
	assert.Empty(t, listIDs(t, body, "jobs"), "50 Jobs a Job Request, the last one maybe fewer")

	// The Public Pool sees none of them.
	status, body = f.get("/api_v2/jobs", f.public, "per", "50")
	require.Equal(t, http.StatusOK, status, body)
	assert.Len(t, listIDs(t, body, "jobs"), 1)
}
