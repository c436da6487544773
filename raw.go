package workforce

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"unicode/utf8"
)

// A RawRequest is a call to an endpoint the SDK does not model, or with a
// parameter it does not know yet. Client.Do sends it through the same
// request path as every service method: token, retries, typed errors,
// redaction, envelopes.
type RawRequest struct {
	// Method is GET, POST, PUT, PATCH or DELETE.
	Method string
	// Path is below /api_v2/, such as "jobs/42" or "users/7/tracking":
	// segments of letters, digits, -._~!$&'()*+,=:@ (':' not in the
	// first) and percent-escapes
	// of other printable ASCII characters (not of / \ ? # % ; or a dot)
	// and of UTF-8 text, separated by single slashes, none "." or "..".
	// Anything else (a leading or doubled slash, a ';', a query, a host, a
	// malformed escape) is refused.
	Path string
	// Query holds the query parameters; the token is added by the client,
	// and a "token" key is refused.
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
// The answer is bounded as a collection's: at most 4 MiB, and 20,000
// objects, arrays and array elements (see docs/limits.md); a larger one is
// a *DecodeError.
// Errors are those of any other call: *APIError, *TransportError,
// *DecodeError, and *ArgumentError for a request refused before I/O (a
// method, path or out it does not take, a Body that cannot be encoded).
func (c *Client) Do(ctx context.Context, r *RawRequest, out any) (*Response, error) {
	if err := r.check(out); err != nil {
		return nil, err
	}
	if out == nil {
		out = new(json.RawMessage)
	}
	req := request{method: r.Method, path: r.Path, body: r.Body, key: r.Key, create: r.Create, raw: true}
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
	if err := checkPath(r.Path); err != nil {
		return err
	}
	for k := range r.Query {
		if strings.EqualFold(strings.TrimSpace(k), "token") {
			return &ArgumentError{Name: "Query", Reason: "must not hold a token: the client adds its own"}
		}
	}
	if out != nil {
		if v := reflect.ValueOf(out); v.Kind() != reflect.Pointer || v.IsNil() {
			return &ArgumentError{Name: "out", Reason: "must be a non-nil pointer, or nil to discard the answer"}
		}
	}
	return nil
}

// checkPath refuses a path that is not a clean relative path below
// /api_v2/: one or more segments separated by single slashes, each made of
// letters, digits and -._~!$&'()*+,=:@ (':' not in the first segment,
// where it reads as a scheme) and of percent-escapes of other
// printable ASCII characters (not / \ ? # % ; or a dot, which could
// smuggle a query, a fragment, a matrix parameter or a step up) and of
// UTF-8 text, and none "." or "..". Control characters, raw spaces and
// non-ASCII text, ';' (which servers may cut a segment at: "..;"), a
// malformed escape (%zz, a trailing %, bytes that are not UTF-8), an empty
// segment (a leading, trailing or doubled slash), a scheme or a host are
// refused.
func checkPath(p string) error {
	if p == "" {
		return &ArgumentError{Name: "Path", Reason: "is required"}
	}
	for n, seg := range strings.Split(p, "/") {
		if n == 0 && strings.Contains(seg, ":") {
			return &ArgumentError{Name: "Path", Reason: fmt.Sprintf("starts with %q: a first segment holding ':' reads as a scheme", seg)}
		}
		if escaped, err := url.PathUnescape(seg); err != nil || !utf8.ValidString(escaped) {
			return &ArgumentError{Name: "Path", Reason: fmt.Sprintf("holds %q: a percent-escape must be two hex digits, and the escapes of a segment UTF-8 text", seg)}
		}
		if seg == "" {
			return &ArgumentError{Name: "Path", Reason: "must be a path below /api_v2/ without empty segments, such as \"jobs/42\": no host, no leading, doubled or trailing /"}
		}
		if seg == "." || seg == ".." {
			return &ArgumentError{Name: "Path", Reason: "must not hold . or .. segments"}
		}
		for i := 0; i < len(seg); i++ {
			b := seg[i]
			switch {
			case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9', strings.IndexByte("-._~!$&'()*+,=:@", b) >= 0:
			case b == '%':
				d, ok := unhex(seg[i+1:])
				if !ok || d < ' ' || d == 0x7f || strings.IndexByte(`/\?#%.;`, d) >= 0 {
					return &ArgumentError{Name: "Path", Reason: fmt.Sprintf("holds %.3q: a percent-escape must be two hex digits of a printable character other than / \\ ? # %% ; and ., or of UTF-8 text", seg[i:])}
				}
				i += 2
			default:
				r, _ := utf8.DecodeRuneInString(seg[i:])
				return &ArgumentError{Name: "Path", Reason: fmt.Sprintf("holds %q: a path below /api_v2/ holds only letters, digits, -._~!$&'()*+,=:@, percent-escapes and slashes (no query, fragment, ';', scheme, space or control character)", r)}
			}
		}
	}
	return nil
}

// unhex reads the byte that the two hex digits at the start of s write.
func unhex(s string) (byte, bool) {
	if len(s) < 2 {
		return 0, false
	}
	var v byte
	for _, c := range []byte(s[:2]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | c
	}
	return v, true
}
