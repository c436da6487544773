package workforce

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"time"
)

// The transports under the client's http.Client, below the token
// transport: the client's own default transport, the seal that hides the
// caller's, and the stall guard.

// A sealed transport is reached through a function, whose closure no
// reflection can enter: the buffers of a transport's connections hold the
// last requests sent, tokens in their URLs, and no printer of a value that
// holds the Client (go-spew, testify's diffs, go-cmp) may show them.
type sealed func() http.RoundTripper

func seal(rt http.RoundTripper) sealed { return func() http.RoundTripper { return rt } }

func (s sealed) RoundTrip(req *http.Request) (*http.Response, error) { return s().RoundTrip(req) }

// maxResponseHeader is the most header bytes of an answer the client's own
// transport reads.
const maxResponseHeader = 256 << 10

// newTransport returns the transport used when the caller gives none:
// net/http's defaults, with the timeouts t, and room for as many idle
// connections to the API as a Client shared by many goroutines, with pages
// in flight, keeps busy (the default keeps 2, so a busy Client dials again
// and again).
func newTransport(t Timeouts) http.RoundTripper {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: t.Dial, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       t.IdleConn,
		TLSHandshakeTimeout:   t.TLSHandshake,
		ResponseHeaderTimeout: t.ResponseHeader,
		ExpectContinueTimeout: time.Second,
		// The API's headers are a few hundred bytes; net/http would take 10 MiB.
		MaxResponseHeaderBytes: maxResponseHeader,
	}
}

// stallGuard ends the read of an answer's body when nothing arrives for
// idle: the read fails with a *stallError instead of waiting for the
// server to close the connection, whatever the caller's context says.
type stallGuard struct {
	next http.RoundTripper
	idle time.Duration
}

func (t stallGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	resp, err := t.next.RoundTrip(req.WithContext(ctx))
	if err != nil {
		cancel()
		return resp, err
	}
	g := &guardedBody{body: resp.Body, cancel: cancel, idle: t.idle}
	g.timer = time.AfterFunc(t.idle, g.stall)
	resp.Body = g
	return resp, nil
}

// A guardedBody is a body whose read is ended when it stalls.
type guardedBody struct {
	body    io.ReadCloser
	cancel  context.CancelFunc // ends the attempt, and so the read
	idle    time.Duration
	timer   *time.Timer
	stalled atomic.Bool
}

func (g *guardedBody) stall() {
	g.stalled.Store(true)
	g.cancel()
}

func (g *guardedBody) Read(p []byte) (int, error) {
	n, err := g.body.Read(p)
	if n > 0 && !g.stalled.Load() {
		g.timer.Reset(g.idle)
	}
	if err != nil && err != io.EOF && g.stalled.Load() {
		err = &stallError{idle: g.idle}
	}
	return n, err
}

func (g *guardedBody) Close() error {
	g.timer.Stop()
	err := g.body.Close()
	g.cancel()
	return err
}

// A stallError ends the read of a body that received nothing for idle. It
// is a timeout: it matches os.ErrDeadlineExceeded.
type stallError struct{ idle time.Duration }

func (e *stallError) Error() string {
	return fmt.Sprintf("the answer stalled: nothing arrived for %v", e.idle)
}

// Timeout reports true, as a net.Error does for a timeout.
func (e *stallError) Timeout() bool { return true }

// Is reports whether target is os.ErrDeadlineExceeded.
func (e *stallError) Is(target error) bool { return target == os.ErrDeadlineExceeded }
