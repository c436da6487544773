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
// Most updates are written without a read, in their first cycle: those of
// a resource this Store never saw are made on no record (no row, which
// the statement's insert checks), those of one it wrote or read last on
// the record it wrote or read (whose version the statement checks). A
// guess no longer right loses its write, as a race lost, and the update
// is read and made again: fn may run on a guess and then on the record,
// and an error of fn is answered only if the guess held. So the first
// update of each resource after a restart, and of one another instance
// wrote meanwhile, costs a cycle more than before (three, not two); and
// while more than one in five guesses that a resource never seen has no
// row are wrong, there are none: such resources are read first. What is
// kept is bounded (16,384 resources, 8 MiB of records: past either, it
// is forgotten).
//
// When a resource had no change queued, its first new change is leased to
// this Store at once (for the lease of its last Claim: its Feed's), while
// a Feed claims from it, up to one Claim's worth
// beyond its idle workers: the next Claim hands it over without asking
// the database (and no other instance is woken for it).
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
	tries int  // writes lost to another instance's
	read  bool // its write lost: read first, not guessed
}

// genericPlans, run first in a transaction, has the Store's statements in
// it planned once per connection (their generic plan) whatever their
// arguments: planned for each, as by default, those taking arrays (whose
// lengths vary) and the claim were planned again at most calls, at a cost
// above their execution (0.3 ms a call for the acknowledgments' delete,
// 0.4 ms for the claim). A generic plan is made again when ANALYZE
// (autovacuum) updates the statistics of its tables, so it follows them as
// they grow. The setting ends with the transaction.
const genericPlans = `SELECT set_config('plan_cache_mode', 'force_generic_plan', true)`

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
	guess   bool // from known, not read
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
	ready, unread = s.guess(ready, unread)
	ready = s.lockedUpdates(ctx, ready)
	b := &pgx.Batch{}
	var w *write
	if len(ready) > 0 {
		w = s.prepare(ready)
	}
	writes := w != nil && w.args != nil
	if writes || len(acks) > 0 {
		b.Queue("BEGIN")
		b.Queue(genericPlans)
		if writes {
			w.queue(b)
		}
		if len(acks) > 0 {
			queueAcks(b, acks)
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
	idle := make([]*int64, len(acks)) // the version at which a resource had no change left
	states := make(map[feed.Resource]*resourceState, len(rs))
	err := func() error {
		br := s.pool.SendBatch(ctx, b)
		defer br.Close()
		if writes || len(acks) > 0 {
			for range 2 { // BEGIN, genericPlans
				if _, err := br.Exec(); err != nil {
					return err
				}
			}
			if writes {
				if err := w.results(br); err != nil {
					return err
				}
			}
			if len(acks) > 0 {
				var err error
				if more, err = ackResults(br, acks, deleted, idle); err != nil {
					return err
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
	if err == nil {
		for r, st := range states {
			s.known.learn(r, st, true)
		}
		for i, a := range acks {
			if deleted[i] && idle[i] != nil {
				s.known.idle(a.c.Resource, *idle[i])
			}
		}
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
			r.err = nil
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
	// made in arrival order (fn again, on what is read: an error of fn on a
	// wrong guess is not answered). A lost guess is no race lost.
	again := map[feed.Resource]bool{}
	for _, r := range ready {
		if w != nil && w.lost[r.r] {
			if w.guessed[r.r] == nil {
				r.tries++
			}
			r.err, r.read = nil, true
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
