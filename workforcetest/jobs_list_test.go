package workforcetest_test

import (
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// fillJobs adds n Jobs through outside moves (accept, then no-show, so that the Worker is free
// again) and answers their ids, oldest first.
func fillJobs(t *testing.T, f *fake, n int) []int64 {
	t.Helper()
	ids := make([]int64, n)
	for i := range ids {
		id, err := f.Accept(f.Seed().JobRequest1099ID, f.Seed().WorkerIDs[1])
		require.NoError(t, err)
		require.NoError(t, f.NoShow(id))
		ids[i] = id
	}
	return ids
}

func TestListPagination(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	fillJobs(t, f, 59)
	var all []int64 // every id, newest first, by pages of 50
	for page := 1; ; page++ {
		status, body := f.get("/api_v2/jobs", f.private, "per", "50", "page", strconv.Itoa(page))
		require.Equal(t, http.StatusOK, status, body)
		require.Len(t, body, 1, "only the plural key")
		ids := listIDs(t, body, "jobs")
		all = append(all, ids...)
		if len(ids) < 50 {
			break
		}
	}
	require.Len(t, all, 60)
	assert.IsDecreasing(t, all, "newest first")

	status, body := f.get("/api_v2/jobs", f.private)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, all[:25], listIDs(t, body, "jobs"), "default page 1 of 25")
	_, body = f.get("/api_v2/jobs", f.private, "page", "3")
	assert.Equal(t, all[50:], listIDs(t, body, "jobs"))
	_, body = f.get("/api_v2/jobs", f.private, "per", "80")
	assert.Equal(t, all[:50], listIDs(t, body, "jobs"), "per capped at 50")
	_, body = f.get("/api_v2/jobs", f.private, "per", "7", "page", "2")
	assert.Equal(t, all[7:14], listIDs(t, body, "jobs"))

	resp := f.send(http.MethodGet, "/api_v2/jobs", with(f.private, "page", "4"), "", nil)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.JSONEq(t, `{"jobs": []}`, string(raw), "past the end: an empty array")
	huge := "1000000000000000000000000000000" // more than an int64 holds
	for _, page := range []string{"9223372036854775807", huge} {
		status, body := f.get("/api_v2/jobs", f.private, "page", page)
		require.Equal(t, http.StatusOK, status, body)
		assert.Empty(t, listIDs(t, body, "jobs"), page)
	}
	for _, per := range []string{"51", "9223372036854775807", huge, "+" + huge} {
		status, body := f.get("/api_v2/jobs", f.private, "per", per)
		require.Equal(t, http.StatusOK, status, body)
		assert.Equal(t, all[:50], listIDs(t, body, "jobs"), "per %s means 50", per)
	}
}

func TestListInvalidPaging(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for _, kv := range [][]string{{"page", "0"}, {"page", "-1"}, {"page", "two"}, {"per", "0"}, {"per", "1.5"},
		{"per", "-99999999999999999999"}, {"page", "-99999999999999999999"}, {"per", "9e99"}, {"page", "99999999999999999999x"}} {
		status, body := f.get("/api_v2/jobs", f.private, kv...)
		require.Equal(t, http.StatusUnprocessableEntity, status, kv)
		assert.Contains(t, fieldErrors(t, body), kv[0], kv)
	}
}

func TestListFilters(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	f := newFake(t, workforcetest.WithClock(start))
	seed := f.Seed()
	w2Paid := idOf(f.createJob(seed.WorkerIDs[2], seed.JobRequestW2ID))
	require.NoError(t, f.StartJob(w2Paid))
	require.NoError(t, f.Complete(w2Paid))
	require.NoError(t, f.Approve(w2Paid))
	require.NoError(t, f.PayW2(w2Paid, "PAY-1"))
	f.Advance(time.Hour + 500*time.Millisecond)
	w2Approved := idOf(f.createJob(seed.WorkerIDs[3], seed.JobRequestW2ID))
	require.NoError(t, f.StartJob(w2Approved))
	require.NoError(t, f.Complete(w2Approved))
	require.NoError(t, f.Approve(w2Approved))
	f.Advance(time.Hour)
	w2Filled := idOf(f.createJob(seed.WorkerIDs[4], seed.JobRequestW2ID))
	filled1099 := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID))
	pending, err := f.Apply(seed.PendingJobRequestID, seed.WorkerIDs[5])
	require.NoError(t, err)

	secondHour := start.Add(time.Hour + 500*time.Millisecond)
	for name, tc := range map[string]struct {
		kv   []string
		want []int64
	}{
		"state":                    {[]string{"state", "filled"}, []int64{filled1099, w2Filled, seed.PublicJobID}},
		"states":                   {[]string{"state", "pending,approved"}, []int64{pending, w2Approved, w2Paid}},
		"unknown state":            {[]string{"state", "exploded"}, nil},
		"job_request_id":           {[]string{"job_request_id", strconv.FormatInt(seed.JobRequestW2ID, 10)}, []int64{w2Filled, w2Approved, w2Paid}},
		"classification":           {[]string{"classification", "1099"}, []int64{pending, filled1099, seed.PublicJobID}},
		"w2_hourly_rate":           {[]string{"w2_hourly_rate", "22.750"}, []int64{w2Filled, w2Approved, w2Paid}},
		"other w2_hourly_rate":     {[]string{"w2_hourly_rate", "18.5"}, nil},
		"w2_pay_status":            {[]string{"w2_pay_status", "not_started"}, []int64{w2Filled}},
		"w2_pay_status pending":    {[]string{"w2_pay_status", "pending"}, []int64{w2Approved}},
		"w2_pay_status paid":       {[]string{"w2_pay_status", "paid"}, []int64{w2Paid}},
		"updated_after":            {[]string{"updated_after", secondHour.Format(time.RFC3339Nano)}, []int64{pending, filled1099, w2Filled, w2Approved}},
		"updated_after offset":     {[]string{"updated_after", secondHour.Add(time.Hour).In(time.FixedZone("", 2*3600)).Format(time.RFC3339)}, []int64{pending, filled1099, w2Filled}},
		"updated_before":           {[]string{"updated_before", secondHour.Format(time.RFC3339Nano)}, []int64{w2Paid, seed.PublicJobID}},
		"updated between":          {[]string{"updated_after", start.Add(time.Minute).Format(time.RFC3339), "updated_before", start.Add(2 * time.Hour).Format(time.RFC3339)}, []int64{w2Approved}},
		"combined":                 {[]string{"classification", "w2", "state", "filled"}, []int64{w2Filled}},
		"empty value is no filter": {[]string{"state", ""}, []int64{pending, filled1099, w2Filled, w2Approved, w2Paid, seed.PublicJobID}},
	} {
		t.Run(name, func(t *testing.T) {
			status, body := f.get("/api_v2/jobs", f.private, tc.kv...)
			require.Equal(t, http.StatusOK, status, body)
			want := tc.want
			if want == nil {
				want = []int64{}
			}
			assert.Equal(t, want, listIDs(t, body, "jobs"))
		})
	}
}

func TestListFilterErrors(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for _, kv := range [][]string{
		{"updated_after", "yesterday"}, {"updated_before", "2026-01-01"}, {"updated_after", "2026-01-01T00:00:00 01:00"},
		{"job_request_id", "abc"}, {"w2_hourly_rate", "lots"},
	} {
		status, body := f.get("/api_v2/jobs", f.private, kv...)
		require.Equal(t, http.StatusUnprocessableEntity, status, kv)
		assert.Contains(t, fieldErrors(t, body), kv[0], kv)
	}
}
