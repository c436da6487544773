package postgres_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// The acknowledgments of one writer cycle are one statement: each is
// answered as a statement of its own answered it, also among claims whose
// lease went to a later claim of the same change (found by an outside
// review).
func TestAcksOfOneCycleMapToTheirClaims(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := store(t, database(t))
	const n = 40
	for id := int64(1); id <= n; id++ {
		require.NoError(t, s.Update(ctx, feed.Resource{Kind: feed.KindJob, ID: id}, queue("x")))
	}
	first, err := s.Claim(ctx, n, time.Millisecond) // leases that end at once
	require.NoError(t, err)
	require.Len(t, first, n)
	var second []feed.Claim
	for deadline := time.Now().Add(10 * time.Second); len(second) < n/2; {
		require.True(t, time.Now().Before(deadline), "claimed %d again in 10 s", len(second))
		got, err := s.Claim(ctx, n/2-len(second), time.Hour)
		require.NoError(t, err)
		second = append(second, got...)
	}
	later, token := map[int64]bool{}, map[string]bool{}
	for _, c := range second {
		later[c.Resource.ID], token[c.Token] = true, true
	}
	type result struct {
		c   feed.Claim
		err error
	}
	results := make(chan result, 2*n)
	var wg sync.WaitGroup
	for _, c := range append(append([]feed.Claim{}, first...), second...) {
		wg.Add(1)
		go func() { defer wg.Done(); results <- result{c, s.Ack(ctx, c)} }()
	}
	wg.Wait()
	close(results)
	for r := range results {
		switch {
		case token[r.c.Token]:
			assert.NoError(t, r.err, "job %d, the later claim", r.c.Resource.ID)
		case later[r.c.Resource.ID]:
			assert.ErrorIs(t, r.err, feed.ErrLeaseLost, "job %d, the earlier claim", r.c.Resource.ID)
		default: // its lease ended, but no other claim took it: still its token
			assert.NoError(t, r.err, "job %d, a claim no other took over", r.c.Resource.ID)
		}
	}
	var left int
	require.NoError(t, s.Pool().QueryRow(ctx, "SELECT count(*) FROM workforce_feed_changes").Scan(&left))
	assert.Zero(t, left)
}

// The settings of the Store's transactions (plan_cache_mode, the claim's
// joins) end with them, also when a statement of the writer's batch
// fails: no connection the pool hands the caller afterwards has them
// (found by an outside review).
func TestTheStoresSettingsEndWithItsTransactions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	s := store(t, db)
	_, err := db.Exec(ctx, `CREATE FUNCTION refuse_666() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN IF OLD.id = 666 THEN RAISE EXCEPTION 'refused'; END IF; RETURN OLD; END $$;
		CREATE TRIGGER refuse_666 BEFORE DELETE ON workforce_feed_changes FOR EACH ROW EXECUTE FUNCTION refuse_666()`)
	require.NoError(t, err)
	for _, id := range []int64{1, 2, 3, 666} {
		require.NoError(t, s.Update(ctx, feed.Resource{Kind: feed.KindJob, ID: id}, queue("x")))
	}
	other := store(t, db) // claims from the database
	got, err := other.Claim(ctx, 4, time.Hour)
	require.NoError(t, err)
	require.Len(t, got, 4)
	var failed atomic.Int32
	var wg sync.WaitGroup
	for _, c := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if other.Ack(ctx, c) != nil {
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	require.NotZero(t, failed.Load(), "the refused delete failed its batch")
	require.NoError(t, s.Update(ctx, feed.Resource{Kind: feed.KindJob, ID: 7}, queue("x"))) // a cycle that commits
	s.Close()
	other.Close() // their connections idle in the pool
	conns := db.AcquireAllIdle(ctx)
	require.NotEmpty(t, conns)
	for _, c := range conns {
		var settings string
		err := c.QueryRow(ctx, `SELECT concat_ws(' ', current_setting('plan_cache_mode'), current_setting('enable_hashjoin'),
			current_setting('enable_mergejoin'), current_setting('synchronous_commit'))`).Scan(&settings)
		require.NoError(t, err)
		assert.Equal(t, "auto on on on", settings)
		c.Release()
	}
}
