package workforcetest

import (
	"encoding/json"
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

// store holds every record of one fake server. mu guards everything in it; every access goes
// through run, the commit point.
type store struct {
	mu             sync.Mutex
	clock          *clock
	customers      table[customer]
	users          table[user]
	badges         table[badge]
	jobRequests    table[jobRequest]
	multiDays      table[multiDay]
	jobs           table[job]
	jobsOf         map[int64][]*job // the Jobs of each Job Request, oldest first
	messages       table[message]
	tokens         map[string]authToken
	lastTransition int64
	lastUserBadge  int64
	// lastBadgeRequirement is the last id given to a Job Request's Badge requirement.
	lastBadgeRequirement int64
	changes              []change       // the state changes of the commit in progress
	committed            func([]change) // called after each commit with its changes, outside the lock
	bodies               bool           // record each change's body, for webhooks
	// gen counts the commits that may have changed a record: a Job's cached JSON is valid only
	// at the generation it was written at.
	gen uint64
	// cutoffGen and nextCutoff are the generation of the last full cut-off scan and the earliest
	// start time it left pending: until a commit or that time, no cut-off can fall due.
	cutoffGen  uint64
	nextCutoff time.Time
}

// newStore makes an empty store on clk.
func newStore(clk *clock) *store {
	return &store{
		clock:                clk,
		customers:            newTable[customer](firstCustomerID),
		users:                newTable[user](firstUserID),
		badges:               newTable[badge](firstBadgeID),
		jobRequests:          newTable[jobRequest](firstJobRequestID),
		multiDays:            newTable[multiDay](firstMultiDayID),
		jobs:                 newTable[job](firstJobID),
		jobsOf:               map[int64][]*job{},
		messages:             newTable[message](firstMessageID),
		tokens:               map[string]authToken{},
		lastTransition:       firstTransitionID - 1,
		lastUserBadge:        firstUserBadgeID - 1,
		lastBadgeRequirement: firstBadgeReqID - 1,
	}
}

// now answers the fake time at the precision records keep (milliseconds), so that a timestamp a
// client reads back filters exactly like the stored one.
func (st *store) now() time.Time { return st.clock.now().Truncate(time.Millisecond) }

// next increments *last and answers it.
func next(last *int64) int64 {
	*last++
	return *last
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

// addCustomer stores c under a new id and answers it.
func (st *store) addCustomer(c customer) *customer {
	c.id = st.customers.insert(&c)
	return &c
}

// addUser stores u under a new id and answers it.
func (st *store) addUser(u user) *user {
	u.id = st.users.insert(&u)
	return &u
}

// addJob stores j under a new id, indexed by its Job Request, and answers the id.
func (st *store) addJob(j *job) int64 {
	j.id = st.jobs.insert(j)
	st.jobsOf[j.jobRequestID] = append(st.jobsOf[j.jobRequestID], j)
	return j.id
}

// addJobRequest stores jr under a new id and answers it.
func (st *store) addJobRequest(jr jobRequest) *jobRequest {
	jr.id = st.jobRequests.insert(&jr)
	return &jr
}

// addBadge stores b under a new id and answers it.
func (st *store) addBadge(b badge) *badge {
	b.id = st.badges.insert(&b)
	return &b
}

// userOfKind answers the user with id if it is of kind, or a "does not exist" or
// "is not a <kind>" message.
func (st *store) userOfKind(id int64, kind string) (*user, string) {
	u, ok := st.users.rows[id]
	switch {
	case !ok:
		return nil, "does not exist"
	case u.kind != kind:
		return nil, "is not a " + kind
	}
	return u, ""
}
