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

// Update implements feed.Store. Updates and acknowledgments that arrive
// together are made together by the Store's writer, in cycles of one
// round trip and one commit (a group commit: one wait for the disk for
// all): each cycle writes the updates whose records the cycle before read,
// deletes the acknowledged changes, commits, and then reads the records
// of the updates that arrived meanwhile, for the next cycle. fn runs for
// each update in arrival order, on the record the one before it left; a
// record is written only if its version is still the one read. An update
// whose record changed meanwhile (another instance wrote it) is made again
// from the new record; after a few such losses it is made under a row
// lock. An update that changes nothing writes nothing.
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
	case <-s.done: // closed: the writer is gone
		return answered(req.done)
	case <-ctx.Done(): // the batch may still commit it: the copy is then kept
		return ctx.Err()
	}
}

// updateReq is one Update waiting for its batch.
type updateReq struct {
	r     feed.Resource
	fn    func([]byte) ([]byte, []feed.Queued, error)
	done  chan error
	err   error // fn's
	state *resourceState
	tries int // writes lost to another instance's
}

// writers is how many cycles of updates and acknowledgments may be under
// way at once.
const writers = 2

// optimisticTries is how many times an update is tried against the
// version read before it is made under a row lock.
const optimisticTries = 3

// take appends to batch the requests waiting on ch, up to maxBatch.
func take[T any](ch <-chan T, batch []T) []T {
	for len(batch) < maxBatch {
		select {
		case r := <-ch:
			batch = append(batch, r)
		default:
			return batch
		}
	}
	return batch
}

// writer makes the waiting updates and acknowledgments, a cycle at a time,
// until the store closes. Between cycles it waits only when it has nothing
// to do.
func (s *Store) writer() {
	var ready, unread []*updateReq // records read, to write; records to read
	var acks []*ackReq
	for {
		if len(ready)+len(unread)+len(acks) == 0 {
			select {
			case r := <-s.updates:
				unread = append(unread, r)
			case a := <-s.acks:
				acks = append(acks, a)
			case <-s.stop:
				return
			}
		}
		unread, acks = take(s.updates, unread), take(s.acks, acks)
		ready, unread, acks = s.cycle(ready, unread, acks)
	}
}

// retryable tells whether err is a deadlock or a serialization failure.
func retryable(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}

// resourceState is what a cycle knows of one resource.
type resourceState struct {
	version int64 // -1: no row
	record  []byte
	pending bool // a change of it was queued and not acknowledged
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

// cycle makes one cycle of the writer: the updates of ready (their
// records read) that lost too many races are made under row locks; then,
// in one round trip, the others are written and acks deleted in one
// transaction, and after its commit the records of unread are read. It
// answers the requests it settled, and answers what is left: the updates
// read (the next cycle's ready), those to read again, the acknowledgments
// to make again (after a deadlock).
func (s *Store) cycle(ready, unread []*updateReq, acks []*ackReq) (nextReady, nextUnread []*updateReq, nextAcks []*ackReq) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ready = s.lockedUpdates(ctx, ready)
	b := &pgx.Batch{}
	var w *write
	if len(ready) > 0 || len(acks) > 0 {
		b.Queue("BEGIN")
		if w = s.prepare(ready); w != nil {
			w.queue(b)
		}
		for _, a := range acks {
			b.Queue(`DELETE FROM workforce_feed_changes c
				WHERE kind = $1 AND id = $2 AND seq = $3 AND lease_token = $4
				RETURNING EXISTS (SELECT 1 FROM workforce_feed_changes x WHERE x.kind = c.kind AND x.id = c.id AND x.seq > c.seq)`,
				string(a.c.Resource.Kind), a.c.Resource.ID, a.c.Seq, a.c.Token)
		}
		b.Queue("COMMIT")
	}
	// One statement a record: each has the same plan whatever its
	// arguments, made once per connection, where one statement over arrays
	// of keys was planned again at every call, which cost more than the
	// reads.
	rs := sortedResources(unread)
	for _, r := range rs {
		b.Queue(`SELECT r.version, r.record, EXISTS (SELECT 1 FROM workforce_feed_changes c WHERE c.kind = $1 AND c.id = $2)
			FROM (SELECT) AS one LEFT JOIN workforce_feed_resources r ON r.kind = $1 AND r.id = $2`, string(r.Kind), r.ID)
	}
	s.mu.Lock()
	news := s.news
	s.mu.Unlock()
	deleted, more := make([]bool, len(acks)), false
	states := make(map[feed.Resource]*resourceState, len(rs))
	err := func() error {
		br := s.pool.SendBatch(ctx, b)
		defer br.Close()
		if len(ready) > 0 || len(acks) > 0 {
			if _, err := br.Exec(); err != nil { // BEGIN
				return err
			}
			if w != nil {
				if err := w.results(br); err != nil {
					return err
				}
			}
			for i := range acks {
				var next bool
				switch err := br.QueryRow().Scan(&next); {
				case errors.Is(err, pgx.ErrNoRows): // another claim holds it
				case err != nil:
					return err
				default:
					deleted[i], more = true, more || next
				}
			}
			if _, err := br.Exec(); err != nil { // COMMIT
				return err
			}
		}
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
	if w != nil {
		w.done(err == nil)
	}
	if len(acks) > 0 {
		s.mu.Lock()
		// A change queued after the statement's snapshot was announced after
		// its commit, so after news was read.
		if more || s.news != news || err != nil {
			s.dirty = true
		}
		s.mu.Unlock()
	}
	switch {
	case retryable(err): // a deadlock: nothing was made, all again
		for _, r := range ready {
			r.tries++
		}
		return nil, append(ready, unread...), acks
	case err != nil:
		err = fmt.Errorf("postgres: %w", err)
		for _, r := range append(ready, unread...) {
			r.done <- err
		}
		for _, a := range acks {
			a.done <- err
		}
		return nil, nil, nil
	}
	for i, a := range acks {
		if deleted[i] {
			a.done <- nil
		} else {
			a.done <- lost(a.c)
		}
	}
	// The updates whose write lost a race are read again, and with them the
	// later updates of their resources, so that each resource's updates are
	// made in arrival order.
	again := map[feed.Resource]bool{}
	for _, r := range ready {
		if w != nil && w.lost[r.r] {
			r.err, r.tries = nil, r.tries+1
			again[r.r] = true
			nextUnread = append(nextUnread, r)
		} else {
			r.done <- r.err
		}
	}
	for _, r := range unread {
		if again[r.r] {
			nextUnread = append(nextUnread, r)
		} else {
			r.state = states[r.r]
			nextReady = append(nextReady, r)
		}
	}
	return nextReady, nextUnread, nil
}

// lockedUpdates makes under row locks the updates of ready that lost
// optimisticTries races, with the later updates of their resources, and
// answers the others.
func (s *Store) lockedUpdates(ctx context.Context, ready []*updateReq) []*updateReq {
	locked := map[feed.Resource]bool{}
	for _, r := range ready {
		if r.tries >= optimisticTries {
			locked[r.r] = true
		}
	}
	if len(locked) == 0 {
		return ready
	}
	var batch, rest []*updateReq
	for _, r := range ready {
		if locked[r.r] {
			batch = append(batch, r)
		} else {
			rest = append(rest, r)
		}
	}
	var err error
	for range 3 { // a deadlock or a serialization failure: again
		if err = s.lockedBatch(ctx, batch); !retryable(err) {
			break
		}
	}
	for _, r := range batch {
		if err != nil {
			r.done <- fmt.Errorf("postgres: %w", err)
		} else {
			r.done <- r.err
		}
	}
	return rest
}

// write is the statement that writes a cycle's records and changes.
type write struct {
	s       *Store
	args    []any
	written map[feed.Resource]bool
	lost    map[feed.Resource]bool // written on a version read no longer current
	leased  []prefetched
	heads   int // leases reserved
	data    map[claimKey][]byte
	queued  map[feed.Resource]bool // resources with changes queued unleased
	tok     string
	sent    time.Time
}

// prepare runs each update's fn, in arrival order, on the record the one
// before it left (from the record read), and answers the write of the
// records that changed, with the changes they queue, or nil when nothing
// changed.
func (s *Store) prepare(ready []*updateReq) *write {
	type change struct {
		st      *resourceState
		record  []byte
		changed bool
		queue   []feed.Queued
	}
	changes := map[feed.Resource]*change{}
	for _, r := range ready {
		ch := changes[r.r]
		if ch == nil {
			ch = &change{st: r.state, record: r.state.record}
			changes[r.r] = ch
		}
		next, queue, err := r.fn(ch.record)
		r.err = err
		if err != nil {
			continue
		}
		if next != nil {
			ch.record, ch.changed = next, true
		}
		if len(queue) > 0 {
			ch.queue, ch.changed = append(ch.queue, queue...), true
		}
	}
	var rw struct {
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
	w := &write{s: s, tok: token(), written: map[feed.Resource]bool{}, lost: map[feed.Resource]bool{}, queued: map[feed.Resource]bool{}}
	lease, budget := s.reserve()
	for _, r := range sortedResources(ready) {
		ch := changes[r]
		if !ch.changed {
			continue
		}
		rec := ch.record
		if rec == nil {
			rec = []byte{}
		}
		rw.kinds, rw.ids, rw.version, rw.records = append(rw.kinds, string(r.Kind)), append(rw.ids, r.ID), append(rw.version, ch.st.version), append(rw.records, rec)
		for i, q := range ch.queue {
			head := i == 0 && !ch.st.pending && w.heads < budget
			if head {
				w.heads++
			}
			c.kinds, c.ids, c.seqs, c.data, c.lease = append(c.kinds, string(r.Kind)), append(c.ids, r.ID), append(c.seqs, q.Seq), append(c.data, q.Data), append(c.lease, head)
		}
	}
	s.unreserve(budget - w.heads)
	if len(rw.kinds) == 0 {
		return nil // nothing to write: every update was made on what was read
	}
	w.data = map[claimKey][]byte{}
	for i := range c.kinds {
		r := feed.Resource{Kind: feed.Kind(c.kinds[i]), ID: c.ids[i]}
		w.data[claimKey{r, c.seqs[i]}] = c.data[i]
		if !c.lease[i] {
			w.queued[r] = true // queued unleased
		}
	}
	for i := range rw.kinds {
		w.lost[feed.Resource{Kind: feed.Kind(rw.kinds[i]), ID: rw.ids[i]}] = true // until written
	}
	// A change leased here waits up to a quarter of its lease for a Claim
	// (older, the Claim renews it), and its Feed counts the lease from the
	// Claim: leased for a quarter more, it has at least a whole lease left
	// then, as a change the Claim leases itself.
	w.sent = time.Now()
	w.args = []any{rw.kinds, rw.ids, rw.version, rw.records, c.kinds, c.ids, c.seqs, c.data, c.lease, w.tok, (lease + lease/4).Microseconds()}
	return w
}

// queue queues w's statement on b.
func (w *write) queue(b *pgx.Batch) {
	b.Queue(`
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
		UNION ALL SELECT kind, id, seq, n, true FROM q WHERE leased`, w.args...)
}

// results reads what w's statement answered: the records written, and
// the changes leased here.
func (w *write) results(br pgx.BatchResults) error {
	rows, err := br.Query()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var r feed.Resource
		var kind string
		var seq, n int64
		var isChange bool
		if err := rows.Scan(&kind, &r.ID, &seq, &n, &isChange); err != nil {
			return err
		}
		r.Kind = feed.Kind(kind)
		if !isChange {
			w.written[r] = true
			delete(w.lost, r)
			continue
		}
		w.leased = append(w.leased, prefetched{c: feed.Claim{Resource: r, Seq: seq, Attempt: 1, Token: w.tok,
			Data: w.data[claimKey{r, seq}]}, n: n, at: w.sent})
	}
	return rows.Err()
}

// done hands the changes leased to this Store (if committed) to the next
// Claim, gives back the leases reserved, and announces changes queued
// unleased. Uncommitted (an error), changes leased here, if any were,
// come back to every instance when their lease ends.
func (w *write) done(committed bool) {
	if !committed {
		w.s.unreserve(w.heads)
		return
	}
	w.s.prefetch(w.leased, w.heads)
	for r := range w.queued {
		if w.written[r] {
			w.s.changed()
			return
		}
	}
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
