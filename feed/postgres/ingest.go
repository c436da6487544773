package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// Update implements feed.Store. Updates that arrive together are made
// together by one of a few writers, each batch in two round trips and one
// commit (a group commit: one wait for the disk for all): the records are
// read, fn runs for each update in arrival order, and the new records and
// the queued changes are written in one statement, each record only if
// its version is still the one read. An update whose record changed
// meanwhile (another instance wrote it) is made again from the new
// record; after a few such losses it is made under a row lock. An update
// that changes nothing writes nothing.
//
// When a resource had no change queued, its first new change is leased to
// this Store at once, while a Feed claims from it with workers to spare:
// the next Claim hands it over without asking the database.
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
	case <-s.done: // closed: the writers are gone
		return answered(req.done)
	case <-ctx.Done(): // the batch may still commit it: the copy is then kept
		return ctx.Err()
	}
}

// updateReq is one Update waiting for its batch.
type updateReq struct {
	r    feed.Resource
	fn   func([]byte) ([]byte, []feed.Queued, error)
	done chan error
	err  error // fn's
}

// writers is how many batches of updates may be under way at once.
const writers = 2

// optimisticTries is how many times a batch's updates are tried against
// the versions read before the rest are made under row locks.
const optimisticTries = 3

// nextBatch waits for a request on ch, then takes those already waiting,
// up to maxBatch; ok is false when stop closes first.
func nextBatch[T any](ch <-chan T, stop <-chan struct{}) (batch []T, ok bool) {
	select {
	case r := <-ch:
		batch = append(batch, r)
	case <-stop:
		return nil, false
	}
	for len(batch) < maxBatch {
		select {
		case r := <-ch:
			batch = append(batch, r)
		default:
			return batch, true
		}
	}
	return batch, true
}

// writer makes the waiting updates in batches until the store closes.
func (s *Store) writer() {
	for {
		batch, ok := nextBatch(s.updates, s.stop)
		if !ok {
			return
		}
		err := s.updateBatch(batch)
		for _, r := range batch {
			if err != nil {
				r.done <- fmt.Errorf("postgres: %w", err)
			} else {
				r.done <- r.err
			}
		}
	}
}

// retryable tells whether err is a deadlock or a serialization failure.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}

// updateBatch makes a batch of updates: against the versions read, again
// for those that lost a race, and under row locks after optimisticTries.
// An error of fn fails only its update (kept in its err); any other fails
// the batch.
func (s *Store) updateBatch(batch []*updateReq) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	todo := batch
	for try := 0; len(todo) > 0; try++ {
		if try >= optimisticTries {
			var err error
			for range 3 { // a deadlock or a serialization failure: again
				if err = s.lockedBatch(ctx, todo); !retryable(err) {
					break
				}
			}
			return err
		}
		next, err := s.tryBatch(ctx, todo)
		switch {
		case retryable(err):
			continue // the whole batch again
		case err != nil:
			return err
		}
		todo = next
	}
	return nil
}

// resourceState is what a batch knows of one resource.
type resourceState struct {
	version int64 // -1: no row
	record  []byte
	pending bool // a change of it was queued and not acknowledged
	changed bool // the batch writes it
	queue   []feed.Queued
}

// sortedResources answers the resources of batch, each once, in (kind,
// id) order.
func sortedResources(batch []*updateReq) []feed.Resource {
	rs := make([]feed.Resource, 0, len(batch))
	for _, r := range batch {
		rs = append(rs, r.r)
	}
	slices.SortFunc(rs, func(a, b feed.Resource) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.ID, b.ID))
	})
	return slices.Compact(rs)
}

// tryBatch reads the records of batch's resources, runs each update's fn
// on the record the one before it left, and writes the records that
// changed (with the changes they queue) in one statement, each only if
// its version is still the one read. It answers the updates whose record
// had changed meanwhile, to be made again.
func (s *Store) tryBatch(ctx context.Context, batch []*updateReq) ([]*updateReq, error) {
	rs := sortedResources(batch)
	states := make(map[feed.Resource]*resourceState, len(rs))
	// One statement a record, sent at once: each has the same plan whatever
	// its arguments, made once per connection, where one statement for
	// the batch (unnest of arrays) was planned again at every call.
	b := &pgx.Batch{}
	for _, r := range rs {
		b.Queue(`SELECT r.version, r.record, EXISTS (SELECT 1 FROM workforce_feed_changes c WHERE c.kind = $1 AND c.id = $2)
			FROM (SELECT) AS one LEFT JOIN workforce_feed_resources r ON r.kind = $1 AND r.id = $2`, string(r.Kind), r.ID)
	}
	err := func() error {
		br := s.pool.SendBatch(ctx, b)
		defer br.Close()
		for _, r := range rs {
			st := &resourceState{}
			var version *int64
			if err := br.QueryRow().Scan(&version, &st.record, &st.pending); err != nil {
				return err
			}
			st.version = -1
			if version != nil {
				st.version = *version
			}
			if len(st.record) == 0 {
				st.record = nil // none, or the empty one lockedBatch makes
			}
			states[r] = st
		}
		return nil
	}()
	if err != nil {
		return nil, err
	}
	// Each update in arrival order, on the record the one before left.
	for _, r := range batch {
		st := states[r.r]
		next, queue, err := r.fn(st.record)
		r.err = err
		if err != nil {
			continue
		}
		if next != nil {
			st.record, st.changed = next, true
		}
		if len(queue) > 0 {
			st.queue, st.changed = append(st.queue, queue...), true
		}
	}
	// The writes, and which first changes to lease to this Store.
	var w struct {
		kinds   []string
		ids     []int64
		version []int64
		records [][]byte
	}
	var c struct {
		kinds []string
		ids   []int64
		seqs  []int64
		data  [][]byte
		lease []bool
	}
	tok := token()
	lease, budget := s.reserve()
	heads := 0
	for _, r := range rs {
		st := states[r]
		if !st.changed {
			continue
		}
		rec := st.record
		if rec == nil {
			rec = []byte{}
		}
		w.kinds, w.ids, w.version, w.records = append(w.kinds, string(r.Kind)), append(w.ids, r.ID), append(w.version, st.version), append(w.records, rec)
		for i, q := range st.queue {
			head := i == 0 && !st.pending && heads < budget
			if head {
				heads++
			}
			c.kinds, c.ids, c.seqs, c.data, c.lease = append(c.kinds, string(r.Kind)), append(c.ids, r.ID), append(c.seqs, q.Seq), append(c.data, q.Data), append(c.lease, head)
		}
	}
	s.unreserve(budget - heads)
	if len(w.kinds) == 0 {
		return nil, nil // nothing to write: every update was made on what was read
	}
	// A change leased here waits up to a quarter of its lease for a Claim
	// (older, the Claim renews it), and its Feed counts the lease from the
	// Claim: leased for a quarter more, it has at least a whole lease left
	// then, as a change the Claim leases itself.
	sent := time.Now()
	rows, err := s.pool.Query(ctx, `
		WITH w AS (
			SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bytea[]) AS w(kind, id, version, record)
		), ins AS (
			INSERT INTO workforce_feed_resources (kind, id, record, version)
			SELECT kind, id, record, 1 FROM w WHERE version < 0
			ON CONFLICT (kind, id) DO NOTHING
			RETURNING kind, id
		), upd AS (
			UPDATE workforce_feed_resources r SET record = w.record, version = r.version + 1
			FROM w WHERE w.version >= 0 AND r.kind = w.kind AND r.id = w.id AND r.version = w.version
			RETURNING r.kind, r.id
		), ok AS (
			SELECT kind, id FROM ins UNION ALL SELECT kind, id FROM upd
		), q AS (
			INSERT INTO workforce_feed_changes (kind, id, seq, data, attempts, lease_token, lease_until)
			SELECT c.kind, c.id, c.seq, c.data, CASE WHEN c.lease THEN 1 ELSE 0 END,
				CASE WHEN c.lease THEN $10 END, CASE WHEN c.lease THEN now() + $11 * interval '1 microsecond' END
			FROM unnest($5::text[], $6::bigint[], $7::bigint[], $8::bytea[], $9::bool[]) AS c(kind, id, seq, data, lease)
			WHERE (c.kind, c.id) IN (SELECT kind, id FROM ok)
			RETURNING kind, id, seq, n, lease_token IS NOT NULL AS leased
		)
		SELECT kind, id, 0::bigint, 0::bigint, false FROM ok
		UNION ALL SELECT kind, id, seq, n, true FROM q WHERE leased`,
		w.kinds, w.ids, w.version, w.records, c.kinds, c.ids, c.seqs, c.data, c.lease, tok, (lease + lease/4).Microseconds())
	if err != nil {
		s.unreserve(heads)
		return nil, err
	}
	written := map[feed.Resource]bool{}
	var leased []prefetched
	for rows.Next() {
		var r feed.Resource
		var kind string
		var seq, n int64
		var isChange bool
		if err := rows.Scan(&kind, &r.ID, &seq, &n, &isChange); err != nil {
			rows.Close()
			s.unreserve(heads)
			return nil, err
		}
		r.Kind = feed.Kind(kind)
		if !isChange {
			written[r] = true
			continue
		}
		leased = append(leased, prefetched{c: feed.Claim{Resource: r, Seq: seq, Attempt: 1, Token: tok}, n: n, at: sent})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		// The outcome is unknown: changes leased here, if they were, come
		// back to every instance when the lease ends.
		s.unreserve(heads)
		return nil, err
	}
	// The data of the leased changes, and whether others were queued.
	data := make(map[claimKey][]byte, len(leased))
	unleased := false
	for i := range c.kinds {
		r := feed.Resource{Kind: feed.Kind(c.kinds[i]), ID: c.ids[i]}
		if !written[r] {
			continue
		}
		if c.lease[i] {
			data[claimKey{r, c.seqs[i]}] = c.data[i]
		} else {
			unleased = true
		}
	}
	for i := range leased {
		leased[i].c.Data = data[claimKey{leased[i].c.Resource, leased[i].c.Seq}]
	}
	s.prefetch(leased, heads)
	if unleased {
		s.changed()
	}
	var again []*updateReq
	for _, r := range batch {
		if st := states[r.r]; st.changed && !written[r.r] {
			r.err = nil
			again = append(again, r)
		}
	}
	return again, nil
}

// lockedBatch makes a batch of updates in one transaction that locks the
// batch's resource rows (created when missing) in (kind, id) order, so
// that two batches never wait for each other in a cycle. The changes it
// queues are claimable by every instance.
func (s *Store) lockedBatch(ctx context.Context, batch []*updateReq) error {
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
	rs := sortedResources(batch)
	kinds, ids := make([]string, len(rs)), make([]int64, len(rs))
	for i, r := range rs {
		kinds[i], ids[i] = string(r.Kind), r.ID
	}
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(`INSERT INTO workforce_feed_resources (kind, id, record, version)
		SELECT kind, id, '', 0 FROM unnest($1::text[], $2::bigint[]) AS r(kind, id) ORDER BY kind, id
		ON CONFLICT (kind, id) DO UPDATE SET version = workforce_feed_resources.version + 1
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
				if len(rec) > 0 {
					records[r] = rec
				}
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
	changed := map[feed.Resource]bool{}
	var cKinds []string
	var cIDs, cSeqs []int64
	var data [][]byte
	for _, r := range batch {
		next, queue, err := r.fn(records[r.r])
		r.err = err
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
	if len(data) > 0 {
		s.changed()
	}
	return nil
}
