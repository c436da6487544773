// Package sqlite keeps a feed's state in a SQLite file, for one process
// that restarts: after a crash it resumes from the file, loses no change
// it stored, and repeats none whose acknowledgment it stored.
//
// The file belongs to one process at a time (it is opened in SQLite's
// exclusive locking mode: a second process cannot open it). Every write
// goes through one writer, which commits what is waiting in one
// transaction (a group commit: one fsync for many webhooks and
// acknowledgments), in WAL mode with synchronous=FULL, so a write is on
// disk when its call returns (WithSyncNormal trades that for speed). Claims are leases in memory: a crash drops
// them with the process, and the restarted process hands the changes
// over again. Open counts one attempt for each resource's first change,
// which the last process may have handed over: after a restart
// Change.Attempt is above 1 whenever the handler may have seen the change
// (and, after a clean stop, sometimes when it did not).
//
// SQLite is github.com/ncruces/go-sqlite3, pure Go without cgo.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/ncruces/go-sqlite3/driver" // the "sqlite3" database/sql driver

	"github.com/workforce-marketplace/workforce-go/feed"
)

// schemaVersion is the version of the schema this package writes, kept in
// PRAGMA user_version.
const schemaVersion = 1

const schema = `
CREATE TABLE IF NOT EXISTS feed_resources (
	kind   TEXT    NOT NULL,
	id     INTEGER NOT NULL,
	record BLOB    NOT NULL,
	PRIMARY KEY (kind, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS feed_changes (
	n        INTEGER PRIMARY KEY AUTOINCREMENT, -- the order changes were queued in
	kind     TEXT    NOT NULL,
	id       INTEGER NOT NULL,
	seq      INTEGER NOT NULL,
	data     BLOB    NOT NULL,
	attempts INTEGER NOT NULL DEFAULT 0, -- claims that ended in a release
	ready_at INTEGER NOT NULL DEFAULT 0, -- unix nanoseconds; not claimed before
	UNIQUE (kind, id, seq)
);
CREATE TABLE IF NOT EXISTS feed_marks (
	name TEXT    PRIMARY KEY,
	at   INTEGER NOT NULL -- unix nanoseconds
) WITHOUT ROWID;
`

// Store is a feed.Store in a SQLite file. Its methods are safe for
// concurrent use. A write whose ctx ends while it waits for the writer
// answers at once with ctx's error: made all or not at all, never in part
// (not made when its turn had not come).
type Store struct {
	db     *sql.DB
	writes chan *write
	stop   chan struct{}
	done   chan struct{}

	mu     sync.Mutex
	claims map[feed.Resource]*lease // the leases of this process
	txAcks map[string]bool          // the tokens of claims acknowledged in a handler's transaction, until their Ack
	tokens int64
	closed bool
}

// lease is a claim held in memory.
type lease struct {
	seq     int64
	token   string
	until   time.Time
	attempt int  // claims in this process, added to the stored attempts
	acked   bool // acknowledged in a handler's transaction (TxHandler)
	acking  bool // its delete is in a write under way: not claimable, whatever the lease
}

// write is a unit of work for the writer: run inside its transaction.
type write struct {
	run func(tx *sql.Tx) error
	// after, when set, is called once with the write's outcome (nil when
	// it committed), whether or not its caller still waits for it.
	after func(err error)
	state atomic.Int32 // queued, then started (by the writer) or dropped (by exec)
	done  chan error
}

// The states of a write.
const (
	queued int32 = iota
	started
	dropped
)

// finish answers w's outcome.
func (w *write) finish(err error) {
	if w.after != nil {
		w.after(err)
	}
	w.done <- err
}

// maxBatch bounds the writes one transaction of the writer holds.
const maxBatch = 256

// An Option configures Open.
type Option func(*options)

type options struct{ synchronous string }

// WithSyncNormal commits without waiting for the disk (SQLite's
// synchronous=NORMAL in WAL mode): a crash of the process loses nothing,
// but a crash of the machine (power, kernel) may take back the last
// commits, all of them after some point, together: ingests (their copies
// come back with the next sync, whose watermark went back with them) and
// acknowledgments (those changes are handed over again; with TxHandler the
// handler's writes went back too, so each effect is still made once). By
// default every commit waits for the disk (synchronous=FULL).
func WithSyncNormal() Option { return func(o *options) { o.synchronous = "normal" } }

// Open opens (creating it if need be) the SQLite file at path and answers
// a Store on it. Close it when done.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	if path == "" {
		return nil, errors.New("sqlite: no path")
	}
	o := options{synchronous: "full"}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	q := url.Values{}
	for _, p := range []string{"journal_mode(wal)", "synchronous(" + o.synchronous + ")", "locking_mode(exclusive)", "busy_timeout(5000)", "foreign_keys(off)"} {
		q.Add("_pragma", p)
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: opening %s: %w", path, err)
	}
	db.SetMaxOpenConns(1) // one connection: the lock, and every statement in order
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	if err := migrate(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: %s: %w", path, err)
	}
	// Claims are kept in memory: the process that used the file last may
	// have handed each resource's first change over, and died before its
	// outcome was stored. Count it an attempt, so that Change.Attempt is
	// above 1 exactly when the handler may have seen the change before.
	if _, err := db.ExecContext(ctx, `UPDATE feed_changes SET attempts = attempts + 1
		WHERE seq = (SELECT min(p.seq) FROM feed_changes p WHERE p.kind = feed_changes.kind AND p.id = feed_changes.id)`); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite: %s: counting the attempts of the last process: %w", path, err)
	}
	s := &Store{db: db, writes: make(chan *write, maxBatch), stop: make(chan struct{}), done: make(chan struct{}),
		claims: map[feed.Resource]*lease{}, txAcks: map[string]bool{}}
	go s.writer()
	return s, nil
}

// migrate creates the schema, or checks the one there.
func migrate(ctx context.Context, db *sql.DB) error {
	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return err
	}
	switch version {
	case 0:
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.ExecContext(ctx, schema); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "PRAGMA user_version = "+strconv.Itoa(schemaVersion)); err != nil {
			return err
		}
		return tx.Commit()
	case schemaVersion:
		return nil
	}
	return fmt.Errorf("the file holds schema version %d; this package reads version %d", version, schemaVersion)
}

// Close stops the writer (waiting for the writes under way) and closes
// the file. The leases of this process end with it.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	close(s.stop)
	<-s.done
	return s.db.Close()
}

// DB answers the database, for reading the application's own tables.
// Writing it outside TxHandler competes with the store's writer for the
// one connection. Never use it inside a TxHandler's fn (read through its
// tx): the writer's transaction holds the one connection, so fn would wait
// for itself, and every write of the store behind it.
func (s *Store) DB() *sql.DB { return s.db }

var errClosed = errors.New("sqlite: the store is closed")

// exec runs fn in the writer's next transaction and answers when that
// transaction committed (or fn failed: its writes are rolled back alone),
// then calls after (when not nil) with the outcome. When ctx ends first,
// exec answers at once: a write not started yet is dropped (never made),
// and one under way commits or not with its transaction, all of it or
// none; after learns which.
func (s *Store) exec(ctx context.Context, fn func(tx *sql.Tx) error, after func(error)) error {
	w := &write{run: fn, after: after, done: make(chan error, 1)}
	select {
	case s.writes <- w:
	case <-s.stop:
		w.finish(errClosed)
		return errClosed
	case <-ctx.Done():
		err := fmt.Errorf("sqlite: the write was not made: %w", ctx.Err())
		w.finish(err)
		return err
	}
	select {
	case err := <-w.done:
		return err
	case <-ctx.Done():
		if w.state.CompareAndSwap(queued, dropped) {
			err := fmt.Errorf("sqlite: the write was not made: %w", ctx.Err())
			w.finish(err)
			return err
		}
		select {
		case err := <-w.done:
			return err
		default:
			return fmt.Errorf("sqlite: stopped waiting for a write under way, which may still commit: %w", ctx.Err())
		}
	case <-s.done:
		if w.state.CompareAndSwap(queued, dropped) {
			w.finish(errClosed)
			return errClosed
		}
		return <-w.done // the writer answers every write it started
	}
}

// writer commits the waiting writes in batches until the store closes.
func (s *Store) writer() {
	defer close(s.done)
	for {
		var batch []*write
		select {
		case w := <-s.writes:
			batch = append(batch, w)
		case <-s.stop:
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case w := <-s.writes:
				batch = append(batch, w)
			default:
				break more
			}
		}
		s.commit(batch)
	}
}

// commit runs a batch in one transaction, each write under a savepoint of
// its own so that one that fails leaves the others. A write dropped by its
// caller before its turn is skipped.
func (s *Store) commit(batch []*write) {
	errs := make([]error, len(batch))
	err := func() error {
		tx, err := s.db.Begin()
		if err != nil {
			return err
		}
		defer tx.Rollback()
		for i, w := range batch {
			if !w.state.CompareAndSwap(queued, started) {
				batch[i] = nil // dropped: exec answered it
				continue
			}
			if _, err := tx.Exec("SAVEPOINT w"); err != nil {
				return err
			}
			if errs[i] = w.run(tx); errs[i] != nil {
				if _, err := tx.Exec("ROLLBACK TO w"); err != nil {
					return err
				}
			}
			if _, err := tx.Exec("RELEASE w"); err != nil {
				return err
			}
		}
		return tx.Commit()
	}()
	for i, w := range batch {
		if w == nil {
			continue
		}
		if !w.state.CompareAndSwap(queued, started) && w.state.Load() != started {
			continue // dropped after the transaction failed before its turn
		}
		if err != nil {
			errs[i] = fmt.Errorf("sqlite: the transaction failed: %w", err)
		}
		w.finish(errs[i])
	}
}

// Update implements feed.Store.
func (s *Store) Update(ctx context.Context, r feed.Resource, fn func([]byte) ([]byte, []feed.Queued, error)) error {
	return s.exec(ctx, func(tx *sql.Tx) error {
		var rec []byte
		err := tx.QueryRow("SELECT record FROM feed_resources WHERE kind = ? AND id = ?", string(r.Kind), r.ID).Scan(&rec)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		next, queue, err := fn(rec)
		if err != nil {
			return err
		}
		if next != nil {
			if _, err := tx.Exec("INSERT INTO feed_resources (kind, id, record) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET record = excluded.record",
				string(r.Kind), r.ID, next); err != nil {
				return err
			}
		}
		for _, q := range queue {
			if _, err := tx.Exec("INSERT INTO feed_changes (kind, id, seq, data) VALUES (?, ?, ?, ?)", string(r.Kind), r.ID, q.Seq, q.Data); err != nil {
				return err
			}
		}
		return nil
	}, nil)
}

// Claim implements feed.Store. It reads the file and leases in memory.
func (s *Store) Claim(ctx context.Context, n int, leaseFor time.Duration) ([]feed.Claim, error) {
	now := time.Now()
	s.mu.Lock()
	held := 0
	for _, l := range s.claims {
		if l.until.After(now) || l.acked || l.acking {
			held++
		}
	}
	s.mu.Unlock()
	rows, err := s.db.QueryContext(ctx, `
		SELECT c.kind, c.id, c.seq, c.data, c.attempts FROM feed_changes c
		WHERE c.ready_at <= ? AND c.seq = (SELECT min(p.seq) FROM feed_changes p WHERE p.kind = c.kind AND p.id = c.id)
		ORDER BY c.n LIMIT ?`, now.UnixNano(), n+held)
	if err != nil {
		return nil, fmt.Errorf("sqlite: claiming: %w", err)
	}
	defer rows.Close()
	var out []feed.Claim
	s.mu.Lock()
	defer s.mu.Unlock()
	for rows.Next() && len(out) < n {
		var c feed.Claim
		var kind string
		var attempts int
		if err := rows.Scan(&kind, &c.Resource.ID, &c.Seq, &c.Data, &attempts); err != nil {
			return nil, fmt.Errorf("sqlite: claiming: %w", err)
		}
		c.Resource.Kind = feed.Kind(kind)
		l := s.claims[c.Resource]
		switch {
		case l != nil && l.seq == c.Seq && (l.until.After(now) || l.acked || l.acking):
			continue // leased, or acknowledged in a transaction not yet forgotten
		case l == nil || l.seq != c.Seq:
			l = &lease{seq: c.Seq}
			s.claims[c.Resource] = l
		}
		s.tokens++
		l.token, l.until = strconv.FormatInt(s.tokens, 10), now.Add(leaseFor)
		l.attempt++
		c.Attempt, c.Token = attempts+l.attempt, l.token
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: claiming: %w", err)
	}
	return out, nil
}

// holds answers c's lease when c still holds it. The caller holds s.mu.
func (s *Store) holds(c feed.Claim) (*lease, error) {
	l := s.claims[c.Resource]
	if l == nil || l.seq != c.Seq || l.token != c.Token {
		return nil, fmt.Errorf("%w: %s %d #%d", feed.ErrLeaseLost, c.Resource.Kind, c.Resource.ID, c.Seq)
	}
	return l, nil
}

// Ack implements feed.Store.
func (s *Store) Ack(ctx context.Context, c feed.Claim) error {
	s.mu.Lock()
	if s.txAcks[c.Token] {
		// Acknowledged in the handler's transaction: its lease may be
		// gone already, the resource's next change claimed.
		delete(s.txAcks, c.Token)
		if l := s.claims[c.Resource]; l != nil && l.token == c.Token {
			delete(s.claims, c.Resource)
		}
		s.mu.Unlock()
		return nil
	}
	_, err := s.holds(c)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	// The lease is checked again in the write, and held until it ends: a
	// lease that ran out while the Ack waited for the writer may have gone
	// to another claim, whose change this Ack must not delete.
	return s.exec(ctx, func(tx *sql.Tx) error {
		if err := s.startAcking(c); err != nil {
			return err
		}
		return deleteChange(tx, c)
	}, func(err error) { s.endAcking(c, err == nil) })
}

// startAcking marks c's lease as being acknowledged (no Claim takes its
// change meanwhile), or answers ErrLeaseLost when c no longer holds it.
func (s *Store) startAcking(c feed.Claim) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, err := s.holds(c)
	if err == nil {
		l.acking = true
	}
	return err
}

// endAcking ends what startAcking began: the lease is forgotten when the
// acknowledgment committed, claimable again otherwise.
func (s *Store) endAcking(c feed.Claim, committed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.claims[c.Resource]; l != nil && l.token == c.Token {
		if committed {
			delete(s.claims, c.Resource)
		} else {
			l.acking = false
		}
	}
}

// callTx calls a TxHandler's fn; a panic is its error (the write's
// savepoint rolls back, and the feed hands the change over again), since
// fn runs on the writer's goroutine, where the feed's recover is not.
func callTx(ctx context.Context, tx *sql.Tx, c *feed.Change, fn func(context.Context, *sql.Tx, *feed.Change) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("sqlite: the handler panicked: %v", p)
		}
	}()
	return fn(ctx, tx, c)
}

// deleteChange removes an acknowledged change.
func deleteChange(tx *sql.Tx, c feed.Claim) error {
	res, err := tx.Exec("DELETE FROM feed_changes WHERE kind = ? AND id = ? AND seq = ?", string(c.Resource.Kind), c.Resource.ID, c.Seq)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("%w: %s %d #%d is not queued", feed.ErrLeaseLost, c.Resource.Kind, c.Resource.ID, c.Seq)
	}
	return nil
}

// Extend implements feed.Store.
func (s *Store) Extend(ctx context.Context, c feed.Claim, leaseFor time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, err := s.holds(c)
	if err == nil {
		l.until = time.Now().Add(leaseFor)
	}
	return err
}

// Release implements feed.Store.
func (s *Store) Release(ctx context.Context, c feed.Claim, retryAt time.Time) error {
	s.mu.Lock()
	l, err := s.holds(c)
	if err == nil {
		l.token = "" // no other call of this claim may act now
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return s.exec(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec("UPDATE feed_changes SET attempts = attempts + ?, ready_at = ? WHERE kind = ? AND id = ? AND seq = ?",
			l.attempt, retryAt.UnixNano(), string(c.Resource.Kind), c.Resource.ID, c.Seq)
		return err
	}, func(err error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.claims[c.Resource] == l {
			if err == nil {
				delete(s.claims, c.Resource) // its attempts are in the file now
			} else {
				l.until = time.Time{} // claimable again at once
			}
		}
	})
}

// Mark implements feed.Store.
func (s *Store) Mark(ctx context.Context, name string) (time.Time, error) {
	var ns int64
	err := s.db.QueryRowContext(ctx, "SELECT at FROM feed_marks WHERE name = ?", name).Scan(&ns)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, fmt.Errorf("sqlite: reading mark %s: %w", name, err)
	}
	return time.Unix(0, ns).UTC(), nil
}

// SetMark implements feed.Store.
func (s *Store) SetMark(ctx context.Context, name string, t time.Time) error {
	return s.exec(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec("INSERT INTO feed_marks (name, at) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET at = max(at, excluded.at)",
			name, t.UnixNano())
		return err
	}, nil)
}

// TxHandler answers a feed.Handler that calls fn inside the transaction
// that records the change's acknowledgment: fn's writes to the file and
// the acknowledgment commit together, or neither does, so that the effect
// of each change is made exactly once however the process fails. fn must
// neither commit nor roll back tx; returning an error rolls back its
// writes and leaves the change unacknowledged. fn runs in the store's one
// writer: other writes wait for it, so it must be quick, and it reads and
// writes through tx only: DB() inside fn waits for the connection tx
// holds, for ever.
func (s *Store) TxHandler(fn func(ctx context.Context, tx *sql.Tx, c *feed.Change) error) feed.Handler {
	return func(ctx context.Context, c *feed.Change) error {
		r := feed.Resource{Kind: c.Kind, ID: c.ResourceID}
		s.mu.Lock()
		l := s.claims[r]
		var claim feed.Claim
		if l != nil && l.seq == c.Seq {
			claim = feed.Claim{Resource: r, Seq: c.Seq, Token: l.token}
		}
		s.mu.Unlock()
		if claim.Token == "" {
			return fmt.Errorf("%w: %s %d #%d is not claimed by this store", feed.ErrLeaseLost, c.Kind, c.ResourceID, c.Seq)
		}
		return s.exec(ctx, func(tx *sql.Tx) error {
			if err := s.startAcking(claim); err != nil {
				return err
			}
			if err := deleteChange(tx, claim); err != nil {
				return err
			}
			return callTx(ctx, tx, c, fn)
		}, func(err error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if l := s.claims[r]; l != nil && l.token == claim.Token {
				l.acking = false
				l.acked = err == nil
			}
			if err == nil {
				s.txAcks[claim.Token] = true
			}
		})
	}
}
