package workforce_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

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
	srv, _ := hangingServer(t, func(_ http.ResponseWriter, _ *http.Request, _ int64, release <-chan struct{}) {
		<-release
	})
	// Attempts are counted by the client (its retries), not by the handler: under load a
	// timeout can end an attempt before the server has started its handler.
	var retries atomic.Int64
	logger := slog.New(countingHandler{msg: "workforce: retrying", n: &retries})
	c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(srv.URL), workforce.WithLogger(logger),
		workforce.WithRetry(2, time.Millisecond, time.Millisecond), workforce.WithTimeouts(workforce.Timeouts{ResponseHeader: 50 * time.Millisecond}))
	require.NoError(t, err)
	err = within(t, func() error { _, _, err := c.Jobs.Get(context.Background(), 42); return err })
	var te *workforce.TransportError
	require.ErrorAs(t, err, &te)
	var timeout interface{ Timeout() bool }
	assert.True(t, errors.As(err, &timeout) && timeout.Timeout(), "%v", err)
	assert.EqualValues(t, 2, retries.Load(), "three attempts: a read is retried within its budget")
}

// countingHandler counts the log records whose message is msg.
type countingHandler struct {
	msg string
	n   *atomic.Int64
}

func (h countingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h countingHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.n.Add(1)
	}
	return nil
}
func (h countingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h countingHandler) WithGroup(string) slog.Handler      { return h }

func TestTimeoutsMustNotBeNegative(t *testing.T) {
	t.Parallel()
	_, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(mockBase),
		workforce.WithTimeouts(workforce.Timeouts{BodyStall: -time.Second}))
	assert.ErrorIs(t, err, workforce.ErrConfig)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// A body that trickles in, never stalling, is bounded all the same by
// Timeouts.Body (A14).
func TestTricklingBodyEndsInATransportError(t *testing.T) {
	t.Parallel()
	srv, calls := hangingServer(t, func(w http.ResponseWriter, _ *http.Request, _ int64, release <-chan struct{}) {
		w.Header().Set("Content-Length", "100")
		w.Write([]byte(`{"job": {"id": 42`))
		w.(http.Flusher).Flush()
		<-release // a stall guard of an hour never fires: only the whole read's bound can
	})
	c := newHangingClient(t, srv, workforce.Timeouts{BodyStall: time.Hour, Body: 50 * time.Millisecond})
	err := within(t, func() error { _, _, err := c.Jobs.Get(context.Background(), 42); return err })
	var te *workforce.TransportError
	require.ErrorAs(t, err, &te)
	assert.ErrorIs(t, err, os.ErrDeadlineExceeded)
	assert.Contains(t, err.Error(), "still arriving")
	assert.EqualValues(t, 3, calls.Load(), "a read is retried within its budget")
}
