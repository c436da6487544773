package feed_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// Backlog tells an operator what waits: how many changes, the oldest (as
// the handler gets it) and its age, the changes held and by whom, and the
// sync's watermarks.
func TestBacklog(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fake := workforcetest.NewServer(t)
	c, err := fake.Client()
	require.NoError(t, err)
	store := feed.NewMemoryStore()
	f, err := feed.New(c, "", func(context.Context, *feed.Change) error { return nil }, feed.WithStore(store))
	require.NoError(t, err)
	b, err := f.Backlog(ctx)
	require.NoError(t, err)
	assert.Equal(t, feed.Backlog{}, b, "nothing queued, no sync made")

	require.NoError(t, f.IngestJob(ctx, job(7, "1:filled", "2:in_progress")))
	require.NoError(t, f.IngestJobRequest(ctx, jobRequest(3, "posted", 0)))
	b, err = f.Backlog(ctx)
	require.NoError(t, err)
	assert.EqualValues(t, 3, b.Waiting)
	require.NotNil(t, b.Oldest)
	assert.Equal(t, feed.KindJob, b.Oldest.Kind)
	assert.EqualValues(t, 7, b.Oldest.ResourceID)
	assert.EqualValues(t, 1, b.Oldest.Seq)
	assert.Equal(t, "filled", b.Oldest.To)
	assert.NotNil(t, b.Oldest.Job, "with its copy")
	assert.Zero(t, b.Oldest.Attempt, "not claimed yet")
	assert.GreaterOrEqual(t, b.OldestAge, time.Duration(0))
	assert.Less(t, b.OldestAge, time.Minute)
	assert.Nil(t, b.Held)

	claims, err := store.Claim(ctx, 4, time.Hour)
	require.NoError(t, err)
	require.Len(t, claims, 2, "job 7's first change and the Job Request's")
	b, err = f.Backlog(ctx)
	require.NoError(t, err)
	assert.EqualValues(t, 3, b.Waiting, "held changes wait too")
	assert.Equal(t, 1, b.Oldest.Attempt)
	require.Len(t, b.Held, 1, "one process")
	for name, n := range b.Held {
		assert.NotEmpty(t, name)
		assert.EqualValues(t, 2, n)
	}
	require.NoError(t, store.Ack(ctx, claims[0]))
	b, err = f.Backlog(ctx)
	require.NoError(t, err)
	assert.EqualValues(t, 2, b.Waiting)

	require.NoError(t, f.Sync(ctx))
	b, err = f.Backlog(ctx)
	require.NoError(t, err)
	for _, w := range []feed.Watermark{b.Jobs, b.JobRequests} {
		assert.False(t, w.At.IsZero(), "a sync completed")
		assert.WithinDuration(t, fake.Now(), w.At, time.Minute)
		assert.InDelta(t, float64(time.Since(w.At)), float64(w.Age), float64(time.Second))
	}
}

// A store that tells no backlog answers errors.ErrUnsupported.
func TestBacklogOfAStoreThatTellsNone(t *testing.T) {
	t.Parallel()
	f, err := feed.New(nil, "", func(context.Context, *feed.Change) error { return nil },
		feed.WithStore(struct{ feed.Store }{feed.NewMemoryStore()}))
	require.NoError(t, err)
	_, err = f.Backlog(context.Background())
	assert.ErrorIs(t, err, errors.ErrUnsupported)
}

// busyLocker is a MemoryStore whose sync lock another holds while busy
// is set; each TryLockSync is told on tried.
type busyLocker struct {
	*feed.MemoryStore
	busy  atomic.Bool
	tried chan struct{}
}

func (l *busyLocker) TryLockSync(context.Context) (func(), bool, error) {
	select {
	case l.tried <- struct{}{}:
	default:
	}
	if l.busy.Load() {
		return nil, false, nil
	}
	return func() {}, true, nil
}

// waitingLocker is a SyncWaiter whose lock another holds until release
// is closed.
type waitingLocker struct {
	busyLocker
	release chan struct{}
	waiting chan struct{}
}

func (l *waitingLocker) LockSync(ctx context.Context) (func(), error) {
	close(l.waiting)
	select {
	case <-l.release:
		return func() {}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// SyncNow waits for a sync under way, where Sync answers ErrSyncBusy: on
// a SyncWaiter, for its lock; on another SyncLocker, asking again every
// poll interval. Its context ends the wait.
func TestSyncNowWaitsForTheSyncUnderWay(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fake := workforcetest.NewServer(t)
	c, err := fake.Client()
	require.NoError(t, err)
	open := func(s feed.Store) *feed.Feed {
		f, err := feed.New(c, "", func(context.Context, *feed.Change) error { return nil }, feed.WithStore(s), feed.WithPoll(10*time.Millisecond))
		require.NoError(t, err)
		return f
	}
	wait := func(ch <-chan struct{}, what string) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(time.Minute):
			t.Fatalf("waiting for %s", what)
		}
	}

	t.Run("SyncLocker", func(t *testing.T) {
		l := &busyLocker{MemoryStore: feed.NewMemoryStore(), tried: make(chan struct{})}
		l.busy.Store(true)
		f := open(l)
		require.ErrorIs(t, f.Sync(ctx), feed.ErrSyncBusy)
		done := make(chan error, 1)
		go func() { done <- f.SyncNow(ctx) }()
		wait(l.tried, "a first try")
		wait(l.tried, "a try again")
		select {
		case err := <-done:
			t.Fatalf("SyncNow answered %v while the lock was busy", err)
		default:
		}
		l.busy.Store(false)
		require.NoError(t, <-done)
		assert.EqualValues(t, 1, f.Stats().Syncs)

		l.busy.Store(true)
		gone, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		assert.ErrorIs(t, f.SyncNow(gone), context.DeadlineExceeded)
	})
	t.Run("SyncWaiter", func(t *testing.T) {
		l := &waitingLocker{busyLocker: busyLocker{MemoryStore: feed.NewMemoryStore(), tried: make(chan struct{})},
			release: make(chan struct{}), waiting: make(chan struct{})}
		l.busy.Store(true)
		f := open(l)
		done := make(chan error, 1)
		go func() { done <- f.SyncNow(ctx) }()
		wait(l.waiting, "SyncNow to wait for the lock")
		select {
		case err := <-done:
			t.Fatalf("SyncNow answered %v while the lock was held", err)
		default:
		}
		close(l.release)
		require.NoError(t, <-done)
		assert.EqualValues(t, 1, f.Stats().Syncs)
	})
	t.Run("NoClient", func(t *testing.T) {
		f, err := feed.New(nil, "", func(context.Context, *feed.Change) error { return nil })
		require.NoError(t, err)
		assert.ErrorIs(t, f.SyncNow(ctx), feed.ErrNoClient)
	})
}
