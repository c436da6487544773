package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
	"github.com/workforce-marketplace/workforce-go/feed/postgres"
)

func TestStore(t *testing.T) {
	t.Parallel()
	feedtest.TestStore(t, func(t *testing.T) feed.Store { return store(t, database(t)) })
}

// queue answers an Update function that queues one change (Seq 1) of a
// resource that had none.
func queue(data string) func([]byte) ([]byte, []feed.Queued, error) {
	return func([]byte) ([]byte, []feed.Queued, error) {
		return []byte("r"), []feed.Queued{{Seq: 1, Data: []byte(data)}}, nil
	}
}

// A lease renewed while a TxHandler's transaction holds the change is not
// lost: the renewal waits for the transaction and, once it committed,
// answers nil, even before TxHandler returns (outside attack 7, A7-7).
func TestExtendDuringTxHandler(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := database(t).Config().Copy()
	var afterCommit atomic.Pointer[func()]
	cfg.ConnConfig.Tracer = commitHook{&afterCommit}
	db, err := pgxpool.NewWithConfig(ctx, cfg)
	require.NoError(t, err)
	t.Cleanup(db.Close)
	s := store(t, db)
	r := feed.Resource{Kind: feed.KindJob, ID: 1}
	require.NoError(t, s.Update(ctx, r, queue("one")))
	got, err := s.Claim(ctx, 1, time.Hour)
	require.NoError(t, err)
	require.Len(t, got, 1)
	extended := make(chan error, 1)
	var extendErr error
	hook := func() { extendErr = <-extended } // TxHandler's commit answered: the renewal's first
	afterCommit.Store(&hook)
	h := s.TxHandler(func(ctx context.Context, tx pgx.Tx, _ *feed.Change) error {
		go func() { extended <- s.Extend(context.Background(), got[0], time.Hour) }()
		// Until the renewal waits for this transaction's row lock.
		for waiting := 0; waiting == 0; {
			if err := tx.QueryRow(ctx, "SELECT count(*) FROM pg_locks WHERE NOT granted AND pg_backend_pid() = ANY(pg_blocking_pids(pid))").Scan(&waiting); err != nil {
				return err
			}
		}
		return nil
	})
	hctx, cancel := context.WithTimeout(ctx, time.Minute) // bounds the wait
	defer cancel()
	require.NoError(t, h(hctx, &feed.Change{Kind: r.Kind, ResourceID: r.ID, Seq: 1}))
	assert.NoError(t, extendErr, "acknowledged in the handler's transaction")
}

// commitHook calls the func *f holds, if any, each time a COMMIT was
// answered, before its caller learns it.
type commitHook struct{ f *atomic.Pointer[func()] }

func (h commitHook) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	return ctx
}

func (h commitHook) TraceQueryEnd(_ context.Context, _ *pgx.Conn, d pgx.TraceQueryEndData) {
	if f := h.f.Load(); f != nil && d.CommandTag.String() == "COMMIT" {
		(*f)()
	}
}

// One instance syncs at a time: the sync lock is refused to a second
// Store on the same database while the first holds it, and taken again
// once released, or once its holder's connections end.
func TestOneSyncAtATime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	a, b := store(t, db), store(t, db)
	var _ feed.SyncLocker = a
	unlock, ok, err := a.TryLockSync(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	_, ok, err = b.TryLockSync(ctx)
	require.NoError(t, err)
	assert.False(t, ok, "a holds it")
	unlock()
	unlockB, ok, err := b.TryLockSync(ctx)
	require.NoError(t, err)
	require.True(t, ok, "a released it")
	unlockB()

	// A holder that dies: its pool's connections close.
	other := database(t) // another schema: another lock
	c := store(t, other)
	unlockC, ok, err := c.TryLockSync(ctx)
	require.NoError(t, err)
	require.True(t, ok, "schemas have locks of their own")
	defer unlockC()

	d := store(t, db)
	unlockD, ok, err := d.TryLockSync(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	defer unlockD() // gives its dead connection back to the pool
	_, ok, err = a.TryLockSync(ctx)
	require.NoError(t, err)
	assert.False(t, ok, "d holds it")
	// d's instance dies: the session holding the lock ends (the timeout
	// waits until it has, up to a minute: a signalled backend takes a
	// moment to exit and let its locks go).
	_, err = db.Exec(ctx, `SELECT pg_terminate_backend(pid, 60000) FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid()
		  AND classid = hashtext('workforce_feed sync')::oid AND objid = hashtext(current_schema())::oid`)
	require.NoError(t, err)
	unlock, ok, err = a.TryLockSync(ctx)
	require.NoError(t, err)
	require.True(t, ok, "released with d's connection")
	unlock()
}

// Close answers every Update and Ack under way (errClosed when its batch
// did not run): none waits forever.
func TestCloseStrandsNoUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	for round := range 3 {
		s, err := postgres.New(ctx, db)
		require.NoError(t, err)
		var wg sync.WaitGroup
		for i := range 200 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_ = s.Update(ctx, feed.Resource{Kind: feed.KindJob, ID: int64(round*1000 + i + 1)}, queue("x"))
			}()
		}
		s.Close()
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatalf("round %d: Updates still blocked a minute after Close", round)
		}
	}
}

// schemaName answers a new schema name that does not exist yet, dropped
// (if made) when the test ends, or skips the test when no server is
// configured or reachable.
func schemaName(t *testing.T) string {
	t.Helper()
	database(t) // skips without a server
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "feedopen_" + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		ctx := context.Background()
		if c, err := pgx.Connect(ctx, os.Getenv(dsnVar)); err == nil {
			_, _ = c.Exec(ctx, "DROP SCHEMA IF EXISTS "+name+" CASCADE")
			c.Close(ctx)
		}
	})
	return name
}

// Open's pool has room for the Store's own work beside busy TxHandlers
// (the default pgx pool, 4 on two cores, let 4 workers' TxHandlers stall
// every ingest): MinConns plus the Feed's workers (DefaultWorkers unless
// WithWorkers says); WithPoolSize, or else a DSN that sizes the pool, is
// obeyed.
func TestOpenSizesThePool(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	schema := schemaName(t)
	dsn := os.Getenv(dsnVar)
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	for _, tc := range []struct {
		name string
		dsn  string
		opts []postgres.Option
		want int
	}{
		{"default", dsn, nil, postgres.MinConns + postgres.DefaultWorkers},
		{"WithWorkers", dsn, []postgres.Option{postgres.WithWorkers(10)}, postgres.MinConns + 10},
		{"DSN", dsn + sep + "pool_max_conns=5", []postgres.Option{postgres.WithWorkers(10)}, 5},
		{"WithPoolSize", dsn + sep + "pool_max_conns=5", []postgres.Option{postgres.WithPoolSize(7)}, 7},
	} {
		s, err := postgres.Open(ctx, tc.dsn, append(tc.opts, postgres.WithSchema(schema))...)
		require.NoError(t, err, tc.name)
		assert.EqualValues(t, tc.want, s.Pool().Config().MaxConns, tc.name)
		s.Close()
	}
	for _, bad := range []postgres.Option{postgres.WithWorkers(0), postgres.WithPoolSize(-1), postgres.WithSchema("")} {
		_, err := postgres.Open(ctx, dsn, bad)
		assert.Error(t, err)
	}
}

// WithSchema keeps a Store's tables in a schema of its own, created when
// missing: Stores of two schemas on one database share no change, no
// mark, and no sync lock.
func TestOpenWithSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	one, two := schemaName(t), schemaName(t)
	open := func(schema string) *postgres.Store {
		s, err := postgres.Open(ctx, os.Getenv(dsnVar), postgres.WithSchema(schema))
		require.NoError(t, err)
		t.Cleanup(s.Close)
		return s
	}
	a, a2, b := open(one), open(one), open(two)
	var tables int
	require.NoError(t, a.Pool().QueryRow(ctx, "SELECT count(*) FROM information_schema.tables WHERE table_schema = $1", one).Scan(&tables))
	assert.Equal(t, 4, tables, "the tables are in the schema")
	require.NoError(t, a.Update(ctx, job(1), queue("x")))
	require.NoError(t, a.SetMark(ctx, "m", time.Now()))
	got, err := b.Claim(ctx, 4, time.Minute)
	require.NoError(t, err)
	assert.Empty(t, got, "another schema's change")
	m, err := b.Mark(ctx, "m")
	require.NoError(t, err)
	assert.True(t, m.IsZero(), "another schema's mark")
	got, err = a2.Claim(ctx, 4, time.Minute)
	require.NoError(t, err)
	assert.Len(t, got, 1, "the same schema's change")

	unlock, ok, err := a.TryLockSync(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	defer unlock()
	_, ok, err = a2.TryLockSync(ctx)
	require.NoError(t, err)
	assert.False(t, ok, "the same schema's sync lock is held")
	unlockB, ok, err := b.TryLockSync(ctx)
	require.NoError(t, err)
	assert.True(t, ok, "another schema's sync lock is free")
	if ok {
		unlockB()
	}
}

// Two Stores on one database update the same few resources from many
// goroutines at once, while each claims and acknowledges what it can: the
// writes that lose a race to the other Store are made again (with the
// later updates of their resource); so are those made on the state a
// Store last saw (guessed, see Update), which the other Store changed
// meanwhile, often; and acknowledgments commit with the
// writes of the same cycle. Every update is kept (the record counts them),
// each resource's changes are handed over once each, in Seq order.
func TestRacingStoresKeepEveryUpdateInOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	stores := []*postgres.Store{store(t, db), store(t, db)}
	const resources, goroutines, updates = 3, 4, 40
	var wg sync.WaitGroup
	for _, s := range stores {
		for g := range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range updates {
					r := feed.Resource{Kind: feed.KindJob, ID: int64((g+i)%resources + 1)}
					if err := s.Update(ctx, r, count); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
	}
	var mu sync.Mutex
	next := map[int64]int64{} // each resource's next Seq to hand over
	handed := 0
	stop := make(chan struct{})
	var claimers sync.WaitGroup
	for _, s := range stores {
		claimers.Add(1)
		go func() {
			defer claimers.Done()
			for {
				cs, err := s.Claim(ctx, 4, time.Minute)
				if err != nil {
					t.Error(err)
					return
				}
				for _, c := range cs {
					mu.Lock()
					if want := next[c.Resource.ID] + 1; c.Seq != want {
						t.Errorf("%d #%d handed over, want #%d", c.Resource.ID, c.Seq, want)
					}
					next[c.Resource.ID] = c.Seq
					handed++
					mu.Unlock()
					if err := s.Ack(ctx, c); err != nil {
						t.Error(err)
					}
				}
				if len(cs) == 0 {
					select {
					case <-stop:
						return
					case <-time.After(10 * time.Millisecond):
					}
				}
			}
		}()
	}
	wg.Wait()
	total := len(stores) * goroutines * updates
	for deadline := time.Now().Add(time.Minute); ; {
		mu.Lock()
		n := handed
		mu.Unlock()
		if n == total || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(stop)
	claimers.Wait()
	assert.Equal(t, total, handed)
	var sum int64
	rows, err := db.Query(ctx, "SELECT convert_from(record, 'UTF8')::bigint FROM workforce_feed_resources")
	require.NoError(t, err)
	for rows.Next() {
		var n int64
		require.NoError(t, rows.Scan(&n))
		sum += n
	}
	require.NoError(t, rows.Err())
	assert.EqualValues(t, total, sum, "every update kept")
	var left int
	require.NoError(t, db.QueryRow(ctx, "SELECT count(*) FROM workforce_feed_changes").Scan(&left))
	assert.Zero(t, left)
	// Each Store guesses the state it last saw, which the other changes:
	// its guesses were often wrong, and lost their writes.
	for i, s := range stores {
		guessed, wrong := postgres.GuessStats(s)
		t.Logf("store %d: %d updates made on a guess, %d of them wrong", i, guessed, wrong)
		assert.Positive(t, wrong)
	}
}

// A Job's next change is handed over once the one before it is
// acknowledged, by the handler's return or in its transaction
// (TxHandler), not at the next poll: an acknowledgment in a TxHandler's
// transaction told the Store nothing, and the next change waited for the
// Feed's poll (3, 701 and 1,701 ms for three changes).
func TestTheNextChangeIsHandedOverAtOnce(t *testing.T) {
	t.Parallel()
	for _, tx := range []bool{false, true} {
		t.Run(map[bool]string{false: "Handler", true: "TxHandler"}[tx], func(t *testing.T) {
			t.Parallel()
			s := store(t, database(t))
			var wrap func(feed.Handler) feed.Handler
			if tx {
				wrap = func(h feed.Handler) feed.Handler {
					return s.TxHandler(func(ctx context.Context, _ pgx.Tx, c *feed.Change) error { return h(ctx, c) })
				}
			}
			at := feedtest.Follow(t, s, 1, wrap, time.Second)
			t.Logf("one copy revealing three changes: handed over at %v", at)
		})
	}
}
