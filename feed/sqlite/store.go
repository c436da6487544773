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
