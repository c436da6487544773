package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
	"github.com/workforce-marketplace/workforce-go/feed/sqlite"
)

// open opens a store on a new file that the test closes.
func open(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStore(t *testing.T) {
	t.Parallel()
	feedtest.TestStore(t, func(t *testing.T) feed.Store {
		s := open(t, filepath.Join(t.TempDir(), "feed.db"))
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// queueTwo queues a resource's first two changes.
func queueTwo([]byte) ([]byte, []feed.Queued, error) {
	return []byte("r"), []feed.Queued{{Seq: 1, Data: []byte("one")}, {Seq: 2, Data: []byte("two")}}, nil
}

// An Ack whose lease ran out while it waited for the writer, and whose
// change was claimed again meanwhile, deletes nothing and answers
// ErrLeaseLost; the new claim keeps the change, and the resource's next
// change waits for it.
func TestAStaleAckDeletesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "feed.db"))
	t.Cleanup(func() { s.Close() })
	r := feed.Resource{Kind: feed.KindJob, ID: 1}
	require.NoError(t, s.Update(ctx, r, queueTwo))
	old, err := s.Claim(ctx, 1, time.Nanosecond) // its lease runs out at once
	require.NoError(t, err)
	require.Len(t, old, 1)
	gate, entered := make(chan struct{}), make(chan struct{})
	go func() { // the writer is busy with another resource's ingest
		_ = s.Update(ctx, feed.Resource{Kind: feed.KindJob, ID: 99}, func([]byte) ([]byte, []feed.Queued, error) {
			close(entered)
			<-gate
			return nil, nil, nil
		})
	}()
	<-entered
	acked := make(chan error, 1)
	go func() { acked <- s.Ack(ctx, old[0]) }()
	time.Sleep(50 * time.Millisecond) // lets the Ack queue its write (the outcome does not depend on it)
	retaken := make(chan []feed.Claim, 1)
	go func() {
		cs, err := s.Claim(ctx, 2, time.Hour)
		assert.NoError(t, err)
		retaken <- cs
	}()
	time.Sleep(50 * time.Millisecond) // lets the Claim start
	close(gate)
	again, ackErr := <-retaken, <-acked
	if len(again) == 0 {
		require.NoError(t, ackErr, "the Ack came first")
		t.Skip("the Ack's write ran before the Claim: not the interleaving under test")
	}
	require.Len(t, again, 1)
	require.EqualValues(t, 1, again[0].Seq)
	require.ErrorIs(t, ackErr, feed.ErrLeaseLost)
	next, err := s.Claim(ctx, 2, time.Hour)
	require.NoError(t, err)
	assert.Empty(t, next, "seq 2 waits for seq 1")
	require.NoError(t, s.Ack(ctx, again[0]))
}

// firstOfTwoClaimed answers a store of a file of its own with two changes
// of r queued, the first claimed.
func firstOfTwoClaimed(t *testing.T) (*sqlite.Store, feed.Resource, feed.Claim) {
	t.Helper()
	s := open(t, filepath.Join(t.TempDir(), "feed.db"))
	t.Cleanup(func() { s.Close() })
	r := feed.Resource{Kind: feed.KindJob, ID: 1}
	require.NoError(t, s.Update(context.Background(), r, queueTwo))
	cs, err := s.Claim(context.Background(), 1, time.Hour)
	require.NoError(t, err)
	require.Len(t, cs, 1)
	return s, r, cs[0]
}

// A TxHandler's fn that panics fails its change (rolled back, handed over
// again), and neither the process nor the other writes of its batch go
// with it.
func TestATxHandlerPanicIsAnError(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, r, first := firstOfTwoClaimed(t)
	h := s.TxHandler(func(context.Context, *sql.Tx, *feed.Change) error { panic("boom") })
	err := h(ctx, &feed.Change{Kind: r.Kind, ResourceID: r.ID, Seq: 1})
	require.ErrorContains(t, err, "panicked: boom")
	require.NoError(t, s.Release(ctx, first, time.Time{}))
	cs, err := s.Claim(ctx, 1, time.Hour)
	require.NoError(t, err)
	require.Len(t, cs, 1, "handed over again")
	assert.EqualValues(t, 1, cs[0].Seq)
}

// A change acknowledged in a TxHandler's transaction holds its
// resource's next change until the feed's Ack that follows the handler's
// return: work after the transaction is in order per resource too.
func TestATxHandlersNextChangeWaitsForItsAck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, r, first := firstOfTwoClaimed(t)
	h := s.TxHandler(func(context.Context, *sql.Tx, *feed.Change) error { return nil })
	require.NoError(t, h(ctx, &feed.Change{Kind: r.Kind, ResourceID: r.ID, Seq: 1}))
	next, err := s.Claim(ctx, 1, time.Hour)
	require.NoError(t, err)
	require.Empty(t, next, "the handler has not returned")
	require.NoError(t, s.Ack(ctx, first))
	next, err = s.Claim(ctx, 1, time.Hour)
	require.NoError(t, err)
	require.Len(t, next, 1)
	assert.EqualValues(t, 2, next[0].Seq)
	require.NoError(t, s.Ack(ctx, next[0]))
}

// A change handed over by a process that died before its outcome was
// stored comes back after the restart as a second attempt: the handler
// may have seen it, and Change.Attempt must say so.
func TestAttemptsSurviveARestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "feed.db")
	s := open(t, path)
	r := feed.Resource{Kind: feed.KindJob, ID: 1}
	require.NoError(t, s.Update(ctx, r, queueTwo))
	first, err := s.Claim(ctx, 1, time.Minute)
	require.NoError(t, err)
	require.Len(t, first, 1)
	require.Equal(t, 1, first[0].Attempt)
	s.Close() // the process dies mid-handler: no Ack, no Release
	s = open(t, path)
	t.Cleanup(func() { s.Close() })
	again, err := s.Claim(ctx, 2, time.Minute)
	require.NoError(t, err)
	require.Len(t, again, 1, "the resource's second change waits for its first")
	assert.EqualValues(t, 1, again[0].Seq)
	assert.Equal(t, 2, again[0].Attempt)
}

// queuedCtx is a context that tells when it is waited on a second time:
// exec waits on it once to queue its write, then to wait for the write.
type queuedCtx struct {
	context.Context
	waits  atomic.Int32
	queued chan struct{}
}

func (c *queuedCtx) Done() <-chan struct{} {
	if c.waits.Add(1) == 2 {
		close(c.queued)
	}
	return c.Context.Done()
}

// A write queued behind a busy writer (a TxHandler's fn, a slow disk)
// answers as soon as its ctx ends, and is never made: an ingest answers
// its webhook's deadline rather than hanging past it (review i17b #10),
// and leaves nothing half-written.
func TestAQueuedWriteAnswersWhenItsContextEnds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "feed.db"))
	t.Cleanup(func() { s.Close() })
	gate, entered := make(chan struct{}), make(chan struct{})
	release := sync.OnceFunc(func() { close(gate) })
	t.Cleanup(release) // before Close, which waits for the writer
	busy := make(chan error, 1)
	go func() {
		busy <- s.Update(ctx, feed.Resource{Kind: feed.KindJob, ID: 99}, func([]byte) ([]byte, []feed.Queued, error) {
			close(entered)
			<-gate
			return []byte("busy"), nil, nil
		})
	}()
	<-entered
	r := feed.Resource{Kind: feed.KindJob, ID: 1}
	base, cancel := context.WithCancel(ctx)
	wctx := &queuedCtx{Context: base, queued: make(chan struct{})}
	var called atomic.Bool
	answered := make(chan error, 1)
	go func() {
		answered <- s.Update(wctx, r, func(b []byte) ([]byte, []feed.Queued, error) {
			called.Store(true)
			return queueTwo(b)
		})
	}()
	select {
	case <-wctx.queued:
	case <-time.After(time.Minute): // a watchdog: an exec that waits on ctx only to queue
	}
	cancel()
	select {
	case err := <-answered:
		require.ErrorIs(t, err, context.Canceled)
	case <-time.After(time.Minute): // a watchdog: it answers at once
		t.Fatal("a queued write still waited for the writer a minute after its context ended")
	}
	release()
	require.NoError(t, <-busy)
	require.NoError(t, s.Update(ctx, r, func(b []byte) ([]byte, []feed.Queued, error) {
		assert.Nil(t, b, "the dropped write stored a record")
		return nil, nil, nil
	}))
	assert.False(t, called.Load(), "the dropped write ran")
	cs, err := s.Claim(ctx, 10, time.Minute)
	require.NoError(t, err)
	assert.Empty(t, cs, "the dropped write queued changes")
}

// A Job's next change is handed over once the one before it is
// acknowledged, by the handler's return or in its transaction
// (TxHandler), not at the next poll.
func TestTheNextChangeIsHandedOverAtOnce(t *testing.T) {
	t.Parallel()
	for _, tx := range []bool{false, true} {
		t.Run(map[bool]string{false: "Handler", true: "TxHandler"}[tx], func(t *testing.T) {
			t.Parallel()
			s := open(t, filepath.Join(t.TempDir(), "feed.db"))
			t.Cleanup(func() { s.Close() })
			var wrap func(feed.Handler) feed.Handler
			if tx {
				wrap = func(h feed.Handler) feed.Handler {
					return s.TxHandler(func(ctx context.Context, _ *sql.Tx, c *feed.Change) error { return h(ctx, c) })
				}
			}
			at := feedtest.Follow(t, s, 1, wrap, time.Second)
			t.Logf("one copy revealing three changes: handed over at %v", at)
		})
	}
}
