// Package postgres keeps a feed's state in PostgreSQL, for several
// receiver instances (behind one load balancer, say) sharing one
// database: each change is claimed by one instance at a time under a lease
// kept in the database, and a resource's next change is claimed by no one
// before its previous one is acknowledged, whichever instance holds it. Each
// Store holds a session advisory lock of its own, on a connection of its
// own outside the pool, for its life: when an instance dies (its
// connection closes), the others see its lock free within a second or two
// and end its leases, and another instance hands its changes over again;
// a live instance keeps its lock, so its leases mean what the Feed's
// lease says. An instance whose death the server does not see (a host
// gone without closing its connections) holds its changes until their
// leases end. Ingests are announced with NOTIFY, so every instance wakes
// at once (Store.Wake).
//
// The tables are created on Open or New when missing, in the schema
// WithSchema names, else the connection's search_path:
// workforce_feed_resources, workforce_feed_changes,
// workforce_feed_instances and workforce_feed_marks. Open sizes its pool
// for the Feed's workers (WithWorkers, WithPoolSize); each Store opens one
// connection more, for its lock.
//
// It uses github.com/jackc/pgx/v5, and needs PostgreSQL 12 or later.
package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// Channel is the NOTIFY channel of ingests.
const Channel = "workforce_feed"

const schema = `
CREATE TABLE IF NOT EXISTS workforce_feed_resources (
	kind   text   NOT NULL,
	id     bigint NOT NULL,
	record bytea  NOT NULL,
	PRIMARY KEY (kind, id)
);
CREATE TABLE IF NOT EXISTS workforce_feed_changes (
	n           bigserial   NOT NULL, -- the order changes were queued in
	kind        text        NOT NULL,
	id          bigint      NOT NULL,
	seq         bigint      NOT NULL,
	data        bytea       NOT NULL,
	attempts    integer     NOT NULL DEFAULT 0,
	ready_at    timestamptz NOT NULL DEFAULT now(), -- not claimed before
	lease_token text,
	lease_until timestamptz,
	PRIMARY KEY (kind, id, seq)
);
ALTER TABLE workforce_feed_resources ADD COLUMN IF NOT EXISTS version bigint NOT NULL DEFAULT 0; -- bumped by every write
CREATE INDEX IF NOT EXISTS workforce_feed_changes_n ON workforce_feed_changes (n);
-- Changes a TxHandler's transaction handled, kept (ready_at infinity) until its handler returns.
CREATE INDEX IF NOT EXISTS workforce_feed_changes_handled ON workforce_feed_changes (kind, id) WHERE ready_at = 'infinity'; -- no column a claim writes: claims stay HOT updates
CREATE TABLE IF NOT EXISTS workforce_feed_instances ( -- the Stores that hold their lock (liveness.go)
	name text PRIMARY KEY
);
CREATE TABLE IF NOT EXISTS workforce_feed_marks (
	name text        PRIMARY KEY,
	at   timestamptz NOT NULL
);
`

// Store is a feed.Store in PostgreSQL. Its methods are safe for concurrent
// use.
type Store struct {
	pool *pgxpool.Pool
	own  bool   // Close closes pool
	self string // the payload of this Store's notifications
	name string // the holder of its leases (Backlog): host/pid/self, a prefix of its lease tokens

	mu     sync.Mutex
	claims map[claimKey]held // each claim this Store handed over and did not see end
	txAcks map[string]bool   // tokens acknowledged in a handler's transaction
	inTx   map[string]bool   // tokens whose change a handler's transaction under way deleted
	// Changes leased to this Store when they were queued (see Update),
	// oldest first, for the next Claim to hand over.
	local    []prefetched
	giveBack *time.Timer   // armed while local holds changes (armGiveBack): see returnStale
	giving   sync.Mutex    // held by returnStale: Close waits for it
	hold     time.Duration // how long they wait for a Claim: recheck (tests change it)
	reserved int           // leases of that kind in writes under way
	workers  int           // the most changes a Claim asked for: its Feed's workers
	lease    time.Duration // the lease of the last Claim
	claimed  time.Time     // when the last Claim was called
	queried  time.Time     // when a Claim last asked the database
	dirty    bool          // changes may have become claimable since then
	news     int64         // notifications and unleased ingests seen, ever

	known known // what the writers last wrote or read of each resource

	updates chan *updateReq // to the writer, which makes them in batches
	acks    chan *ackReq    // to the writer too
	notify  chan struct{}   // to the notifier: changes were queued
	stop    chan struct{}
	done    chan struct{}
	closed  sync.Once

	lockConn *pgx.Conn // holds this Store's lock (liveness.go), under mu
	// freeSince holds, for each other instance whose lock the last look
	// found free, when it was first found so; watch's alone (liveness.go).
	freeSince map[string]time.Time
	killed    chan struct{} // closed by a test's Kill: watch stops, as in a dead process
}

// ackReq is one acknowledgment waiting for its batch.
type ackReq struct {
	c    feed.Claim
	done chan error
}

// maxBatch bounds the updates or acknowledgments of one batch.
const maxBatch = 256

// recheck is how long a Claim that has changes leased at their ingest to
// hand over may go without asking the database: changes that become
// claimable with time (a lease that ended, a retry that fell due) wait at
// most this long for it (plus the Feed's poll).
const recheck = 100 * time.Millisecond

type claimKey struct {
	r   feed.Resource
	seq int64
}

// New answers a Store on pool, creating its tables when missing. Close the
// Store when done; the pool stays the caller's to close, after that. The
// pool needs MinConns connections plus one for each worker of the Feed
// (see feed.WithWorkers).
func New(ctx context.Context, pool *pgxpool.Pool) (*Store, error) {
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		// One migration at a time, whatever the instances starting at once.
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtext('workforce_feed schema'))"); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, schema)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: creating the tables: %w", err)
	}
	s := &Store{pool: pool, claims: map[claimKey]held{}, txAcks: map[string]bool{}, inTx: map[string]bool{},
		updates: make(chan *updateReq, maxBatch), acks: make(chan *ackReq, maxBatch), notify: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{}), killed: make(chan struct{}), hold: recheck}
	for tries := 0; ; tries++ { // a name whose lock's key another's shares: another name
		s.self = token()
		s.name = holderName(s.self)
		ok, err := s.lockSelf(ctx)
		if err != nil || (!ok && tries == 2) {
			return nil, fmt.Errorf("postgres: taking the instance's lock: %w", cmp.Or(err, errors.New("held by another session")))
		}
		if ok {
			break
		}
	}
	var wg sync.WaitGroup
	wg.Add(2 + writers)
	go func() { defer wg.Done(); s.notifier() }()
	go func() { defer wg.Done(); s.watch() }()
	for range writers {
		go func() { defer wg.Done(); s.writer() }()
	}
	go func() { wg.Wait(); close(s.done) }()
	return s, nil
}

// Pool answers the connection pool.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Close stops the Store's writer and notifier (after the
// work under way), ends the leases of the changes leased to it at their
// ingest that no Claim handed over (so that every instance may claim them
// at once), and closes the pool when Open made it.
func (s *Store) Close() {
	s.closed.Do(func() {
		close(s.stop)
		<-s.done
		s.giving.Lock() // a give-back under way ends first; none starts after
		s.mu.Lock()
		local := s.local
		s.local = nil
		if s.giveBack != nil {
			s.giveBack.Stop()
		}
		s.mu.Unlock()
		s.giving.Unlock()
		if len(local) > 0 {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			if s.unlease(ctx, local) == nil {
				_, _ = s.pool.Exec(ctx, "SELECT pg_notify($1, $2)", Channel, s.self)
			}
			cancel() // a failure: their leases end on their own
		}
		s.unlockSelf() // last: its leases are no one's to end before
		if s.own {
			s.pool.Close()
		}
	})
}

var errClosed = errors.New("postgres: the store is closed")

// answered answers the error sent on done, or errClosed when none was: a
// request the Store's goroutines left when it closed.
func answered(done chan error) error {
	select {
	case err := <-done:
		return err
	default:
		return errClosed
	}
}

// Mark implements feed.Store.
func (s *Store) Mark(ctx context.Context, name string) (time.Time, error) {
	var at time.Time
	err := s.pool.QueryRow(ctx, "SELECT at FROM workforce_feed_marks WHERE name = $1", name).Scan(&at)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, fmt.Errorf("postgres: reading mark %s: %w", name, err)
	}
	return at.UTC(), nil
}

// SetMark implements feed.Store. PostgreSQL keeps microseconds: a mark is
// stored cut to the microsecond, never later than t.
func (s *Store) SetMark(ctx context.Context, name string, t time.Time) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO workforce_feed_marks (name, at) VALUES ($1, $2)
		ON CONFLICT (name) DO UPDATE SET at = GREATEST(workforce_feed_marks.at, EXCLUDED.at)`, name, t.Truncate(time.Microsecond))
	if err != nil {
		return fmt.Errorf("postgres: storing mark %s: %w", name, err)
	}
	return nil
}

// TxHandler answers a feed.Handler that calls fn inside the transaction
// that acknowledges the change: fn's writes and the acknowledgment commit
// together, or neither does, so that each change's effect is made exactly
// once whatever fails (an instance that dies mid-fn rolls back, and the
// change goes to another instance). fn must neither commit nor roll back
// tx; an error from fn rolls back its writes and leaves the change
// unacknowledged. While fn runs, the change's row is locked: no other
// instance takes the change, even past its lease.
//
// The transaction marks the change handled rather than deleting it: the
// resource's next change is claimed by no instance before the Feed's
// handler (this one, or one that calls it and works on after it) has
// returned and the Feed acknowledged it, so that work after the
// transaction is in order per resource too. A handled change is never
// handed over again: one whose instance died before acknowledging it is
// deleted by the next Claim once its lease ends (or its instance is seen
// dead: see Store).
func (s *Store) TxHandler(fn func(ctx context.Context, tx pgx.Tx, c *feed.Change) error) feed.Handler {
	return func(ctx context.Context, c *feed.Change) error {
		k := claimKey{feed.Resource{Kind: c.Kind, ID: c.ResourceID}, c.Seq}
		s.mu.Lock()
		h, ok := s.claims[k]
		tok := h.tok
		s.mu.Unlock()
		if !ok {
			return fmt.Errorf("%w: %s %d #%d is not claimed by this store", feed.ErrLeaseLost, c.Kind, c.ResourceID, c.Seq)
		}
		err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			var seq int64
			err := tx.QueryRow(ctx, `UPDATE workforce_feed_changes SET ready_at = 'infinity'
				WHERE kind = $1 AND id = $2 AND seq = $3 AND lease_token = $4 AND ready_at <> 'infinity' RETURNING seq`,
				string(c.Kind), c.ResourceID, c.Seq, tok).Scan(&seq)
			if errors.Is(err, pgx.ErrNoRows) {
				return lost(feed.Claim{Resource: k.r, Seq: k.seq})
			}
			if err != nil {
				return err
			}
			// From here the row is this transaction's: a renewal waits for
			// its end.
			s.mu.Lock()
			s.inTx[tok+k.String()] = true
			s.mu.Unlock()
			return fn(ctx, tx, c)
		})
		s.mu.Lock()
		delete(s.inTx, tok+k.String())
		if err == nil {
			// Handled: the Feed's Ack (or Release) deletes the row.
			s.txAcks[tok+k.String()] = true
		}
		s.mu.Unlock()
		return err
	}
}

// syncLockKey is the advisory lock of the sync, per schema: pairs with
// hashtext(current_schema()), so that feeds in other schemas of the same
// database do not share it.
const syncLockKey = "hashtext('workforce_feed sync'), hashtext(current_schema())"

// TryLockSync implements feed.SyncLocker with a session advisory lock,
// held on a connection taken from the pool until unlock: one Feed of all
// those sharing the database (and schema) syncs at a time, and a lock
// whose instance dies goes with its connection.
func (s *Store) TryLockSync(ctx context.Context) (unlock func(), ok bool, err error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("postgres: taking the sync lock: %w", err)
	}
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock("+syncLockKey+")").Scan(&ok); err != nil || !ok {
		conn.Release()
		if err != nil {
			return nil, false, fmt.Errorf("postgres: taking the sync lock: %w", err)
		}
		return nil, false, nil
	}
	return unlockSync(conn), true, nil
}
