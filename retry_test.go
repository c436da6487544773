package workforce_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// step is one answer of a scripted endpoint.
type step struct {
	status     int
	retryAfter string // the Retry-After header, if any
}

// script registers a responder for method and path (below /api_v2/) that
// answers the steps in order, the last one repeated, and counts its calls.
// A 200 answers a Job.
func script(m *mockAPI, method, path string, steps ...step) *atomic.Int64 {
	var calls atomic.Int64
	m.RegisterResponder(method, mockBase+"/api_v2/"+path, func(*http.Request) (*http.Response, error) {
		s := steps[min(int(calls.Add(1)), len(steps))-1]
		body := `{"error": "try again"}`
		if s.status == http.StatusOK {
			body = `{"job": {"id": 42}}`
		}
		resp := httpmock.NewStringResponse(s.status, body)
		if s.retryAfter != "" {
			resp.Header.Set("Retry-After", s.retryAfter)
		}
		return resp, nil
	})
	return &calls
}

func createJob(c *workforce.Client) error {
	_, _, err := c.Jobs.Create(context.Background(), &workforce.JobCreate{WorkerID: 7, JobRequestID: 9})
	return err
}

func getJob42(c *workforce.Client) error {
	_, _, err := c.Jobs.Get(context.Background(), 42)
	return err
}

func TestGETIsRetriedOnTransientStatus(t *testing.T) {
	t.Parallel()
	for _, status := range []int{429, 502, 503, 504} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t)
			calls := script(m, http.MethodGet, "jobs/42", step{status: status}, step{status: 200})
			require.NoError(t, getJob42(c))
			assert.EqualValues(t, 2, calls.Load())
		})
	}
}

func TestGETIsNotRetriedOnOtherStatus(t *testing.T) {
	t.Parallel()
	for _, status := range []int{400, 403, 404, 422, 500, 501} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t)
			calls := script(m, http.MethodGet, "jobs/42", step{status: status}, step{status: 200})
			err := getJob42(c)
			var apiErr *workforce.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, status, apiErr.StatusCode)
			assert.EqualValues(t, 1, calls.Load())
		})
	}
}

func TestRetriesStopAtTheMaximum(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithRetry(2, time.Millisecond, time.Millisecond))
	calls := script(m, http.MethodGet, "jobs/42", step{status: 503})
	err := getJob42(c)
	require.ErrorIs(t, err, workforce.ErrServer)
	assert.EqualValues(t, 3, calls.Load(), "the first attempt and two retries")
}

func TestRetriesOff(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithRetry(0, 0, 0))
	calls := script(m, http.MethodGet, "jobs/42", step{status: 503}, step{status: 200})
	require.ErrorIs(t, getJob42(c), workforce.ErrServer)
	assert.EqualValues(t, 1, calls.Load())
}

func TestCreateIsSentOnceOnServerError(t *testing.T) {
	t.Parallel()
	for _, status := range []int{500, 502, 503, 504} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t)
			calls := script(m, http.MethodPost, "jobs", step{status: status}, step{status: 200})
			require.ErrorIs(t, createJob(c), workforce.ErrServer)
			assert.EqualValues(t, 1, calls.Load())
		})
	}
}

func TestCreateIsRetriedOn429(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	calls := script(m, http.MethodPost, "jobs", step{status: 429}, step{status: 200})
	require.NoError(t, createJob(c))
	assert.EqualValues(t, 2, calls.Load())
}

func TestUpdateIsRetried(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	calls := script(m, http.MethodPatch, "jobs/42", step{status: 503}, step{status: 200})
	_, _, err := c.Jobs.Cancel(context.Background(), 42, workforce.CancelDecidedToCancel)
	require.NoError(t, err)
	assert.EqualValues(t, 2, calls.Load(), "setting a state twice creates nothing")
}

func TestTokenFetchIsRetriedWhateverTheCall(t *testing.T) {
	t.Parallel()
	calls := map[string]func(*workforce.Client) error{"get": getJob42, "create": createJob}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t)
			script(m, http.MethodGet, "jobs/42", step{status: 200})
			script(m, http.MethodPost, "jobs", step{status: 200})
			var auths atomic.Int64
			ok := httpmock.NewJsonResponderOrPanic(200, map[string]string{"token": testToken, "expires_at": "2099-01-01T00:00:00Z"})
			m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", func(req *http.Request) (*http.Response, error) {
				if auths.Add(1) == 1 {
					return httpmock.NewStringResponse(503, ""), nil
				}
				return ok(req)
			})
			require.NoError(t, call(c))
			assert.EqualValues(t, 2, auths.Load(), "POST /authenticate creates no record: it is retried")
		})
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithRetry(3, time.Millisecond, time.Second))
	workforce.ScaleRetryAfterForTest(c, time.Millisecond)
	calls := script(m, http.MethodGet, "jobs/42", step{status: 429, retryAfter: "5"}, step{status: 200})
	start := time.Now()
	require.NoError(t, getJob42(c))
	assert.GreaterOrEqual(t, time.Since(start), 5*time.Millisecond)
	assert.EqualValues(t, 2, calls.Load())
}

func TestRetryAfterAboveTheCapEndsRetries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status   int
		sentinel error
	}{
		{429, workforce.ErrRateLimited},
		{503, workforce.ErrServer},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.status), func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t) // waits at most 1ms
			calls := script(m, http.MethodGet, "jobs/42", step{status: tt.status, retryAfter: "120"}, step{status: 200})
			err := getJob42(c)
			require.ErrorIs(t, err, tt.sentinel)
			var apiErr *workforce.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, 120*time.Second, apiErr.RetryAfter)
			assert.EqualValues(t, 1, calls.Load())
		})
	}
}

func TestRetryAfterAsHTTPDate(t *testing.T) {
	t.Parallel()
	t.Run("past", func(t *testing.T) {
		t.Parallel()
		c, m := newMock(t)
		past := time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)
		calls := script(m, http.MethodGet, "jobs/42", step{status: 429, retryAfter: past}, step{status: 200})
		require.NoError(t, getJob42(c))
		assert.EqualValues(t, 2, calls.Load())
	})
	t.Run("beyond the cap", func(t *testing.T) {
		t.Parallel()
		c, m := newMock(t)
		future := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
		calls := script(m, http.MethodGet, "jobs/42", step{status: 429, retryAfter: future}, step{status: 200})
		var apiErr *workforce.APIError
		require.ErrorAs(t, getJob42(c), &apiErr)
		assert.InDelta(t, time.Hour.Seconds(), apiErr.RetryAfter.Seconds(), 5)
		assert.EqualValues(t, 1, calls.Load())
	})
}

func TestCancelStopsBackoffAtOnce(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithRetry(5, time.Hour, time.Hour))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	seen := make(chan struct{})
	var once sync.Once
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(*http.Request) (*http.Response, error) {
		once.Do(func() { close(seen) })
		return httpmock.NewStringResponse(503, ""), nil
	})
	go func() { <-seen; cancel() }()

	done := make(chan error, 1)
	start := time.Now()
	go func() { _, _, err := c.Jobs.Get(ctx, 42); done <- err }()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
		assert.Less(t, time.Since(start), time.Second)
	case <-time.After(10 * time.Second): // a guard against a hang, not a wait
		t.Fatal("the call did not return after its context was cancelled")
	}
	assert.Equal(t, 1, m.GetTotalCallCount()-int(m.auths.Load()))
}

// closeTracker is a response body that records being closed.
type closeTracker struct {
	closed atomic.Bool
}

func (b *closeTracker) Read([]byte) (int, error) { return 0, errors.New("not read") }
func (b *closeTracker) Close() error             { b.closed.Store(true); return nil }

func TestCancelledCallClosesTheResponse(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body := &closeTracker{}
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(*http.Request) (*http.Response, error) {
		cancel() // the caller gives up while the answer is on its way
		return &http.Response{StatusCode: 503, Header: http.Header{}, Body: body}, nil
	})
	_, _, err := c.Jobs.Get(ctx, 42)
	require.ErrorIs(t, err, context.Canceled)
	assert.True(t, body.closed.Load(), "the body, and its connection, are released")
}

// closedPort returns a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// dialCounter is an HTTP client whose transport counts its dials.
func dialCounter() (*http.Client, *atomic.Int64) {
	var dials atomic.Int64
	var d net.Dialer
	tr := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials.Add(1)
		return d.DialContext(ctx, network, addr)
	}}
	return &http.Client{Transport: tr}, &dials
}

// newLoopback returns a token-only client for base that retries twice.
func newLoopback(t *testing.T, base string, hc *http.Client) *workforce.Client {
	t.Helper()
	c, err := workforce.New("", "", workforce.WithToken(testToken), workforce.WithBaseURL(base),
		workforce.WithHTTPClient(hc), workforce.WithRetry(2, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	return c
}

func TestCreateIsRetriedWhenTheConnectionWasNeverMade(t *testing.T) {
	t.Parallel()
	hc, dials := dialCounter()
	c := newLoopback(t, "http://"+closedPort(t), hc)
	err := createJob(c)
	var trErr *workforce.TransportError
	require.ErrorAs(t, err, &trErr)
	assert.ErrorIs(t, err, syscall.ECONNREFUSED)
	assert.EqualValues(t, 3, dials.Load(), "the first attempt and two retries")
}

// dropServer returns the URL of a server that reads each request and
// closes the connection without answering, and its count of requests.
func dropServer(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &hits
}

func TestConnectionDroppedAfterSending(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		call  func(*workforce.Client) error
		wantN int64
	}{
		{"a create is not sent again", createJob, 1},
		{"a read is", getJob42, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			url, hits := dropServer(t)
			c := newLoopback(t, url, &http.Client{Transport: &http.Transport{}})
			var trErr *workforce.TransportError
			require.ErrorAs(t, tt.call(c), &trErr)
			assert.Equal(t, tt.wantN, hits.Load())
		})
	}
}
