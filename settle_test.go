package workforce_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// The error of a create whose outcome is unknown records when its call
// began, whatever error type says so; other errors do not.
func TestOutcomeUnknownErrorsRecordTheirStart(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	seed := srv.Seed()
	ctx := context.Background()
	for i, f := range []workforcetest.Fault{{DropAfter: true}, {Truncate: true}, {Status: 500}, {Status: 422}} {
		f.Method, f.Path = http.MethodPost, "/api_v2/jobs"
		srv.InjectFault(f)
		before := time.Now()
		_, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1+i], JobRequestID: seed.JobRequest1099ID})
		after := time.Now()
		require.Error(t, err)
		var started time.Time
		var apiErr *workforce.APIError
		var transportErr *workforce.TransportError
		var decodeErr *workforce.DecodeError
		switch {
		case errors.As(err, &apiErr):
			started = apiErr.Started
		case errors.As(err, &transportErr):
			started = transportErr.Started
		case errors.As(err, &decodeErr):
			started = decodeErr.Started
		}
		if f.Status == 422 {
			assert.NotErrorIs(t, err, workforce.ErrOutcomeUnknown)
			assert.True(t, started.IsZero(), "%+v: nothing to settle", f)
			continue
		}
		require.ErrorIs(t, err, workforce.ErrOutcomeUnknown, "%+v", f)
		assert.False(t, started.Before(before) || started.After(after), "%+v: started %v, not within the call", f, started)
	}
}

// An update whose outcome is unknown records no start: its error cannot be
// given to a Settle, which would search from the update's time and miss the
// create's record (an outside attack passed one and got "not done").
func TestAnUpdatesErrorCannotBeSettled(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	id := srv.Seed().PublicJobID
	minutes := 90
	srv.InjectFault(workforcetest.Fault{Method: http.MethodPatch, Path: "/api_v2/jobs/" + strconv.FormatInt(id, 10), Status: http.StatusInternalServerError, Times: 100})
	_, _, err := c.Jobs.Update(ctx, id, &workforce.JobUpdate{ActualDuration: &minutes})
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
	create := &workforce.JobCreate{WorkerID: srv.Seed().WorkerIDs[1], JobRequestID: srv.Seed().JobRequest1099ID}
	sctx, cancel := context.WithTimeout(ctx, 2*time.Second) // bounds the settle should it search
	defer cancel()
	_, serr := c.Jobs.Settle(sctx, create, err)
	assert.ErrorIs(t, serr, workforce.ErrInvalidArgument)
	assert.NotErrorIs(t, serr, workforce.ErrNotFound)
}

// Settle takes only the error of a create whose outcome is unknown.
func TestSettleRefusesOtherErrors(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	create := &workforce.JobCreate{WorkerID: srv.Seed().WorkerIDs[1], JobRequestID: srv.Seed().JobRequest1099ID}
	ctx := context.Background()
	for _, err := range []error{nil, errors.New("x"), &workforce.APIError{StatusCode: 422},
		&workforce.TransportError{OutcomeUnknown: true}} { // no start: not the create's own error
		_, serr := c.Jobs.Settle(ctx, create, err)
		assert.ErrorIs(t, serr, workforce.ErrInvalidArgument, "%v", err)
	}
	_, err := c.Jobs.Settle(ctx, &workforce.JobCreate{}, &workforce.TransportError{OutcomeUnknown: true, Started: time.Now()})
	assert.ErrorIs(t, err, workforce.ErrInvalidArgument)
	var noContext context.Context
	_, err = c.Jobs.Settle(noContext, create, &workforce.TransportError{OutcomeUnknown: true, Started: time.Now()})
	assert.ErrorIs(t, err, workforce.ErrInvalidArgument)
	var zero workforce.Client
	_, err = zero.Jobs.Settle(ctx, create, &workforce.TransportError{OutcomeUnknown: true, Started: time.Now()})
	assert.ErrorIs(t, err, workforce.ErrConfig)
}

// The bound is the server's time less the time since the call began, less
// a second for a clock told to the second: a Job made just after it is
// the call's, one made just before is not. Jobs of the live API's shape,
// without worker_id, are matched by worker.id.
func TestSettleBound(t *testing.T) {
	t.Parallel()
	for _, clock := range []string{"utc_time_now", "Date header"} {
		t.Run(clock, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t, workforce.WithSettleHorizon(0))
			y, mo, d := time.Now().UTC().Date() // today, within MaxClockSkew of the client's clock
			server := time.Date(y, mo, d, 18, 0, 10, 0, time.UTC)
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info", func(*http.Request) (*http.Response, error) {
				if clock == "Date header" {
					resp := httpmock.NewStringResponse(404, `{"error": "not found"}`)
					resp.Header.Set("Date", server.Format(http.TimeFormat))
					return resp, nil
				}
				return httpmock.NewStringResponse(200, fmt.Sprintf(`{"utc_time_now": %q}`, server.Format(time.RFC3339))), nil
			})
			// The call began 2 s ago: the bound is about 18:00:07, less the time the settle takes
			// (the Jobs around it are seconds away, so that a slow machine cannot move it past them).
			started := time.Now().Add(-2 * time.Second)
			job := func(id int64, created time.Time, state string) string { // made filled, then moved to state
				transitions := fmt.Sprintf(`{"id": %d, "name": "filled"}`, 10*id)
				if state != "filled" {
					transitions = fmt.Sprintf(`{"id": %d, "name": %q}, %s`, 10*id+1, state, transitions)
				}
				return fmt.Sprintf(`{"id": %d, "state": %q, "created_at": %q, "worker": {"id": 7}, "transitions": [%s]}`,
					id, state, created.In(time.FixedZone("", -8*3600)).Format("2006-01-02T15:04:05.000Z07:00"), transitions)
			}
			page := `{"jobs": [` + job(13, server.Add(-1500*time.Millisecond), "filled") + `,` +
				job(12, server.Add(-10*time.Second), "filled") + `,` +
				job(11, server.Add(-time.Second), "cancelled") + `]}`
			var query string
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", func(r *http.Request) (*http.Response, error) {
				query = r.URL.RawQuery
				return httpmock.NewStringResponse(200, page), nil
			})
			create := &workforce.JobCreate{WorkerID: 7, JobRequestID: 9}
			got, err := c.Jobs.Settle(context.Background(), create, &workforce.TransportError{OutcomeUnknown: true, Started: started})
			require.NoError(t, err)
			assert.Equal(t, int64(13), got.ID, "made after the bound, the earliest made so, the Worker's by worker.id")
			assert.Contains(t, query, "job_request_id=9")
			assert.Contains(t, query, "updated_after="+server.Format("2006-01-02")+"T18%3A00%3A0") // two seconds before the bound

			page = `{"jobs": [` + job(12, server.Add(-10*time.Second), "filled") + `]}`
			_, err = c.Jobs.Settle(context.Background(), create, &workforce.TransportError{OutcomeUnknown: true, Started: started})
			assert.ErrorIs(t, err, workforce.ErrNotFound, "made before the call began")
		})
	}
}

// heldAPI is an API whose POST /jobs commits its Job only once the test
// releases it, whether or not the client still waits: a server that goes on
// working on a request its client gave up on.
type heldAPI struct {
	received chan struct{} // a create arrived
	release  chan struct{} // commit it
	listed   chan struct{} // a GET /jobs was answered (never blocks)
	mu       sync.Mutex
	jobs     []string
}

func newHeldAPI() *heldAPI {
	return &heldAPI{received: make(chan struct{}, 1), release: make(chan struct{}), listed: make(chan struct{}, 100)}
}

func (a *heldAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	now := func() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }
	switch {
	case r.URL.Path == "/api_v2/authenticate":
		fmt.Fprintf(w, `{"token": %q, "expires_at": %q}`, testToken, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	case r.URL.Path == "/api_v2/info":
		fmt.Fprintf(w, `{"utc_time_now": %q}`, now())
	case r.URL.Path == "/api_v2/jobs" && r.Method == http.MethodPost:
		a.received <- struct{}{}
		<-a.release // the client has left by now; the server commits all the same
		a.mu.Lock()
		a.jobs = append(a.jobs, fmt.Sprintf(`{"id": %d, "state": "filled", "job_request_id": 9, "worker": {"id": 7}, "created_at": %q, "transitions": [{"name": "filled"}]}`,
			100+len(a.jobs), now()))
		a.mu.Unlock()
	case r.URL.Path == "/api_v2/jobs":
		a.mu.Lock()
		page := `{"jobs": [` + strings.Join(a.jobs, ",") + `]}`
		if r.URL.Query().Get("page") > "1" {
			page = `{"jobs": []}`
		}
		a.mu.Unlock()
		fmt.Fprint(w, page)
		select {
		case a.listed <- struct{}{}:
		default:
		}
	default:
		http.NotFound(w, r)
	}
}

func (a *heldAPI) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.jobs)
}

// A create whose caller gave up while the server still works on it: until
// the settle horizon has passed, Settle never returns "not done" (the
// recipe would create a second Job); it returns ErrTooEarly when its
// context ends first, and finds the Job once the server made it, waiting
// for it within its context (C1).
func TestSettleWhileTheCreateIsStillInFlight(t *testing.T) {
	t.Parallel()
	api := newHeldAPI()
	srv := httptest.NewServer(api)
	defer srv.Close()
	var release sync.Once
	defer release.Do(func() { close(api.release) }) // before Close, which waits for the handlers
	c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(srv.URL), workforce.WithRetry(0, 0, 0))
	require.NoError(t, err)
	create := &workforce.JobCreate{WorkerID: 7, JobRequestID: 9}

	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-api.received; cancel() }() // the caller gives up once the server has the request
	_, _, err = c.Jobs.Create(ctx, create)
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
	sent := workforce.CallSent(err)

	// The settle's context ends first: it cannot tell yet, and says so.
	short, cancelShort := context.WithCancel(context.Background())
	go func() { <-api.listed; cancelShort() }()
	_, serr := c.Jobs.Settle(short, create, err)
	cancelShort()
	require.ErrorIs(t, serr, workforce.ErrTooEarly)
	require.ErrorIs(t, serr, workforce.ErrOutcomeUnknown, "the recipe does not create again")
	require.NotErrorIs(t, serr, workforce.ErrNotFound)
	require.ErrorIs(t, serr, context.Canceled)
	var unsettled *workforce.UnsettledError
	require.ErrorAs(t, serr, &unsettled)
	assert.Equal(t, sent.Add(workforce.DefaultSettleHorizon), unsettled.Until)

	// The server commits while a settle waits: the settle finds the Job. The
	// UnsettledError stands for the create's error.
	go func() { <-api.listed; release.Do(func() { close(api.release) }) }()
	job, serr := c.Jobs.Settle(context.Background(), create, serr)
	require.NoError(t, serr)
	assert.Equal(t, int64(100), job.ID)
	assert.Equal(t, 1, api.count())
}

// Once the horizon has passed since the call began, a settle that finds
// nothing concludes the create was not done.
func TestSettleAfterTheHorizon(t *testing.T) {
	t.Parallel()
	api := newHeldAPI()
	srv := httptest.NewServer(api)
	defer srv.Close()
	c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(srv.URL), workforce.WithSettleHorizon(time.Hour))
	require.NoError(t, err)
	create := &workforce.JobCreate{WorkerID: 7, JobRequestID: 9}
	_, err = c.Jobs.Settle(context.Background(), create, &workforce.TransportError{OutcomeUnknown: true, Started: time.Now().Add(-time.Hour - time.Second)})
	require.ErrorIs(t, err, workforce.ErrNotFound)
	assert.Contains(t, err.Error(), "not done")

	_, err = workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(srv.URL), workforce.WithSettleHorizon(-time.Second))
	require.ErrorIs(t, err, workforce.ErrConfig)
}

// An Assign dropped before the server acted, while the Worker applied in
// the app: the pending application is not the Assign's Job, which would be
// filled; the settle finds none, and the Assign is sent again (A7).
func TestSettleTakesNoApplicationForAnAssign(t *testing.T) {
	t.Parallel()
	srv := workforcetest.NewServer(t, workforcetest.WithTickingClock())
	c, err := srv.Client(workforce.WithSettleHorizon(0)) // the dropped create ended before the call did
	require.NoError(t, err)
	seed := srv.Seed()
	ctx := context.Background()
	create := &workforce.JobCreate{WorkerID: seed.WorkerIDs[3], JobRequestID: seed.PendingJobRequestID}
	srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/jobs/assign", Drop: true})
	_, _, err = c.Jobs.Assign(ctx, create)
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
	_, applyErr := srv.ApplyToJobRequest(seed.PendingJobRequestID, create.WorkerID)
	require.NoError(t, applyErr)
	job, err := c.Jobs.Settle(ctx, create, err)
	require.ErrorIs(t, err, workforce.ErrNotFound, "settled to %+v", job)
}

// settleAgainst settles a Job create that began at started against a mock
// whose /info tells info and whose Job 21 was made at the text made, both
// on 2026-11-20, which is moved to today (a Settle refuses a server clock
// more than MaxClockSkew from the client's).
func settleAgainst(t *testing.T, info, made string, started time.Time, opts ...workforce.Option) (*workforce.Job, error) {
	t.Helper()
	today := time.Now().UTC().Format("2006-01-02")
	info, made = strings.Replace(info, "2026-11-20", today, 1), strings.Replace(made, "2026-11-20", today, 1)
	c, m := newMock(t, append([]workforce.Option{workforce.WithSettleHorizon(0)}, opts...)...)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info",
		httpmock.NewStringResponder(200, fmt.Sprintf(`{"utc_time_now": %q}`, info)))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", httpmock.NewStringResponder(200,
		fmt.Sprintf(`{"jobs": [{"id": 21, "state": "filled", "created_at": %q, "worker": {"id": 7}, "transitions": [{"name": "filled"}]}]}`, made)))
	return c.Jobs.Settle(context.Background(), &workforce.JobCreate{WorkerID: 7, JobRequestID: 9},
		&workforce.TransportError{OutcomeUnknown: true, Started: started})
}

// A server clock told to the second is cut to it, never later than the
// truth: the settle subtracts nothing more for it, so a record stamped to
// the millisecond more than the round trip before the call is not the
// call's (S3). A record stamped without a fraction may be cut to the second
// and passes.
func TestSettleServerClockToTheSecond(t *testing.T) {
	t.Parallel()
	_, err := settleAgainst(t, "2026-11-20T18:00:10Z", "2026-11-20T18:00:09.001Z", time.Now())
	assert.ErrorIs(t, err, workforce.ErrNotFound, "made 0.999 s or more before the call began")
	job, err := settleAgainst(t, "2026-11-20T18:00:10Z", "2026-11-20T18:00:09Z", time.Now())
	require.NoError(t, err, "stamped without a fraction: perhaps cut from 18:00:09.999, after the call began")
	assert.Equal(t, int64(21), job.ID)
}

// A stamp told to the millisecond on a whole second is precise to the
// millisecond, not to the second: an older record so stamped is not the
// call's (A5).
func TestSettleStampOnAWholeSecond(t *testing.T) {
	t.Parallel()
	_, err := settleAgainst(t, "2026-11-20T18:00:10.000Z", "2026-11-20T18:00:09.000Z", time.Now())
	assert.ErrorIs(t, err, workforce.ErrNotFound, "made a second before the call began")
	var stamp workforce.Time
	require.NoError(t, json.Unmarshal([]byte(`"2026-11-20T18:00:09.000Z"`), &stamp))
	assert.Equal(t, time.Millisecond, stamp.Precision())
	require.NoError(t, json.Unmarshal([]byte(`"2026-11-20T18:00:09Z"`), &stamp))
	assert.Equal(t, time.Second, stamp.Precision())
	require.NoError(t, json.Unmarshal([]byte(`"2026-11-20 18:00:09.5 +0000"`), &stamp))
	assert.Equal(t, 100*time.Millisecond, stamp.Precision())
}

// A server whose /info runs on a clock ahead of the one that stamped the
// call's record: exact by default (the record is missed), found with a
// clock tolerance as large as the difference (A2).
func TestSettleClockTolerance(t *testing.T) {
	t.Parallel()
	started := time.Now().Add(-20 * time.Second) // /info at 18:00:30: the call began at 18:00:10 by that clock
	_, err := settleAgainst(t, "2026-11-20T18:00:30.000Z", "2026-11-20T18:00:05.000Z", started)
	assert.ErrorIs(t, err, workforce.ErrNotFound, "exact by default")
	job, err := settleAgainst(t, "2026-11-20T18:00:30.000Z", "2026-11-20T18:00:05.000Z", started, workforce.WithClockTolerance(10*time.Second))
	require.NoError(t, err, "the record's clock is 5 s behind /info's")
	assert.Equal(t, int64(21), job.ID)
	_, err = workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(mockBase), workforce.WithClockTolerance(-time.Second))
	assert.ErrorIs(t, err, workforce.ErrConfig)
}

// A Job Request is matched by the start the server stores: a reading the
// spring change skips (02:30) is stored at 03:30, and the answer may write
// the start in any offset; the Job Request's time zone says which instant
// the reading is (A6, C4).
func TestSettleJobRequestStartAsStored(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		start  workforce.WallClock
		stored string // the start_time the answer writes
		found  bool
	}{
		{"ordinary, venue offset", workforce.NewWallClock(2031, 1, 15, 9, 0), "2031-01-15T09:00:00.000-08:00", true},
		{"ordinary, in UTC", workforce.NewWallClock(2031, 1, 15, 9, 0), "2031-01-15T17:00:00.000Z", true},
		{"ordinary, an hour later", workforce.NewWallClock(2031, 3, 9, 12, 0), "2031-03-09T13:00:00.000-07:00", false},
		{"spring-forward gap", workforce.NewWallClock(2031, 3, 9, 2, 30), "2031-03-09T03:30:00.000-07:00", true},
		{"spring-forward gap, earlier offset", workforce.NewWallClock(2031, 3, 9, 2, 30), "2031-03-09T01:30:00.000-08:00", true},
		{"repeated hour, second time", workforce.NewWallClock(2031, 11, 2, 1, 30), "2031-11-02T01:30:00.000-08:00", true},
		{"repeated hour, first time", workforce.NewWallClock(2031, 11, 2, 1, 30), "2031-11-02T01:30:00.000-07:00", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t, workforce.WithSettleHorizon(0))
			now := time.Now().UTC()
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info",
				httpmock.NewStringResponder(200, fmt.Sprintf(`{"utc_time_now": %q}`, now.Format(time.RFC3339Nano))))
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/job_requests", httpmock.NewStringResponder(200, fmt.Sprintf(
				`{"job_requests": [{"id": 5, "request_name": "Dock crew", "address": "1 Main St", "city": "Los Angeles", "zip": "90015",
				  "timezone": "America/Los_Angeles", "start_time": %q, "created_at": %[2]q, "updated_at": %[2]q}]}`, tc.stored, now.Format(time.RFC3339Nano))))
			params := &workforce.JobRequestParams{RequestName: "Dock crew", Address: "1 Main St", City: "Los Angeles", Zip: "90015",
				Slots: 1, Category: "General", Description: "Unload.", State: workforce.JobRequestPosted, StartTime: tc.start}
			jr, err := c.JobRequests.Settle(context.Background(), params, &workforce.TransportError{OutcomeUnknown: true, Started: time.Now()})
			if !tc.found {
				assert.ErrorIs(t, err, workforce.ErrNotFound)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, int64(5), jr.ID)
		})
	}
}

// Jobs.Settle decides by a Job's history: the Worker's Job made since the
// call began whose first transition is filled is the call's in any state;
// one whose first is pending is the Worker's application, granted or not;
// one whose answer carries no transitions, or a history that does not reach
// back to its creation, cannot be told: ErrUndecided, never ErrNotFound.
func TestSettleJobByItsHistory(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, state, transitions string
		want                     error // nil: found
	}{
		{"filled", "filled", `[{"id": 1, "name": "filled"}]`, nil},
		{"withdrawn since", "withdrawn", `[{"id": 2, "name": "withdrawn"}, {"id": 1, "name": "filled"}]`, nil},
		{"completed since, listed oldest first", "completed", `[{"id": 1, "name": "filled"}, {"id": 2, "name": "in_progress"}, {"id": 3, "name": "completed"}]`, nil},
		{"refilled after a withdrawal", "filled", `[{"id": 3, "name": "filled"}, {"id": 2, "name": "withdrawn"}, {"id": 1, "name": "filled"}]`, nil},
		{"an application granted", "filled", `[{"id": 2, "name": "filled"}, {"id": 1, "name": "pending"}]`, workforce.ErrNotFound},
		{"an application", "pending", `[{"id": 1, "name": "pending"}]`, workforce.ErrNotFound},
		{"no transitions", "filled", `[]`, workforce.ErrUndecided},
		{"transitions absent", "in_progress", ``, workforce.ErrUndecided},
		{"a history cut short", "completed", `[{"id": 9, "name": "completed"}]`, workforce.ErrUndecided},
		{"pending, no transitions", "pending", `[]`, workforce.ErrNotFound},
		{"rejected", "rejected", `[{"name": "rejected"}]`, workforce.ErrNotFound},
		// Without ids, the times order the transitions, whatever the order listed.
		{"no ids, oldest first, by their times", "filled", `[{"name": "pending", "created_at": "2026-01-01T10:00:00Z"}, {"name": "filled", "created_at": "2026-01-01T10:00:05Z"}]`, workforce.ErrNotFound},
		{"no ids, newest first, by their times", "withdrawn", `[{"name": "withdrawn", "created_at": "2026-01-01T10:00:05Z"}, {"name": "filled", "created_at": "2026-01-01T10:00:00Z"}]`, nil},
		{"no ids, one second", "filled", `[{"name": "filled", "created_at": "2026-01-01T10:00:00Z"}, {"name": "pending", "created_at": "2026-01-01T10:00:00Z"}]`, workforce.ErrUndecided},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t, workforce.WithSettleHorizon(0))
			now := time.Now().UTC()
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info",
				httpmock.NewStringResponder(200, fmt.Sprintf(`{"utc_time_now": %q}`, now.Format(time.RFC3339Nano))))
			transitions := ""
			if tc.transitions != "" {
				transitions = `, "transitions": ` + tc.transitions
			}
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", httpmock.NewStringResponder(200, fmt.Sprintf(
				`{"jobs": [{"id": 21, "state": %q, "created_at": %q, "worker": {"id": 7}%s}]}`, tc.state, now.Format(time.RFC3339Nano), transitions)))
			job, err := c.Jobs.Settle(context.Background(), &workforce.JobCreate{WorkerID: 7, JobRequestID: 9},
				&workforce.TransportError{OutcomeUnknown: true, Started: time.Now().Add(-time.Second)})
			if tc.want == nil {
				require.NoError(t, err)
				assert.Equal(t, int64(21), job.ID)
				return
			}
			require.ErrorIs(t, err, tc.want)
			if tc.want == workforce.ErrUndecided {
				assert.NotErrorIs(t, err, workforce.ErrNotFound)
				assert.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
				assert.NotErrorIs(t, err, workforce.ErrTooEarly, "waiting does not mend a doubt")
				assert.Contains(t, err.Error(), "[21]", "the error names the Job in doubt")
			}
		})
	}
}

// A Job whose answer tells no time it was made, or names no Worker, may be
// the call's: undecided, never "not done". A Job without created_at is
// dated by its first transition. Notes sent tell a Worker's own accept (no
// notes) from the create, and another create's (other notes).
func TestSettleJobWhatTheAnswerLeavesOut(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC().Format(time.RFC3339Nano)
	for _, tc := range []struct {
		name, job, notes string
		want             error // nil: found
	}{
		{"no created_at, dated by its transition", `{"id": 21, "state": "filled", "worker": {"id": 7}, "transitions": [{"id": 1, "name": "filled", "created_at": %q}]}`, "", nil},
		{"no created_at, no times", `{"id": 21, "state": "filled", "worker": {"id": 7}, "transitions": [{"id": 1, "name": "filled"}]}`, "", workforce.ErrUndecided},
		{"created_at garbled", `{"id": 21, "state": "filled", "created_at": "yesterday", "worker": {"id": 7}, "transitions": [{"id": 1, "name": "filled"}]}`, "", workforce.ErrUndecided},
		{"worker null", `{"id": 21, "state": "filled", "created_at": %q, "worker": null, "transitions": [{"id": 1, "name": "filled"}]}`, "", workforce.ErrUndecided},
		{"the notes sent", `{"id": 21, "state": "filled", "created_at": %q, "worker": {"id": 7}, "requestor_notes": "Gate 4", "transitions": [{"id": 1, "name": "filled"}]}`, "Gate 4", nil},
		{"other notes", `{"id": 21, "state": "filled", "created_at": %q, "worker": {"id": 7}, "requestor_notes": "Gate 9", "transitions": [{"id": 1, "name": "filled"}]}`, "Gate 4", workforce.ErrNotFound},
		{"notes when none were sent", `{"id": 21, "state": "filled", "created_at": %q, "worker": {"id": 7}, "requestor_notes": "service-B ticket 77", "transitions": [{"id": 1, "name": "filled"}]}`, "", workforce.ErrNotFound},
		{"no notes: the Worker's accept?", `{"id": 21, "state": "filled", "created_at": %q, "worker": {"id": 7}, "requestor_notes": null, "transitions": [{"id": 1, "name": "filled"}]}`, "Gate 4", workforce.ErrUndecided},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t, workforce.WithSettleHorizon(0))
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info",
				httpmock.NewStringResponder(200, fmt.Sprintf(`{"utc_time_now": %q}`, now)))
			job := tc.job
			if strings.Contains(job, "%q") {
				job = fmt.Sprintf(job, now)
			}
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", httpmock.NewStringResponder(200, `{"jobs": [`+job+`]}`))
			got, err := c.Jobs.Settle(context.Background(), &workforce.JobCreate{WorkerID: 7, JobRequestID: 9, RequestorNotes: tc.notes},
				&workforce.TransportError{OutcomeUnknown: true, Started: time.Now().Add(-time.Second)})
			if tc.want == nil {
				require.NoError(t, err)
				assert.Equal(t, int64(21), got.ID)
				return
			}
			require.ErrorIs(t, err, tc.want)
			if tc.want == workforce.ErrUndecided {
				assert.NotErrorIs(t, err, workforce.ErrNotFound)
			}
		})
	}
}

// Of two Jobs of the Worker made in the same instant (a clock that stands
// still, or stamps to the second), either may be the call's: one made and
// withdrawn, the other assigned by another process in the same second.
// The settle is undecided, naming both, never "not done" nor a guess.
func TestSettleJobTiesInOneInstant(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithSettleHorizon(0))
	now := time.Now().UTC().Truncate(time.Second)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info",
		httpmock.NewStringResponder(200, fmt.Sprintf(`{"utc_time_now": %q}`, now.Format(time.RFC3339))))
	at := now.Format(time.RFC3339)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", httpmock.NewStringResponder(200, fmt.Sprintf(`{"jobs": [
		{"id": 23, "state": "filled", "created_at": %[1]q, "worker": {"id": 7}, "transitions": [{"id": 5, "name": "filled"}]},
		{"id": 22, "state": "filled", "created_at": %[1]q, "worker": {"id": 7}, "transitions": [{"id": 4, "name": "filled"}]},
		{"id": 21, "state": "cancelled", "created_at": %[1]q, "worker": {"id": 7}, "transitions": [{"id": 3, "name": "cancelled"}, {"id": 1, "name": "filled"}]}]}`, at)))
	_, err := c.Jobs.Settle(context.Background(), &workforce.JobCreate{WorkerID: 7, JobRequestID: 9},
		&workforce.TransportError{OutcomeUnknown: true, Started: time.Now()})
	require.ErrorIs(t, err, workforce.ErrUndecided)
	assert.NotErrorIs(t, err, workforce.ErrNotFound)
	assert.Contains(t, err.Error(), "[21 22 23]")
}

// The server's clock is read fresh: a cache in front of GET /info must not
// answer a stale time, which would move a settle's bound earlier.
func TestServerClockIsReadFresh(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var cacheControl string
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info", func(r *http.Request) (*http.Response, error) {
		cacheControl = r.Header.Get("Cache-Control")
		return httpmock.NewStringResponse(200, `{"utc_time_now": "2026-11-28T12:00:00Z"}`), nil
	})
	_, _, err := c.Info.Get(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "no-cache", cacheControl)
}

// A typed nil *UnsettledError passed as the create's error is refused as
// any error that tells no call, never a panic.
func TestSettleRefusesATypedNilError(t *testing.T) {
	t.Parallel()
	c, _ := newMock(t, workforce.WithSettleHorizon(0))
	var nilErr *workforce.UnsettledError
	_, err := c.Badges.Settle(context.Background(), &workforce.BadgeParams{Name: "B", Description: "d"}, nilErr)
	require.ErrorIs(t, err, workforce.ErrInvalidArgument)
	assert.NotErrorIs(t, err, workforce.ErrNotFound)
}
