package workforcetest

import (
	"encoding/json"
	"slices"
)

// table stores the records of one kind under increasing ids. Besides the map by id it keeps
// the records in id order (ids only increase, so an insert appends), so that a list walks from
// the newest and stops once its page is full instead of sorting the whole table.
type table[T any] struct {
	rows  map[int64]*T
	order []*T    // the records, oldest (lowest id) first
	ids   []int64 // their ids, in the same order
	last  int64   // the last id given
}

// newTable makes an empty table whose first id is first.
func newTable[T any](first int64) table[T] {
	return table[T]{rows: map[int64]*T{}, last: first - 1}
}

// insert stores v under a new id and answers the id.
func (t *table[T]) insert(v *T) int64 {
	t.last++
	t.rows[t.last] = v
	t.order = append(t.order, v)
	t.ids = append(t.ids, t.last)
	return t.last
}

// remove forgets the record with id, if any.
func (t *table[T]) remove(id int64) {
	if _, ok := t.rows[id]; !ok {
		return
	}
	delete(t.rows, id)
	if i, ok := slices.BinarySearch(t.ids, id); ok {
		t.ids = slices.Delete(t.ids, i, i+1)
		t.order = slices.Delete(t.order, i, i+1)
	}
}

// desc answers a copy of the records newest first (id descending), the order of every list.
func (t *table[T]) desc() []*T {
	out := slices.Clone(t.order)
	slices.Reverse(out)
	return out
}

// Kinds of record whose state changes are committed.
const (
	changedJob        = "job"
	changedJobRequest = "job_request"
)

// change is one state change of a Job or a Job Request (a creation counts), as committed.
type change struct {
	kind  string // changedJob or changedJobRequest
	id    int64
	state string // the state entered
	owner pool   // the pool of the key pair that owns the record
	body  []byte // the record wrapped in its singular name, as it was right after the change; nil unless st.bodies
}

// run is the one commit point of the fake: it takes st.mu, applies the Job Request cut-offs
// that the clock has reached, runs fn, and releases the lock; then it hands the state changes
// recorded meanwhile to st.committed, outside the lock (where webhooks will be sent from).
// Every handler and outside move that reads or writes records goes through run (or read).
// It counts a new generation of the store, which invalidates the Jobs' cached JSON.
func (st *store) run(fn func() error) error { return st.commit(fn, true) }

// read is run for a handler that only reads records: it counts a new generation only when the
// cut-offs changed something, so that the cached JSON of the Jobs stays valid.
func (st *store) read(fn func() error) error { return st.commit(fn, false) }

// commit is run and read: writes tells whether fn may change a record.
func (st *store) commit(fn func() error, writes bool) error {
	st.mu.Lock()
	st.applyCutoffs()
	err := fn()
	if writes || len(st.changes) > 0 {
		st.gen++
	}
	changes, hook := st.changes, st.committed
	st.changes = nil
	st.mu.Unlock()
	if hook != nil && len(changes) > 0 {
		hook(changes)
	}
	return err
}

// recordChange notes a state change for the commit in progress, with the record as it is now
// when webhooks need it. The caller holds st.mu, right after making the change.
func (st *store) recordChange(kind string, id int64, state string) {
	c := change{kind: kind, id: id, state: state}
	switch kind {
	case changedJob:
		if j, ok := st.jobs.rows[id]; ok {
			if jr, ok := st.jobRequests.rows[j.jobRequestID]; ok {
				c.owner = jr.createdBy
			}
			if st.bodies {
				c.body, _ = json.Marshal(map[string]jobJSON{"job": st.renderJobFor(j, c.owner)})
			}
		}
	case changedJobRequest:
		if jr, ok := st.jobRequests.rows[id]; ok {
			c.owner = jr.createdBy
			if st.bodies {
				c.body, _ = json.Marshal(map[string]jobRequestJSON{"job_request": st.renderJobRequest(jr)})
			}
		}
	}
	st.changes = append(st.changes, c)
}

// stateTable answers the states a record may enter state `to` from ("" is a new record), and
// whether `to` is a state at all.
type stateTable func(to string) (from []string, known bool)

// refusal answers why table does not allow moving from `from` to `to`, or "" when it does.
func (table stateTable) refusal(from, to, kind string) string {
	allowed, known := table(to)
	switch {
	case !known:
		return "is not a " + kind + " state: " + to
	case !slices.Contains(allowed, from):
		return "cannot change from " + describe(from) + " to " + to
	}
	return ""
}
