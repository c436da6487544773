package postgres_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// Backlog names the instance holding each change: two Stores sharing a
// database, each holding one, show as two holders, each its host and pid
// and an id of its own; either Store tells both.
func TestBacklogTellsTheHoldersApart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	a, b := store(t, db), store(t, db)
	require.NoError(t, a.Update(ctx, job(1), count))
	require.NoError(t, a.Update(ctx, job(2), count))
	for _, s := range []feed.Store{a, b} {
		got, err := s.Claim(ctx, 1, time.Hour)
		require.NoError(t, err)
		require.Len(t, got, 1)
	}
	host, err := os.Hostname()
	require.NoError(t, err)
	for _, s := range []feed.BacklogReader{a, b} {
		bl, err := s.Backlog(ctx)
		require.NoError(t, err)
		assert.EqualValues(t, 2, bl.Waiting)
		require.Len(t, bl.Held, 2, "two holders")
		for name, n := range bl.Held {
			assert.True(t, strings.HasPrefix(name, host+"/"+strconv.Itoa(os.Getpid())+"/"), name)
			assert.EqualValues(t, 1, n)
		}
	}
}

// SyncNow waits for another instance's sync (its advisory lock), where
// Sync answers ErrSyncBusy; a SyncNow whose context ends stops waiting,
// and leaves no lock behind.
func TestSyncNowWaitsForAnotherInstancesSync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	a, b := store(t, db), store(t, db)
	fake := workforcetest.NewServer(t)
	c, err := fake.Client()
	require.NoError(t, err)
	fb, err := feed.New(c, "", func(context.Context, *feed.Change) error { return nil }, feed.WithStore(b))
	require.NoError(t, err)
	unlock, ok, err := a.TryLockSync(ctx) // a syncs
	require.NoError(t, err)
	require.True(t, ok)
	require.ErrorIs(t, fb.Sync(ctx), feed.ErrSyncBusy)
	done := make(chan error, 1)
	go func() { done <- fb.SyncNow(ctx) }()
	waiting := func() int {
		var n int
		require.NoError(t, db.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
			AND objid::bigint = (hashtext(current_schema())::bigint & 4294967295)`).Scan(&n))
		return n
	}
	for deadline := time.Now().Add(time.Minute); waiting() == 0; time.Sleep(5 * time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "SyncNow never waited for the lock")
	}
	select {
	case err := <-done:
		t.Fatalf("SyncNow answered %v while a held the lock", err)
	default:
	}
	unlock()
	require.NoError(t, <-done)
	assert.EqualValues(t, 1, fb.Stats().Syncs)

	unlock, ok, err = a.TryLockSync(ctx)
	require.NoError(t, err)
	require.True(t, ok)
	gone, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	require.Error(t, fb.SyncNow(gone))
	unlock()
	// The session that waited for the lock stops waiting: it does not take
	// the lock a released.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		unlock, ok, err := b.TryLockSync(ctx)
		require.NoError(t, err)
		if ok {
			unlock()
			break
		}
		require.True(t, time.Now().Before(deadline), "a SyncNow that gave up holds the lock")
	}
	assert.Zero(t, waiting(), "nothing waits for the lock")
}
