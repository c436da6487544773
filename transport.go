package workforce

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
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
// server to close the connection, whatever the caller's context says. It
// watches the bytes as they arrive: it asks for gzip itself and
// decompresses above the guard (net/http's transparent decompression sits
// below it, where a steady compressed body can yield nothing decompressed
// for longer than idle).
type stallGuard struct {
	next  http.RoundTripper
	idle  time.Duration
	total time.Duration // the longest a body may take to read, from its headers on (0: no bound)
}

func (t stallGuard) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	out := req.WithContext(ctx)
	askedGzip := req.Header.Get("Accept-Encoding") == "" && req.Header.Get("Range") == "" && req.Method != http.MethodHead
	if askedGzip {
		out.Header = req.Header.Clone()
		out.Header.Set("Accept-Encoding", "gzip")
	}
	resp, err := t.next.RoundTrip(out)
	if err != nil {
		cancel()
		return resp, err
	}
	g := &guardedBody{body: resp.Body, cancel: cancel, idle: t.idle}
	g.timer = time.AfterFunc(t.idle, g.stall)
	if t.total > 0 {
		g.total = t.total
		g.deadline = time.AfterFunc(t.total, g.overdue)
	}
	resp.Body = g
	if askedGzip && strings.EqualFold(resp.Header.Get("Content-Encoding"), "gzip") {
		resp.Body = &gunzipBody{under: g}
		resp.Header.Del("Content-Encoding")
		resp.Header.Del("Content-Length")
		resp.ContentLength, resp.Uncompressed = -1, true
	}
	return resp, nil
}

// A gunzipBody decompresses the guarded body under it, opened at the first
// read.
type gunzipBody struct {
	under io.ReadCloser
	zr    *gzip.Reader
	err   error
}

func (b *gunzipBody) Read(p []byte) (int, error) {
	if b.zr == nil && b.err == nil {
		b.zr, b.err = gzip.NewReader(b.under)
	}
	if b.err != nil {
		return 0, b.err
	}
	return b.zr.Read(p)
}

func (b *gunzipBody) Close() error { return b.under.Close() }

// A guardedBody is a body whose read is ended when it stalls.
type guardedBody struct {
	body    io.ReadCloser
	cancel  context.CancelFunc // ends the attempt, and so the read
	idle    time.Duration
	timer   *time.Timer
	stalled atomic.Bool

	total    time.Duration
	deadline *time.Timer // nil: no bound on the whole read
	late     atomic.Bool
}

func (g *guardedBody) stall() {
	g.stalled.Store(true)
	g.cancel()
}

func (g *guardedBody) overdue() {
	g.late.Store(true)
	g.cancel()
}

func (g *guardedBody) Read(p []byte) (int, error) {
	n, err := g.body.Read(p)
	if n > 0 && !g.stalled.Load() {
		g.timer.Reset(g.idle)
	}
	switch {
	case err == nil || err == io.EOF:
	case g.late.Load():
		err = &stallError{total: g.total}
	case g.stalled.Load():
		err = &stallError{idle: g.idle}
	}
	return n, err
}

func (g *guardedBody) Close() error {
	g.timer.Stop()
	if g.deadline != nil {
		g.deadline.Stop()
	}
	err := g.body.Close()
	g.cancel()
	return err
}

// A stallError ends the read of a body that received nothing for idle, or
// that took longer than total to read. It is a timeout: it matches
// os.ErrDeadlineExceeded.
type stallError struct{ idle, total time.Duration }

func (e *stallError) Error() string {
	if e.total > 0 {
		return fmt.Sprintf("the answer took too long: its body was still arriving after %v", e.total)
	}
	return fmt.Sprintf("the answer stalled: nothing arrived for %v", e.idle)
}

// Timeout reports true, as a net.Error does for a timeout.
func (e *stallError) Timeout() bool { return true }

// Is reports whether target is os.ErrDeadlineExceeded.
func (e *stallError) Is(target error) bool { return target == os.ErrDeadlineExceeded }
