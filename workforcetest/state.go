package workforcetest

import (
	"net/http"
	"sort"
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

// customer is a company the employers belong to.
type customer struct {
	id              int64
	name            string
	city, state     string
	usePendingState bool
	canPostW2       bool
	canPost1099     bool
	createdAt       time.Time
	updatedAt       time.Time
}

// Values of user.kind.
const (
	kindWorker   = "Worker"
	kindEmployer = "Employer"
)

// user is a Worker or an Employer (a requestor). Empty strings and zero times and ids are null.
type user struct {
	id                   int64
	kind                 string
	firstName, lastName  string
	email, phone         string
	gender               string
	avatarURL            string
	address, city, zip   string
	addressState         string
	rating               string // a decimal, written as a string
	suspendedAt          time.Time
	agreedToTermsAt      time.Time
	externalID           string
	onboardingLastState  string
	w2EmployeeID         string
	w2OnboardingStatus   string
	drugTested           bool
	phoneVerifiedAt      time.Time
	customerID           int64
	role, title          string
	syncedWorkerID       int64
	createdAt, updatedAt time.Time
}

// Values of jobRequest.classification and job.classification.
const (
	class1099 = "1099"
	classW2   = "w2"
)

// jobRequest is a posted need for Workers; its Jobs are the Workers' assignments.
type jobRequest struct {
	id                  int64
	customerID          int64
	employerID          int64
	createdBy           pool
	name                string
	state               string
	category            string
	address, city, zip  string
	latitude, longitude string // decimals, written as strings
	startTime           time.Time
	duration            int // minutes
	slots               int
	wage                string // a decimal; "" when not set
	classification      string
	w2HourlyRate        string // a decimal; set for classW2 only
	usePendingState     bool
	createdAt           time.Time
	updatedAt           time.Time
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
	firstJobRequestID = 501
	firstJobID        = 1001
	firstTransitionID = 70001
)

// store holds every record of one fake server. mu guards everything in it.
type store struct {
	mu          sync.Mutex
	clock       *clock
	customers   map[int64]*customer
	users       map[int64]*user
	jobRequests map[int64]*jobRequest
	jobs        map[int64]*job
	tokens      map[string]authToken
	lastID      struct{ customer, user, jobRequest, job, transition int64 }
}

// newStore makes an empty store on clk.
func newStore(clk *clock) *store {
	st := &store{
		clock:       clk,
		customers:   map[int64]*customer{},
		users:       map[int64]*user{},
		jobRequests: map[int64]*jobRequest{},
		jobs:        map[int64]*job{},
		tokens:      map[string]authToken{},
	}
	st.lastID.customer = firstCustomerID - 1
	st.lastID.user = firstUserID - 1
	st.lastID.jobRequest = firstJobRequestID - 1
	st.lastID.job = firstJobID - 1
	st.lastID.transition = firstTransitionID - 1
	return st
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
	c.id = next(&st.lastID.customer)
	st.customers[c.id] = &c
	return &c
}

// addUser stores u under a new id and answers it.
func (st *store) addUser(u user) *user {
	u.id = next(&st.lastID.user)
	st.users[u.id] = &u
	return &u
}

// addJobRequest stores jr under a new id and answers it.
func (st *store) addJobRequest(jr jobRequest) *jobRequest {
	jr.id = next(&st.lastID.jobRequest)
	st.jobRequests[jr.id] = &jr
	return &jr
}

// userOfKind answers the user with id if it is of kind, or a "does not exist" or
// "is not a <kind>" message.
func (st *store) userOfKind(id int64, kind string) (*user, string) {
	u, ok := st.users[id]
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
	j, ok := st.jobs[id]
	if !ok {
		return nil, errorf(http.StatusNotFound, "job %d not found", id)
	}
	return j, nil
}

// sortedDesc answers the values of m ordered newest first (id descending), the order of every list.
func sortedDesc[T any](m map[int64]*T) []*T {
	ids := make([]int64, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, k int) bool { return ids[i] > ids[k] })
	out := make([]*T, len(ids))
	for i, id := range ids {
		out[i] = m[id]
	}
	return out
}
