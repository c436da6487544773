package workforcetest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// The bounds of the request log: it keeps the last maxRequests requests, fewer when they would
// hold more than maxLogBytes (by Request.size), and of each body at most maxLoggedBody bytes. A
// header is bounded by the server's MaxHeaderBytes (maxHeaderBytes), so no entry holds more than
// about 130 KiB and the log no more than maxLogBytes, whatever clients send.
const (
	maxRequests    = 10000
	maxLogBytes    = 32 << 20
	maxLoggedBody  = 64 << 10
	maxHeaderBytes = 64 << 10
)

// redacted replaces the values of api_key and secret_key in the request log.
const redacted = "[REDACTED]"

// Request is a request the fake received, as Server.Requests reports it: recorded as it arrives,
// before it is routed or authenticated (faulted ones too), without its token, and with the values
// of api_key, secret_key and password fields replaced by "[REDACTED]". Its body is kept only when
// it carries a valid token or authenticates, and then at most 64 KiB of it.
type Request struct {
	// Method is the HTTP method.
	Method string `json:"method"`
	// Path is the URL path, e.g. "/api_v2/jobs".
	Path string `json:"path"`
	// Query is the query string, without token.
	Query url.Values `json:"query"`
	// Header is the request header.
	Header http.Header `json:"header"`
	// Body is the request body, without token (a changed JSON body is re-encoded, with sorted
	// keys): at most 64 KiB of it, and nothing of an unauthenticated request (see above).
	Body []byte `json:"body"`
	// BodySize is the size of the body received, whether or not Body holds it.
	BodySize int64 `json:"body_size"`
	// Time is when the request arrived, on the fake clock.
	Time time.Time `json:"time"`
}

// requestLog is the requests received: a ring of at most maxRequests, holding at most maxLogBytes,
// so that adding one to a full log costs the same as to an empty one.
type requestLog struct {
	mu       sync.Mutex
	requests []Request // the ring: grows by doubling up to maxRequests
	start    int       // the index of the oldest request
	n        int       // how many requests it holds
	bytes    int       // their sizes, summed
}

// add appends req, forgetting the oldest beyond maxRequests or maxLogBytes.
func (l *requestLog) add(req Request) {
	size := req.size()
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.n > 0 && (l.n == maxRequests || l.bytes+size > maxLogBytes) {
		l.bytes -= l.requests[l.start].size()
		l.requests[l.start] = Request{} // its memory goes now, not when the slot is reused
		l.start = (l.start + 1) % len(l.requests)
		l.n--
	}
	if l.n == len(l.requests) { // full: grow, oldest first
		grown := make([]Request, min(max(2*len(l.requests), 64), maxRequests))
		for i := range l.n {
			grown[i] = l.requests[(l.start+i)%len(l.requests)]
		}
		l.requests, l.start = grown, 0
	}
	l.requests[(l.start+l.n)%len(l.requests)] = req
	l.n++
	l.bytes += size
}

// size is about how many bytes req holds.
func (req *Request) size() int {
	n := 256 + len(req.Method) + len(req.Path) + len(req.Body)
	for k, vs := range req.Query {
		n += len(k)
		for _, v := range vs {
			n += len(v) + 16
		}
	}
	for k, vs := range req.Header {
		n += len(k)
		for _, v := range vs {
			n += len(v) + 16
		}
	}
	return n
}

// Requests answers copies of the requests received, oldest first, faulted ones included: the
// last 10,000 at most, fewer when they would hold more than 32 MiB.
func (s *Server) Requests() []Request {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	out := make([]Request, s.log.n)
	for i := range out {
		out[i] = s.log.requests[(s.log.start+i)%len(s.log.requests)].clone()
	}
	return out
}

// ResetRequests forgets the requests received so far.
func (s *Server) ResetRequests() {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	s.log.requests, s.log.start, s.log.n, s.log.bytes = nil, 0, 0, 0
}

// clone answers a deep copy of req.
func (req Request) clone() Request {
	req.Query = cloneValues(req.Query)
	req.Header = req.Header.Clone()
	req.Body = bytes.Clone(req.Body)
	return req
}

// cloneValues answers a deep copy of v.
func cloneValues(v url.Values) url.Values {
	out := make(url.Values, len(v))
	for k, vals := range v {
		out[k] = append([]string(nil), vals...)
	}
	return out
}

// record makes the log entry of r, whose query is query and body raw, decoded as b, with secrets removed; the
// body is kept (its first maxLoggedBody bytes) only when keepBody says so. secrets answers the
// keys and tokens to hide in a body that did not parse.
func record(r *http.Request, query url.Values, raw []byte, b body, now time.Time, secrets func() []string, keepBody bool) Request {
	query, _ = scrubValues(query)
	req := Request{Method: r.Method, Path: r.URL.Path, Query: query, Header: r.Header.Clone(), BodySize: int64(len(raw)), Time: now}
	if !keepBody || len(raw) == 0 {
		return req
	}
	kept := raw // unless secrets are removed
	switch {
	case b.json != nil:
		if m, changed := scrubJSON(b.json); changed {
			kept, _ = json.Marshal(m) // cannot fail: m was decoded from JSON
		}
	case b.form != nil:
		if form, changed := scrubValues(b.form); changed {
			kept = []byte(form.Encode())
		}
	default: // a body that did not parse, or of another type: scrubbed as text
		kept = scrubText(bytes.Clone(raw), secrets)
	}
	req.Body = bytes.Clone(kept[:min(len(kept), maxLoggedBody)]) // redacted first, then cut; not the read buffer
	return req
}

// keepsBody tells whether the log keeps the body of r, whose parameters are p: when r carries a
// token the fake issued that has not expired, or authenticates.
func (s *Server) keepsBody(r *http.Request, p params) bool {
	if r.Method == http.MethodPost && r.URL.Path == "/api_v2/authenticate" {
		return true
	}
	_, err := s.tokens.check(p, s.clock.now())
	return err == nil
}

// secretText finds, in a body that did not parse, the values of token, api_key, secret_key,
// password and password_confirmation as JSON members or form fields, and anything shaped like a
// key.
var secretText = regexp.MustCompile(`("(?:token|api_key|secret_key|password|password_confirmation)"\s*:\s*")(?:[^"\\]|\\.)*|` +
	`(\b(?:token|api_key|secret_key|password|password_confirmation)(?:\]|%5[Dd])?=)[^&\s]*|\b[ps]k_(?:test|live)_[A-Za-z0-9_\-]+`)

// scrubText answers raw with every secret secretText finds, and every one of secrets, replaced
// by "[REDACTED]".
func scrubText(raw []byte, secrets func() []string) []byte {
	if len(raw) == 0 {
		return raw
	}
	for _, v := range secrets() {
		if v != "" {
			raw = bytes.ReplaceAll(raw, []byte(v), []byte(redacted))
		}
	}
	return secretText.ReplaceAll(raw, []byte("${1}${2}"+redacted))
}

// secrets answers the key pairs and every token issued, longest first.
func (s *Server) secrets() []string {
	var out []string
	for _, kp := range s.keys {
		out = append(out, kp.APIKey, kp.SecretKey)
	}
	out = append(out, s.tokens.all()...)
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// scrubValues answers a copy of v without token and with api_key, secret_key and every password
// field (user[password], user[password_confirmation]) redacted, and whether anything was removed
// or redacted.
func scrubValues(v url.Values) (url.Values, bool) {
	out := cloneValues(v)
	_, changed := out["token"]
	delete(out, "token")
	for key := range out {
		if key == "api_key" || key == "secret_key" || isPassword(key[strings.LastIndex(key, "[")+1:]) {
			for i := range out[key] {
				out[key][i], changed = redacted, true
			}
		}
	}
	return out, changed
}

// isPassword tells whether a parameter named name (its last segment, "password]" in a form's
// user[password]) holds a password.
func isPassword(name string) bool {
	name = strings.TrimSuffix(name, "]")
	return name == "password" || name == "password_confirmation"
}

// scrubNested answers v with the password fields of the objects it holds, at any depth (in
// arrays too), redacted, and whether anything was.
func scrubNested(v any) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		out, changed := scrubJSON(v)
		delete(out, "token") // only the top level carries the token; a nested one is data
		if t, ok := v["token"]; ok {
			out["token"] = t
		}
		return out, changed
	case []any:
		out := make([]any, len(v))
		changed := false
		for i, item := range v {
			var c bool
			if out[i], c = scrubNested(item); c {
				changed = true
			}
		}
		return out, changed
	}
	return v, false
}

// scrubJSON answers a copy of m without token and with api_key, secret_key and every password
// field, at any depth, redacted, and whether anything was removed or redacted.
func scrubJSON(m map[string]any) (map[string]any, bool) {
	out := make(map[string]any, len(m))
	changed := false
	for k, v := range m {
		switch {
		case k == "token":
			changed = true
			continue
		case k == "api_key" || k == "secret_key" || isPassword(k[strings.LastIndex(k, "[")+1:]):
			v, changed = redacted, true
		default:
			var c bool
			if v, c = scrubNested(v); c {
				changed = true
			}
		}
		out[k] = v
	}
	return out, changed
}
