package workforce

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
)

// A RawRequest is a call to an endpoint the SDK does not model, or with a
// parameter it does not know yet. Client.Do sends it through the same
// request path as every service method: token, retries, typed errors,
// redaction, envelopes.
type RawRequest struct {
	// Method is GET, POST, PUT, PATCH or DELETE.
	Method string
	// Path is below /api_v2/, such as "jobs/42" or "users/7/tracking".
	Path string
	// Query holds the query parameters; the token is added by the client.
	Query url.Values
	// Body is encoded as JSON when not nil, such as
	// map[string]any{"job": map[string]any{"worker_id": 7}}.
	Body any
	// Key is the envelope the answer is wrapped in, such as "job"; the
	// answer is decoded whole when it is "" or the answer is not an
	// envelope.
	Key string
	// Create says that sending the request twice could create two
	// records: it is then sent again only where the server provably did
	// not act on it (a 429, or a connection never made).
	Create bool
}

// Do sends r and decodes the answer into out, a non-nil pointer (such as a
// *json.RawMessage, a map or a struct), or discards it when out is nil.
// Errors are those of any other call: *APIError, *TransportError,
// *DecodeError, and *ArgumentError for a request refused before I/O.
func (c *Client) Do(ctx context.Context, r *RawRequest, out any) (*Response, error) {
	if err := r.check(out); err != nil {
		return nil, err
	}
	if out == nil {
		out = new(json.RawMessage)
	}
	req := request{method: r.Method, path: strings.TrimPrefix(r.Path, "/"), body: r.Body, key: r.Key, create: r.Create}
	if len(r.Query) > 0 {
		req.query = r.Query
	}
	return c.do(ctx, req, out)
}

func (r *RawRequest) check(out any) error {
	if r == nil {
		return &ArgumentError{Name: "RawRequest", Reason: "is required"}
	}
	switch r.Method {
	case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return &ArgumentError{Name: "Method", Reason: fmt.Sprintf("must be GET, POST, PUT, PATCH or DELETE, got %q", r.Method)}
	}
	p := strings.TrimPrefix(r.Path, "/")
	switch {
	case p == "":
		return &ArgumentError{Name: "Path", Reason: "is required"}
	case strings.ContainsAny(p, `?#\`) || strings.Contains(p, "://") || strings.HasPrefix(p, "/"):
		return &ArgumentError{Name: "Path", Reason: "must be a path below /api_v2/, without query, fragment or host"}
	case slices.Contains(strings.Split(p, "/"), ".."), slices.Contains(strings.Split(p, "/"), "."):
		return &ArgumentError{Name: "Path", Reason: "must not hold . or .. segments"}
	}
	if out != nil {
		if v := reflect.ValueOf(out); v.Kind() != reflect.Pointer || v.IsNil() {
			return &ArgumentError{Name: "out", Reason: "must be a non-nil pointer, or nil to discard the answer"}
		}
	}
	return nil
}
