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

// claimOne queues one change of Job 1 in s and claims it from s.
func claimOne(t *testing.T, s *postgres.Store) []feed.Claim {
	t.Helper()
	r := feed.Resource{Kind: feed.KindJob, ID: 1}
	require.NoError(t, s.Update(context.Background(), r, func([]byte) ([]byte, []feed.Queued, error) {
		return []byte("r"), []feed.Queued{{Seq: 1, Data: []byte("one")}}, nil
	}))
	held, _ := claimWithin(t, s, 5*time.Second)
	require.Len(t, held, 1)
	return held
}

// A change claimed by an instance that dies (its lock's connection
// closes abruptly) goes to another within seconds, not after the lease
// (a minute); while its instance lives, no one takes it.
func TestADeadInstancesChangesGoToAnotherInSeconds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := database(t)
	a, b := store(t, pool), store(t, pool)
	held := claimOne(t, a)
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

// An instance whose lock's connection fails takes its lock again, in a
// new session, within seconds; and another instance, looking meanwhile,
// does not take it for dead (its change stays its own).
func TestAnInstanceTakesItsLockAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := database(t)
	a, b := store(t, pool), store(t, pool)
	held := claimOne(t, a)
	holder := func() int { // the session holding a's lock, 0 for none
		var pid int
		err := pool.QueryRow(ctx, `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
			AND classid = hashtext('workforce_feed instance')::oid AND objid = hashtext($1)::oid`, postgres.Name(a)).Scan(&pid)
		if err != nil {
			return 0
		}
		return pid
	}
	first := holder()
	require.NotZero(t, first)
	postgres.DropLock(a)
	start := time.Now()
	for pid := holder(); pid == 0 || pid == first; pid = holder() {
		require.Less(t, time.Since(start), 30*time.Second, "the lock not taken again in a new session")
		time.Sleep(20 * time.Millisecond) // polling the database for a bounded while
	}
	t.Logf("lock taken again after %v", time.Since(start))
	got, _ := claimWithin(t, b, 7*time.Second) // past the grace: a hiccup is no death
	require.Empty(t, got, "taken from an instance whose lock's connection closed and that locked again")
	require.NoError(t, a.Ack(ctx, held[0]))
}

// A change its TxHandler's transaction marked handled is never put back by
// a Release: that transaction committed, whatever its caller saw (a
// context that ended during COMMIT, a reset connection). The Release
// acknowledges it instead, and no claim hands it over again.
func TestAReleaseAfterACommittedTxHandlerAcknowledges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool := database(t)
	s := store(t, pool)
	held := claimOne(t, s)
	// What the TxHandler's transaction does to the change, committed.
	_, err := pool.Exec(ctx, `UPDATE workforce_feed_changes SET ready_at = 'infinity' WHERE lease_token = $1`, held[0].Token)
	require.NoError(t, err)
	require.NoError(t, s.Release(ctx, held[0], time.Now()))
	var n int
	require.NoError(t, pool.QueryRow(ctx, `SELECT count(*) FROM workforce_feed_changes`).Scan(&n))
	require.Zero(t, n, "the handled change is acknowledged, not put back")
}
