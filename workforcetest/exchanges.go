package workforcetest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
)

// ExchangeLogEnv names the environment variable that NewServer reads: when it names a directory,
// every fake a test starts with NewServer logs its exchanges there, as WithExchangeLog does. The
// project's CI sets it for its whole test run, then holds every exchange logged to the OpenAPI
// document (package openapi); a user's CI can do the same with any OpenAPI validator.
const ExchangeLogEnv = "WORKFORCE_CONTRACT_LOG"

// FaultHeader is the header that marks an answer written by an injected fault (InjectFault, POST
// /_fake/faults), with the value "injected": the test's own answer, which the OpenAPI document
// need not describe (a 418, a body that is not JSON).
const FaultHeader = "X-Fake-Fault"

// maxExchangeBody is the most of a body an exchange log keeps; a body beyond it is cut, and the
// exchange marked Truncated.
const maxExchangeBody = 4 << 20

// Exchange is one API request (under /api_v2/) and the fake's answer to it, or one webhook
// delivery the fake made and the receiver's answer (Webhook), as WithExchangeLog writes it: one
// JSON object a line. Secrets are replaced by "[REDACTED]" wherever they stand (the
// token's value in the query and the body, keys, passwords; see Request), so that a token is still
// there, and a key still a string. Bodies are JSON strings of base64, exactly as sent.
type Exchange struct {
	// Method is the HTTP method.
	Method string `json:"method"`
	// Path is the URL path, e.g. "/api_v2/jobs/7".
	Path string `json:"path"`
	// Query is the raw query string, without "?".
	Query string `json:"query"`
	// RequestHeader is the request's header.
	RequestHeader http.Header `json:"request_header"`
	// RequestBody is the request's body.
	RequestBody []byte `json:"request_body"`
	// Status is the status code answered.
	Status int `json:"status"`
	// ResponseHeader is the answer's header; an injected fault's answer carries FaultHeader.
	ResponseHeader http.Header `json:"response_header"`
	// ResponseBody is the answer's body.
	ResponseBody []byte `json:"response_body"`
	// Truncated tells that a body was longer than 4 MiB and only its start is kept.
	Truncated bool `json:"truncated,omitempty"`
	// Webhook tells that the fake sent the request, a webhook delivery (its body the change,
	// signed in X-Service-Webhook-Token), and a receiver answered it: ResponseBody is empty.
	Webhook bool `json:"webhook,omitempty"`
}

// Fault tells whether an injected fault wrote the answer.
func (e Exchange) Fault() bool { return e.ResponseHeader.Get(FaultHeader) != "" }

// WithExchangeLog makes the fake append every API exchange it answers (not the control API's,
// nor a request whose connection a fault dropped), and every webhook delivery a receiver
// answered, to a file of its own that it creates in dir, named exchanges-*.jsonl, one Exchange a
// line. "" logs nothing. Start fails when the file cannot be created; NewServer also fails the
// test when a line could not be written.
func WithExchangeLog(dir string) Option { return func(c *config) { c.exchangeLog = dir } }

// exchangeLog writes the exchanges of one fake to its file.
type exchangeLog struct {
	mu   sync.Mutex
	file *os.File
	err  error // the first write error
}

// newExchangeLog creates the log's file in dir.
func newExchangeLog(dir string) (*exchangeLog, error) {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("workforcetest: the exchange log's directory %q is not a directory", dir)
	}
	f, err := os.CreateTemp(dir, fmt.Sprintf("exchanges-%d-*.jsonl", os.Getpid()))
	if err != nil {
		return nil, fmt.Errorf("workforcetest: the exchange log: %w", err)
	}
	return &exchangeLog{file: f}, nil
}

// write appends e as a line.
func (l *exchangeLog) write(e Exchange) {
	line, err := json.Marshal(e)
	if err == nil {
		line = append(line, '\n')
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err == nil && l.file != nil {
		_, err = l.file.Write(line)
	}
	if err != nil && l.err == nil {
		l.err = err
	}
}

// close closes the file and returns the first error of the log.
func (l *exchangeLog) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file != nil {
		if err := l.file.Close(); err != nil && l.err == nil {
			l.err = err
		}
		l.file = nil
	}
	if l.err != nil {
		return fmt.Errorf("workforcetest: the exchange log: %w", l.err)
	}
	return nil
}

// middleware returns next behind the log of every exchange under /api_v2/.
func (l *exchangeLog) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api_v2/") {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxExchangeBody+1))
		rest := r.Body
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), rest), rest}
		if err != nil { // the client went away while sending: nothing to log
			next.ServeHTTP(w, r)
			return
		}
		header, kept := maskBoundary(r.Header, body[:min(len(body), maxExchangeBody)])
		e := Exchange{Method: r.Method, Path: r.URL.Path, Query: scrub(r.URL.RawQuery),
			RequestHeader: parseHeader(scrubHeader(header)), RequestBody: []byte(scrub(string(kept))),
			Truncated: len(body) > maxExchangeBody}
		cw := &copyWriter{ResponseWriter: w}
		next.ServeHTTP(cw, r)
		if cw.hijacked {
			return
		}
		e.Status, e.ResponseHeader = cw.status, cw.header
		if e.Status == 0 { // nothing written: an empty 200
			e.Status, e.ResponseHeader = http.StatusOK, w.Header().Clone()
		}
		e.ResponseBody = []byte(scrub(cw.body.String()))
		e.Truncated = e.Truncated || cw.cut
		l.write(e)
	})
}

// maskBoundary returns the header and the body of a multipart request whose boundary scrub would
// hide (a run of hex digits as long as a token: Go's multipart.Writer writes 60) with the boundary
// replaced by as many 'z's, so that the logged request still parses; others as they are.
func maskBoundary(h http.Header, body []byte) (http.Header, []byte) {
	contentType := h.Get("Content-Type")
	mediaType, params, err := mime.ParseMediaType(contentType)
	boundary := params["boundary"]
	if err != nil || !strings.HasPrefix(mediaType, "multipart/") || len(hexRuns(boundary, minTokenRun)) == 0 {
		return h, body
	}
	mask := strings.Repeat("z", len(boundary))
	h = h.Clone()
	h.Set("Content-Type", strings.ReplaceAll(contentType, boundary, mask))
	return h, bytes.ReplaceAll(body, []byte(boundary), []byte(mask))
}

// copyWriter keeps a copy of the answer written through it (at most maxExchangeBody bytes of its
// body), and tells whether the connection was taken over.
type copyWriter struct {
	http.ResponseWriter
	status   int
	header   http.Header // as it was when the status was written
	body     bytes.Buffer
	cut      bool
	hijacked bool
}

// WriteHeader writes the status code and keeps it, with the header.
func (w *copyWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status, w.header = code, w.Header().Clone()
	}
	w.ResponseWriter.WriteHeader(code)
}

// Write writes b, after a status 200 when none was written, and keeps a copy.
func (w *copyWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status, w.header = http.StatusOK, w.Header().Clone()
	}
	keep := min(len(b), maxExchangeBody-w.body.Len())
	w.body.Write(b[:keep])
	w.cut = w.cut || keep < len(b)
	return w.ResponseWriter.Write(b)
}

// Hijack takes over the connection: the exchange is then not logged.
func (w *copyWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	w.hijacked = true
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// Flush flushes the writer below.
func (w *copyWriter) Flush() { _ = http.NewResponseController(w.ResponseWriter).Flush() }

// Unwrap returns the writer below, for http.ResponseController.
func (w *copyWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
