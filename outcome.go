package workforce

import (
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"time"

	"github.com/workforce-marketplace/workforce-go/internal/retry"
)

// Whether a write may have been done (docs/OUTCOME.md): an attempt may have
// reached the server when it had a connection and then the connection
// failed, the context ended, or the answer was a 2xx the caller will not
// get, a redirect, or a 5xx other than a 503 that asks to come back later
// (Retry-After). The wire knows whether an
// attempt had a connection; writeTracer tells the call, and the retry loop
// judges each attempt's end (callState.attempted).

// writeTracer marks the call of a write whose attempt may have reached the
// server: one that got a connection, or one through a transport that
// reports nothing of the kind (a RoundTripper of the caller's) and did not
// fail to dial. Only an attempt that provably never had a connection is
// left unmarked. It sits below the token transport, so that each attempt on
// the wire (a replay after a 401 included) is judged on its own.
type writeTracer struct{ next http.RoundTripper }

func (t writeTracer) RoundTrip(req *http.Request) (*http.Response, error) {
	cs := callOf(req.Context())
	if cs == nil || !cs.write {
		return t.next.RoundTrip(req)
	}
	cs.wrote.Store(false) // this attempt alone: an earlier one was answered (a 401), so did nothing
	cs.sending()
	var traced atomic.Bool
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		GetConn:      func(string) { traced.Store(true) },
		GotConn:      func(httptrace.GotConnInfo) { cs.sending(); cs.wrote.Store(true) },
		WroteRequest: func(httptrace.WroteRequestInfo) { cs.sending() },
	}))
	resp, err := t.next.RoundTrip(req)
	switch {
	case nothingDone(resp, err):
		cs.wrote.Store(false) // answered: nothing was done, whatever happens above (a 401's renewal failing)
	case err == nil:
		cs.wrote.Store(true) // answered otherwise: it reached the server
	case !traced.Load() && !retry.NeverConnected(err):
		cs.wrote.Store(true) // a transport that says nothing: assume it may have sent it
	}
	return resp, err
}

// nothingDone reports whether an answer shows the server did nothing: a
// 4xx (429 included), or a 503 that carries a Retry-After of a second or
// more (or a date ahead), the server's own "not now". A 503 without one does not: a router answers it after passing
// the request on (Heroku's H12 after 30 s, while the app goes on working),
// nor does a redirect: a 303 is the usual answer to a POST that was done.
func nothingDone(resp *http.Response, err error) bool {
	if err != nil || resp == nil {
		return false
	}
	if resp.StatusCode == http.StatusServiceUnavailable {
		now := time.Now() // a date is read against the answer's own Date, when it has one: clocks differ
		if date, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
			now = date
		}
		wait, ok := retry.ParseRetryAfter(resp.Header.Get("Retry-After"), 0, now)
		return ok && wait > 0 // "now" (0, a date past) is no "not now"
	}
	return resp.StatusCode >= 400 && resp.StatusCode <= 499
}
