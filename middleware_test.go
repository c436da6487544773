package workforce_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// seenCall is what a middleware saw of one call.
type seenCall struct {
	endpoint, url string
	header        http.Header
	body          string
	status        int
	err           error
}

// watcher is a middleware that records every call it sees.
type watcher struct {
	mu    sync.Mutex
	calls []seenCall
}

func (w *watcher) wrap(next http.RoundTripper) http.RoundTripper {
	return rtFunc(func(req *http.Request) (*http.Response, error) {
		s := seenCall{endpoint: workforce.Endpoint(req), url: req.URL.String(), header: req.Header.Clone()}
		if req.Body != nil {
			b, _ := io.ReadAll(req.Body)
			s.body = string(b)
		}
		resp, err := next.RoundTrip(req)
		if resp != nil {
			s.status = resp.StatusCode
			for k, vs := range resp.Header {
				s.header["Answer-"+k] = vs
			}
		}
		s.err = err
		w.mu.Lock()
		w.calls = append(w.calls, s)
		w.mu.Unlock()
		return resp, err
	})
}

func (w *watcher) endpoints() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, s := range w.calls {
		out = append(out, s.endpoint)
	}
	return out
}

// everything returns all the middleware saw, as text.
func (w *watcher) everything() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var b strings.Builder
	for _, s := range w.calls {
		b.WriteString(s.endpoint + " " + s.url + " " + s.body + "\n")
		for k, vs := range s.header {
			b.WriteString(k + ": " + strings.Join(vs, ", ") + "\n")
		}
	}
	return b.String()
}

func TestMiddlewareSeesEachCallOnceWithoutSecrets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := workforcetest.NewServer(t)
	srv.SeedJobs(120)
	w := &watcher{}
	c, err := srv.Client(workforce.WithRetry(3, time.Millisecond, time.Millisecond), workforce.WithMiddleware(w.wrap))
	require.NoError(t, err)
	tok, _, err := c.Authentication.Authenticate(ctx) // never seen: its body holds the keys, its answer the token
	require.NoError(t, err)
	seed := srv.Seed()

	srv.InjectFault(workforcetest.Fault{Method: "GET", Path: "/api_v2/jobs", Times: 2, Status: 503})
	jobs, _, err := c.Jobs.List(ctx, nil) // two 503s, then the page: one call
	require.NoError(t, err)
	_, _, err = c.Jobs.Get(ctx, jobs[0].ID)
	require.NoError(t, err)
	_, _, err = c.Info.Get(ctx)
	require.NoError(t, err)
	_, _, err = c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err)
	const password = "correct-horse-battery"
	_, _, err = c.Users.Create(ctx, &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "Ada", LastName: "Byron",
		Phone: "+15550100", Password: password, PasswordConfirmation: password})
	require.NoError(t, err)
	srv.Advance(25 * time.Hour) // the token expires: the renewal is not seen either
	_, _, err = c.Jobs.Get(ctx, 987654)
	require.ErrorIs(t, err, workforce.ErrNotFound)

	assert.Equal(t, []string{"GET /jobs", "GET /jobs/:id", "GET /info", "POST /jobs/assign", "POST /users", "GET /jobs/:id"}, w.endpoints())
	assert.Equal(t, 3, countRequests(srv, "GET", "/api_v2/jobs"), "the middleware sees the call, the server its three attempts")
	assert.Equal(t, 2, countRequests(srv, "POST", "/api_v2/authenticate"))
	w.mu.Lock()
	assert.Equal(t, []int{200, 200, 200, 200, 200, 404}, []int{w.calls[0].status, w.calls[1].status, w.calls[2].status,
		w.calls[3].status, w.calls[4].status, w.calls[5].status})
	assert.Contains(t, w.calls[3].body, `"worker_id"`, "a write's body is shown")
	assert.Empty(t, w.calls[4].body, "the body of a call that sends a password is not")
	w.mu.Unlock()

	seen := w.everything()
	for _, secret := range []string{tok.Value, srv.Private.APIKey, srv.Private.SecretKey, password, "token="} {
		assert.NotContains(t, seen, secret)
	}
}

func TestMiddlewaresComposeFirstOutermost(t *testing.T) {
	t.Parallel()
	var (
		mu    sync.Mutex
		trace []string
	)
	layer := func(name string) func(http.RoundTripper) http.RoundTripper {
		return func(next http.RoundTripper) http.RoundTripper {
			return rtFunc(func(req *http.Request) (*http.Response, error) {
				mu.Lock()
				trace = append(trace, name+" in")
				mu.Unlock()
				req = req.Clone(req.Context())
				req.Header.Add("X-Layers", name)
				resp, err := next.RoundTrip(req)
				mu.Lock()
				trace = append(trace, name+" out")
				mu.Unlock()
				return resp, err
			})
		}
	}
	var got []string
	_, c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Values("X-Layers")
		w.Write([]byte(`{"job":{"id":42}}`))
	}, workforce.WithMiddleware(layer("a")), workforce.WithMiddleware(layer("b")))
	_, _, err := c.Jobs.Get(context.Background(), 42)
	require.NoError(t, err)
	assert.Equal(t, []string{"a in", "b in", "b out", "a out"}, trace)
	assert.Equal(t, []string{"a", "b"}, got, "every attempt carries the headers the middlewares added")
}

func TestMiddlewareContextEndsTheCall(t *testing.T) {
	t.Parallel()
	attempts := 0
	_, c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		attempts++
		w.WriteHeader(http.StatusServiceUnavailable)
	}, workforce.WithMiddleware(func(next http.RoundTripper) http.RoundTripper {
		return rtFunc(func(req *http.Request) (*http.Response, error) {
			ctx, cancel := context.WithCancel(req.Context())
			cancel() // a deadline of the middleware's, passed before the call starts
			return next.RoundTrip(req.WithContext(ctx))
		})
	}))
	_, _, err := c.Jobs.Get(context.Background(), 42)
	require.ErrorIs(t, err, context.Canceled)
	assert.Zero(t, attempts, "no attempt is made, nor retried, once the middleware's context has ended")
}

func TestMiddlewareMisuseIsAnError(t *testing.T) {
	t.Parallel()
	_, err := workforce.New("", "", workforce.WithToken(testToken), workforce.WithBaseURL(mockBase), workforce.WithMiddleware(nil))
	require.ErrorIs(t, err, workforce.ErrConfig)
	_, err = workforce.New("", "", workforce.WithToken(testToken), workforce.WithBaseURL(mockBase),
		workforce.WithMiddleware(func(http.RoundTripper) http.RoundTripper { return nil }))
	require.ErrorIs(t, err, workforce.ErrConfig)

	for name, mw := range map[string]func(http.RoundTripper) http.RoundTripper{
		"a context not derived from the call's": func(next http.RoundTripper) http.RoundTripper {
			return rtFunc(func(req *http.Request) (*http.Response, error) {
				return next.RoundTrip(req.WithContext(context.Background()))
			})
		},
		"neither an answer nor an error": func(http.RoundTripper) http.RoundTripper {
			return rtFunc(func(*http.Request) (*http.Response, error) { return nil, nil })
		},
		"an error of its own": func(http.RoundTripper) http.RoundTripper {
			return rtFunc(func(*http.Request) (*http.Response, error) { return nil, errors.New("circuit open") })
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t, workforce.WithMiddleware(mw))
			_, _, err := c.Jobs.Get(context.Background(), 42)
			var te *workforce.TransportError
			require.ErrorAs(t, err, &te)
			assert.Zero(t, m.GetTotalCallCount(), "nothing reaches the wire")
		})
	}
}

func TestMiddlewareAnswerStandsInForTheServer(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithMiddleware(func(http.RoundTripper) http.RoundTripper {
		return rtFunc(func(req *http.Request) (*http.Response, error) { // a cache, say
			return httpAnswer(req, 200, `{"job":{"id":42,"state":"filled"}}`), nil
		})
	}))
	job, resp, err := c.Jobs.Get(context.Background(), 42)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobFilled, job.State)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Zero(t, m.GetTotalCallCount())
}

func TestEndpointNamesTheCall(t *testing.T) {
	t.Parallel()
	w := &watcher{}
	c, m := newMock(t, workforce.WithMiddleware(w.wrap))
	m.RegisterNoResponder(func(req *http.Request) (*http.Response, error) { return httpAnswer(req, 200, `{}`), nil })
	ctx := context.Background()
	_, _, _ = c.JobRequests.ResendNotifications(ctx, 7, "")
	_, _, _ = c.Users.Tracking(ctx, 7)
	_, _, _ = c.Customers.Exists(ctx, "Acme")
	_, _ = c.Do(ctx, &workforce.RawRequest{Method: "GET", Path: "reports/2026/12"}, nil)
	got := w.endpoints()
	assert.Equal(t, []string{"POST /job_requests/:id/resend_notifications", "GET /users/:id/tracking",
		"GET /customers/exists", "GET /reports/:id/:id"}, got)

	req, _ := http.NewRequest("GET", mockBase+"/api_v2/jobs/1", nil)
	assert.Empty(t, workforce.Endpoint(req), "a request the client did not make")
	assert.Empty(t, workforce.Endpoint(nil))
}

// TestAMiddlewarePassingACallTwiceIsRefused has a middleware retry a
// create on a 5xx itself (D7): the server did the create and answered
// 500, so a second pass would make a second record. The second pass is not
// sent; the caller gets an error saying the outcome is unknown, never a
// success.
func TestAMiddlewarePassingACallTwiceIsRefused(t *testing.T) {
	t.Parallel()
	var posts, passes, refused int
	var mu sync.Mutex
	_, c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		posts++
		first := posts == 1
		mu.Unlock()
		if first {
			w.WriteHeader(http.StatusInternalServerError) // done, but the answer says 500
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"job": {"id": 1, "state": "filled"}}`)
	}, workforce.WithMiddleware(func(next http.RoundTripper) http.RoundTripper {
		return rtFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := next.RoundTrip(r)
			for err == nil && resp.StatusCode >= 500 { // a retrying middleware's rule
				resp.Body.Close()
				mu.Lock()
				passes++
				mu.Unlock()
				if resp, err = next.RoundTrip(r); err != nil {
					mu.Lock()
					refused++
					mu.Unlock()
				}
			}
			return resp, err
		})
	}))
	job, _, err := c.Jobs.Create(context.Background(), &workforce.JobCreate{WorkerID: 1, JobRequestID: 2})
	require.Error(t, err)
	assert.Nil(t, job)
	assert.ErrorIs(t, err, workforce.ErrOutcomeUnknown, "the first pass may have made the Job")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, 1, posts, "the create was sent once")
	assert.Equal(t, 1, passes)
	assert.Equal(t, 1, refused, "the second pass got an error")
}
