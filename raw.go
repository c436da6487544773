package workforce

import (
	"context"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"

	"github.com/workforce-marketplace/workforce-go/internal/jsonscan"
	"github.com/workforce-marketplace/workforce-go/internal/redact"
)

// A RawRequest is a call to an endpoint the SDK does not model, or with a
// parameter it does not know yet. Client.Do sends it through the same
// request path as every service method: token, retries, typed errors,
// redaction, envelopes.
//
// No part of it may hold the client's keys or a token it holds, nor
// anything shaped like a key or a token (a pk_test_… or sk_live_… value, a
// "token" member or parameter): the client authenticates each call with
// its token, and no credential may reach a middleware or a log. Do refuses
// such a Path (its text with escapes undone), Query key or value, Header
// name or value, or encoded Body before any I/O, with an *ArgumentError
// naming the part and never quoting the value.
type RawRequest struct {
	// Method is GET, POST, PUT, PATCH or DELETE.
	Method string
	// Path is below /api_v2/, such as "jobs/42" or "users/7/tracking":
	// segments of letters, digits, -._~!$&'()*+,=:@ (':' not in the
	// first) and percent-escapes
	// of other printable ASCII characters (not of / \ ? # % ; or a dot)
	// and of UTF-8 text (past the first segment; no control or invisible
	// format character such as a bidi control, and nothing a server
	// normalising Unicode reads as ASCII: fullwidth forms, dot leaders),
	// separated by single slashes, none made only of dots and spaces ("."
	// or ".." in any form) nor beginning or ending with a space once
	// unescaped.
	// Anything else (a leading or doubled slash, a ';', a query, a host, a
	// malformed escape) is refused, and so are a key or a token and the
	// authenticate endpoint in any form ("Authenticate", "authenticate.json").
	Path string
	// Query holds the query parameters; the token is added by the client,
	// and a "token" key is refused, as is a key or a value holding a key
	// or a token.
	Query url.Values
	// Body is encoded as JSON when not nil, such as
	// map[string]any{"job": map[string]any{"worker_id": 7}}, or sent as
	// it is when a json.RawMessage; bytes of any other type ([]byte,
	// *[]byte, a named byte slice, a byte array) are refused (JSON would
	// send them as base64, not as the JSON they hold). A body whose encoding holds a key or a token (in a
	// base64 string, as a []byte member is written, too), or a top-level
	// "token" member, is refused.
	Body any
	// Key is the envelope the answer is wrapped in, such as "job"; the
	// answer is decoded whole when it is "" or the answer is not an
	// envelope.
	Key string
	// Create says that sending the request twice could create two
	// records: it is then sent again only where the server provably did
	// not act on it (a 429, or a connection never made).
	Create bool
	// Header holds headers sent beside the client's own, such as
	// Idempotency-Key or If-None-Match, on every attempt. Refused before
	// any I/O: a name or value HTTP does not allow; a header the client
	// sets or that frames the request (Accept, Accept-Encoding, User-Agent,
	// Content-Type, Content-Length, Host, Connection, Transfer-Encoding and
	// the like); one that carries a credential (Authorization, Cookie, or a
	// name holding token, secret, password or api-key), since the client
	// authenticates each call with its token and no credential may reach a
	// middleware or a log; and a name or value holding a key or a token.
	Header http.Header
}

// Do sends r and returns its answer decoded into out, a non-nil pointer
// (such as a *json.RawMessage, a map or a struct), or discards it when out
// is nil. An answer larger than a collection's bound (docs/limits.md) is a
// *DecodeError. Its errors are any call's, and an *ArgumentError, before
// any I/O, for a method, path, header, Body or out it does not take.
func (c *Client) Do(ctx context.Context, r *RawRequest, out any) (*Response, error) {
	if err := r.check(out); err != nil {
		return nil, err
	}
	if out == nil {
		out = new(json.RawMessage)
	}
	var red *redact.Redactor // the client's secrets, or only what looks like one
	if c != nil {
		red = c.redactor
	}
	if err := checkSecrets(red, r); err != nil {
		return nil, err
	}
	req := request{method: r.Method, path: r.Path, body: r.Body, key: r.Key, create: r.Create, raw: true,
		header: r.Header}
	if len(r.Query) > 0 {
		req.query = r.Query
	}
	return c.do(ctx, req, out)
}

func (r *RawRequest) check(out any) error {
	if err := checkPresent("RawRequest", r); err != nil {
		return err
	}
	switch r.Method {
	case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return &ArgumentError{Name: "Method", Reason: fmt.Sprintf("must be GET, POST, PUT, PATCH or DELETE, got %q", r.Method)}
	}
	if err := checkPath(r.Path); err != nil {
		return err
	}
	if isAuthenticate(r.Path) {
		return &ArgumentError{Name: "Path", Reason: "may not name the authenticate endpoint: its body holds the keys and its answer a token (Authentication.Authenticate gets one)"}
	}
	if isBytes(r.Body) {
		return &ArgumentError{Name: "Body", Reason: fmt.Sprintf("is a %T, bytes that JSON encodes as a base64 string (an array, as numbers): give JSON already encoded as a json.RawMessage", r.Body)}
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

// isBytes tells whether JSON would encode body, through any pointers, as
// bytes (a slice or an array of them, of any named type) rather than as
// the JSON they hold: true unless the value or its bytes encode themselves
// (a json.Marshaler, such as a json.RawMessage, or an
// encoding.TextMarshaler).
func isBytes(body any) bool {
	v := reflect.ValueOf(body)
	for v.IsValid() {
		t := v.Type()
		if t.Implements(jsonMarshaler) || t.Implements(textMarshaler) ||
			v.CanAddr() && (reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler)) {
			return false
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return false
			}
			v = v.Elem()
		case reflect.Slice, reflect.Array: // bytes, unless they encode themselves, as json decides
			e := t.Elem()
			return e.Kind() == reflect.Uint8 && !e.Implements(jsonMarshaler) && !e.Implements(textMarshaler) &&
				!reflect.PointerTo(e).Implements(jsonMarshaler) && !reflect.PointerTo(e).Implements(textMarshaler)
		default:
			return false
		}
	}
	return false
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// refusedHeaders are the headers a RawRequest may not set, by canonical
// name, and why: those the client sets or that frame the request, and
// those that carry credentials.
var refusedHeaders = map[string]string{
	"Accept": "is the client's", "Accept-Encoding": "is the client's", "User-Agent": "is the client's (WithUserAgent adds to it)",
	"Content-Type": "is the client's", "Content-Length": "is the client's", "Content-Encoding": "is the client's",
	"Host": "frames the request", "Connection": "frames the request", "Keep-Alive": "frames the request",
	"Proxy-Connection": "frames the request", "Transfer-Encoding": "frames the request", "Te": "frames the request",
	"Trailer": "frames the request", "Upgrade": "frames the request", "Expect": "frames the request",
	"Authorization": credentialHeader, "Proxy-Authorization": credentialHeader, "Cookie": credentialHeader,
	"Cookie2": credentialHeader, "Content-Range": "frames the request",
	"X-Original-Url": routesRequest, "X-Rewrite-Url": routesRequest, "X-Forwarded-Host": routesRequest,
	"Forwarded": routesRequest, "X-Http-Method-Override": routesRequest, "X-Http-Method": routesRequest,
	"X-Method-Override": routesRequest, "Range": "frames the answer", "If-Range": "frames the answer",
}

// routesRequest is why a header some servers route a request by (another
// path, host or method, around the checks of Path and Method) is refused.
const routesRequest = "routes the request on some servers (another path, host or method)"

// credentialHeader is why a header that carries a credential is refused.
const credentialHeader = "carries a credential: the client authenticates each call with its token"

// credentialWords are the parts of a header name that carry a credential,
// such as X-Auth-Token, X-Api-Key or X-Secret-Key.
var credentialWords = [...]string{"token", "secret", "password", "api-key", "api_key", "apikey", "auth", "access-key", "credential", "session"}

// checkSecrets refuses what r may not send, before any I/O, by red's
// secrets (red may be nil): its Header (checkHeader), and a Path or a
// Query key or value that holds a key or a token (refuseSecret). Its Body
// is checked once encoded (newRequest).
func checkSecrets(red *redact.Redactor, r *RawRequest) error {
	if err := checkHeader(red, r.Header); err != nil {
		return err
	}
	path, _ := url.PathUnescape(r.Path) // checkPath took its escapes
	if err := refuseSecret(red, "Path", path); err != nil {
		return err
	}
	for k, vs := range r.Query {
		if err := refuseSecret(red, "Query", k); err != nil { // its key: not quoted either
			return err
		}
		for _, v := range vs {
			if err := refuseSecret(red, "Query["+strconv.Quote(k)+"]", v); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkRawBody refuses the encoded Body of a RawRequest that holds a key
// or a token (refuseSecret), or a top-level "token" member of any value:
// a server that merges a body's members into its parameters (Rails) would
// take it over the client's own token, and a 401 it earns would retire
// that token.
func checkRawBody(red *redact.Redactor, body []byte) error {
	if err := refuseSecret(red, "Body", string(body)); err != nil {
		return err
	}
	for s := range bodyStrings(body) { // unescaped, or a []byte as base64
		if err := refuseSecret(red, "Body", s); err != nil {
			return err
		}
	}
	token, _, _ := jsonscan.Envelope(body, "token")
	if token == nil {
		jsonscan.Members(body, func(name, _ []byte) bool {
			if strings.EqualFold(strings.TrimSpace(string(name)), "token") {
				token = name
			}
			return token == nil
		})
	}
	if token != nil {
		return &ArgumentError{Name: "Body", Reason: "must not hold a \"token\" member: the client adds its own"}
	}
	return nil
}

// bodyStrings yields each string of the JSON body as a server reads it,
// its escapes undone (a key spelled with \u escapes), and what it decodes
// to as base64 in any of its alphabets, padded or not: encoding/json
// writes a []byte as standard base64, other encoders escape its '/' or
// '+' or use the URL alphabet, and each reverses to the key.
func bodyStrings(body []byte) iter.Seq[string] {
	encodings := []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding}
	return func(yield func(string) bool) {
		for i := 0; i < len(body); i++ {
			if body[i] != '"' {
				continue
			}
			j, escaped := i+1, false
			for ; j < len(body) && body[j] != '"'; j++ {
				if body[j] == '\\' {
					j, escaped = j+1, true
				}
			}
			lit := string(body[i+1 : min(j, len(body))])
			i = j
			if escaped {
				var s string
				if json.Unmarshal([]byte(`"`+lit+`"`), &s) != nil {
					continue // not JSON: the server refuses it as well
				}
				if lit = s; !yield(lit) {
					return
				}
			}
			for _, enc := range encodings {
				if b, err := enc.DecodeString(lit); err == nil && len(b) > 0 {
					if !yield(string(b)) {
						return
					}
					break
				}
			}
		}
	}
}

// refuseSecret is the one rule for every part of a RawRequest: it refuses
// text s of the part it names when s holds a key or a token, one red knows
// or one shaped like one (red may be nil), with an error that names the
// part and never quotes s.
func refuseSecret(red *redact.Redactor, part, s string) error {
	if red.String(s) != s {
		return &ArgumentError{Name: part, Reason: "may not hold a key or a token: no credential may reach a middleware or a log"}
	}
	return nil
}

// checkHeader refuses a header a RawRequest may not send (see
// RawRequest.Header): a name or value HTTP does not allow, a name the
// client owns or that carries a credential, and a name or value that holds
// a key or a token, one red knows or one shaped like one (red may be nil).
// Its error names the header, masked, and never quotes a value.
func checkHeader(red *redact.Redactor, h http.Header) error {
	for name, values := range h {
		shown := red.String(name)
		field := "Header[" + strconv.Quote(shown) + "]"
		if shown != name {
			return &ArgumentError{Name: field, Reason: "has a name that holds a key or a token"}
		}
		if name == "" || strings.ContainsFunc(name, func(r rune) bool { return r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) }) {
			return &ArgumentError{Name: "Header", Reason: fmt.Sprintf("holds the name %q, which HTTP does not allow", name)}
		}
		canon := http.CanonicalHeaderKey(name)
		if why, ok := refusedHeaders[canon]; ok {
			return &ArgumentError{Name: field, Reason: "may not be set: it " + why}
		}
		for _, w := range credentialWords {
			if strings.Contains(strings.ToLower(canon), w) {
				return &ArgumentError{Name: field, Reason: "may not be set: it " + credentialHeader}
			}
		}
		for _, v := range values {
			if strings.ContainsFunc(v, func(r rune) bool { return (r < ' ' && r != '\t') || r == 0x7f }) {
				return &ArgumentError{Name: field, Reason: "holds a control character, which HTTP does not allow"}
			}
			if err := refuseSecret(red, field, v); err != nil {
				return err
			}
		}
	}
	return nil
}
