package postgres

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
)

// notifier sends a NOTIFY on Channel after ingests that queued changes
// claimable by every instance: one for all that committed while the one
// before was sent. It is not in the ingest's transaction: a transaction
// that notifies holds a lock of the notification queue through its
// commit, which would take every ingest's commit (and its wait for the
// disk) one at a time. It commits without waiting for the disk: a lost
// notification only delays a wakeup to the next poll.
func (s *Store) notifier() {
	for {
		select {
		case <-s.notify:
		case <-s.stop:
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		b := &pgx.Batch{}
		b.Queue("BEGIN")
		b.Queue("SET LOCAL synchronous_commit TO OFF")
		b.Queue("SELECT pg_notify($1, $2)", Channel, s.self)
		b.Queue("COMMIT")
		_ = s.pool.SendBatch(ctx, b).Close() // a failure: the poll covers it
		cancel()
	}
}

// changed records that changes claimable by every instance were queued
// by this Store, and has the others told.
func (s *Store) changed() {
	s.mu.Lock()
	s.dirty = true
	s.news++
	s.mu.Unlock()
	select {
	case s.notify <- struct{}{}:
	default: // one is due already
	}
}

// heard records news from another instance: claimable changes.
func (s *Store) heard() {
	s.mu.Lock()
	s.dirty = true
	s.news++
	s.mu.Unlock()
}

// Wake implements feed.Waker: it LISTENs on Channel on a connection of
// its own and calls wake on every notification, reconnecting after a
// failure, until ctx ends.
func (s *Store) Wake(ctx context.Context, wake func()) error {
	for {
		err := s.listen(ctx, wake)
		if ctx.Err() != nil {
			return nil
		}
		t := time.NewTimer(time.Second)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
		_ = err // a lost connection: listen again; the poll covers the gap
	}
}

func (s *Store) listen(ctx context.Context, wake func()) error {
	pc, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	conn := pc.Hijack() // LISTEN belongs to this connection: it never goes back to the pool
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{Channel}.Sanitize()); err != nil {
		return err
	}
	s.heard()
	wake() // what was queued while no one listened
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if n.Payload == s.self {
			continue // this Store's own: it knew, and its Feed was woken
		}
		s.heard()
		wake()
	}
}
