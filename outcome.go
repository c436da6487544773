package workforce

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
)

// An outcome follows, in the context of a write, whether an attempt may
// have reached the server without an answer that says it did nothing: it
// had a connection, then the connection failed, the context ended, or the
// answer was a 2xx the caller will not get, a redirect, or a 5xx other
// than 503.
type outcome struct {
	wrote   atomic.Bool // the current attempt may have reached the server
	unknown atomic.Bool // an attempt may have, and no answer says it did nothing
}

// outcomeKey holds a call's *outcome in its context.
type outcomeKey struct{}

// writeTracer marks the outcome of a write whose attempt may have reached
// the server: one that got a connection, or one through a transport that
// reports nothing of the kind (a RoundTripper of the caller's) and did not
// fail to dial. Only an attempt that provably never had a connection is
// left unmarked. It sits below the token transport, so that each attempt on
// the wire (a replay after a 401 included) is judged on its own.
type writeTracer struct{ next http.RoundTripper }

func (t writeTracer) RoundTrip(req *http.Request) (*http.Response, error) {
	o, _ := req.Context().Value(outcomeKey{}).(*outcome)
	if o == nil {
		return t.next.RoundTrip(req)
	}
	o.wrote.Store(false) // this attempt alone: an earlier one was answered (a 401), so did nothing
	var traced atomic.Bool
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		GetConn: func(string) { traced.Store(true) },
		GotConn: func(httptrace.GotConnInfo) { o.wrote.Store(true) },
	}))
	resp, err := t.next.RoundTrip(req)
	switch {
	case nothingDone(resp, err):
		o.wrote.Store(false) // answered: nothing was done, whatever happens above (a 401's renewal failing)
	case err == nil:
		o.wrote.Store(true) // answered otherwise: it reached the server
	case !traced.Load() && !dialFailed(err):
		o.wrote.Store(true) // a transport that says nothing: assume it may have sent it
	}
	return resp, err
}

// dialFailed reports whether err shows that no connection was made.
func dialFailed(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// nothingDone reports whether an answer shows the server did nothing: a
// 4xx (429 included) or a 503. A redirect does not: a 303 is the usual
// answer to a POST that was done.
func nothingDone(resp *http.Response, err error) bool {
	return err == nil && resp != nil &&
		((resp.StatusCode >= 400 && resp.StatusCode <= 499) || resp.StatusCode == http.StatusServiceUnavailable)
}

// isWrite tells whether the call of ctx is a write, whose outcome is followed.
func isWrite(ctx context.Context) bool {
	o, _ := ctx.Value(outcomeKey{}).(*outcome)
	return o != nil
}

// outcomeUnknown tells whether the call of ctx is a write that may have
// been done without the caller being told.
func outcomeUnknown(ctx context.Context) bool {
	o, _ := ctx.Value(outcomeKey{}).(*outcome)
	return o != nil && (o.unknown.Load() || o.wrote.Load())
}
