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
// transaction: a name whose lock it gets on every look for reapGrace
// belongs to a dead instance, whose leases end then (their lease_until set
// to the past; nothing else changes, so that it is exactly a lease that
// ran out) and whose name is struck out; the lock goes with the
// transaction. A live instance holds its lock, so its leases are never
// ended so: they mean what the Feed's lease says. A Store whose lock
// connection is closed (a reset, an idle timeout) takes its lock again on
// a new one within a second, inside the grace: a hiccup is not a death.
// One that cannot for the whole grace is a dead instance to the others,
// which is a lease that ran out: its handlers' renewals answer
// ErrLeaseLost once another claim took their change.
//
// The lock is a session's: the Store's connections must reach PostgreSQL
// directly or through a pooler in session mode (a pooler in transaction
// mode shares server sessions, and so the locks, between clients).

// instanceClass is the first key of the instances' locks (the sync
// lock's is hashtext('workforce_feed sync')).
const instanceClass = "hashtext('workforce_feed instance')"

// livenessEvery is how often a Store looks for dead instances, and checks
// its own lock's connection.
const livenessEvery = time.Second

// reapGrace is how long a name's lock must be found free, look after look,
// before its instance is taken for dead: longer than a live Store takes to
// lock again after its lock's connection closed.
const reapGrace = 5 * time.Second

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

// keepLock takes this Store's lock again when its connection closed. A
// ping that fails on an open connection (a slow server) leaves it be: the
// session, and the lock, may well live.
func (s *Store) keepLock(ctx context.Context) {
	s.mu.Lock()
	conn := s.lockConn
	s.mu.Unlock()
	if conn != nil && (conn.Ping(ctx) == nil || !conn.IsClosed()) {
		return
	}
	s.mu.Lock()
	s.lockConn = nil
	s.mu.Unlock()
	_, _ = s.lockSelf(ctx) // failed, or taken by a reaper's look: again in a second
}

// reap ends the leases of the instances whose lock it found free on every
// look for reapGrace, and answers how many it ended. Only watch calls it:
// s.freeSince is its own.
func (s *Store) reap(ctx context.Context) (int64, error) {
	var ended int64
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// A row a zombie's transaction holds must not stall the looks.
		if _, err := tx.Exec(ctx, "SET LOCAL lock_timeout = '500ms'"); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT name FROM workforce_feed_instances
			WHERE name <> $1 AND pg_try_advisory_xact_lock(`+instanceClass+`, hashtext(name))`, s.name)
		if err != nil {
			return err
		}
		free, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		now, since, dead := time.Now(), map[string]time.Time{}, []string(nil)
		for _, name := range free {
			first, ok := s.freeSince[name]
			if !ok {
				first = now
			}
			if now.Sub(first) >= reapGrace {
				dead = append(dead, name)
			} else {
				since[name] = first
			}
		}
		s.freeSince = since // a name found locked again starts over
		if len(dead) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, `DELETE FROM workforce_feed_instances WHERE name = ANY($1)`, dead); err != nil {
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
