package workforce

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/workforce-marketplace/workforce-go/internal/redact"
)

// WithMiddleware wraps every call the client makes in m, such as a tracing
// or metrics transport: m is given the transport that runs a call and
// returns the one the client uses; the first given is the outermost. m sees
// each call once, above the retries, with no secret in it (docs/security.md,
// "Middleware"); Endpoint names the call. It may add headers and derive the
// request's context, and must pass each request on at most once, keeping
// its context's values (a second pass is not sent and gets an error); it
// cannot change the body. A nil m, or one that returns nil, makes New fail
// with ErrConfig.
func WithMiddleware(m func(http.RoundTripper) http.RoundTripper) Option {
	return func(s *settings) { s.middleware = append(s.middleware, m) }
}

// chain returns the middlewares ms wrapped around the transport that runs
// a call, the first outermost, sealed from printers; nil when there is none.
func (c *Client) chain(ms []func(http.RoundTripper) http.RoundTripper) (http.RoundTripper, error) {
	if len(ms) == 0 {
		return nil, nil
	}
	var rt http.RoundTripper = callTransport{c}
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i] == nil {
			return nil, fmt.Errorf("%w: middleware %d of %d is nil", ErrConfig, i+1, len(ms))
		}
		if rt = ms[i](rt); rt == nil {
			return nil, fmt.Errorf("%w: middleware %d of %d returned no RoundTripper", ErrConfig, i+1, len(ms))
		}
	}
	return seal(rt), nil
}

// errLostCall is the error of a request that reached the client's
// transport without the call it belongs to: a middleware made a request of
// its own, or replaced its context with one not derived from it.
var errLostCall = errors.New("workforce: a middleware passed on a request without the context of the call it belongs to")

// errPassedTwice is the error of a request a middleware passed on a second
// time: the call already ran its attempts, and a create sent again could
// make two records. Retries are the client's.
var errPassedTwice = errors.New("workforce: a middleware passed on the request of a call a second time; it is not sent again (retries are the client's)")

// callTransport is the innermost middleware: it runs the call the request
// belongs to through the retry loop, once.
type callTransport struct{ c *Client }

func (t callTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		req.Body.Close() // the middleware's view; each attempt sends the call's own body
	}
	cs := callOf(req.Context())
	if cs == nil {
		return nil, errLostCall
	}
	if cs.passed.Swap(true) {
		return nil, errPassedTwice
	}
	cs.ctx = req.Context() // derived from the caller's: its end ends the call
	r := req.WithContext(cs.ctx)
	r.Body = nil
	return t.c.exchange(cs, r)
}

// viaMiddleware sends the call cs through the client's middleware, with
// req as the middleware is to see it, and returns what the middleware
// returns, made whole: an answer with a body, or an error.
func (c *Client) viaMiddleware(cs *callState, req *http.Request, showBody bool) (*http.Response, error) {
	req = req.WithContext(req.Context()) // a copy: the request the attempts send is the one handed down
	if showBody && cs.body != nil {
		req.Body = cs.body()
	} else {
		req.GetBody = nil
	}
	resp, err := c.middleware.RoundTrip(req)
	switch {
	case err != nil:
		closeBody(resp)
		return nil, err
	case resp == nil:
		return nil, errors.New("workforce: a middleware returned neither an answer nor an error")
	case resp.Body == nil:
		resp.Body = http.NoBody
	}
	return resp, nil
}

// exchange runs the call cs through the retry loop and returns its last
// answer, pointing back at req, with every secret a server echoed in its
// status or headers masked; or its error.
func (c *Client) exchange(cs *callState, req *http.Request) (*http.Response, error) {
	resp, err := c.send(cs, req)
	if resp != nil {
		resp.Request = req
		if len(resp.Status) >= redact.MinPrefix+4 { // "200 " and a reason that may hold a secret
			resp.Status = cs.redactor.String(resp.Status)
		}
		cs.redactor.Header(resp.Header)
		cs.redactor.Header(resp.Trailer) // a GET's, its body read already
	}
	return resp, err
}

// Endpoint returns the endpoint of a request the client made, as the API's
// documentation and docs/endpoints.md name it, such as "GET /jobs/:id": the
// method and the path below /api_v2/ with each numeric segment written
// ":id". A middleware names what it records with it (a span, a metric), in
// few distinct names. It returns "" for a request the client did not make.
func Endpoint(req *http.Request) string {
	if req == nil {
		return ""
	}
	cs := callOf(req.Context())
	if cs == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(cs.method)
	b.WriteString(" ")
	for seg := range strings.SplitSeq(cs.rel, "/") {
		b.WriteString("/")
		if seg != "" && strings.Trim(seg, "0123456789") == "" {
			seg = ":id"
		}
		b.WriteString(seg)
	}
	return b.String()
}
