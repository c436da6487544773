package postgres_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/postgres"
)

// A change queued while this Store's Feed has idle workers is leased to it
// in the ingest's transaction: the next Claim hands it over (with its
// data, as a first attempt), and no other instance takes it meanwhile.
// Closed before that Claim, the Store gives it back to every instance at
// once, not after the lease.
func TestLeasedAtIngest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	a, b := store(t, db), store(t, db)
	postgres.Hold(a, time.Hour) // not given back (TestLeasedAtIngestUpToAClaimsWorth)
	r := feed.Resource{Kind: feed.KindJob, ID: 1}
	got, err := a.Claim(ctx, 4, time.Hour) // a's Feed has 4 idle workers
	require.NoError(t, err)
	require.Empty(t, got)
	require.NoError(t, a.Update(ctx, r, queue("one")))
	got, err = b.Claim(ctx, 4, time.Hour)
	require.NoError(t, err)
	assert.Empty(t, got, "leased to a at its ingest")
	// Leased for the Feed's lease, as WithLease says, no longer: a crashed
	// instance holds it at most that long (see TestACrashedInstancesChanges).
	var left time.Duration
	require.NoError(t, db.QueryRow(ctx, "SELECT extract(epoch FROM lease_until - now()) * 1e9 FROM workforce_feed_changes").Scan(&left))
	got, err = a.Claim(ctx, 4, time.Hour)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.LessOrEqual(t, left, time.Hour, "leased for one lease at most")
	assert.Greater(t, left, 3*time.Hour/4, "three quarters of it left at least when a Claim hands it over")
	assert.Equal(t, "one", string(got[0].Data))
	assert.Equal(t, 1, got[0].Attempt)
	require.NoError(t, a.Ack(ctx, got[0]))

	r2 := feed.Resource{Kind: feed.KindJob, ID: 2}
	require.NoError(t, a.Update(ctx, r2, queue("two")))
	a.Close()
	got, err = store(t, db).Claim(ctx, 4, time.Hour)
	require.NoError(t, err)
	require.Len(t, got, 1, "given back when a closed")
	assert.Equal(t, r2, got[0].Resource)
	assert.Equal(t, 1, got[0].Attempt)
}

// A Store leases a change to itself at its ingest while its Feed has up
// to one Claim's worth (the most a Claim asked for) beyond its idle
// workers waiting: its next Claim hands them over without the database.
// A worker is idle again once it acknowledged its change. What no Claim
// took within 100 ms goes back to every instance.
func TestLeasedAtIngestUpToAClaimsWorth(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	a := store(t, db)
	postgres.Hold(a, time.Hour)
	// other claims as another instance would, asking the database.
	other := func() []feed.Claim {
		got, err := store(t, db).Claim(ctx, 4, time.Hour)
		require.NoError(t, err)
		return got
	}
	job := func(id int64) feed.Resource { return feed.Resource{Kind: feed.KindJob, ID: id} }
	ids := func(cs []feed.Claim) (out []int64) {
		for _, c := range cs {
			out = append(out, c.Resource.ID)
		}
		return out
	}
	update := func(from, to int64) {
		for id := from; id <= to; id++ {
			require.NoError(t, a.Update(ctx, job(id), queue("x")))
		}
	}
	update(1, 2)
	busy, err := a.Claim(ctx, 2, time.Hour) // a's Feed has 2 workers, both busy now
	require.NoError(t, err)
	require.Len(t, busy, 2)
	update(3, 5)
	assert.Equal(t, []int64{5}, ids(other()), "3 and 4 wait for a's workers, one Claim's worth")

	require.NoError(t, a.Ack(ctx, busy[0]))
	update(6, 7)
	assert.Equal(t, []int64{7}, ids(other()), "one worker of a idle again: 6 is leased to a too")
	got, err := a.Claim(ctx, 3, time.Hour)
	require.NoError(t, err)
	assert.Equal(t, []int64{3, 4, 6}, ids(got))

	// A change leased to a Store that no Claim of its takes within 100 ms
	// (its workers busy) goes back to every instance.
	g := store(t, db)
	busy, err = g.Claim(ctx, 1, time.Hour)
	require.NoError(t, err)
	require.Empty(t, busy)
	require.NoError(t, g.Update(ctx, job(8), queue("x")))
	var back []feed.Claim
	for deadline := time.Now().Add(10 * time.Second); len(back) == 0 && time.Now().Before(deadline); {
		back = other()
	}
	assert.Equal(t, []int64{8}, ids(back), "given back to every instance")
	assert.Equal(t, 1, back[0].Attempt, "a lease given back is no attempt")
	got, err = g.Claim(ctx, 1, time.Hour)
	require.NoError(t, err)
	assert.Empty(t, got, "given back, no longer g's")
}

// giveBackCommitsThenFails makes every give-back of changes leased at
// ingest fail for its caller, the first after it committed (on another
// pool): what a connection lost, or a context ending, between the
// server's commit and its answer looks like.
type giveBackCommitsThenFails struct {
	other *pgxpool.Pool
	fired atomic.Int32
}

func (h *giveBackCommitsThenFails) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if !strings.Contains(d.SQL, "attempts = c.attempts - 1") {
		return ctx
	}
	if h.fired.Add(1) == 1 {
		if _, err := h.other.Exec(context.Background(), d.SQL, d.Args...); err != nil {
			panic(err)
		}
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	return done
}

func (h *giveBackCommitsThenFails) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// A give-back that committed but answered an error keeps its changes
// only to renew them before a Claim hands them over: every instance may
// have claimed them already (found by an outside review).
func TestAGiveBackThatFailsAfterItsCommitHandsOverOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	cfg := db.Config().Copy()
	hook := &giveBackCommitsThenFails{other: db}
	cfg.ConnConfig.Tracer = hook
	traced, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(traced.Close)
	a, b := store(t, traced), store(t, db)
	got, err := a.Claim(ctx, 1, time.Hour) // a's Feed: one idle worker
	require.NoError(t, err)
	require.Empty(t, got)
	require.NoError(t, a.Update(ctx, feed.Resource{Kind: feed.KindJob, ID: 1}, queue("x")))
	for deadline := time.Now().Add(10 * time.Second); hook.fired.Load() == 0 || postgres.Local(a) == 0; {
		require.True(t, time.Now().Before(deadline), "no failed give-back within 10 s")
		time.Sleep(time.Millisecond)
	}
	fromB, err := b.Claim(ctx, 1, time.Hour)
	require.NoError(t, err)
	require.Len(t, fromB, 1, "given back in the database")
	fromA, err := a.Claim(ctx, 1, time.Hour)
	require.NoError(t, err)
	assert.Empty(t, fromA, "handed over by b already")
}

// A Claim that fails keeps the changes leased to its Store at their ingest
// that it took: its renewal failing, the fresh ones too (found by an
// outside attack: they waited out their lease, handed over by none).
func TestAFailedClaimKeepsTheChangesItTook(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	a := store(t, db)
	postgres.Hold(a, time.Hour) // given back only when the test says
	const lease = time.Minute
	_, err := a.Claim(ctx, 4, lease)
	require.NoError(t, err)
	require.NoError(t, a.Update(ctx, job(1), count))
	postgres.Age(a, lease/2) // to be renewed by the next Claim
	require.NoError(t, a.Update(ctx, job(2), count))
	gone, cancel := context.WithCancel(ctx)
	cancel()
	_, err = a.Claim(gone, 4, lease)
	require.Error(t, err)
	require.Equal(t, 2, postgres.Local(a))

	// Given back (the Feed may be gone), they are every instance's.
	postgres.Age(a, time.Hour)
	postgres.ReturnStale(a)
	got, err := store(t, db).Claim(ctx, 4, lease)
	require.NoError(t, err)
	assert.Len(t, got, 2)
}

// A change leased to an instance at its ingest is held by it for one
// lease, the Feed's (feed.WithLease), when the instance dies before a
// Claim of its hands it over: then another instance claims it. It was
// held a quarter of a lease longer (75 s for the default minute).
func TestACrashedInstancesChangesGoToAnotherAfterOneLease(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	a, b := store(t, db), store(t, db)
	postgres.Hold(a, time.Hour) // a dies: it never gives them back
	const lease = time.Second
	got, err := a.Claim(ctx, 4, lease) // a's Feed: 4 idle workers
	require.NoError(t, err)
	require.Empty(t, got)
	sent := time.Now()   // before the database's before: the bound below holds whatever the delays
	var before time.Time // by the database's clock, as the lease
	require.NoError(t, db.QueryRow(ctx, "SELECT clock_timestamp()").Scan(&before))
	require.NoError(t, a.Update(ctx, job(1), count))
	ingested := time.Now()
	require.Equal(t, 1, postgres.Local(a), "leased to a at its ingest")
	var until time.Time
	require.NoError(t, db.QueryRow(ctx, "SELECT lease_until FROM workforce_feed_changes").Scan(&until))
	assert.LessOrEqual(t, until.Sub(before), lease+ingested.Sub(sent), "leased for more than a lease from its ingest")
	for {
		got, err = b.Claim(ctx, 4, lease)
		require.NoError(t, err)
		if len(got) > 0 {
			break
		}
		require.Less(t, time.Since(ingested), 10*lease, "no other instance took the change")
		time.Sleep(10 * time.Millisecond) // a poll, as a Feed's
	}
	took := time.Since(ingested)
	t.Logf("the change of a crashed instance reached another %v after its ingest (lease %v)", took.Round(time.Millisecond), lease)
	assert.Equal(t, job(1), got[0].Resource)
	var now time.Time
	require.NoError(t, db.QueryRow(ctx, "SELECT now()").Scan(&now))
	assert.False(t, until.After(now), "claimed by b only once a's lease ended")
}
