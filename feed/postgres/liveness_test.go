package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/postgres"
)

// claimWithin claims from s every 20 ms until it answers a change or
// bound passes, and answers it and how long it took.
func claimWithin(t *testing.T, s *postgres.Store, bound time.Duration) ([]feed.Claim, time.Duration) {
	t.Helper()
	start := time.Now()
	for time.Since(start) < bound {
		cs, err := s.Claim(context.Background(), 1, time.Minute)
		require.NoError(t, err)
		if len(cs) > 0 {
			return cs, time.Since(start)
		}
		time.Sleep(20 * time.Millisecond) // polling the database for a bounded while
	}
	return nil, time.Since(start)
}

// A change claimed by an instance that dies (its lock's connection
// closes abruptly) goes to another within seconds, not after the lease
// (a minute); while its instance lives, no one takes it.
func TestADeadInstancesChangesGoToAnotherInSeconds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := database(t)
	a, b := store(t, pool), store(t, pool)
	r := feed.Resource{Kind: feed.KindJob, ID: 1}
	require.NoError(t, a.Update(ctx, r, func([]byte) ([]byte, []feed.Queued, error) {
		return []byte("r"), []feed.Queued{{Seq: 1, Data: []byte("one")}}, nil
	}))
	held, _ := claimWithin(t, a, 5*time.Second)
	require.Len(t, held, 1)
	got, _ := claimWithin(t, b, 3*time.Second) // three looks for dead instances
	require.Empty(t, got, "taken from a live instance")
	postgres.Kill(a)
	got, took := claimWithin(t, b, 90*time.Second)
	require.Len(t, got, 1, "never taken from the dead instance")
	t.Logf("a dead instance's change went to another after %v (lease: 1m0s)", took)
	require.Less(t, took, 10*time.Second)
	require.Equal(t, 2, got[0].Attempt)
	require.ErrorIs(t, a.Ack(ctx, held[0]), feed.ErrLeaseLost)
	require.NoError(t, b.Ack(ctx, got[0]))
}

// An instance whose lock's connection fails takes its lock again within
// seconds.
func TestAnInstanceTakesItsLockAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := database(t)
	a := store(t, pool)
	locked := func() bool {
		var n int
		require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted
			AND classid = hashtext('workforce_feed instance')::oid AND objid = hashtext($1)::oid`, postgres.Name(a)).Scan(&n))
		return n == 1
	}
	wait := func(want bool) {
		deadline := time.Now().Add(30 * time.Second)
		for locked() != want {
			require.True(t, time.Now().Before(deadline), "the lock held: %v after 30s", !want)
			time.Sleep(20 * time.Millisecond) // polling the database for a bounded while
		}
	}
	wait(true)
	postgres.DropLock(a)
	wait(false) // the server ended the session
	start := time.Now()
	wait(true)
	t.Logf("lock taken again after %v", time.Since(start))
}
