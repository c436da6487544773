package postgres

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// holderName answers the name of a Store's leases: its host name, pid and
// id (self, cut short), so that an operator tells its instances apart.
// It holds no '|', which ends it in the lease tokens.
func holderName(self string) string {
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	name := host + "/" + strconv.Itoa(os.Getpid()) + "/" + self[:min(8, len(self))]
	if i := strings.IndexByte(name, '|'); i >= 0 {
		name = name[:i]
	}
	return name
}

// leaseToken answers a new lease token of this Store: its name, '|', and
// random bytes.
func (s *Store) leaseToken() string { return s.name + "|" + token() }

// Backlog implements feed.BacklogReader, in one snapshot of the database:
// the changes of every instance, the oldest of them, and those under a
// live lease by the Store holding them (named by the prefix of their
// lease token: see holderName; a lease an earlier version made shows as
// its whole token). It counts the queue: a read of its index.
func (s *Store) Backlog(ctx context.Context) (feed.StoreBacklog, error) {
	var b feed.StoreBacklog
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, "SELECT count(*) FROM workforce_feed_changes").Scan(&b.Waiting); err != nil {
			return err
		}
		var c feed.Claim
		var kind string
		err := tx.QueryRow(ctx, "SELECT kind, id, seq, data, attempts FROM workforce_feed_changes ORDER BY n LIMIT 1").
			Scan(&kind, &c.Resource.ID, &c.Seq, &c.Data, &c.Attempt)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return err
		default:
			c.Resource.Kind = feed.Kind(kind)
			b.Oldest = &c
		}
		rows, err := tx.Query(ctx, `SELECT split_part(lease_token, '|', 1), count(*) FROM workforce_feed_changes
			WHERE lease_token IS NOT NULL AND lease_until > now() GROUP BY 1`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var name string
			var n int64
			if err := rows.Scan(&name, &n); err != nil {
				return err
			}
			if b.Held == nil {
				b.Held = map[string]int64{}
			}
			b.Held[name] = n
		}
		return rows.Err()
	})
	if err != nil {
		return feed.StoreBacklog{}, fmt.Errorf("postgres: reading the backlog: %w", err)
	}
	return b, nil
}

// LockSync implements feed.SyncWaiter: it waits for the advisory lock of
// TryLockSync, on a connection taken from the pool until unlock, until ctx
// ends.
func (s *Store) LockSync(ctx context.Context) (unlock func(), err error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("postgres: taking the sync lock: %w", err)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock("+syncLockKey+")"); err != nil {
		// The server is told to stop waiting (a closed connection alone
		// leaves its session in the lock's queue, to take the lock when
		// it is free and only then find the connection gone); and the
		// session ends, with the lock if it was granted meanwhile.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		pc := conn.Hijack()
		_ = pc.PgConn().CancelRequest(cctx)
		_ = pc.Close(cctx)
		return nil, fmt.Errorf("postgres: taking the sync lock: %w", err)
	}
	return unlockSync(conn), nil
}

// unlockSync answers the func that releases the sync lock conn holds, and
// conn with it.
func unlockSync(conn *pgxpool.Conn) func() {
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := conn.Exec(ctx, "SELECT pg_advisory_unlock("+syncLockKey+")"); err != nil {
			// The lock must not outlive the sync: end its session.
			_ = conn.Hijack().Close(ctx)
			return
		}
		conn.Release()
	}
}
