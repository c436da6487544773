package workforcetest

import (
	"net/http"
	"slices"
	"sync"
	"time"
)

// pool is the access level a key pair, a token or a record belongs to.
type pool int

// The two access levels of CONTRACT §7.
const (
	poolPrivate pool = iota + 1
	poolPublic
)

// Values of user.kind.
const (
	kindWorker   = "Worker"
	kindEmployer = "Employer"
)

// user is a Worker or an Employer (a requestor). Empty strings and zero times and ids are null.
type user struct {
	stored
	kind                string
	firstName, lastName string
	email, phone        string
	gender              string
	avatarURL           string
	address, city, zip  string
	addressState        string
	rating              string // a decimal, written as a string
	suspendedAt         time.Time
	agreedToTermsAt     time.Time
	externalID          string
	onboardingLastState string
	w2EmployeeID        string
	w2OnboardingStatus  string
	drugTested          bool
	phoneVerifiedAt     time.Time
	customerID          int64
	role, title         string
	syncedWorkerID      int64
	latitude, longitude string    // where the User is based: decimals, written as strings
	dob                 time.Time // the date of birth, at midnight UTC
	logoURL             string
	workplaceImageURL   string
	badges              []userBadge // the Badges held, in the order granted
}

// userBadge is a User's holding of a Badge. Its id is the holding's own: the one
// user_badges_attributes names to take it away.
type userBadge struct {
	id, badgeID          int64
	createdAt, updatedAt time.Time
}

// holds tells whether u holds the Badge badgeID.
func (u *user) holds(badgeID int64) bool {
	return slices.ContainsFunc(u.badges, func(b userBadge) bool { return b.badgeID == badgeID })
}

// authToken is an issued token.
type authToken struct {
	pool      pool
	expiresAt time.Time
}

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

// job answers the Job with id, or a 404 error.
func (st *store) job(id int64) (*job, error) {
	j, ok := st.jobs.rows[id]
	if !ok {
		return nil, errorf(http.StatusNotFound, "job %d not found", id)
	}
	return j, nil
}
