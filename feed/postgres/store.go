// Package postgres keeps a feed's state in PostgreSQL, for several
// receiver instances (behind one load balancer, say) sharing one
// database: each change is claimed by one instance at a time under a lease
// kept in the database, and a resource's next change is claimed by no one
// before its previous one is acknowledged, whichever instance holds it. An
// instance that dies mid-handler leaves its claim to expire; another
// instance then hands the change over again. Ingests are announced with
// NOTIFY, so every instance wakes at once (Store.Wake).
//
// The tables are created on Open or New when missing, in the connection's
// search_path: workforce_feed_resources, workforce_feed_changes and
// workforce_feed_marks.
//
// It uses github.com/jackc/pgx/v5.
package postgres

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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
CREATE INDEX IF NOT EXISTS workforce_feed_changes_n ON workforce_feed_changes (n);
CREATE TABLE IF NOT EXISTS workforce_feed_marks (
	name text        PRIMARY KEY,
	at   timestamptz NOT NULL
);
`

// Store is a feed.Store in PostgreSQL. Its methods are safe for concurrent
// use.
type Store struct {
	pool *pgxpool.Pool
	own  bool // Close closes pool

	mu     sync.Mutex
	claims map[claimKey]string // the token of each claim this Store made and did not end
	txAcks map[string]bool     // tokens acknowledged in a handler's transaction

	updates chan *updateReq // to the writers, which make them in batches
	acks    chan *ackReq    // to the acknowledger, which deletes them in batches
	notify  chan struct{}   // to the notifier: changes were queued
	stop    chan struct{}
	done    chan struct{}
	closed  sync.Once
}

// ackReq is one acknowledgment waiting for its batch.
type ackReq struct {
	c    feed.Claim
	done chan error
}

// maxAcks bounds the acknowledgments of one batch.
const maxAcks = 256

type claimKey struct {
	r   feed.Resource
	seq int64
}

// Open connects to the database dsn names (a URL or key=value string, as
// pgx reads it) and answers a Store on it, creating its tables when
// missing. Close closes the connections.
func Open(ctx context.Context, dsn string) (*Store, error) {
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	s, err := New(ctx, pool)
	if err != nil {
		pool.Close()
		return nil, err
	}
	s.own = true
	return s, nil
}

// New answers a Store on pool, creating its tables when missing. Close the
// Store when done; the pool stays the caller's to close, after that.
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
	s := &Store{pool: pool, claims: map[claimKey]string{}, txAcks: map[string]bool{},
		updates: make(chan *updateReq, maxAcks), acks: make(chan *ackReq, maxAcks), notify: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(2 + writers)
	go func() { defer wg.Done(); s.acknowledger() }()
	go func() { defer wg.Done(); s.notifier() }()
	for range writers {
		go func() { defer wg.Done(); s.writer() }()
	}
	go func() { wg.Wait(); close(s.done) }()
	return s, nil
}

// notifier sends a NOTIFY on Channel after ingests that queued changes:
// one for all that committed while the one before was sent. It is not in
// the ingest's transaction: a transaction that notifies holds a lock of
// the notification queue through its commit, which would take every
// ingest's commit (and its wait for the disk) one at a time. It commits
// without waiting for the disk: a lost notification only delays a wakeup
// to the next poll.
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
		b.Queue("SELECT pg_notify($1, '')", Channel)
		b.Queue("COMMIT")
		_ = s.pool.SendBatch(ctx, b).Close() // a failure: the poll covers it
		cancel()
	}
}

// Pool answers the connection pool.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Close stops the Store's writers, acknowledger and notifier (after the
// work under way), and closes the pool when Open made it.
func (s *Store) Close() {
	s.closed.Do(func() {
		close(s.stop)
		<-s.done
		if s.own {
			s.pool.Close()
		}
	})
}

var errClosed = errors.New("postgres: the store is closed")

// acknowledger deletes the acknowledged changes in batches, one statement
// and one commit for all the acknowledgments that wait: a group commit.
func (s *Store) acknowledger() {
	for {
		var batch []*ackReq
		select {
		case r := <-s.acks:
			batch = append(batch, r)
		case <-s.stop:
			return
		}
	more:
		for len(batch) < maxAcks {
			select {
			case r := <-s.acks:
				batch = append(batch, r)
			default:
				break more
			}
		}
		s.ackBatch(batch)
	}
}

// ackBatch deletes the changes of batch whose claims still hold them, and
// answers each request.
func (s *Store) ackBatch(batch []*ackReq) {
	kinds, toks := make([]string, len(batch)), make([]string, len(batch))
	ids, seqs := make([]int64, len(batch)), make([]int64, len(batch))
	for i, r := range batch {
		kinds[i], ids[i], seqs[i], toks[i] = string(r.c.Resource.Kind), r.c.Resource.ID, r.c.Seq, r.c.Token
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rows, err := s.pool.Query(ctx, `DELETE FROM workforce_feed_changes c
		USING unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[]) AS a(kind, id, seq, tok)
		WHERE c.kind = a.kind AND c.id = a.id AND c.seq = a.seq AND c.lease_token = a.tok
		RETURNING c.kind, c.id, c.seq`, kinds, ids, seqs, toks)
	deleted := map[claimKey]bool{}
	if err == nil {
		for rows.Next() {
			var k claimKey
			var kind string
			if err = rows.Scan(&kind, &k.r.ID, &k.seq); err != nil {
				break
			}
			k.r.Kind = feed.Kind(kind)
			deleted[k] = true
		}
		rows.Close()
		if err == nil {
			err = rows.Err()
		}
	}
	for _, r := range batch {
		switch {
		case err != nil:
			r.done <- fmt.Errorf("postgres: acknowledging: %w", err)
		case deleted[claimKey{r.c.Resource, r.c.Seq}]:
			r.done <- nil
		default:
			r.done <- lost(r.c)
		}
	}
}

// Update implements feed.Store. Updates that arrive together are made in
// one transaction (a group commit: one wait for the disk for all), by one
// of a few writers: the batch's resource rows are locked in one statement,
// in the order of (kind, id), created when missing (so that updates of one
// resource are serialized across instances, and two batches never wait
// for each other in a cycle), the records are read, fn runs for each
// update in arrival order, and the writes go with the COMMIT: two round
// trips a batch.
func (s *Store) Update(ctx context.Context, r feed.Resource, fn func([]byte) ([]byte, []feed.Queued, error)) error {
	req := &updateReq{r: r, fn: fn, done: make(chan error, 1)}
	select {
	case s.updates <- req:
	case <-s.stop:
		return errClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-req.done:
		return err
	case <-ctx.Done(): // the batch may still commit it: the copy is then kept
		return ctx.Err()
	}
}

// updateReq is one Update waiting for its batch.
type updateReq struct {
	r      feed.Resource
	fn     func([]byte) ([]byte, []feed.Queued, error)
	done   chan error
	err    error // fn's
	queued bool  // fn queued changes
}

// writers is how many batches of updates may be under way at once.
const writers = 2

// writer makes the waiting updates in batches until the store closes.
func (s *Store) writer() {
	for {
		var batch []*updateReq
		select {
		case r := <-s.updates:
			batch = append(batch, r)
		case <-s.stop:
			return
		}
	more:
		for len(batch) < maxAcks {
			select {
			case r := <-s.updates:
				batch = append(batch, r)
			default:
				break more
			}
		}
		err := s.updateBatch(batch)
		for range 2 { // a deadlock or a serialization failure: the batch again
			if !retryable(err) {
				break
			}
			err = s.updateBatch(batch)
		}
		queued := false
		for _, r := range batch {
			switch {
			case err != nil:
				r.done <- fmt.Errorf("postgres: %w", err)
			default:
				r.done <- r.err
			}
		}
		if err == nil {
			for _, r := range batch {
				queued = queued || r.queued
			}
		}
		if queued {
			select {
			case s.notify <- struct{}{}:
			default: // one is due already
			}
		}
	}
}

// retryable tells whether err is a deadlock or a serialization failure.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}

// updateBatch makes a batch of updates in one transaction. An error of
// fn fails only its update (kept in its err); any other fails the batch.
func (s *Store) updateBatch(batch []*updateReq) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	done := false
	defer func() {
		if !done { // end the transaction (a broken connection ends it too)
			_, _ = conn.Exec(ctx, "ROLLBACK")
		}
	}()
	// The resources, each once, in (kind, id) order: the order of the locks.
	rs := make([]feed.Resource, 0, len(batch))
	for _, r := range batch {
		rs = append(rs, r.r)
	}
	slices.SortFunc(rs, func(a, b feed.Resource) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.ID, b.ID))
	})
	rs = slices.Compact(rs)
	kinds, ids := make([]string, len(rs)), make([]int64, len(rs))
	for i, r := range rs {
		kinds[i], ids[i] = string(r.Kind), r.ID
	}
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(`INSERT INTO workforce_feed_resources (kind, id, record)
		SELECT kind, id, '' FROM unnest($1::text[], $2::bigint[]) AS r(kind, id) ORDER BY kind, id
		ON CONFLICT (kind, id) DO UPDATE SET kind = EXCLUDED.kind
		RETURNING kind, id, record`, kinds, ids)
	br := conn.SendBatch(ctx, b)
	records := make(map[feed.Resource][]byte, len(rs))
	_, err = br.Exec()
	if err == nil {
		var rows pgx.Rows
		if rows, err = br.Query(); err == nil {
			for rows.Next() {
				var r feed.Resource
				var kind string
				var rec []byte
				if err = rows.Scan(&kind, &r.ID, &rec); err != nil {
					break
				}
				r.Kind = feed.Kind(kind)
				records[r] = rec
			}
			rows.Close()
			if err == nil {
				err = rows.Err()
			}
		}
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	// Each update in arrival order, on the record the one before left.
	changed := map[feed.Resource]bool{}
	var cKinds []string
	var cIDs, cSeqs []int64
	var data [][]byte
	for _, r := range batch {
		next, queue, err := r.fn(records[r.r])
		r.err, r.queued = err, err == nil && len(queue) > 0
		if err != nil {
			continue
		}
		if next != nil {
			records[r.r], changed[r.r] = next, true
		}
		for _, q := range queue {
			cKinds, cIDs, cSeqs, data = append(cKinds, string(r.r.Kind)), append(cIDs, r.r.ID), append(cSeqs, q.Seq), append(data, q.Data)
		}
	}
	b = &pgx.Batch{}
	for _, r := range rs {
		if changed[r] {
			b.Queue("UPDATE workforce_feed_resources SET record = $3 WHERE kind = $1 AND id = $2", string(r.Kind), r.ID, records[r])
		}
	}
	if len(data) > 0 {
		b.Queue(`INSERT INTO workforce_feed_changes (kind, id, seq, data)
			SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bytea[])`, cKinds, cIDs, cSeqs, data)
	}
	b.Queue("COMMIT")
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		return err
	}
	done = true
	return nil
}

// token answers a new random claim token.
func token() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Claim implements feed.Store.
func (s *Store) Claim(ctx context.Context, n int, lease time.Duration) ([]feed.Claim, error) {
	tok := token()
	// The lease is written without waiting for the disk: a claim lost in a
	// crash of the database is only a change claimable again, which the
	// acknowledgment (durable) tells apart.
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue("SET LOCAL synchronous_commit TO OFF")
	b.Queue(`
		WITH ready AS (
			SELECT c.kind, c.id, c.seq FROM workforce_feed_changes c
			WHERE c.ready_at <= now() AND (c.lease_until IS NULL OR c.lease_until < now())
			  AND NOT EXISTS (SELECT 1 FROM workforce_feed_changes p WHERE p.kind = c.kind AND p.id = c.id AND p.seq < c.seq)
			ORDER BY c.n
			LIMIT $1
			FOR UPDATE SKIP LOCKED
		)
		UPDATE workforce_feed_changes c
		SET lease_token = $2, lease_until = now() + $3 * interval '1 microsecond', attempts = c.attempts + 1
		FROM ready WHERE c.kind = ready.kind AND c.id = ready.id AND c.seq = ready.seq
		RETURNING c.kind, c.id, c.seq, c.data, c.attempts, c.n`, n, tok, lease.Microseconds())
	b.Queue("COMMIT")
	br := s.pool.SendBatch(ctx, b)
	defer br.Close()
	for range 2 {
		if _, err := br.Exec(); err != nil {
			return nil, fmt.Errorf("postgres: claiming: %w", err)
		}
	}
	rows, err := br.Query()
	if err != nil {
		return nil, fmt.Errorf("postgres: claiming: %w", err)
	}
	type row struct {
		c feed.Claim
		n int64
	}
	var got []row
	for rows.Next() {
		var r row
		var kind string
		if err := rows.Scan(&kind, &r.c.Resource.ID, &r.c.Seq, &r.c.Data, &r.c.Attempt, &r.n); err != nil {
			return nil, fmt.Errorf("postgres: claiming: %w", err)
		}
		r.c.Resource.Kind, r.c.Token = feed.Kind(kind), tok
		got = append(got, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: claiming: %w", err)
	}
	if _, err := br.Exec(); err != nil { // COMMIT
		return nil, fmt.Errorf("postgres: claiming: %w", err)
	}
	// RETURNING keeps no order: oldest first again.
	slices.SortFunc(got, func(a, b row) int { return cmp.Compare(a.n, b.n) })
	out := make([]feed.Claim, len(got))
	s.mu.Lock()
	for i, r := range got {
		out[i] = r.c
		s.claims[claimKey{r.c.Resource, r.c.Seq}] = tok
	}
	s.mu.Unlock()
	return out, nil
}

// lost answers the error of a claim that no longer holds its change.
func lost(c feed.Claim) error {
	return fmt.Errorf("%w: %s %d #%d", feed.ErrLeaseLost, c.Resource.Kind, c.Resource.ID, c.Seq)
}

// forget drops what the Store keeps of c, and tells whether c was
// acknowledged in a handler's transaction.
func (s *Store) forget(c feed.Claim) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := claimKey{c.Resource, c.Seq}
	if s.claims[k] == c.Token {
		delete(s.claims, k)
	}
	acked := s.txAcks[c.Token+k.String()]
	delete(s.txAcks, c.Token+k.String())
	return acked
}

func (k claimKey) String() string { return fmt.Sprintf("/%s/%d/%d", k.r.Kind, k.r.ID, k.seq) }

// Ack implements feed.Store. Acknowledgments that arrive together are
// deleted by one statement, in one commit.
func (s *Store) Ack(ctx context.Context, c feed.Claim) error {
	if s.forget(c) {
		return nil // acknowledged in the handler's transaction
	}
	r := &ackReq{c: c, done: make(chan error, 1)}
	select {
	case s.acks <- r:
	case <-s.stop:
		return errClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.done:
		return err
	case <-ctx.Done(): // the batch may still delete it: then it is not handed over again
		return ctx.Err()
	}
}

// Extend implements feed.Store.
func (s *Store) Extend(ctx context.Context, c feed.Claim, lease time.Duration) error {
	tag, err := s.pool.Exec(ctx, `UPDATE workforce_feed_changes SET lease_until = now() + $5 * interval '1 microsecond'
		WHERE kind = $1 AND id = $2 AND seq = $3 AND lease_token = $4`,
		string(c.Resource.Kind), c.Resource.ID, c.Seq, c.Token, lease.Microseconds())
	switch {
	case err != nil:
		return fmt.Errorf("postgres: renewing a lease: %w", err)
	case tag.RowsAffected() != 1:
		s.mu.Lock()
		acked := s.txAcks[c.Token+claimKey{c.Resource, c.Seq}.String()]
		s.mu.Unlock()
		if acked {
			return nil // the handler's transaction acknowledged it meanwhile
		}
		return lost(c)
	}
	return nil
}

// Release implements feed.Store.
func (s *Store) Release(ctx context.Context, c feed.Claim, retryAt time.Time) error {
	s.forget(c)
	tag, err := s.pool.Exec(ctx, `UPDATE workforce_feed_changes
		SET lease_token = NULL, lease_until = NULL, ready_at = now() + $5 * interval '1 microsecond'
		WHERE kind = $1 AND id = $2 AND seq = $3 AND lease_token = $4`,
		string(c.Resource.Kind), c.Resource.ID, c.Seq, c.Token, max(time.Until(retryAt), 0).Microseconds())
	switch {
	case err != nil:
		return fmt.Errorf("postgres: releasing: %w", err)
	case tag.RowsAffected() != 1:
		return lost(c)
	}
	return nil
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
	wake() // what was queued while no one listened
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		wake()
	}
}

// TxHandler answers a feed.Handler that calls fn inside the transaction
// that acknowledges the change: fn's writes and the acknowledgment commit
// together, or neither does, so that each change's effect is made exactly
// once whatever fails (an instance that dies mid-fn rolls back, and the
// change goes to another instance after its lease). fn must neither commit
// nor roll back tx; an error from fn rolls back its writes and leaves the
// change unacknowledged. While fn runs, the change's row is locked: no
// other instance takes the change, even past its lease.
func (s *Store) TxHandler(fn func(ctx context.Context, tx pgx.Tx, c *feed.Change) error) feed.Handler {
	return func(ctx context.Context, c *feed.Change) error {
		k := claimKey{feed.Resource{Kind: c.Kind, ID: c.ResourceID}, c.Seq}
		s.mu.Lock()
		tok, ok := s.claims[k]
		s.mu.Unlock()
		if !ok {
			return fmt.Errorf("%w: %s %d #%d is not claimed by this store", feed.ErrLeaseLost, c.Kind, c.ResourceID, c.Seq)
		}
		err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			tag, err := tx.Exec(ctx, "DELETE FROM workforce_feed_changes WHERE kind = $1 AND id = $2 AND seq = $3 AND lease_token = $4",
				string(c.Kind), c.ResourceID, c.Seq, tok)
			if err != nil {
				return err
			}
			if tag.RowsAffected() != 1 {
				return lost(feed.Claim{Resource: k.r, Seq: k.seq})
			}
			return fn(ctx, tx, c)
		})
		if err != nil {
			return err
		}
		s.mu.Lock()
		s.txAcks[tok+k.String()] = true
		s.mu.Unlock()
		return nil
	}
}
