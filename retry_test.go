package workforce_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
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

func TestGETIsRetriedOnTransientStatus(t *testing.T) {
	t.Parallel()
	for _, status := range []int{429, 500, 502, 503, 504} {
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
	for _, status := range []int{400, 403, 404, 422, 501} {
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

func TestCreateIsRetriedWhenTheConnectionWasNeverMade(t *testing.T) {
	t.Parallel()
	hc, dials := dialCounter()
	c := newClient(t, "http://"+closedPort(t), workforce.WithHTTPClient(hc), workforce.WithRetry(2, time.Millisecond, time.Millisecond))
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
			c := newClient(t, url, workforce.WithHTTPClient(&http.Client{Transport: &http.Transport{}}), workforce.WithRetry(2, time.Millisecond, time.Millisecond))
			var trErr *workforce.TransportError
			require.ErrorAs(t, tt.call(c), &trErr)
			assert.Equal(t, tt.wantN, hits.Load())
		})
	}
}

// TestRetryWaitsAreJittered checks that the client draws each wait of its
// backoff from 0 to the exponential ceiling (full jitter) when the server
// gives no Retry-After, and waits what was drawn.
func TestRetryWaitsAreJittered(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithRetry(3, 10*time.Millisecond, 25*time.Millisecond))
	var mu sync.Mutex
	var ceilings []time.Duration
	workforce.SetJitterForTest(c, func(d time.Duration) time.Duration {
		mu.Lock()
		defer mu.Unlock()
		ceilings = append(ceilings, d)
		return 0 // the draw: no wait
	})
	calls := script(m, http.MethodGet, "jobs/42", step{status: 502}, step{status: 503}, step{status: 504}, step{status: 200})
	require.NoError(t, getJob42(c))
	assert.EqualValues(t, 4, calls.Load())
	assert.Equal(t, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 25 * time.Millisecond}, ceilings,
		"drawn below min·2^attempt, capped at max")
}

// cutShort answers a Job whose body ends early: the connection closes
// after part of it (an unexpected EOF), or is reset (a TCP RST).
func cutShort(w http.ResponseWriter, reset bool) {
	const job = `{"job": {"id": 42, "state": "filled"}}`
	if !reset {
		w.Header().Set("Content-Length", "1000")
		w.Write([]byte(job[:10]))
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the server closes the connection
	}
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n" + job[:10])
	buf.Flush()
	if tcp, ok := conn.(*net.TCPConn); ok {
		tcp.SetLinger(0) // Close sends a reset
	}
	conn.Close()
}

// TestReadCutShortIsRetried checks that a GET whose body is cut short (an
// unexpected EOF, a connection reset) is sent again, like any transient
// failure, and that the retries stop at the budget.
func TestReadCutShortIsRetried(t *testing.T) {
	t.Parallel()
	for _, reset := range []bool{false, true} {
		name := map[bool]string{false: "unexpected EOF", true: "connection reset"}[reset]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, calls := hangingServer(t, func(w http.ResponseWriter, _ *http.Request, n int64, _ <-chan struct{}) {
				if n < 3 {
					cutShort(w, reset)
				}
				w.Write([]byte(`{"job": {"id": 42, "state": "filled"}}`))
			})
			c := newHangingClient(t, srv, workforce.Timeouts{})
			job, _, err := c.Jobs.Get(context.Background(), 42)
			require.NoError(t, err)
			assert.EqualValues(t, 42, job.ID)
			assert.EqualValues(t, 3, calls.Load(), "two attempts cut short, the third whole")
		})
	}
}

// TestReadAlwaysCutShortStopsAtTheBudget checks the end of the retries.
func TestReadAlwaysCutShortStopsAtTheBudget(t *testing.T) {
	t.Parallel()
	srv, calls := hangingServer(t, func(w http.ResponseWriter, _ *http.Request, _ int64, _ <-chan struct{}) {
		w.Header().Set("X-Request-Id", "req-cut-7")
		cutShort(w, false)
	})
	c := newHangingClient(t, srv, workforce.Timeouts{})
	_, _, err := c.Jobs.Get(context.Background(), 42)
	var te *workforce.TransportError
	require.ErrorAs(t, err, &te)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Equal(t, http.StatusOK, te.LastStatus, "the status it was answered")
	assert.Contains(t, err.Error(), "request req-cut-7", "and its request ID")
	assert.EqualValues(t, 3, calls.Load(), "the first attempt and 2 retries")
}

// TestWriteCutShortIsNotRetried checks that a create whose answer is cut
// short is not sent again: it was done.
func TestWriteCutShortIsNotRetried(t *testing.T) {
	t.Parallel()
	srv, calls := hangingServer(t, func(w http.ResponseWriter, r *http.Request, _ int64, _ <-chan struct{}) {
		bufio.NewReader(r.Body).WriteTo(discard{})
		cutShort(w, false)
	})
	c := newHangingClient(t, srv, workforce.Timeouts{})
	err := createJob(c)
	assert.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
	var te *workforce.TransportError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, http.StatusOK, te.LastStatus)
	assert.EqualValues(t, 1, calls.Load())
	_, _, err = c.Jobs.Update(context.Background(), 42, &workforce.JobUpdate{State: workforce.JobCancelled})
	assert.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
	assert.EqualValues(t, 2, calls.Load(), "an update is not sent again either")
	assert.False(t, strings.Contains(err.Error(), "tok_hanging"))
}

// TestRetryAfterBeyondInt64 checks that a Retry-After too large to hold
// means longer than the cap: no retry, and RetryAfter at its maximum.
func TestRetryAfterBeyondInt64(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	calls := script(m, http.MethodGet, "jobs/42", step{status: 503, retryAfter: "99999999999999999999"}, step{status: 200})
	err := getJob42(c)
	var apiErr *workforce.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.EqualValues(t, 1, calls.Load(), "not retried")
	assert.Equal(t, time.Duration(math.MaxInt64), apiErr.RetryAfter)
}

// TestDeadlineWhileWaitingAfterACutShortReadNamesItsStatus cuts a read's
// answer short, then lets the deadline pass while the client waits to
// retry: the *TransportError's LastStatus is that answer's status, the
// last the call got and could not use.
func TestDeadlineWhileWaitingAfterACutShortReadNamesItsStatus(t *testing.T) {
	t.Parallel()
	ctx, pass := newDeadline(context.Background())
	defer pass()
	_, c := newServer(t, func(w http.ResponseWriter, _ *http.Request) { cutShort(w, false) },
		workforce.WithRetry(3, time.Hour, time.Hour), workforce.WithLogger(slog.New(onMessage{"workforce: retrying", pass})))
	_, _, err := c.Jobs.Get(ctx, 42)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	var te *workforce.TransportError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, http.StatusOK, te.LastStatus)
}
