package workforce_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// The syncs of Job Requests and Users against the fake: everything first,
// then nothing, then exactly what changed.
func TestE2ESyncJobRequestsAndUsers(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	ids := func(seq func(yield func(int64, error) bool)) map[int64]int {
		got := map[int64]int{}
		for id, err := range seq {
			require.NoError(t, err)
			got[id]++
		}
		return got
	}
	var jrMark, userMark time.Time
	jrSync := func() map[int64]int {
		return ids(func(yield func(int64, error) bool) {
			for jr, err := range c.JobRequests.Sync(ctx, &jrMark, nil) {
				if !yield(idOf(jr), err) {
					return
				}
			}
		})
	}
	userSync := func() map[int64]int {
		return ids(func(yield func(int64, error) bool) {
			for u, err := range c.Users.Sync(ctx, &userMark, nil) {
				if !yield(userID(u), err) {
					return
				}
			}
		})
	}

	var allJRs, allUsers int
	for _, err := range c.JobRequests.All(ctx, nil) {
		require.NoError(t, err)
		allJRs++
	}
	for _, err := range c.Users.All(ctx, nil) {
		require.NoError(t, err)
		allUsers++
	}
	first := jrSync()
	assert.Len(t, first, allJRs)
	for id, n := range first {
		assert.Equal(t, 1, n, "job request %d yielded once", id)
	}
	assert.Len(t, userSync(), allUsers)

	srv.Advance(time.Minute)
	assert.Empty(t, jrSync(), "no change, nothing yielded")
	assert.Empty(t, userSync())

	srv.Advance(time.Minute)
	_, _, err := c.Users.Update(ctx, seed.WorkerIDs[2], &workforce.UserUpdate{City: "Glendale"})
	require.NoError(t, err)
	_, _, err = c.JobRequests.Cancel(ctx, seed.DraftJobRequestID)
	require.NoError(t, err)
	srv.Advance(time.Minute)
	assert.Equal(t, map[int64]int{seed.DraftJobRequestID: 1}, jrSync())
	assert.Equal(t, map[int64]int{seed.WorkerIDs[2]: 1}, userSync())
}

func idOf(jr *workforce.JobRequest) int64 {
	if jr == nil {
		return 0
	}
	return jr.ID
}

func userID(u *workforce.User) int64 {
	if u == nil {
		return 0
	}
	return u.ID
}
