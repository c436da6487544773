package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Liveness: each Store holds, for its whole life, a session advisory lock
// of its own (its key: instanceClass and the hash of its name, the prefix
// of its lease tokens) on a connection of its own, and registers its name
// in workforce_feed_instances. The server ends a session whose connection
// closes (a crash, a kill, a closed socket), and its locks with it. Every
// second each Store tries the lock of every registered name in a
// transaction: one it gets belongs to a dead instance, whose leases end
// at once (their lease_until set to the past; nothing else changes, so
// that it is exactly a lease that ran out) and whose name is struck out;
// the lock goes with the transaction. A live instance holds its lock, so
// its leases are never ended so: they mean what the Feed's lease says. A
// Store whose lock connection fails takes its lock again on a new one;
// meanwhile it is a dead instance to the others, which is a lease that
// ran out: its handlers' renewals answer ErrLeaseLost once another claim
// took their change.

// instanceClass is the first key of the instances' locks (the sync
// lock's is hashtext('workforce_feed sync')).
const instanceClass = "hashtext('workforce_feed instance')"

// livenessEvery is how often a Store looks for dead instances, and checks
// its own lock's connection.
const livenessEvery = time.Second

// lockSelf takes this Store's lock on a connection of its own, and
// registers its name; it answers false when another session holds the
// lock (the hash of another live name: the caller picks another name).
func (s *Store) lockSelf(ctx context.Context) (bool, error) {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig)
	if err != nil {
		return false, err
	}
	var ok bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock("+instanceClass+", hashtext($1))", s.name).Scan(&ok); err != nil || !ok {
		_ = conn.Close(ctx)
		return false, err
	}
	if _, err := conn.Exec(ctx, `INSERT INTO workforce_feed_instances (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, s.name); err != nil {
		_ = conn.Close(ctx)
		return false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.killed: // a test's Kill: this process is dead
		_ = conn.Close(ctx)
	default:
		s.lockConn = conn
	}
	return true, nil
}

// watch looks for dead instances every livenessEvery, and keeps this
// Store's lock, until the Store closes.
func (s *Store) watch() {
	t := time.NewTicker(livenessEvery)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-s.killed:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), livenessEvery*5)
		s.keepLock(ctx)
		if n, err := s.reap(ctx); err == nil && n > 0 {
			s.changed() // claimable now, here and by every instance
		}
		cancel()
	}
}

// keepLock takes this Store's lock again when its connection failed.
func (s *Store) keepLock(ctx context.Context) {
	s.mu.Lock()
	conn := s.lockConn
	s.mu.Unlock()
	if conn != nil && conn.Ping(ctx) == nil {
		return
	}
	if conn != nil {
		_ = conn.Close(ctx)
	}
	s.mu.Lock()
	s.lockConn = nil
	s.mu.Unlock()
	_, _ = s.lockSelf(ctx) // failed, or taken by a reaper's look: again in a second
}

// reap ends the leases of the instances whose lock is free, and answers
// how many it ended.
func (s *Store) reap(ctx context.Context) (int64, error) {
	var ended int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `DELETE FROM workforce_feed_instances
			WHERE name <> $1 AND pg_try_advisory_xact_lock(`+instanceClass+`, hashtext(name)) RETURNING name`, s.name)
		if err != nil {
			return err
		}
		dead, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil || len(dead) == 0 {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE workforce_feed_changes c SET lease_until = now() - interval '1 microsecond'
			FROM unnest($1::text[]) AS d(name)
			WHERE c.lease_until >= now() AND starts_with(c.lease_token, d.name || '|')`, dead)
		ended = tag.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: looking for dead instances: %w", err)
	}
	return ended, nil
}

// unlockSelf strikes this Store's name out and ends its lock's session.
func (s *Store) unlockSelf() {
	s.mu.Lock()
	conn := s.lockConn
	s.lockConn = nil
	s.mu.Unlock()
	if conn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _ = conn.Exec(ctx, "DELETE FROM workforce_feed_instances WHERE name = $1", s.name)
	_ = conn.Close(ctx)
}
