package contract

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// Violation is one exchange that broke the document.
type Violation struct {
	Method, Path string // the request's
	Status       int    // the answer's status
	Side         string // "request" or "response"
	Err          error
	Sent         string // the start of the request's body (of a request violation), to show
}

// String describes v on one line.
func (v Violation) String() string {
	return fmt.Sprintf("%s %s -> %d: %s: %s", v.Method, v.Path, v.Status, v.Side, strings.Join(Describe(v.Err), "; "))
}

// oneLine folds the lines of a kin-openapi error message into one.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Recorder checks every exchange that its Middleware serves and keeps the violations, as
// CheckExchange finds them. It is safe for concurrent use.
//
// An answer is checked unless the connection was taken over (a fault that drops or cuts it) or an
// injected fault wrote it (it carries workforcetest.FaultHeader): a test's own answer.
type Recorder struct {
	c          *Contract
	mu         sync.Mutex
	violations []Violation
	answered   map[string]int // operationId -> 2xx answers seen
}

// NewRecorder returns a Recorder holding exchanges to c.
func (c *Contract) NewRecorder() *Recorder {
	return &Recorder{c: c, answered: map[string]int{}}
}

// Violations returns the violations seen so far, in the order they happened.
func (r *Recorder) Violations() []Violation {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Violation(nil), r.violations...)
}

// Answered returns the operationIds that answered a 2xx, sorted.
func (r *Recorder) Answered() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.answered))
	for id := range r.answered {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Middleware returns next behind a check of every exchange under Prefix.
func (r *Recorder) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if !strings.HasPrefix(req.URL.Path, Prefix+"/") || req.Method == http.MethodHead {
			next.ServeHTTP(w, req)
			return
		}
		body, err := io.ReadAll(req.Body)
		if err != nil {
			// The client went away while sending: nothing to check.
			req.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
			next.ServeHTTP(w, req)
			return
		}
		req.Body = io.NopCloser(bytes.NewReader(body))
		cw := &captureWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(cw, req)
		if cw.hijacked {
			return
		}
		r.check(req, body, cw.status, cw.Header().Clone(), cw.body.Bytes())
	})
}

// check records the violations of one exchange.
func (r *Recorder) check(req *http.Request, reqBody []byte, status int, header http.Header, body []byte) {
	if header.Get(workforcetest.FaultHeader) != "" {
		return // the test's own answer
	}
	ok := status >= 200 && status < 300
	found := r.c.CheckExchange(req, reqBody, status, header, body)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.violations = append(r.violations, found...)
	if op, _, known := r.c.Find(req.Method, req.URL.Path); known && ok {
		r.answered[op.ID]++
	}
}

// captureWriter keeps a copy of what is written, and tells whether the connection was taken over.
type captureWriter struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
	hijacked    bool
	body        bytes.Buffer
}

// WriteHeader keeps the status.
func (w *captureWriter) WriteHeader(status int) {
	if !w.wroteHeader {
		w.status, w.wroteHeader = status, true
	}
	w.ResponseWriter.WriteHeader(status)
}

// Write keeps a copy of b.
func (w *captureWriter) Write(b []byte) (int, error) {
	w.wroteHeader = true
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

// Flush flushes the underlying writer.
func (w *captureWriter) Flush() { _ = http.NewResponseController(w.ResponseWriter).Flush() }

// Hijack takes over the connection: the answer is then not checked.
func (w *captureWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	w.hijacked = true
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// Unwrap returns the underlying writer, for http.ResponseController.
func (w *captureWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// errReader fails every read with err.
type errReader struct{ err error }

// Read returns the error.
func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// decodeJSON decodes body as the validators expect it, numbers as float64.
func decodeJSON(body []byte) (any, error) {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return nil, fmt.Errorf("contract: the body is not JSON: %w", err)
	}
	return v, nil
}

// Guard returns a Recorder of the document whose violations fail tb when tb ends. Give its
// Middleware to a server started after Guard, so that the server is closed before the check.
func Guard(tb testing.TB) *Recorder {
	tb.Helper()
	c, err := Load()
	if err != nil {
		tb.Fatal(err)
		return nil
	}
	r := c.NewRecorder()
	tb.Cleanup(func() {
		for _, v := range r.Violations() {
			tb.Errorf("the exchange breaks the OpenAPI document: %s", v)
		}
	})
	return r
}

// Operations returns every operation of the recorder's document.
func (r *Recorder) Operations() []Operation { return r.c.Operations() }
