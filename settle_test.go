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
			job := func(id int64, created time.Time, state string) string {
				return fmt.Sprintf(`{"id": %d, "state": %q, "created_at": %q, "worker": {"id": 7}}`,
					id, state, created.In(time.FixedZone("", -8*3600)).Format("2006-01-02T15:04:05.000Z07:00"))
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
			assert.Equal(t, int64(13), got.ID, "made after the bound, filled, the Worker's by worker.id")
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
		a.jobs = append(a.jobs, fmt.Sprintf(`{"id": %d, "state": "filled", "job_request_id": 9, "worker": {"id": 7}, "created_at": %q}`,
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
		fmt.Sprintf(`{"jobs": [{"id": 21, "state": "filled", "created_at": %q, "worker": {"id": 7}}]}`, made)))
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
				  "timezone": "America/Los_Angeles", "start_time": %q, "created_at": %q}]}`, tc.stored, now.Format(time.RFC3339Nano))))
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
