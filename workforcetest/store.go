package workforcetest

import (
	"encoding/json"
	"reflect"
	"sync"
	"time"
)

// First ids of each table. The ranges differ so that an id sent in the wrong field is unknown
// instead of silently naming another record.
const (
	firstCustomerID   = 11
	firstUserID       = 101
	firstBadgeID      = 301
	firstJobRequestID = 501
	firstMultiDayID   = 801
	firstJobID        = 1001
	firstMessageID    = 5001
	firstTransitionID = 70001
	firstUserBadgeID  = 90001
	firstBadgeReqID   = 95001
)

// store holds every record of one fake server behind one lock. Handlers reach the records in
// two ways only: read runs a function with a view, which returns copies, under a lock that reads
// share; write runs a function with a transaction, which hands out the records it may change,
// and ends in one commit that gives every record whose content changed a new version and files
// it again in the indexes. Cached JSON records the versions of what it shows, so that it is
// valid exactly until one of those records changes, whoever changed it.
type store struct {
	mu          sync.RWMutex
	clock       *clock
	customers   table[customer]
	users       table[user]
	badges      table[badge]
	jobRequests table[jobRequest]
	multiDays   table[multiDay]
	jobs        table[job]
	messages    table[message]
	// jobIndex files the Jobs by the keys of the filters of GET /jobs, by owner and Worker, and
	// by updated_at; renders holds the JSON of each Job as last written (by id - firstJobID).
	jobIndex *index[job]
	renders  []*renderCache
	// userRenders holds the JSON of each User as a Job embeds it, as last written: a
	// *renderCache by id, added to under the read lock.
	userRenders          sync.Map
	lastTransition       int64
	lastUserBadge        int64
	lastBadgeRequirement int64          // the last id given to a Job Request's Badge requirement
	version              uint64         // the last version a commit gave a changed record
	committed            func([]change) // called after each commit with its changes, outside the lock
	bodies               bool           // record each change's body, for webhooks
	// cutoffsStale tells that a commit changed records since the last scan of the Job Requests'
	// cut-offs, and nextCutoff is the earliest start time that scan left pending.
	cutoffsStale bool
	nextCutoff   time.Time
}

// newStore makes an empty store on clk.
func newStore(clk *clock) *store {
	st := &store{
		clock:                clk,
		customers:            newTable(firstCustomerID, func(c *customer) *stored { return &c.stored }, nil),
		users:                newTable(firstUserID, func(u *user) *stored { return &u.stored }, (*user).clone),
		badges:               newTable(firstBadgeID, func(b *badge) *stored { return &b.stored }, nil),
		jobRequests:          newTable(firstJobRequestID, func(jr *jobRequest) *stored { return &jr.stored }, (*jobRequest).clone),
		multiDays:            newTable(firstMultiDayID, func(m *multiDay) *stored { return &m.stored }, nil),
		jobs:                 newTable(firstJobID, func(j *job) *stored { return &j.stored }, (*job).clone),
		messages:             newTable(firstMessageID, func(m *message) *stored { return &m.stored }, nil),
		lastTransition:       firstTransitionID - 1,
		lastUserBadge:        firstUserBadgeID - 1,
		lastBadgeRequirement: firstBadgeReqID - 1,
		cutoffsStale:         true,
	}
	st.jobIndex = newIndex(st.jobs.meta, jobFilters, jobKeys)
	st.jobs.filed = st.jobIndex.file
	return st
}

// now returns the fake time at the precision records keep (milliseconds), so that a timestamp a
// client reads back filters exactly like the stored one.
func (st *store) now() time.Time { return st.clock.now().Truncate(time.Millisecond) }

// next increments *last and returns it.
func next(last *int64) int64 {
	*last++
	return *last
}

// read runs fn with a view of the records under a lock that reads share. When a Job Request's
// cut-off is due, it is applied first, in a write.
func (st *store) read(fn func(view) error) error {
	st.mu.RLock()
	if !st.cutoffsDue() {
		defer st.mu.RUnlock()
		return fn(view{st: st, when: st.now()})
	}
	st.mu.RUnlock()
	return st.write(func(tx *tx) error { return fn(view{st: st, when: tx.when}) })
}

// write runs fn in a transaction under the lock, after applying the Job Requests' cut-offs that
// the clock has reached, and commits it: each record the transaction handed out or inserted
// whose content changed gets the next version and is filed again. The state changes recorded go
// to st.committed once the lock is released (where webhooks are sent from). fn's error is
// answered; what fn changed before it is committed all the same.
func (st *store) write(fn func(*tx) error) error {
	st.mu.Lock()
	tx := &tx{view: view{st: st, when: st.now()}, tracked: map[any]bool{}}
	if st.cutoffsDue() {
		st.applyCutoffs(tx)
	}
	var err error
	if fn != nil {
		err = fn(tx)
	}
	for _, commit := range tx.commits {
		commit()
	}
	st.jobIndex.times.tidy()
	changes, hook := tx.changes, st.committed
	st.mu.Unlock()
	if hook != nil && len(changes) > 0 {
		hook(changes)
	}
	return err
}

// cutoffsDue tells whether a scan of the cut-offs may find one due. The caller holds st.mu.
func (st *store) cutoffsDue() bool { return st.cutoffsStale || !st.now().Before(st.nextCutoff) }

// view reads the records of a store whose lock the caller holds. It returns copies, so that
// nothing done with what it returns changes the store. A view with deps set notes each record
// it returns, at its version, for the render cache.
type view struct {
	st   *store
	deps *[]dep
	when time.Time // the fake clock's time when the read or write began
}

// now returns the fake clock's time, to the millisecond, when the read or write began: one time
// for everything it reads and writes.
func (v view) now() time.Time { return v.when }

// get returns a copy of the record with id of t.
func get[T any](v view, t *table[T], id int64) (*T, bool) {
	p := t.at(id)
	if p == nil {
		return nil, false
	}
	if v.deps != nil {
		m := t.meta(p)
		*v.deps = append(*v.deps, dep{m, m.ver})
	}
	return t.clone(p), true
}

func (v view) job(id int64) (*job, bool)               { return get(v, &v.st.jobs, id) }
func (v view) jobRequest(id int64) (*jobRequest, bool) { return get(v, &v.st.jobRequests, id) }
func (v view) user(id int64) (*user, bool)             { return get(v, &v.st.users, id) }
func (v view) customer(id int64) (*customer, bool)     { return get(v, &v.st.customers, id) }
func (v view) badge(id int64) (*badge, bool)           { return get(v, &v.st.badges, id) }
func (v view) multiDay(id int64) (*multiDay, bool)     { return get(v, &v.st.multiDays, id) }

// exists tells whether a lookup found its record.
func exists[T any](_ *T, ok bool) bool { return ok }

// pageOf returns copies of the records of one page of t (see listed).
func pageOf[T any](v view, t *table[T], ix *index[T], sels []selection[T], pg page) []*T {
	ids := listed(t, ix, sels, pg)
	out := make([]*T, len(ids))
	for i, id := range ids {
		out[i], _ = get(v, t, id)
	}
	return out
}

// scan returns copies of the records of t that keep keeps (it must only read them), newest
// first, at most limit of them (0: all).
func scan[T any](v view, t *table[T], keep func(*T) bool, limit int) []*T {
	var out []*T
	for i := len(t.order) - 1; i >= 0 && (limit == 0 || len(out) < limit); i-- {
		if keep(t.order[i]) {
			c, _ := get(v, t, t.ids[i])
			out = append(out, c)
		}
	}
	return out
}

// jobLink is what a Job's relatives read of it.
type jobLink struct {
	id, workerID, jobRequestID int64
	state                      string
	owner                      pool
	finishedAt                 time.Time
}

// jobsOf returns the Jobs of the Job Request with id, oldest first.
func (v view) jobsOf(jobRequestID int64) []jobLink {
	return v.jobLinks(v.st.jobIndex.set("job_request_id", itoa(jobRequestID)))
}

// jobsOfWorker returns the Jobs of the Worker with id, oldest first.
func (v view) jobsOfWorker(workerID int64) []jobLink {
	return v.jobLinks(v.st.jobIndex.set("worker", itoa(workerID)))
}

// jobLinks returns the links of the Jobs in ids.
func (v view) jobLinks(ids *idSet) []jobLink {
	out := make([]jobLink, 0, ids.len())
	for _, id := range ids.ascending() {
		j := v.st.jobs.at(id)
		if v.deps != nil {
			*v.deps = append(*v.deps, dep{&j.stored, j.ver})
		}
		out = append(out, jobLink{id: j.id, workerID: j.workerID, jobRequestID: j.jobRequestID, state: j.state,
			owner: j.owner, finishedAt: j.finishedAt})
	}
	return out
}

// tx is a write transaction: a view that sees its own writes, and the records it may change.
type tx struct {
	view
	commits []func()     // one for each record handed out or inserted, run by the commit
	tracked map[any]bool // those records
	changes []change     // the state changes recorded, for the hook
}

// edit returns the record with id of t for changing, or false when there is none. The commit
// compares it with what it is now.
func edit[T any](tx *tx, t *table[T], id int64) (*T, bool) {
	p := t.at(id)
	if p != nil {
		track(tx, t, p, t.clone(p))
	}
	return p, p != nil
}

// insert stores v in t under a new id, which it sets and returns, at a new version, filed at
// once (the Jobs of a Job Request include a new one within the transaction too).
func insert[T any](tx *tx, t *table[T], v *T) int64 {
	id := t.insert(v)
	tx.st.version++
	t.meta(v).ver = tx.st.version
	tx.st.cutoffsStale = true
	if t.filed != nil {
		t.filed(nil, v)
	}
	track(tx, t, v, t.clone(v))
	return id
}

// insertSeededJob inserts j, complete, for SeedJobs: unlike insert it does not track j, so the
// transaction must not change it afterwards.
func (tx *tx) insertSeededJob(j *job) int64 {
	tx.st.renders = append(tx.st.renders, new(renderCache))
	id := tx.st.jobs.insert(j)
	tx.st.version++
	j.ver = tx.st.version
	tx.st.jobs.filed(nil, j)
	return id
}

// insertJob inserts j, with a render cache of its own.
func (tx *tx) insertJob(j *job) int64 {
	tx.st.renders = append(tx.st.renders, new(renderCache))
	return insert(tx, &tx.st.jobs, j)
}

// remove forgets the record with id of t. Its version moves, so that what showed it is stale.
func remove[T any](tx *tx, t *table[T], id int64) {
	if p := t.at(id); p != nil {
		tx.st.version++
		t.meta(p).ver = tx.st.version
		t.remove(id)
	}
}

// track adds p, which was before, to what the commit compares and files.
func track[T any](tx *tx, t *table[T], p, before *T) {
	if tx.tracked[p] {
		return
	}
	tx.tracked[p] = true
	tx.commits = append(tx.commits, func() {
		if reflect.DeepEqual(before, p) {
			return
		}
		tx.st.version++
		t.meta(p).ver = tx.st.version
		tx.st.cutoffsStale = true
		if t.filed != nil {
			t.filed(before, p)
		}
	})
}

func (tx *tx) editJob(id int64) (*job, bool) { return edit(tx, &tx.st.jobs, id) }
func (tx *tx) editJobRequest(id int64) (*jobRequest, bool) {
	return edit(tx, &tx.st.jobRequests, id)
}
func (tx *tx) editUser(id int64) (*user, bool) { return edit(tx, &tx.st.users, id) }

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

// recordChange notes a state change for the commit, with the record as it is now when webhooks
// need it; the caller made the change just before.
func (tx *tx) recordChange(kind string, id int64, state string) {
	c := change{kind: kind, id: id, state: state}
	switch kind {
	case changedJob:
		if j, ok := tx.job(id); ok {
			c.owner = j.owner
			if tx.st.bodies {
				c.body, _ = json.Marshal(map[string]jobJSON{"job": renderJob(tx.view, j)})
			}
		}
	case changedJobRequest:
		if jr, ok := tx.jobRequest(id); ok {
			c.owner = jr.createdBy
			if tx.st.bodies {
				c.body, _ = json.Marshal(map[string]jobRequestJSON{"job_request": renderJobRequest(tx.view, jr, c.owner)})
			}
		}
	}
	tx.changes = append(tx.changes, c)
}
