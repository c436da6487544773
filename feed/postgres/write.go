package postgres

import (
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// write is the statement that writes a cycle's records and changes.
type write struct {
	s       *Store
	args    []any
	written map[feed.Resource]bool
	lost    map[feed.Resource]bool           // written on a version read no longer current
	after   map[feed.Resource]*resourceState // the state each record written leaves
	guessed map[feed.Resource]*resourceState // the states guessed (see known)
	leases  []prefetched                     // the changes it leases here, if written (no start yet: see done)
	leaseOf map[claimKey]int                 // their places in leases
	leased  []prefetched                     // those written, as the statement answered them
	heads   int                              // leases reserved
	queued  map[feed.Resource]bool           // resources with changes queued unleased
	tok     string
	sent    time.Time
}

// prepare runs each update's fn, in arrival order, on the record the one
// before it left (from the record read or guessed), and answers the write
// of the records that changed, with the changes they queue (no args when
// there is nothing to write). A guessed state is written on, or checked
// when its updates changed nothing (an fn failed, say): they are answered
// only if the guess was the resource's state then, else read and made
// again.
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
		put     []bool // else checked
	}
	var c struct {
		kinds []string
		ids   []int64
		seqs  []int64
		data  [][]byte
		lease []bool
	}
	w := &write{s: s, tok: s.leaseToken(), written: map[feed.Resource]bool{}, lost: map[feed.Resource]bool{}, queued: map[feed.Resource]bool{},
		after: map[feed.Resource]*resourceState{}, guessed: map[feed.Resource]*resourceState{}}
	lease, budget := s.reserve()
	for _, r := range sortedResources(ready) {
		ch := changes[r]
		switch {
		case !ch.changed && !ch.st.guess:
			continue
		}
		if ch.st.guess {
			w.guessed[r] = ch.st
		}
		if !ch.changed { // checked: the guess must be the state
			w.after[r] = ch.st
			rw.kinds, rw.ids, rw.version, rw.records, rw.put = append(rw.kinds, string(r.Kind)), append(rw.ids, r.ID), append(rw.version, ch.st.version), append(rw.records, []byte{}), append(rw.put, false)
			continue
		}
		rec := ch.record
		if rec == nil {
			rec = []byte{}
		}
		w.after[r] = &resourceState{version: max(ch.st.version+1, 1), record: ch.record, pending: ch.st.pending || len(ch.queue) > 0}
		rw.kinds, rw.ids, rw.version, rw.records, rw.put = append(rw.kinds, string(r.Kind)), append(rw.ids, r.ID), append(rw.version, ch.st.version), append(rw.records, rec), append(rw.put, true)
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
		return w // nothing to write: every update was made on what was read
	}
	w.leaseOf = map[claimKey]int{}
	for i := range c.kinds {
		r := feed.Resource{Kind: feed.Kind(c.kinds[i]), ID: c.ids[i]}
		if !c.lease[i] {
			w.queued[r] = true // queued unleased
			continue
		}
		w.leaseOf[claimKey{r, c.seqs[i]}] = len(w.leases)
		w.leases = append(w.leases, prefetched{c: feed.Claim{Resource: r, Seq: c.seqs[i], Attempt: 1, Token: w.tok, Data: c.data[i]}})
	}
	for i := range rw.kinds {
		w.lost[feed.Resource{Kind: feed.Kind(rw.kinds[i]), ID: rw.ids[i]}] = true // until written
	}
	// A change leased here is leased for the Feed's lease, no longer: an
	// instance that dies before a Claim hands it over holds it that long,
	// as WithLease says. It waits up to a quarter of it for a Claim (older,
	// the Claim renews it), so it has three quarters left at least when
	// handed over: its Feed renews it a third of a lease after its Claim.
	w.sent = time.Now()
	w.args = []any{rw.kinds, rw.ids, rw.version, rw.records, c.kinds, c.ids, c.seqs, c.data, c.lease, w.tok, lease.Microseconds(), rw.put}
	return w
}

// queue queues w's statement on b, if it has one: it answers the records
// written (or checked) and the changes leased.
func (w *write) queue(b *pgx.Batch) {
	if w.args == nil {
		return
	}
	b.Queue(`
		WITH w AS (
			SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bytea[], $12::bool[]) AS w(kind, id, version, record, put)
		), ins AS (
			INSERT INTO workforce_feed_resources (kind, id, record, version)
			SELECT kind, id, record, 1 FROM w WHERE put AND version < 0
			ON CONFLICT (kind, id) DO NOTHING
			RETURNING kind, id
		), upd AS (
			UPDATE workforce_feed_resources r SET record = w.record, version = r.version + 1
			FROM w WHERE w.put AND w.version >= 0 AND r.kind = w.kind AND r.id = w.id AND r.version = w.version
			RETURNING r.kind, r.id
		), chk AS (
			SELECT w.kind, w.id FROM w LEFT JOIN workforce_feed_resources r ON r.kind = w.kind AND r.id = w.id
			WHERE NOT w.put AND coalesce(r.version, -1) = w.version
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
		UNION ALL SELECT kind, id, 0, 0, false FROM chk
		UNION ALL SELECT kind, id, seq, n, true FROM q WHERE leased`, w.args...)
}

// results reads what w's statement answered: the records written, and
// the changes leased here.
func (w *write) results(br pgx.BatchResults) error {
	if w.args == nil {
		return nil
	}
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
		i, ok := w.leaseOf[claimKey{r, seq}]
		if !ok {
			continue // not one of its leases: the statement answers none such
		}
		p := w.leases[i]
		p.n, p.at = n, w.sent
		w.leased = append(w.leased, p)
	}
	return rows.Err()
}

// done hands the changes leased to this Store (if committed) to the next
// Claim, gives back the leases reserved, keeps the states written in
// w.s.known (and forgets those of the writes lost), and announces changes
// queued unleased. After an error, the changes it leased here are kept
// all the same, to be renewed or given back: it may have committed.
func (w *write) done(committed bool) {
	if !committed {
		for r := range w.after {
			w.s.known.forget(r)
		}
		// It may have committed all the same (its answer lost): the changes
		// it leased here are kept, to be renewed (which finds them, or not)
		// before a Claim hands them over, or given back.
		w.s.prefetch(w.leases, w.heads)
		return
	}
	for r, st := range w.after {
		switch {
		case w.written[r]:
			w.s.known.learn(r, st, false)
		case w.guessed[r] != nil:
			w.s.known.lost(r, w.guessed[r])
		default:
			w.s.known.forget(r)
		}
	}
	w.s.prefetch(w.leased, w.heads)
	for r := range w.queued {
		if w.written[r] {
			w.s.changed()
			return
		}
	}
}
