package auth

import (
	"context"
	"io"
	"net/http"
	"net/url"

	"github.com/workforce-marketplace/workforce-go/internal/redact"
)

// Transport adds the token as the query parameter "token" to requests for
// one scheme and host, and sends everything else through untouched; it
// sits at the bottom of the client's stack, so nothing above it sees the
// token. When a request with a token answers 401 and the source can renew,
// it renews the token and replays the request once, unless the source's
// limits on renewals say not yet (see Source.Invalidate).
type Transport struct {
	Base   http.RoundTripper
	Source *Source
	Scheme string
	Host   string
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != t.Scheme || req.URL.Host != t.Host {
		return t.Base.RoundTrip(req)
	}
	tok, err := t.Source.Token(req.Context())
	if err != nil {
		closeBody(req)
		return nil, fetchError(req.Context(), err)
	}
	resp, err := t.send(req, tok, req.Body)
	if err != nil {
		return resp, err
	}
	if resp.StatusCode != http.StatusUnauthorized {
		t.Source.Accepted(tok)
		return resp, nil
	}
	if !t.Source.CanRenew() || !t.Source.Invalidate(tok) { // rejected: the next request fetches a new one, replayed or not
		return resp, nil
	}
	body := io.ReadCloser(http.NoBody)
	if req.Body != nil && req.Body != http.NoBody {
		if req.GetBody == nil {
			return resp, nil // cannot replay: the caller gets the 401
		}
		if body, err = req.GetBody(); err != nil {
			return resp, nil
		}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()

	if tok, err = t.Source.Token(req.Context()); err != nil {
		body.Close()
		return nil, fetchError(req.Context(), err)
	}
	if resp, err = t.send(req, tok, body); err == nil && resp.StatusCode != http.StatusUnauthorized {
		t.Source.Accepted(tok)
	}
	return resp, err
}

// send sends req with tok and body through the base transport, and hides
// the token from what it answers: the response points back at the caller's
// request, not at the copy that carries the token in its URL, and an error
// that quotes that URL has the token masked.
func (t *Transport) send(req *http.Request, tok string, body io.ReadCloser) (*http.Response, error) {
	resp, err := t.Base.RoundTrip(withToken(req, tok, body))
	if resp != nil {
		resp.Request = req
	}
	if err != nil {
		err = (&redact.Redactor{Secrets: func() []string { return []string{tok} }}).Error(err)
	}
	return resp, err
}

// withToken returns a copy of req that carries tok in its query and sends
// body. The original request, and its URL, are left as they were; the copy
// shares the rest (headers included), which the transports below only read.
func withToken(req *http.Request, tok string, body io.ReadCloser) *http.Request {
	r := req.WithContext(req.Context())
	r.Body = body
	u := *req.URL
	if u.RawQuery != "" {
		u.RawQuery += "&"
	}
	u.RawQuery += "token=" + url.QueryEscape(tok)
	r.URL = &u
	return r
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// FetchError is the error of a request that was not sent because no token
// could be had. It is never worth retrying the request: the fetch itself
// went through the client's retries.
type FetchError struct{ Err error }

// Error says that authentication failed, and why.
func (e *FetchError) Error() string { return "authenticate: " + e.Err.Error() }

// Unwrap returns the reason the token could not be had.
func (e *FetchError) Unwrap() error { return e.Err }

// fetchError wraps err, unless it is the context's own end.
func fetchError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return &FetchError{Err: err}
}
