package workforce_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// jobsOf returns the Jobs of worker on jobRequest, as the reconciliation
// of a create whose outcome is unknown looks them up.
func jobsOf(t *testing.T, c *workforce.Client, jobRequest, worker int64) []*workforce.Job {
	t.Helper()
	var out []*workforce.Job
	for job, err := range c.Jobs.All(context.Background(), &workforce.JobListOptions{JobRequestID: jobRequest}) {
		require.NoError(t, err)
		if job.WorkerID == worker {
			out = append(out, job)
		}
	}
	return out
}

// Each fault on its own, against a create: what the caller is told, how
// many requests the fake saw, and whether the Job exists.
func TestCreateOutcomeUnderEachFault(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		fault   workforcetest.Fault
		unknown bool // the error matches ErrOutcomeUnknown
		created bool // the fake holds the Job afterwards
		sent    int  // POST /api_v2/jobs requests the fake saw
	}{
		{"dropped after the server acted", workforcetest.Fault{DropAfter: true}, true, true, 1},
		{"answer cut short", workforcetest.Fault{Truncate: true}, true, true, 1},
		{"dropped before the server acted", workforcetest.Fault{Drop: true}, true, false, 1},
		{"gateway timeout", workforcetest.Fault{Status: http.StatusGatewayTimeout}, true, false, 1},
		{"bad gateway", workforcetest.Fault{Status: http.StatusBadGateway}, true, false, 1},
		{"service unavailable", workforcetest.Fault{Status: http.StatusServiceUnavailable}, true, false, 1},
		{"service unavailable, come back later", workforcetest.Fault{Status: http.StatusServiceUnavailable, RetryAfter: "1"}, false, false, 1},
		{"rate limited, then served", workforcetest.Fault{Status: http.StatusTooManyRequests, RetryAfter: "1"}, false, true, 2},
		{"internal error", workforcetest.Fault{Status: http.StatusInternalServerError}, true, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, c := newFake(t)
			seed := srv.Seed()
			tt.fault.Method, tt.fault.Path = http.MethodPost, "/api_v2/jobs"
			srv.InjectFault(tt.fault)
			job, _, err := c.Jobs.Create(context.Background(), &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID})
			assert.Equal(t, tt.sent, countRequests(srv, http.MethodPost, "/api_v2/jobs"))
			assert.Equal(t, tt.unknown, errors.Is(err, workforce.ErrOutcomeUnknown), "%v", err)
			if tt.unknown {
				assert.Contains(t, err.Error(), "may or may not have been done")
			}
			if err == nil {
				assert.True(t, tt.created)
				assert.Equal(t, seed.WorkerIDs[1], job.WorkerID)
			}
			assert.Len(t, jobsOf(t, c, seed.JobRequest1099ID, seed.WorkerIDs[1]), map[bool]int{true: 1}[tt.created])
		})
	}
}

func TestUpdateOutcomeUnknownWhenAnEarlierAttemptActed(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	seed := srv.Seed()
	ctx := context.Background()
	job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err)
	path := fmt.Sprintf("/api_v2/jobs/%d", job.ID)
	srv.InjectFault(workforcetest.Fault{Method: http.MethodPatch, Path: path, DropAfter: true})

	_, _, err = c.Jobs.Cancel(ctx, job.ID, workforce.CancelDecidedToCancel)
	assert.Equal(t, 2, countRequests(srv, http.MethodPatch, path), "an update is sent again")
	assert.ErrorIs(t, err, workforce.ErrUnprocessable, "the second attempt finds it cancelled already")
	assert.ErrorIs(t, err, workforce.ErrOutcomeUnknown, "the first attempt may have cancelled it")
	state, _ := srv.JobState(job.ID)
	assert.Equal(t, "cancelled", state)
}

func TestOutcomeKnownWhenNothingWasSent(t *testing.T) {
	t.Parallel()
	srv := workforcetest.NewServer(t)
	c, err := srv.Client(workforce.WithRetry(0, 0, 0))
	require.NoError(t, err)
	_, _, err = c.Info.Get(context.Background()) // connect once
	require.NoError(t, err)
	srv.Close()
	_, _, err = c.Jobs.Create(context.Background(), &workforce.JobCreate{WorkerID: 1, JobRequestID: 2})
	var te *workforce.TransportError
	require.ErrorAs(t, err, &te)
	assert.False(t, te.OutcomeUnknown, "the connection was refused: nothing was sent: %v", err)
	assert.NotErrorIs(t, err, workforce.ErrOutcomeUnknown)

	_, _, err = c.Jobs.Get(context.Background(), 1)
	assert.NotErrorIs(t, err, workforce.ErrOutcomeUnknown, "a read has no outcome to be unsure of")
}

func TestOutcomeUnknownWhenTheDeadlinePassesWhileWaiting(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	seed := srv.Seed()
	srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/jobs", Delay: 5 * time.Second})
	_, _, err := c.Jobs.Get(context.Background(), seed.PublicJobID) // a token and a connection first
	require.NoError(t, err)
	ctx, pass := newDeadline(context.Background())
	defer pass()
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		WroteRequest: func(httptrace.WroteRequestInfo) { pass() }, // sent: the deadline passes while the server works
	})
	_, _, err = c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
	assert.Contains(t, err.Error(), "POST /api_v2/jobs")
}

// The reconciliation the documentation of Jobs.Settle shows: when the
// outcome is unknown, settle it before creating it again.
func TestReconcileACreateWhoseOutcomeIsUnknown(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	seed := srv.Seed()
	ctx := context.Background()
	srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/jobs/assign", DropAfter: true})

	job, err := createJobOnce(ctx, c, &workforce.JobCreate{WorkerID: seed.WorkerIDs[2], JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err)
	assert.Equal(t, seed.WorkerIDs[2], job.WorkerID)
	assert.Len(t, jobsOf(t, c, seed.JobRequest1099ID, seed.WorkerIDs[2]), 1, "one Job, not two")
}

// createJobOnce creates a Job, and when the outcome of the create is
// unknown, settles it instead of creating a second one, as Jobs.Settle's
// documentation shows.
func createJobOnce(ctx context.Context, c *workforce.Client, create *workforce.JobCreate) (*workforce.Job, error) {
	job, _, err := c.Jobs.Assign(ctx, create)
	if errors.Is(err, workforce.ErrOutcomeUnknown) {
		job, err = c.Jobs.Settle(ctx, create, err)
		if errors.Is(err, workforce.ErrNotFound) {
			job, _, err = c.Jobs.Assign(ctx, create) // it was not done: do it now
		}
	}
	return job, err
}

func TestFindWhenTheCreateWasNotDone(t *testing.T) {
	t.Parallel()
	srv := workforcetest.NewServer(t)
	c, err := srv.Client(workforce.WithRetry(3, time.Millisecond, time.Millisecond), workforce.WithSettleHorizon(0)) // the dropped create ended before the call did
	require.NoError(t, err)
	seed := srv.Seed()
	ctx := context.Background()
	srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/jobs/assign", Drop: true})
	job, err := createJobOnce(ctx, c, &workforce.JobCreate{WorkerID: seed.WorkerIDs[3], JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err)
	assert.Equal(t, seed.WorkerIDs[3], job.WorkerID)
	assert.Len(t, jobsOf(t, c, seed.JobRequest1099ID, seed.WorkerIDs[3]), 1)
	assert.Equal(t, 2, countRequests(srv, http.MethodPost, "/api_v2/jobs/assign"), "the first was dropped unread, the second done")

	_, err = c.Jobs.Find(ctx, seed.JobRequest1099ID, seed.WorkerIDs[4])
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, err = c.Jobs.Find(ctx, 0, seed.WorkerIDs[4])
	assert.ErrorIs(t, err, workforce.ErrInvalidArgument)
}

// A 401 mid-run, and a token the server expired: the client renews once and
// sends the create again (the 401 said nothing was done), one Job made.
func TestCreateAfter401AndExpiry(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		fault func(*workforcetest.Server)
	}{
		{"401 fault", func(srv *workforcetest.Server) {
			srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/jobs", Status: http.StatusUnauthorized})
		}},
		{"token expired on the server", func(srv *workforcetest.Server) { srv.Advance(25 * time.Hour) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, c := newFake(t)
			seed := srv.Seed()
			ctx := context.Background()
			_, _, err := c.Info.Get(ctx)
			require.NoError(t, err)
			_, _, err = c.Jobs.Get(ctx, seed.PublicJobID) // a token in hand
			require.NoError(t, err)
			srv.ResetRequests()
			tc.fault(srv)

			job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID})
			require.NoError(t, err)
			assert.Equal(t, 2, countRequests(srv, http.MethodPost, "/api_v2/jobs"), "refused once, sent again with a new token")
			assert.Equal(t, 1, countRequests(srv, http.MethodPost, "/api_v2/authenticate"), "one renewal")
			assert.Len(t, jobsOf(t, c, seed.JobRequest1099ID, seed.WorkerIDs[1]), 1)
			assert.Equal(t, seed.WorkerIDs[1], job.WorkerID)
		})
	}
}

// badge is the create the tests below send: its answer's fate decides.
var badge = &workforce.BadgeParams{Name: "n", Description: "d"}

// A create the server did, answered 200 just as the caller's context ends:
// the caller gets a *TransportError that says the write may have been done.
func TestCreateDoneAsTheContextEndsIsUnknown(t *testing.T) {
	t.Parallel()
	var created atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	base := http.DefaultTransport.(*http.Transport).Clone()
	_, c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		created.Add(1)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"badge":{"id":7,"name":"n","description":"d"}}`)
	}, workforce.WithHTTPClient(&http.Client{Transport: rtFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := base.RoundTrip(r)
		cancel() // the deadline passes just as the answer arrives
		return resp, err
	})}))
	_, _, err := c.Badges.Create(ctx, badge)
	require.Equal(t, int64(1), created.Load())
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown, "the create was done, but the error says nothing was done")
}

// A create answered 200 whose close-delimited body is cut short was done:
// the error says so.
func TestCreateAnsweredCutShortIsUnknown(t *testing.T) {
	t.Parallel()
	_, c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		conn, bw, _ := http.NewResponseController(w).Hijack()
		bw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{\"badge\":{\"id\":7,\"na")
		bw.Flush()
		conn.Close()
	})
	_, _, err := c.Badges.Create(context.Background(), badge)
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
}

// A create through a transport of the caller's, which reports no
// connection (httpmock, http3, any custom RoundTripper), after the server
// acted: whether the transport fails or answers 500, the write may have
// been done.
func TestCustomTransportAfterTheServerActedIsUnknown(t *testing.T) {
	t.Parallel()
	for name, answer := range map[string]func(*http.Request) (*http.Response, error){
		"the transport fails": func(*http.Request) (*http.Response, error) { return nil, io.ErrUnexpectedEOF },
		"answered 500":        func(r *http.Request) (*http.Response, error) { return httpAnswer(r, 500, `{"error":"boom"}`), nil },
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var acted atomic.Int64
			c := newOverTransport(t, rtFunc(func(r *http.Request) (*http.Response, error) {
				io.Copy(io.Discard, r.Body)
				acted.Add(1) // the server got it and acted
				return answer(r)
			}), workforce.WithRetry(0, 0, 0))
			_, _, err := c.Badges.Create(context.Background(), badge)
			require.Equal(t, int64(1), acted.Load())
			require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
		})
	}
}

// A create through a transport of the caller's answered 200 just as the
// context ends: the write was done.
func TestCustomTransport200AsTheContextEndsIsUnknown(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	c := newOverTransport(t, rtFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		cancel()
		return httpAnswer(r, 200, `{"badge":{"id":7,"name":"n","description":"d"}}`), nil
	}))
	_, _, err := c.Badges.Create(ctx, badge)
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
}

// An update through a transport of the caller's answered 502, then 503
// when no retry is left: the first attempt may have acted.
func TestUpdateAnswered502Then503IsUnknown(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	c := newOverTransport(t, rtFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		if n.Add(1) == 1 {
			return httpAnswer(r, 502, `{}`), nil
		}
		return httpAnswer(r, 503, `{}`), nil
	}), workforce.WithRetry(1, 0, 0))
	_, _, err := c.Badges.Update(context.Background(), 3, badge)
	require.Equal(t, int64(2), n.Load())
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
}

// A router that answers 503 once the app has the create and goes on with
// it (Heroku's H12 "Request timeout"): the outcome is unknown, and the
// create's Settle finds the record made, so that it is not made twice.
func TestCreateAnswered503AfterActingIsUnknown(t *testing.T) {
	t.Parallel()
	// No Retry-After, or one that says "now" (outside attack 8, A8-5): no "not now".
	for _, retryAfter := range []string{"", "0", "Thu, 01 Jan 1970 00:00:00 GMT", "+3", "-1"} {
		t.Run(retryAfter, func(t *testing.T) {
			t.Parallel()
			srv := workforcetest.NewServer(t)
			target, err := url.Parse(srv.URL)
			require.NoError(t, err)
			router := httputil.NewSingleHostReverseProxy(target)
			router.ModifyResponse = func(r *http.Response) error {
				if r.Request.Method == http.MethodPost && r.Request.URL.Path == "/api_v2/jobs/assign" {
					r.StatusCode = http.StatusServiceUnavailable // the app made the Job; the router says 503
					r.Header.Set("Via", "1.1 vegur")
					if retryAfter != "" {
						r.Header.Set("Retry-After", retryAfter)
					}
				}
				return nil
			}
			front := httptest.NewServer(router)
			t.Cleanup(front.Close)
			c, err := workforce.New(srv.Private.APIKey, srv.Private.SecretKey, workforce.WithBaseURL(front.URL),
				workforce.WithRetry(3, time.Millisecond, time.Millisecond))
			require.NoError(t, err)
			seed := srv.Seed()
			ctx := context.Background()
			create := &workforce.JobCreate{WorkerID: seed.WorkerIDs[2], JobRequestID: seed.JobRequest1099ID}

			_, _, err = c.Jobs.Assign(ctx, create)
			require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
			require.ErrorIs(t, err, workforce.ErrServer)
			assert.Equal(t, 1, countRequests(srv, http.MethodPost, "/api_v2/jobs/assign"), "a create answered 503 is not sent again")
			job, err := c.Jobs.Settle(ctx, create, err)
			require.NoError(t, err)
			assert.Equal(t, seed.WorkerIDs[2], job.WorkerID)
			assert.Len(t, jobsOf(t, c, seed.JobRequest1099ID, seed.WorkerIDs[2]), 1, "one Job, not two")
		})
	}
}

// A create answered 303 See Other after the server acted
// (Post/Redirect/Get) may have been done.
func TestCreateAnsweredSeeOtherIsUnknown(t *testing.T) {
	t.Parallel()
	var created atomic.Int64
	_, c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		created.Add(1)
		w.Header().Set("Location", "/api_v2/badges/7")
		w.WriteHeader(http.StatusSeeOther)
	})
	_, _, err := c.Badges.Create(context.Background(), badge)
	require.Equal(t, int64(1), created.Load())
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
}

// A write answered 401, whose replay is never sent because the context ends
// while the token is renewed, was not done: the error does not say it may
// have been.
func TestWriteAnswered401WhoseReplayIsNeverSentIsKnown(t *testing.T) {
	t.Parallel()
	var writes atomic.Int64
	renewing, release := make(chan struct{}), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api_v2/authenticate" {
			close(renewing) // the renewal has begun: the caller gives up
			<-release
			w.WriteHeader(401)
			return
		}
		io.Copy(io.Discard, r.Body)
		writes.Add(1)
		w.WriteHeader(401)
		io.WriteString(w, `{"error":"expired"}`)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // before srv.Close, which waits for the handler
	c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithToken("old"), workforce.WithBaseURL(srv.URL))
	require.NoError(t, err)
	go func() {
		<-renewing
		cancel()
	}()
	_, _, err = c.Badges.Create(ctx, badge)
	require.ErrorIs(t, err, context.Canceled)
	require.Equal(t, int64(1), writes.Load())
	require.False(t, errors.Is(err, workforce.ErrOutcomeUnknown), "answered 401 and never sent again: nothing was done")
}
