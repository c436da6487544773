package workforce

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"

	"github.com/google/go-querystring/query"
)

// The one request path, top to bottom:
//
//	service method   describes the call as a request (resource.go)
//	call, do         refuse bad arguments, start the call (callState), build the *http.Request
//	middleware       the caller's (WithMiddleware), once a call, seeing no secret (middleware.go)
//	send             the retry loop (retry.go): attempt, shouldRetry, wait
//	c.http           per attempt: the token transport (renewal and replay on a 401),
//	                 writeTracer (outcome.go), stallGuard, the caller's or the default transport
//	read             the answer: the error it means, or the decoded value (answer.go, failure.go)
//	logCall          one line per call (log.go)

// request is one call to the API, as a service method describes it.
type request struct {
	method string
	path   string       // below /api_v2/, e.g. "jobs/42"
	query  any          // a struct with url tags, url.Values, or nil
	body   any          // encoded as JSON, or nil
	stream stream       // a body produced as it is sent, instead of body; or nil
	key    string       // the envelope key the answer is wrapped in, or ""
	id     int64        // the record the call reads or changes by its path, which the answer must be; or 0
	create bool         // sending it twice could create two records
	public bool         // needs no token
	page   *ListOptions // the paging of a page of a list (see answerLimits), whose NextPage is set; or nil
	raw    bool         // made by Client.Do, for an answer of any kind
	header http.Header  // sent beside the client's own (RawRequest.Header, checked)
	// secrets are values of the body that no error or log line may show,
	// such as a password, should the server echo them.
	secrets []string
	// err refuses the call before any I/O: an argument out of range.
	err error
}

// A stream is a request body produced as it is sent, never held whole in
// memory, such as an uploaded file.
type stream interface {
	// open returns the body for one attempt. Reading it may fail when the
	// body cannot be produced again.
	open() io.ReadCloser
	contentType() string
	// replayable reports whether the body can be sent more than once.
	replayable() bool
	// close ends the production once the call is over.
	close()
}

// call sends r and decodes the answer into a new T.
func call[T any](ctx context.Context, c *Client, r request) (T, *Response, error) {
	var v T
	resp, err := c.do(ctx, r, &v)
	if err != nil {
		var zero T
		return zero, resp, err
	}
	return v, resp, nil
}

// do is the one request path: it refuses bad arguments, starts the call,
// sends it through the retry loop, turns the answer into out or the
// caller's error, and logs the call.
func (c *Client) do(ctx context.Context, r request, out any) (*Response, error) {
	if r.err != nil {
		return nil, r.err
	}
	if err := c.ready(); err != nil {
		return nil, err
	}
	if ctx == nil {
		return nil, errNilContext()
	}
	cs := c.newCall(ctx, r)
	req, err := c.newRequest(cs, r)
	if err != nil {
		return nil, err
	}
	if r.stream != nil {
		defer r.stream.close()
	}
	var hr *http.Response
	if c.middleware != nil && !(r.method == http.MethodPost && r.path == authentication.path) { // its body holds the keys, its answer the token
		hr, err = c.viaMiddleware(cs, req, r.stream == nil && len(r.secrets) == 0)
	} else {
		hr, err = c.exchange(cs, req)
	}
	resp, err := c.read(cs, hr, err, r.key, out)
	if r.page != nil {
		resp.setNextPage(*r.page, reflect.ValueOf(out).Elem().Len())
	}
	if cs.create { // only a create's error can be settled
		markStarted(err, cs.start, cs.lastSent())
	}
	cs.abandoned = abandonedBy(cs.ctx, err)
	c.logCall(cs, resp, err)
	return resp, err
}

// errNilContext refuses a call made with a nil context.
func errNilContext() error { return &ArgumentError{Name: "ctx", Reason: "must not be nil"} }

// newRequest builds the request r describes, in the context of its call;
// each attempt sends it with a body of its own (cs.body). The token is
// added later, by the token transport.
func (c *Client) newRequest(cs *callState, r request) (*http.Request, error) {
	u := *cs.url // a copy, to take the query
	switch q := r.query.(type) {
	case nil:
	case url.Values:
		u.RawQuery = q.Encode()
	default:
		values, err := query.Values(q)
		if err != nil {
			return nil, c.encodingError("query", err)
		}
		u.RawQuery = values.Encode()
	}
	req, err := http.NewRequestWithContext(withCall(cs.ctx, cs), r.method, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("workforce: building the request: %w", err)
	}
	for name, values := range r.header { // "x-trace" and "X-Trace" are one header
		k := http.CanonicalHeaderKey(name)
		req.Header[k] = append(req.Header[k], values...)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	switch {
	case r.stream != nil:
		s := r.stream
		req.Header.Set("Content-Type", s.contentType())
		cs.body = s.open
		if s.replayable() { // else nothing below may send it again: no token renewal's replay
			req.GetBody = func() (io.ReadCloser, error) { return s.open(), nil }
		}
	case r.body != nil:
		b, err := json.Marshal(r.body)
		if err != nil {
			return nil, c.encodingError("body", err)
		}
		if r.raw { // the rules of every part of a RawRequest (checkSecrets)
			if err := checkRawBody(cs.redactor, b); err != nil {
				return nil, err
			}
		}
		req.Header.Set("Content-Type", "application/json")
		req.ContentLength = int64(len(b))
		cs.body = func() io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }
		req.GetBody = func() (io.ReadCloser, error) { return cs.body(), nil }
	}
	return req, nil
}
