package workforcetest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// The bounds of the request log: it keeps the last maxRequests requests, fewer when they would
// hold more than maxLogBytes (by entry.size), and of each body at most maxLoggedBody bytes. The
// server refuses a request line and header beyond maxHeaderBytes, so no entry holds more than
// about 200 KiB and the log no more than maxLogBytes, whatever clients send.
const (
	maxRequests    = 10000
	maxLogBytes    = 32 << 20
	maxLoggedBody  = 64 << 10
	maxHeaderBytes = 64 << 10
)

// Request is a request the fake received, as Server.Requests reports it: recorded as it arrives,
// before it is routed or authenticated (faulted ones too), without its token and with every
// secret in it replaced by "[REDACTED]": the values of api_key, secret_key and password fields,
// and anything shaped like a key (pk_test_…, sk_test_…) or a token of the fake (48 hex digits)
// wherever it stands, percent-encoded or JSON-escaped too, and the credentials of Authorization
// and Proxy-Authorization after their scheme. Its body is kept only when it carries a valid token
// or authenticates, and then at most 64 KiB of it.
type Request struct {
	// Method is the HTTP method.
	Method string `json:"method"`
	// Path is the URL path, e.g. "/api_v2/jobs".
	Path string `json:"path"`
	// Query is the query string, without token.
	Query url.Values `json:"query"`
	// Header is the request header.
	Header http.Header `json:"header"`
	// Body is the request body, without token (a JSON or form body without its token, or with a
	// field redacted by its name, is encoded again, JSON with sorted keys): at most 64 KiB of it,
	// and nothing of an unauthenticated request (see above).
	Body []byte `json:"body"`
	// BodySize is the size of the body received, whether or not Body holds it.
	BodySize int64 `json:"body_size"`
	// Time is when the request arrived, on the fake clock.
	Time time.Time `json:"time"`
	// Status is the status code the fake answered, a fault's included; 0 while the request is
	// being answered, or when no answer was sent (a Drop or DropAfter fault, a client that left).
	Status int `json:"status"`
}

// entry is a request as the log keeps it, secrets removed: each part in an allocation of its own,
// never a piece of the request's buffers (a Path cut from the request line would keep the whole
// line alive), and as text, not maps, so that size counts what it holds.
type entry struct {
	method, path string
	query        string // url.Values.Encode
	header       string // scrubHeader
	body         []byte
	bodySize     int64
	time         time.Time
	status       int // set once answered (requestLog.answered)
}

// entryOverhead is what an entry costs beside its parts: its slot in the ring, and room for the
// allocations' headers.
const entryOverhead = 256

// size is how many bytes e holds, its allocations rounded as the runtime rounds them.
func (e *entry) size() int {
	return entryOverhead + allocated(len(e.path)) + allocated(len(e.query)) + allocated(len(e.header)) +
		allocated(cap(e.body)) + allocated(len(e.method))
}

// allocated returns at least what an allocation of n bytes takes: its size class, at most an eighth
// more plus 16 bytes, or beyond 32 KiB whole pages of 8 KiB.
func allocated(n int) int {
	switch {
	case n == 0:
		return 0
	case n <= 32<<10:
		return n + n/8 + 16
	}
	return (n + 8<<10 - 1) &^ (8<<10 - 1)
}

// request returns e as a Request that shares nothing the caller could change with e.
func (e *entry) request() Request {
	query, _ := url.ParseQuery(e.query)
	return Request{Method: e.method, Path: e.path, Query: query, Header: parseHeader(e.header),
		Body: bytes.Clone(e.body), BodySize: e.bodySize, Time: e.time, Status: e.status}
}

// requestLog is the requests received: a ring of at most maxRequests, holding at most maxLogBytes,
// so that adding one to a full log costs the same as to an empty one.
type requestLog struct {
	mu      sync.Mutex
	entries []entry // the ring: grows by doubling up to maxRequests
	start   int     // the index of the oldest entry
	n       int     // how many entries it holds
	bytes   int     // their sizes, summed
	added   uint64  // how many entries were ever added: the next one's number
}

// add appends e, forgetting the oldest beyond maxRequests or maxLogBytes, and returns its number
// for answered.
func (l *requestLog) add(e entry) uint64 {
	size := e.size()
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.n > 0 && (l.n == maxRequests || l.bytes+size > maxLogBytes) {
		l.bytes -= l.entries[l.start].size()
		l.entries[l.start] = entry{} // its memory goes now, not when the slot is reused
		l.start = (l.start + 1) % len(l.entries)
		l.n--
	}
	if l.n == len(l.entries) { // full: grow, oldest first
		grown := make([]entry, min(max(2*len(l.entries), 64), maxRequests))
		for i := range l.n {
			grown[i] = l.entries[(l.start+i)%len(l.entries)]
		}
		l.entries, l.start = grown, 0
	}
	l.entries[(l.start+l.n)%len(l.entries)] = e
	l.n++
	l.bytes += size
	l.added++
	return l.added - 1
}

// answered sets the status of the entry numbered seq, if the log still holds it.
func (l *requestLog) answered(seq uint64, status int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if oldest := l.added - uint64(l.n); seq >= oldest && seq < l.added {
		l.entries[(l.start+int(seq-oldest))%len(l.entries)].status = status
	}
}

// A statusWriter remembers the status of the answer written through it.
// It tells answered the status before the answer goes out, so that the request log holds it by
// the time the client has the answer.
type statusWriter struct {
	http.ResponseWriter
	status   int
	answered func(status int)
}

// WriteHeader writes the status code and remembers it.
func (w *statusWriter) WriteHeader(code int) {
	w.remember(code)
	w.ResponseWriter.WriteHeader(code)
}

// Write writes b, after a status 200 when none was written.
func (w *statusWriter) Write(b []byte) (int, error) {
	w.remember(http.StatusOK)
	return w.ResponseWriter.Write(b)
}

// remember keeps the first status written.
func (w *statusWriter) remember(code int) {
	if w.status == 0 {
		w.status = code
		if w.answered != nil {
			w.answered(code)
		}
	}
}

// Unwrap returns the writer below, for http.ResponseController (Flush, Hijack).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Requests returns copies of the requests received, oldest first, faulted ones included: the
// last 10,000 at most, fewer when they would hold more than 32 MiB.
func (s *Server) Requests() []Request {
	s.log.mu.Lock()
	entries := make([]entry, s.log.n)
	for i := range entries {
		entries[i] = s.log.entries[(s.log.start+i)%len(s.log.entries)]
	}
	s.log.mu.Unlock()
	out := make([]Request, len(entries)) // an entry's parts are never changed: read them unlocked
	for i := range entries {
		out[i] = entries[i].request()
	}
	return out
}

// ResetRequests forgets the requests received so far.
func (s *Server) ResetRequests() {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	s.log.entries, s.log.start, s.log.n, s.log.bytes = nil, 0, 0, 0
}

// record makes the log entry of r, whose query is query and body raw, decoded as b, secrets
// removed; the body is kept (its first maxLoggedBody bytes) only when keepBody says so.
func record(r *http.Request, query url.Values, raw []byte, b body, now time.Time, keepBody bool) entry {
	query, _ = hideValues(query)
	e := entry{method: strings.Clone(scrub(r.Method)), path: strings.Clone(scrub(r.URL.Path)), query: strings.Clone(scrub(query.Encode())),
		header: strings.Clone(scrubHeader(r.Header)), bodySize: int64(len(raw)), time: now}
	if !keepBody || len(raw) == 0 {
		return e
	}
	kept := raw // unless a field is hidden by its name
	switch {
	case b.json != nil:
		if m, changed := hideJSON(b.json, true); changed {
			kept, _ = json.Marshal(m) // cannot fail: m was decoded from JSON
		}
	case b.form != nil:
		if form, changed := hideValues(b.form); changed {
			kept = []byte(form.Encode())
		}
	}
	// Scrubbed then cut, and only what the cut keeps, with what scrubCut needs to see beyond it.
	e.body = []byte(scrubCut(string(kept[:min(len(kept), maxLoggedBody+cutSlack)]), maxLoggedBody))
	return e
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
