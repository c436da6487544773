package workforcetest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"
)

// Fault is a scripted failure, played instead of (or before) the normal answer to the next
// Times requests that match Method and Path. Faults are played in the order they were injected.
// A fault's answer carries the header X-Fake-Fault: injected (FaultHeader), so that a check of
// the answers against the OpenAPI document can leave out the test's own. The JSON names are those
// of the control API (POST /_fake/faults), which takes Delay as delay_ms.
type Fault struct {
	// Method is the HTTP method to match; "" matches any.
	Method string `json:"method"`
	// Path is the exact path to match, e.g. "/api_v2/jobs" or "/api_v2/jobs/1001".
	Path string `json:"path"`
	// Times is how many matching requests the fault applies to. 0, the zero value, means once,
	// as 1 does, so that a Fault that leaves it out plays once; InjectFault counts a negative
	// Times as once too, and the control API refuses it.
	Times int `json:"times"`
	// Status is the status code to answer, from 100 to 599; 0 answers normally (after Delay).
	// A fault with another status answers 500, saying so.
	Status int `json:"status"`
	// RetryAfter is the Retry-After header value, verbatim; "" sends none.
	RetryAfter string `json:"retry_after"`
	// Body is the response body, verbatim; "" sends {"status": N, "error": "fault injected by workforcetest"},
	// which an SDK error reads as "503 Service Unavailable: fault injected by workforcetest".
	Body string `json:"body"`
	// Drop closes the connection without answering (after Delay); Status is then ignored.
	Drop bool `json:"drop"`
	// DropAfter lets the request be served (a create creates, a cancel cancels) and then closes
	// the connection without answering: the server acted, and the client cannot know it.
	DropAfter bool `json:"drop_after"`
	// Truncate lets the request be served and sends its answer's status and headers but only
	// the first half of its body, then closes the connection.
	Truncate bool `json:"truncate"`
	// Delay waits this long (real time) before answering; the server's read and write timeouts
	// do not apply to a delayed request. When the request's context ends during the wait (the
	// client gave up, or the server is closing), the connection is closed without an answer.
	Delay time.Duration `json:"-"`
}

// faultQueue holds the faults still to play.
type faultQueue struct {
	mu     sync.Mutex
	faults []*Fault // Times counts down to 0
}

// InjectFault schedules f for the next f.Times requests that match f.Method and f.Path. Faults
// are played before routing and authentication, and faulted requests appear in Requests.
func (s *Server) InjectFault(f Fault) {
	f.Times = max(f.Times, 1)
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.faults = append(s.faults.faults, &f)
}

// ClearFaults forgets every fault injected and not yet played out; a Delay in progress goes on.
func (s *Server) ClearFaults() {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.faults = nil
}

// take returns the first fault that matches r and uses up one of its times.
func (q *faultQueue) take(r *http.Request) (Fault, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i, f := range q.faults {
		if (f.Method == "" || f.Method == r.Method) && f.Path == r.URL.Path {
			f.Times--
			if f.Times == 0 {
				q.faults = append(q.faults[:i], q.faults[i+1:]...)
			}
			return *f, true
		}
	}
	return Fault{}, false
}

// play plays the fault due for r, if any, and tells whether it answered the request (or
// deliberately did not), so that the normal handler must not run. A fault that acts on the
// answer (DropAfter, Truncate) is answered instead, for playAfter once the handler ran.
func (q *faultQueue) play(w http.ResponseWriter, r *http.Request) (after *Fault, done bool) {
	f, ok := q.take(r)
	if !ok {
		return nil, false
	}
	if f.DropAfter || f.Truncate {
		return &f, false
	}
	if f.Delay > 0 {
		// Lift the server's timeouts: a read deadline passing would end the request's context.
		rc := http.NewResponseController(w)
		_, _ = rc.SetReadDeadline(time.Time{}), rc.SetWriteDeadline(time.Time{})
		timer := time.NewTimer(f.Delay)
		defer timer.Stop()
		select {
		case <-r.Context().Done(): // the client left, or the server is closing: no answer at all
			drop(w)
			return nil, true
		case <-timer.C:
		}
	}
	switch {
	case f.Drop:
		drop(w)
	case f.Status != 0:
		writeFault(w, f)
	default:
		return nil, false
	}
	return nil, true
}

// playAfter answers with f once the handler ran and answered status and body: no answer at
// all (DropAfter), or the status and half the body under the whole body's Content-Length
// (Truncate).
func playAfter(w http.ResponseWriter, f *Fault, status int, body []byte) {
	if f.DropAfter {
		drop(w)
		return
	}
	w.Header().Set(FaultHeader, "injected")
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body[:len(body)/2])
	_ = http.NewResponseController(w).Flush()
	drop(w)
}

// drop closes the connection under w without answering.
func drop(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil { // not HTTP/1: the closest thing is an answer the client cannot mistake
		w.Header().Set(FaultHeader, "injected")
		writeError(w, errorf(http.StatusBadGateway, "connection dropped"))
		return
	}
	_ = conn.Close()
}

// faultMessage is the error of a fault's answer without a Body.
const faultMessage = "fault injected by workforcetest"

// writeFault answers f.Status with f's headers and body, marked with FaultHeader.
func writeFault(w http.ResponseWriter, f Fault) {
	w.Header().Set(FaultHeader, "injected")
	if f.Status < 100 || f.Status > 599 {
		writeError(w, errorf(http.StatusInternalServerError, "the injected fault's status %d is not an HTTP status", f.Status))
		return
	}
	if f.RetryAfter != "" {
		w.Header().Set("Retry-After", f.RetryAfter)
	}
	if f.Body == "" {
		writeError(w, errorf(f.Status, "%s", faultMessage))
		return
	}
	contentType := "text/plain; charset=utf-8"
	if json.Valid([]byte(f.Body)) {
		contentType = "application/json; charset=utf-8"
	}
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(f.Status)
	_, _ = w.Write([]byte(f.Body))
}

// answerOf renders the answer a handler gave, as writeJSON or writeError writes it.
func answerOf(v any, err error) (int, []byte) {
	rec := httptest.NewRecorder()
	if err != nil {
		writeError(rec, err)
	} else {
		writeJSON(rec, http.StatusOK, v)
	}
	return rec.Code, rec.Body.Bytes()
}
