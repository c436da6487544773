package workforce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"os"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// The fault suite runs many operations from many goroutines through one
// Client against the fake while the fake injects faults at random, then
// reconciles the fake's state with what every caller was told. It is short
// by default; set WORKFORCE_FAULT_OPS (and WORKFORCE_FAULT_SEED to replay a
// run) for a long one:
//
//	WORKFORCE_FAULT_OPS=20000 go test -run TestFaultSuite -v .
func TestFaultSuite(t *testing.T) {
	ops, seed := 600, rand.Uint64()
	if v := os.Getenv("WORKFORCE_FAULT_OPS"); v != "" {
		n, err := strconv.Atoi(v)
		require.NoError(t, err)
		ops = n
	}
	if v := os.Getenv("WORKFORCE_FAULT_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		require.NoError(t, err)
		seed = n
	}
	t.Logf("fault suite: %d operations, seed %d (WORKFORCE_FAULT_SEED=%d replays the same faults)", ops, seed, seed)
	before := runtime.NumGoroutine()
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())

	r := newFaultRun(t, seed, ops/2/400+1)
	r.run(ops, 16)
	r.reconcile()
	r.srv.Close()
	r.hold.next.CloseIdleConnections()
	r.report(before)
}

// faultRun is one run of the suite: the fake, the client, and what the
// callers were told.
type faultRun struct {
	t       *testing.T
	srv     *workforcetest.Server
	c       *workforce.Client
	logs    *lockedBuffer
	hold    *holdingTransport
	rng     *rand.Rand
	rngMu   sync.Mutex
	workers []int64
	jrs     []int64

	mu       sync.Mutex
	opCount  map[string]int
	faults   map[string]int
	outcomes map[string]int     // create outcomes: acknowledged, failed, unknown
	created  map[[2]int64]int64 // (job request, worker) → the Job the caller was told of
	settled  map[[2]int64]int64 // (job request, worker) → the Job a settle found or made
	failed   map[[2]int64]bool  // creates that failed with a known outcome
	unknown  map[[2]int64]bool  // creates whose outcome is unknown
	jobs     []int64            // Jobs known to exist, for reads and cancels
	errs     map[string]int     // errors by kind
	texts    []string           // every error text, checked for secrets
	panics   int
	cancels  map[int64]workforce.JobState
	creates  int // creates started, each of its own (Job Request, Worker) pair
}

// lockedBuffer is a log sink safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newFaultRun(t *testing.T, seed uint64, jobRequests int) *faultRun {
	r := &faultRun{t: t, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), logs: &lockedBuffer{},
		opCount: map[string]int{}, faults: map[string]int{}, outcomes: map[string]int{},
		created: map[[2]int64]int64{}, settled: map[[2]int64]int64{}, failed: map[[2]int64]bool{}, unknown: map[[2]int64]bool{},
		errs: map[string]int{}, cancels: map[int64]workforce.JobState{}}
	r.srv = workforcetest.NewServer(t, workforcetest.WithTickingClock()) // a clock that moves, as the API's does
	logger := slog.New(slog.NewTextHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	// The creates the callers give up on go on to the end, as on a server that does not watch its
	// clients (the fake would stop), and a settle waits until none of its pair is still in flight:
	// the bound the settle horizon stands for, made true here instead of waited out.
	r.hold = &holdingTransport{next: http.DefaultTransport.(*http.Transport).Clone(), inflight: map[[2]int64]int{}}
	r.hold.cond = sync.NewCond(&r.hold.mu)
	c, err := r.srv.Client(workforce.WithLogger(logger), workforce.WithRetry(3, time.Millisecond, 20*time.Millisecond),
		workforce.WithHTTPClient(&http.Client{Transport: r.hold}), workforce.WithSettleHorizon(0))
	require.NoError(t, err)
	r.c = c

	// Job Requests far in the future with room for every Worker, and Workers.
	ctx := context.Background()
	seedIDs := r.srv.Seed()
	start := r.srv.Now().AddDate(5, 0, 0) // past every expiry the run moves the clock by
	for i := range jobRequests {
		jr, _, err := c.JobRequests.Create(ctx, &workforce.JobRequestParams{
			RequestName: fmt.Sprintf("Fault suite %d", i), Zip: "90015", City: "Los Angeles", Address: "1 Main St",
			Slots: 1000, Description: "Anything.", Category: "General", State: workforce.JobRequestPosted,
			StartTime: workforce.WallClockOf(start), Duration: 60, Wage: workforce.NewDecimal(20), EmployerID: seedIDs.EmployerID,
		})
		require.NoError(t, err)
		r.jrs = append(r.jrs, jr.ID)
	}
	for i := range 400 {
		u, _, err := c.Users.Create(ctx, &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "Fault",
			LastName: fmt.Sprintf("W%d", i), Phone: fmt.Sprintf("+1555%07d", i)})
		require.NoError(t, err)
		r.workers = append(r.workers, u.ID)
	}
	return r
}

func (r *faultRun) intn(n int) int {
	r.rngMu.Lock()
	defer r.rngMu.Unlock()
	return r.rng.IntN(n)
}

// inject schedules one fault at random, on a path the operations use.
func (r *faultRun) inject() {
	r.mu.Lock()
	var job int64
	if len(r.jobs) > 0 {
		job = r.jobs[r.intn(len(r.jobs))]
	}
	r.mu.Unlock()
	paths := []struct{ method, path string }{
		{http.MethodPost, "/api_v2/jobs"}, {http.MethodPost, "/api_v2/jobs"}, {http.MethodGet, "/api_v2/jobs"},
	}
	if job != 0 {
		p := fmt.Sprintf("/api_v2/jobs/%d", job)
		paths = append(paths, struct{ method, path string }{http.MethodGet, p}, struct{ method, path string }{http.MethodPatch, p})
	}
	at := paths[r.intn(len(paths))]
	f := workforcetest.Fault{Method: at.method, Path: at.path}
	var kind string
	switch r.intn(12) {
	case 0:
		kind, f.Status = "429 with Retry-After", 429
		f.RetryAfter = "1" // a millisecond with the fake's client
	case 1:
		kind, f.Status = "429 without Retry-After", 429
	case 2:
		kind, f.Status = "500", 500
	case 3:
		kind, f.Status = "502", 502
	case 4:
		kind, f.Status = "503", 503
	case 5:
		kind, f.Status = "504", 504
	case 6:
		kind, f.Drop = "dropped before acting", true
	case 7:
		kind, f.DropAfter = "dropped after acting", true
	case 8:
		kind, f.Truncate = "body cut short", true
	case 9:
		kind, f.Delay = "slower than the deadline", 2*time.Second
	case 10:
		kind, f.Status = "401", 401
	case 11:
		kind = "token expired"
		r.srv.ExpireTokens() // not by moving the clock, which the API's never does by a day at once
	}
	if kind != "token expired" {
		r.srv.InjectFault(f)
	}
	r.mu.Lock()
	r.faults[kind]++
	r.mu.Unlock()
}

// run performs ops operations from callers goroutines, injecting a fault
// before about one in three.
func (r *faultRun) run(ops, callers int) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				r.op(i)
			}
		}()
	}
	for i := range ops {
		if r.intn(3) == 0 {
			r.inject()
		}
		work <- i
	}
	close(work)
	wg.Wait()
}

// op performs operation i, chosen at random, and records what it was told.
func (r *faultRun) op(i int) {
	defer func() {
		if p := recover(); p != nil {
			r.mu.Lock()
			r.panics++
			r.mu.Unlock()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	var kind string
	var err error
	switch n := r.intn(10); {
	case n < 5: // a create of a pair no one created before
		kind = "create"
		r.mu.Lock()
		k := r.creates
		r.creates++
		r.mu.Unlock()
		if k >= len(r.jrs)*len(r.workers) {
			return
		}
		pair := [2]int64{r.jrs[k%len(r.jrs)], r.workers[k/len(r.jrs)]}
		create := &workforce.JobCreate{JobRequestID: pair[0], WorkerID: pair[1]}
		var job *workforce.Job
		job, _, err = r.c.Jobs.Create(ctx, create)
		r.mu.Lock()
		switch {
		case err == nil:
			r.outcomes["acknowledged"]++
			r.created[pair] = job.ID
			r.jobs = append(r.jobs, job.ID)
		case errors.Is(err, workforce.ErrOutcomeUnknown):
			r.outcomes["unknown"]++
			r.unknown[pair] = true
		default:
			r.outcomes["failed"]++
			r.failed[pair] = true
		}
		r.mu.Unlock()
		if errors.Is(err, workforce.ErrOutcomeUnknown) {
			r.settle(pair, create, err)
		}
	case n < 7:
		kind = "get"
		if id := r.someJob(); id != 0 {
			_, _, err = r.c.Jobs.Get(ctx, id)
		}
	case n < 9:
		kind = "list"
		_, _, err = r.c.Jobs.List(ctx, &workforce.JobListOptions{JobRequestID: r.jrs[r.intn(len(r.jrs))],
			ListOptions: workforce.ListOptions{Per: 50}})
	default:
		kind = "cancel"
		if id := r.someJob(); id != 0 {
			var job *workforce.Job
			job, _, err = r.c.Jobs.Cancel(ctx, id, workforce.CancelDecidedToCancel)
			if err == nil {
				r.mu.Lock()
				r.cancels[id] = job.State
				r.mu.Unlock()
			}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opCount[kind]++
	if err != nil {
		r.errs[errorKind(err)]++
		r.texts = append(r.texts, err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err))
	}
}

// settle settles a create whose outcome is unknown, as the SDK documents
// it: Settle, and when it finds no Job, create again, until an answer is
// known. Faults still strike meanwhile (on the list and the creates); a
// settle that fails is tried again.
func (r *faultRun) settle(pair [2]int64, create *workforce.JobCreate, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	record := func(outcome string, id int64) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.outcomes[outcome]++
		if id != 0 {
			r.settled[pair] = id
			r.jobs = append(r.jobs, id)
		}
	}
	for range 50 {
		r.hold.wait(pair)
		job, serr := r.c.Jobs.Settle(ctx, create, err)
		switch {
		case serr == nil:
			record("unknown, settled: done", job.ID)
			return
		case !errors.Is(serr, workforce.ErrNotFound):
			continue // the settle's own read failed: again
		}
		for range 50 { // again while an answer says nothing was done (a 401, a 429, a 503 with Retry-After)
			var cerr error
			job, _, cerr = r.c.Jobs.Create(ctx, create)
			switch {
			case cerr == nil:
				record("unknown, settled: not done, created again", job.ID)
				return
			case errors.Is(cerr, workforce.ErrUnprocessable):
				record("unknown, settled: not done, then refused", 0)
				r.t.Errorf("pair %v: created again after a settle found nothing, and refused: %v", pair, cerr)
				return
			case errors.Is(cerr, workforce.ErrOutcomeUnknown):
				err = cerr // settle this one
			default:
				continue
			}
			break
		}
	}
	record("unknown, never settled", 0)
}

func (r *faultRun) someJob() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.jobs) == 0 {
		return 0
	}
	return r.jobs[r.intn(len(r.jobs))]
}

// errorKind names what an error matches.
func errorKind(err error) string {
	var names []string
	for _, k := range []struct {
		name string
		err  error
	}{
		{"outcome unknown", workforce.ErrOutcomeUnknown}, {"deadline", context.DeadlineExceeded},
		{"401", workforce.ErrUnauthorized}, {"404", workforce.ErrNotFound}, {"422", workforce.ErrUnprocessable},
		{"429", workforce.ErrRateLimited}, {"5xx", workforce.ErrServer},
	} {
		if errors.Is(err, k.err) {
			names = append(names, k.name)
		}
	}
	var te *workforce.TransportError
	var de *workforce.DecodeError
	switch {
	case len(names) > 0:
	case errors.As(err, &te):
		names = append(names, "transport")
	case errors.As(err, &de):
		names = append(names, "decode")
	default:
		names = append(names, "other")
	}
	return strings.Join(names, "+")
}

// tokenLike matches a token of the fake in a text.
var tokenLike = regexp.MustCompile(`\b[0-9a-f]{48}\b`)

// reconcile holds the fake's state against what the callers were told.
func (r *faultRun) reconcile() {
	t := r.t
	clean, err := r.srv.Client()
	require.NoError(t, err)
	ctx := context.Background()
	found := map[[2]int64][]int64{}
	for _, jr := range r.jrs {
		for job, err := range clean.Jobs.All(ctx, &workforce.JobListOptions{JobRequestID: jr}) {
			require.NoError(t, err)
			found[[2]int64{jr, job.WorkerID}] = append(found[[2]int64{jr, job.WorkerID}], job.ID)
		}
	}
	duplicates, missing, phantom := 0, 0, 0
	for pair, ids := range found {
		if len(ids) > 1 {
			duplicates++
		}
		if !r.unknown[pair] && r.created[pair] == 0 {
			phantom++ // created, but its caller was told nothing was done
		}
	}
	for pair, id := range r.created {
		if ids := found[pair]; len(ids) != 1 || ids[0] != id {
			missing++
		}
	}
	wrongSettles := 0
	for pair := range r.unknown {
		if ids := found[pair]; len(ids) != 1 || ids[0] != r.settled[pair] {
			wrongSettles++ // settled to a Job other than the one there is, or to none
		}
	}
	for id, state := range r.cancels {
		got, _ := r.srv.JobState(id)
		assert.Equal(t, string(state), got, "job %d: the caller was told it was cancelled", id)
	}
	leaks := 0
	keys := []string{r.srv.Private.APIKey, r.srv.Private.SecretKey}
	for _, text := range append(r.texts, r.logs.String()) {
		for _, k := range keys {
			if strings.Contains(text, k) {
				leaks++
			}
		}
		leaks += len(tokenLike.FindAllString(text, -1))
	}
	r.outcomes["duplicated"] = duplicates
	r.outcomes["acknowledged but missing"] = missing
	r.outcomes["done but reported failed"] = phantom
	r.outcomes["unknown, settled wrong"] = wrongSettles
	r.outcomes["secrets in errors or logs"] = leaks
	r.outcomes["panics"] = r.panics
	assert.Zero(t, duplicates, "duplicated creates")
	assert.Zero(t, missing, "acknowledged creates missing")
	assert.Zero(t, phantom, "creates done while their caller was told they failed")
	assert.Zero(t, wrongSettles, "unknown creates not settled to exactly the one Job there is")
	assert.Zero(t, leaks, "secrets in errors or logs")
	assert.Zero(t, r.panics, "panics")
	assert.Positive(t, r.outcomes["acknowledged"])
}

// report logs the figures of the run.
func (r *faultRun) report(before int) {
	section := func(title string, m map[string]int) {
		keys := make([]string, 0, len(m))
		total := 0
		for k, v := range m {
			keys = append(keys, k)
			total += v
		}
		sort.Strings(keys)
		var b strings.Builder
		fmt.Fprintf(&b, "%s:", title)
		for _, k := range keys {
			fmt.Fprintf(&b, "\n  %-28s %6d", k, m[k])
		}
		r.t.Log(b.String())
	}
	section("operations", r.opCount)
	section("faults injected", r.faults)
	section("create outcomes and checks", r.outcomes)
	section("errors the callers got, by what they match", r.errs)
	r.t.Logf("goroutines: %d before the run; none left after it (goleak)", before)
}

// settleCase is one create and its settle, for TestFaultSuiteSettles: make
// makes a record as the case's create does (with its own client, so that
// the faults injected on path hit it); settle settles err; count counts the
// records the create's parameters describe, made by anyone; earlier makes a
// look-alike before the create: what a settle must not take for the
// create's record.
type settleCase struct {
	path    string
	earlier func(t *testing.T, c *workforce.Client)
	make    func(c *workforce.Client) (int64, error)
	settle  func(c *workforce.Client, err error) (int64, error)
	count   func(t *testing.T, c *workforce.Client) int
}

// settleCases returns a case for every create of the SDK, on the fake
// srv: Jobs (Create and Assign, for a Worker who holds an earlier
// cancelled Job on the same Job Request), Job Requests, Customers by name,
// Users by email and by phone, invitations, Badges by name, and Messages
// whose text the sender sent before.
func settleCases(t *testing.T, srv *workforcetest.Server) map[string]settleCase {
	ctx := context.Background()
	seed := srv.Seed()
	job := &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID}
	cancelledBefore := func(t *testing.T, c *workforce.Client) {
		j, _, err := c.Jobs.Assign(ctx, job)
		require.NoError(t, err)
		_, _, err = c.Jobs.Cancel(ctx, j.ID, workforce.CancelDecidedToCancel)
		require.NoError(t, err)
	}
	countJobs := func(t *testing.T, c *workforce.Client) int {
		n := 0
		for j, err := range c.Jobs.All(ctx, &workforce.JobListOptions{JobRequestID: job.JobRequestID}) {
			require.NoError(t, err)
			if j.WorkerID == job.WorkerID && j.State == workforce.JobFilled {
				n++
			}
		}
		return n
	}
	jr := &workforce.JobRequestParams{RequestName: "Dock crew", Zip: "90015", City: "Los Angeles", Address: "800 W Olympic Blvd",
		Slots: 2, Category: "General", Description: "Unload trucks.", State: workforce.JobRequestPosted,
		StartTime: workforce.NewWallClock(2031, 1, 15, 9, 0), AgentCode: "SETTLE-1"}
	customer := &workforce.CustomerParams{Name: "Settle Foods"}
	userByEmail := &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "Ivy", LastName: "Stone", Email: "ivy.stone@example.com"}
	userByPhone := &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "Ike", LastName: "Stone", Phone: "+1 (213) 555-0177"}
	invite := &workforce.UserInvite{Type: workforce.UserWorker, FirstName: "Ida", LastName: "Stone", Phone: "+12135550188"}
	badge := &workforce.BadgeParams{Name: "Food Handler", Description: "Holds a food handler card."}
	var message *workforce.MessageCreate
	messageJob := func(t *testing.T, c *workforce.Client) *workforce.MessageCreate {
		if message == nil {
			j, _, err := c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[2], JobRequestID: seed.JobRequest1099ID})
			require.NoError(t, err)
			message = &workforce.MessageCreate{Body: "On my way", JobID: j.ID, SenderID: seed.WorkerIDs[2], ReceiverID: seed.EmployerID}
		}
		return message
	}
	countUsers := func(email, phone string) func(*testing.T, *workforce.Client) int {
		return func(t *testing.T, c *workforce.Client) int {
			n := 0
			for u, err := range c.Users.All(ctx, nil) {
				require.NoError(t, err)
				if (email != "" && u.Email == email) || (phone != "" && u.Phone == phone) {
					n++
				}
			}
			return n
		}
	}
	return map[string]settleCase{
		"Jobs.Create": {path: "/api_v2/jobs", earlier: cancelledBefore,
			make: func(c *workforce.Client) (int64, error) { j, _, err := c.Jobs.Create(ctx, job); return jobID(j), err },
			settle: func(c *workforce.Client, err error) (int64, error) {
				j, err := c.Jobs.Settle(ctx, job, err)
				return jobID(j), err
			},
			count: countJobs},
		"Jobs.Assign": {path: "/api_v2/jobs/assign", earlier: cancelledBefore,
			make: func(c *workforce.Client) (int64, error) { j, _, err := c.Jobs.Assign(ctx, job); return jobID(j), err },
			settle: func(c *workforce.Client, err error) (int64, error) {
				j, err := c.Jobs.Settle(ctx, job, err)
				return jobID(j), err
			},
			count: countJobs},
		"JobRequests.Create": {path: "/api_v2/job_requests",
			earlier: func(t *testing.T, c *workforce.Client) {
				_, _, err := c.JobRequests.Create(ctx, jr)
				require.NoError(t, err)
			},
			make: func(c *workforce.Client) (int64, error) {
				r, _, err := c.JobRequests.Create(ctx, jr)
				if r == nil {
					return 0, err
				}
				return r.ID, err
			},
			settle: func(c *workforce.Client, err error) (int64, error) {
				r, err := c.JobRequests.Settle(ctx, jr, err)
				if r == nil {
					return 0, err
				}
				return r.ID, err
			},
			count: func(t *testing.T, c *workforce.Client) int {
				n := 0
				for r, err := range c.JobRequests.All(ctx, &workforce.JobRequestListOptions{AgentCode: jr.AgentCode}) {
					require.NoError(t, err)
					if r.RequestName == jr.RequestName {
						n++
					}
				}
				return n
			}},
		"Customers.Create": {path: "/api_v2/customers",
			make: func(c *workforce.Client) (int64, error) {
				r, _, err := c.Customers.Create(ctx, customer)
				if r == nil {
					return 0, err
				}
				return r.ID, err
			},
			settle: func(c *workforce.Client, err error) (int64, error) {
				r, err := c.Customers.Settle(ctx, customer, err)
				if r == nil {
					return 0, err
				}
				return r.ID, err
			},
			count: func(t *testing.T, c *workforce.Client) int {
				n := 0
				for r, err := range c.Customers.All(ctx, nil) {
					require.NoError(t, err)
					if r.Name == customer.Name {
						n++
					}
				}
				return n
			}},
		"Users.Create by email": {path: "/api_v2/users",
			earlier: func(t *testing.T, c *workforce.Client) {
				_, _, err := c.Users.Create(ctx, userByEmail) // the same person, made before
				require.NoError(t, err)
			},
			make: func(c *workforce.Client) (int64, error) {
				u, _, err := c.Users.Create(ctx, userByEmail)
				return userID(u), err
			},
			settle: func(c *workforce.Client, err error) (int64, error) {
				u, err := c.Users.Settle(ctx, userByEmail, err)
				return userID(u), err
			},
			count: countUsers(userByEmail.Email, "")},
		"Users.Create by phone": {path: "/api_v2/users",
			earlier: func(t *testing.T, c *workforce.Client) {
				_, _, err := c.Users.Create(ctx, userByPhone)
				require.NoError(t, err)
			},
			make: func(c *workforce.Client) (int64, error) {
				u, _, err := c.Users.Create(ctx, userByPhone)
				return userID(u), err
			},
			settle: func(c *workforce.Client, err error) (int64, error) {
				u, err := c.Users.Settle(ctx, userByPhone, err)
				return userID(u), err
			},
			count: countUsers("", userByPhone.Phone)},
		"Users.Invite": {path: "/api_v2/users/invite",
			earlier: func(t *testing.T, c *workforce.Client) {
				_, _, err := c.Users.Invite(ctx, invite)
				require.NoError(t, err)
			},
			make: func(c *workforce.Client) (int64, error) {
				u, _, err := c.Users.Invite(ctx, invite)
				return userID(u), err
			},
			settle: func(c *workforce.Client, err error) (int64, error) {
				u, err := c.Users.SettleInvite(ctx, invite, err)
				return userID(u), err
			},
			count: countUsers("", invite.Phone)},
		"Badges.Create": {path: "/api_v2/badges",
			earlier: func(t *testing.T, c *workforce.Client) {
				_, _, err := c.Badges.Create(ctx, badge)
				require.NoError(t, err)
			},
			make: func(c *workforce.Client) (int64, error) {
				b, _, err := c.Badges.Create(ctx, badge)
				if b == nil {
					return 0, err
				}
				return b.ID, err
			},
			settle: func(c *workforce.Client, err error) (int64, error) {
				b, err := c.Badges.Settle(ctx, badge, err)
				if b == nil {
					return 0, err
				}
				return b.ID, err
			},
			count: func(t *testing.T, c *workforce.Client) int {
				n := 0
				for b, err := range c.Badges.All(ctx, nil) {
					require.NoError(t, err)
					if b.Name == badge.Name {
						n++
					}
				}
				return n
			}},
		"Messages.Create": {path: "/api_v2/messages",
			earlier: func(t *testing.T, c *workforce.Client) {
				_, _, err := c.Messages.Create(ctx, messageJob(t, c)) // the same text, sent before
				require.NoError(t, err)
			},
			make: func(c *workforce.Client) (int64, error) {
				m, _, err := c.Messages.Create(ctx, message)
				if m == nil {
					return 0, err
				}
				return m.ID, err
			},
			settle: func(c *workforce.Client, err error) (int64, error) {
				m, err := c.Messages.Settle(ctx, message, err)
				if m == nil {
					return 0, err
				}
				return m.ID, err
			},
			count: func(t *testing.T, c *workforce.Client) int {
				n := 0
				for m, err := range c.Messages.All(ctx, &workforce.MessageListOptions{JobID: message.JobID}) {
					require.NoError(t, err)
					if m.Body == message.Body {
						n++
					}
				}
				return n
			}},
	}
}

func jobID(j *workforce.Job) int64 {
	if j == nil {
		return 0
	}
	return j.ID
}

// TestFaultSuiteSettles proves every create's Settle on the fake, with a
// clock that moves: a create whose connection is dropped after the server
// acted, or before, or whose answer is cut short, ends in exactly one
// record once settled (and, when the settle finds none, created again),
// the record the create made; a look-alike made before it (a cancelled
// Job of the same Worker on the same Job Request, the same text sent
// before, the same person or Badge name) is never taken for it.
func TestFaultSuiteSettles(t *testing.T) {
	t.Parallel()
	faults := []struct {
		name  string
		fault workforcetest.Fault
		done  bool
	}{
		{"dropped after acting", workforcetest.Fault{DropAfter: true}, true},
		{"dropped before acting", workforcetest.Fault{Drop: true}, false},
		{"answer cut short", workforcetest.Fault{Truncate: true}, true},
	}
	names := slices.Sorted(maps.Keys(settleCases(t, workforcetest.NewServer(t))))
	for _, f := range faults {
		for _, name := range names {
			t.Run(f.name+"/"+name, func(t *testing.T) {
				t.Parallel()
				srv := workforcetest.NewServer(t, workforcetest.WithTickingClock())
				tc := settleCases(t, srv)[name]
				c, err := srv.Client(workforce.WithSettleHorizon(0)) // a dropped create ended before the call did
				require.NoError(t, err)
				before := 0
				if tc.earlier != nil {
					tc.earlier(t, c)
					before = tc.count(t, c)
					srv.Advance(time.Minute) // made a minute before the call: not the call's, whatever it became
				}
				fault := f.fault
				fault.Method, fault.Path = http.MethodPost, tc.path
				srv.InjectFault(fault)
				_, err = tc.make(c)
				require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)

				id, err := tc.settle(c, err)
				if f.done {
					require.NoError(t, err)
					assert.Positive(t, id)
				} else {
					require.ErrorIs(t, err, workforce.ErrNotFound)
					id, err = tc.make(c) // not done: made now
					require.NoError(t, err)
				}
				assert.Equal(t, before+1, tc.count(t, c), "exactly one record made")
				again, err := tc.settle(c, &workforce.TransportError{OutcomeUnknown: true, Started: time.Now().Add(-time.Second)})
				if err == nil {
					assert.Equal(t, id, again, "the settle answers the record the create made")
				}
			})
		}
	}
}

// A settle on the default, frozen clock, where every record is made in the
// same instant: the Worker's earlier cancelled Job and the call's cannot be
// told apart (undecided, never "not done"); once the test moves the clock
// between them, as the fake's users do, they are. (Without the call's Job,
// the earlier one alone reads as the call's, moved on: docs/settling.md,
// "What it does not do".)
func TestSettleJobOnAFrozenClock(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		done, moved bool
		want        error
	}{{true, false, workforce.ErrUndecided}, {true, true, nil}, {false, true, workforce.ErrNotFound}} {
		srv := workforcetest.NewServer(t)
		sc := settleCases(t, srv)["Jobs.Assign"]
		c, err := srv.Client(workforce.WithSettleHorizon(0)) // a dropped create ended before the call did
		require.NoError(t, err)
		sc.earlier(t, c)
		if tc.moved {
			srv.Advance(time.Second)
		}
		srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: sc.path, Drop: !tc.done, DropAfter: tc.done})
		_, err = sc.make(c)
		require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
		j, err := c.Jobs.Settle(context.Background(), &workforce.JobCreate{WorkerID: srv.Seed().WorkerIDs[1], JobRequestID: srv.Seed().JobRequest1099ID}, err)
		if tc.want == nil {
			require.NoError(t, err)
			assert.Equal(t, workforce.JobFilled, j.State, "the call's Job, not the cancelled one made before")
			continue
		}
		require.ErrorIs(t, err, tc.want, "%+v", tc)
	}
}

// holdingTransport sends each POST to the end even when its caller gives up (it answers the
// caller at once then), and counts those of each (Job Request, Worker) pair still in flight.
type holdingTransport struct {
	next     *http.Transport
	mu       sync.Mutex
	cond     *sync.Cond
	inflight map[[2]int64]int
}

func (h *holdingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || req.Body == nil {
		return h.next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	if err != nil {
		return nil, err
	}
	var create struct {
		Job struct {
			WorkerID     int64 `json:"worker_id"`
			JobRequestID int64 `json:"job_request_id"`
		} `json:"job"`
	}
	_ = json.Unmarshal(body, &create)
	pair := [2]int64{create.Job.JobRequestID, create.Job.WorkerID}
	h.add(pair, 1)
	// The request goes out whatever its caller does: say so to the caller's trace (the SDK's
	// judge of whether a write may have reached the server) before the caller may leave.
	if tr := httptrace.ContextClientTrace(req.Context()); tr != nil {
		if tr.GetConn != nil {
			tr.GetConn(req.URL.Host)
		}
		if tr.GotConn != nil {
			tr.GotConn(httptrace.GotConnInfo{})
		}
	}
	out := req.Clone(context.WithoutCancel(req.Context()))
	out.Body = io.NopCloser(bytes.NewReader(body))
	type result struct {
		resp *http.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := h.next.RoundTrip(out) // the server has acted, or never will, once it answers
		h.add(pair, -1)
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-req.Context().Done():
		go func() {
			if r := <-done; r.resp != nil {
				_ = r.resp.Body.Close()
			}
		}()
		return nil, req.Context().Err()
	}
}

func (h *holdingTransport) add(pair [2]int64, n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.inflight[pair] += n
	h.cond.Broadcast()
}

// wait waits until no POST of pair is in flight.
func (h *holdingTransport) wait(pair [2]int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for h.inflight[pair] > 0 {
		h.cond.Wait()
	}
}
