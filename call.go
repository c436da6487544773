package workforce

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/workforce-marketplace/workforce-go/internal/redact"
)

// A callState is one call to the API, from the service method that starts it
// to the answer it returns: what every step of the request path needs to
// know of the call, and what its attempts learn as they go. do makes one per
// call and hands it down; the transports below the retry loop, which only
// see an *http.Request, find it in the request's context (callOf).
type callState struct {
	ctx          context.Context // the caller's
	url          *url.URL        // where it goes, without its query
	method, path string          // e.g. "GET" and "/api_v2/jobs/42", for errors and logs
	rel          string          // the path below /api_v2/, e.g. "jobs/42", for Endpoint
	id           int64           // the record the call is on by its path (jobs/42: 42), which its answer must be; 0 for none
	start        time.Time       // when the call began, for the Settle methods

	public   bool // sent without a token: POST /authenticate and GET /info
	write    bool // not a read: whether it may have been done is followed
	create   bool // sending it twice could create two records
	sendOnce bool // its body cannot be produced again: never sent twice
	limits   answerLimits
	redactor *redact.Redactor // the client's, with the call's own secrets (a password)
	limiter  *limiter         // the iterator's pacing each attempt is reported to; nil for none
	gauge    *gauge           // holds a good answer for the limiter until its page is counted; nil for none
	place    *slot            // the place in the limiter's window the call holds; nil for none

	// body returns a fresh body for each attempt; nil for a call without one.
	body func() io.ReadCloser

	// What the attempts learned, kept by the retry loop alone.
	attempts   int  // attempts sent so far
	lastStatus int  // the status of the last answer an attempt got; 0 for none
	unknown    bool // an attempt may have reached the server, and no answer says it did nothing

	// abandoned is set by do when the call ended because the iterator that
	// made it was done with it (errIterationOver): not a failure.
	abandoned bool

	// passed is set when a middleware passes the call's request on to the
	// client (callTransport): a second pass is refused.
	passed atomic.Bool

	// wrote is set by the wire (writeTracer) during an attempt that may
	// have reached the server, and read and cleared by the retry loop
	// after it.
	wrote atomic.Bool
	// sent is when the wire last sent something of the write: an attempt
	// began, got its connection, wrote its request (the latest of these,
	// set by writeTracer).
	sent atomic.Pointer[time.Time]
	// acted is when the last attempt that may have done the write was
	// sent (its sent when it ended), kept by the retry loop; zero for none.
	acted time.Time
}

// sending records that the wire sends something of the call's write now.
func (cs *callState) sending() {
	now := time.Now()
	cs.sent.Store(&now)
}

// lastSent returns when the call's last attempt that may have done the
// write was sent: for the settle horizon, which counts from it. It is
// never before the call began.
func (cs *callState) lastSent() time.Time {
	switch {
	case !cs.acted.IsZero():
		return cs.acted
	case cs.sent.Load() != nil:
		return *cs.sent.Load()
	}
	return cs.start
}

// newCall describes the call r, starting now, in ctx.
func (c *Client) newCall(ctx context.Context, r request) *callState {
	u := c.base.JoinPath(r.path)
	cs := &callState{
		ctx:      ctx,
		url:      u,
		method:   r.method,
		path:     u.Path,
		rel:      r.path,
		id:       r.id,
		start:    time.Now(),
		public:   r.public,
		write:    r.method != http.MethodGet && !r.public, // a token fetch made for a write is not that write
		create:   r.create,
		sendOnce: r.stream != nil && !r.stream.replayable(),
		limits:   c.limitsFor(r),
		redactor: c.redactor,
	}
	if !r.public { // a token fetched for a page says nothing of the pages' latency
		cs.limiter = limiterOf(ctx)
		cs.gauge, _ = ctx.Value(gaugeKey{}).(*gauge)
		cs.place, _ = ctx.Value(placeKey{}).(*slot)
	}
	if len(r.secrets) > 0 { // hidden in this call's errors, beside the keys and the token
		cs.redactor = c.redactor.With(r.secrets...)
	}
	return cs
}

// attempted folds the end of an attempt, answered resp or failed with err,
// into the call: the answer's status, and whether the attempt may have done
// the write without an answer that says it did nothing.
func (cs *callState) attempted(resp *http.Response, err error) {
	if resp != nil {
		cs.lastStatus = resp.StatusCode
	} else if status := failedStatus(err); status != 0 {
		cs.lastStatus = status
	}
	if cs.wrote.Swap(false) && !nothingDone(resp, err) {
		cs.unknown = true
		if at := cs.sent.Load(); at != nil {
			cs.acted = *at
		}
	}
}

// outcomeUnknown reports whether the call is a write that may have been
// done without the caller being told.
func (cs *callState) outcomeUnknown() bool {
	return cs.write && (cs.unknown || cs.wrote.Load())
}

// errIterationOver is the cause with which an iterator (All, Sync)
// cancels the calls it still has in flight once it needs them no more: the
// loop broke, or the walk ended with pages fetched ahead past the end.
// Such a call is abandoned, not failed.
var errIterationOver = errors.New("workforce: the iteration that made the call is over")

// abandonedBy reports whether a call in ctx that failed with err was
// abandoned by its iterator.
func abandonedBy(ctx context.Context, err error) bool {
	return err != nil && ctx.Err() != nil && errors.Is(context.Cause(ctx), errIterationOver)
}

// callKey holds a request's *callState in its context.
type callKey struct{}

// withCall returns ctx carrying cs, for the transports below the retry
// loop.
func withCall(ctx context.Context, cs *callState) context.Context {
	return context.WithValue(ctx, callKey{}, cs)
}

// callOf returns the call a request belongs to, or nil for a request the
// client did not make.
func callOf(ctx context.Context) *callState {
	cs, _ := ctx.Value(callKey{}).(*callState)
	return cs
}
