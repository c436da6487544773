package workforce_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// hangingServer serves /authenticate, and answers everything else with
// answer, counting the requests. release ends every handler still
// waiting; it is closed when the test ends.
func hangingServer(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, n int64, release <-chan struct{})) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var calls atomic.Int64
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api_v2/authenticate" {
			w.Write([]byte(`{"token": "tok_hanging_0123456789", "expires_at": "2099-01-01T00:00:00Z"}`))
			return
		}
		answer(w, r, calls.Add(1), release)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // before srv.Close, which waits for the handlers
	return srv, &calls
}

// within runs call and answers its error, failing the test if it does not
// return in a generous while (no call here may wait for the server).
func within(t *testing.T, call func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- call() }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the call still waits for a server that stalled")
		return nil
	}
}

func newHangingClient(t *testing.T, srv *httptest.Server, timeouts workforce.Timeouts) *workforce.Client {
	t.Helper()
	c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(srv.URL),
		workforce.WithRetry(2, time.Millisecond, time.Millisecond), workforce.WithTimeouts(timeouts))
	require.NoError(t, err)
	return c
}

// TestStalledBodyEndsInATransportError has a server send the headers and
// the start of a Job, then nothing: with context.Background() the call
// ends all the same, each attempt after BodyStall, in a *TransportError
// that is a timeout; a read is retried within its budget.
func TestStalledBodyEndsInATransportError(t *testing.T) {
	t.Parallel()
	srv, calls := hangingServer(t, func(w http.ResponseWriter, _ *http.Request, _ int64, release <-chan struct{}) {
		w.Header().Set("Content-Length", "100")
		w.Write([]byte(`{"job": {"id": 42`))
		w.(http.Flusher).Flush()
		<-release
	})
	c := newHangingClient(t, srv, workforce.Timeouts{BodyStall: 50 * time.Millisecond})
	err := within(t, func() error { _, _, err := c.Jobs.Get(context.Background(), 42); return err })
	var te *workforce.TransportError
	require.ErrorAs(t, err, &te)
	assert.ErrorIs(t, err, os.ErrDeadlineExceeded)
	var timeout interface{ Timeout() bool }
	assert.True(t, errors.As(err, &timeout) && timeout.Timeout())
	assert.Contains(t, err.Error(), "stalled")
	assert.EqualValues(t, 3, calls.Load(), "a read is retried within its budget")
}

// TestStalledBodyOfAWriteIsUnknown has a create's answer stall after its
// status: the write was done, it is not sent again, and the error says so.
func TestStalledBodyOfAWriteIsUnknown(t *testing.T) {
	t.Parallel()
	srv, calls := hangingServer(t, func(w http.ResponseWriter, _ *http.Request, _ int64, release <-chan struct{}) {
		w.Header().Set("Content-Length", "100")
		w.Write([]byte(`{"job": {"id": 42`))
		w.(http.Flusher).Flush()
		<-release
	})
	c := newHangingClient(t, srv, workforce.Timeouts{BodyStall: 50 * time.Millisecond})
	err := within(t, func() error { return createJob(c) })
	var te *workforce.TransportError
	require.ErrorAs(t, err, &te)
	assert.ErrorIs(t, err, os.ErrDeadlineExceeded)
	assert.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
	assert.EqualValues(t, 1, calls.Load(), "a write is sent once")
}

// TestStalledHeadersEndInATransportError has a server accept the request
// and send nothing: ResponseHeader ends each attempt.
func TestStalledHeadersEndInATransportError(t *testing.T) {
	t.Parallel()
	srv, calls := hangingServer(t, func(_ http.ResponseWriter, _ *http.Request, _ int64, release <-chan struct{}) {
		<-release
	})
	c := newHangingClient(t, srv, workforce.Timeouts{ResponseHeader: 50 * time.Millisecond})
	err := within(t, func() error { _, _, err := c.Jobs.Get(context.Background(), 42); return err })
	var te *workforce.TransportError
	require.ErrorAs(t, err, &te)
	var timeout interface{ Timeout() bool }
	assert.True(t, errors.As(err, &timeout) && timeout.Timeout(), "%v", err)
	assert.EqualValues(t, 3, calls.Load())
}

func TestTimeoutsMustNotBeNegative(t *testing.T) {
	t.Parallel()
	_, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(mockBase),
		workforce.WithTimeouts(workforce.Timeouts{BodyStall: -time.Second}))
	assert.ErrorIs(t, err, workforce.ErrConfig)
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

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
