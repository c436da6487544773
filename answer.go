package workforce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/workforce-marketplace/workforce-go/internal/jsonscan"
)

// read turns what the retry loop returned for the call cs, an answer hr or
// the error err, into the caller's: a *Response and, for a 2xx, the value
// under key decoded into out; else the error it means.
func (c *Client) read(cs *callState, hr *http.Response, err error, key string, out any) (*Response, error) {
	if err != nil {
		return nil, c.transportError(cs, err)
	}
	defer func() { // what the caller keeps holds nothing of the connection
		hr.Body.Close()
		hr.Body = http.NoBody
		cs.redactor.Header(hr.Trailer) // a write's, its body read now
	}()
	resp := newResponse(hr, cs.requestID(hr.Header))
	switch {
	case hr.StatusCode >= 300 && hr.StatusCode <= 399:
		return resp, c.redirectError(cs, hr)
	case hr.StatusCode < 200 || hr.StatusCode > 299:
		return resp, c.apiError(cs, hr)
	}
	a, ok := hr.Body.(*answer) // a GET's, read within its attempt
	if !ok {
		if a, err = readAnswer(hr.Body, hr.ContentLength, cs.limits.body); err != nil {
			e := c.transportError(cs, bodyFailed(hr, err))
			if te, ok := e.(*TransportError); ok && cs.write {
				te.OutcomeUnknown = true // done, by its status, but what it made is lost
			}
			return resp, e
		}
	}
	defer a.release() // the buffer is reused once the call returns: nothing decoded may alias it
	var w warnings
	decoded := false // in one pass (decodeFast), else the usual way
	if a.tooLarge {
		err = fmt.Errorf("the answer is larger than %d bytes", cs.limits.body)
	} else {
		_, w, decoded, err = decodeFast(a.data, key, out, cs.limits, MaxWarnings)
	}
	if !decoded && err == nil {
		err = cs.limits.check(a.data, key)
	}
	if !decoded && err == nil {
		w, err = decodeEnvelope(a.data, key, out, MaxWarnings)
		decoded = true
	}
	if decoded {
		if t, ok := out.(**Token); ok { // an answer that issues a token: learnt before anything is reported
			if *t != nil && (*t).Value != "" {
				cs.learnSecret((*t).Value, resp)
			}
			for i := range w.list { // a value that fits no form may hold the token in any form ({"token": [T]})
				w.list[i].Value = ""
			}
		}
		resp.Warnings, resp.MoreWarnings = c.reportWarnings(cs, w), w.more
	}
	if err == nil && cs.id != 0 {
		err = sameRecord(a.data, key, out, cs.id)
	}
	if err != nil {
		return resp, decodeError(cs, err)
	}
	return resp, nil
}

// sameRecord refuses the answer data, decoded into out, to a call on the
// record id by its path (a get, an update, an action), when the record it
// holds is another (a proxy's or a cache's mix-up): its id is not id, it
// has no usable id (none, null, 0, or one that fits no form), as Decode
// refuses such a document, or it names an id twice, its names compared
// as encoding/json matches them ("ID" is "id"), of which encoding/json
// would take the last.
func sameRecord(data []byte, key string, out any, id int64) error {
	v := reflect.ValueOf(out).Elem()
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return nil
	}
	field := v.FieldByName("ID")
	if !field.IsValid() || field.Kind() != reflect.Int64 {
		return nil
	}
	record, _, _ := unwrap(data, key)
	if namedFold(record, "id") > 1 {
		return fmt.Errorf("%w: the answer names the record's id more than once", ErrOtherRecord)
	}
	switch got := field.Int(); {
	case got == 0:
		return fmt.Errorf("%w: asked for %d, the answer's record holds no id", ErrOtherRecord, id)
	case got != id:
		return fmt.Errorf("%w: asked for %d, answered %d", ErrOtherRecord, id, got)
	}
	return nil
}

// namedFold returns how many members of the top-level object data have a
// name that encoding/json matches to key: equal to it, once its escapes
// are undone, under Unicode case folding ("ID", "Id" and "\u0049d" are
// "id"); 0 when data is not an object.
func namedFold(data []byte, key string) int {
	n := 0
	jsonscan.Members(data, func(name, _ []byte) bool {
		s := string(name)
		if bytes.IndexByte(name, '\\') >= 0 {
			q := make([]byte, 0, len(name)+2)
			if json.Unmarshal(append(append(append(q, '"'), name...), '"'), &s) != nil {
				return true
			}
		}
		if strings.EqualFold(s, key) {
			n++
		}
		return true
	})
	return n
}

// learnSecret adds secret, which an answer to the call cs delivered (a new
// token, in the body of POST /authenticate), to the secrets of the call,
// and masks it where the server may have echoed it beside: in the
// answer's status and headers (its trailer is masked when the call
// returns), before resp is logged or handed out.
func (cs *callState) learnSecret(secret string, resp *Response) {
	cs.redactor = cs.redactor.Plus(secret)
	resp.Status = cs.redactor.String(resp.Status)
	cs.redactor.Header(resp.Header)
	resp.RequestID = cs.requestID(resp.Header)
}

// answerLimits bounds what the client reads and decodes of one answer, so
// that the memory an answer costs is a small multiple of what a real
// answer of its kind can be, whatever a server sends: an answer larger
// than body is refused (unread when its Content-Length says so, else after
// body+1 bytes), and one holding more than items objects, arrays and array
// elements, more than members object members (each an entry should it be
// decoded into a map), or a list of more than records, is refused before
// decoding. docs/limits.md argues each figure.
type answerLimits struct {
	body    int64 // bytes
	items   int   // objects, arrays and array elements, at any depth (jsonscan.Count)
	members int   // members of objects, at any depth
	records int   // the most elements of the list under the key; 0: no such list
}

// The limits of each kind of answer (see answerLimits).
const (
	// One record: a resource, a token, /info, and every other answer that
	// holds one record. A Job with its Users and transitions is 2-4 KB,
	// about 15 items and 100 members.
	maxOneBody, maxOneItems, maxOneMembers = 1 << 20, 5_000, 10_000
	// A page of a list, at most MaxPerPage records: a page of 50 Jobs is
	// 100-200 KB, with about 700 items and 5,200 members. Rankings,
	// tracking points, search results and whatever Client.Do reads, whose
	// length no page bounds, have the same limits.
	maxPageBody, maxPageItems, maxPageMembers = 4 << 20, 20_000, 50_000
	// The outcome of a timesheet import, which may reject every row of a
	// CSV of many megabytes, one item and two members each.
	maxUploadBody, maxUploadItems, maxUploadMembers = 32 << 20, 1_000_000, 2_000_000
)

// limitsFor returns the limits of the answer to r.
func (c *Client) limitsFor(r request) answerLimits {
	l := answerLimits{body: maxOneBody, items: maxOneItems, members: maxOneMembers}
	switch {
	case r.page != nil:
		l = answerLimits{body: maxPageBody, items: maxPageItems, members: maxPageMembers, records: MaxPerPage}
	case r.raw, r.key == "rankings", r.key == "tracking", r.key == "search":
		l = answerLimits{body: maxPageBody, items: maxPageItems, members: maxPageMembers}
	case r.key == "timesheet_import":
		l = answerLimits{body: maxUploadBody, items: maxUploadItems, members: maxUploadMembers}
	}
	l.body = min(l.body, c.maxBody)
	return l
}

// check refuses an answer read whole (data) that exceeds l, before it is
// decoded: data is the envelope, key its member holding a list.
func (l answerLimits) check(data []byte, key string) error {
	if int64(len(data)) > l.body {
		return fmt.Errorf("the answer is larger than %d bytes", l.body)
	}
	if l.records > 0 {
		if list, _, _ := unwrap(data, key); jsonscan.ArrayLen(list) > l.records {
			return fmt.Errorf("the list holds more than %d records, the most a page holds", l.records)
		}
	}
	switch items, members := jsonscan.Count(data, l.items, l.members); {
	case items > l.items:
		return fmt.Errorf("the answer holds more than %d objects, arrays and array elements", l.items)
	case members > l.members:
		return fmt.Errorf("the answer holds more than %d object members", l.members)
	}
	return nil
}

// An answer is a body read whole, into a buffer of readBuffers.
type answer struct {
	buf      *[]byte
	data     []byte
	tooLarge bool // larger than the limit: data holds its first bytes, or none
	rd       *bytes.Reader
}

// Read reads what was read, for a reader other than the client's.
func (a *answer) Read(p []byte) (int, error) {
	if a.rd == nil {
		a.rd = bytes.NewReader(a.data)
	}
	return a.rd.Read(p)
}

// Close does nothing: the body was closed when it was read.
func (a *answer) Close() error { return nil }

// release hands the buffer back to readBuffers; data must no longer be
// used.
func (a *answer) release() {
	if a.buf != nil {
		if cap(a.data) <= maxPooled { // else the buffer it had is kept, not the larger one it grew
			*a.buf = a.data[:0]
		}
		readBuffers.Put(a.buf)
	}
	a.buf, a.data = nil, nil
}

// readBuffers holds the buffers answers are read into. Decoding copies
// what it keeps (strings, each resource's Raw), so a buffer is reused by
// the next call instead of being grown anew for every answer.
var readBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooled is the largest buffer kept for reuse: a page is far smaller.
const maxPooled = 1 << 20

// readAnswer reads body whole, closes it, and returns it: refused unread
// when size (the Content-Length, or -1) is over limit, else read into a
// buffer that grows by doubling but never past limit+1 bytes, so that a
// body that never ends costs at most that. The buffer starts at size+1
// when size is known, and a body is then read with no regrowth.
func readAnswer(body io.ReadCloser, size, limit int64) (*answer, error) {
	defer body.Close()
	if size > limit {
		return &answer{tooLarge: true}, nil
	}
	a := &answer{buf: readBuffers.Get().(*[]byte)}
	buf := (*a.buf)[:0]
	if size >= 0 && int64(cap(buf)) < size+1 {
		buf = make([]byte, 0, size+1)
	}
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) > limit {
				break
			}
			next := max(2*cap(buf), 4<<10)
			if int64(next) >= limit {
				next = int(limit) + 1 // straight to the most it may hold, not by one more doubling
			}
			grown := make([]byte, len(buf), next)
			copy(grown, buf)
			buf = grown
		}
		n, err := body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			a.data = buf
			a.release()
			return nil, err
		}
	}
	a.data, a.tooLarge = buf, int64(len(buf)) > limit
	return a, nil
}

// A bodyError is an answer whose body could not be read, with what its
// headers said: its status (the TransportError's LastStatus) and request ID.
type bodyError struct {
	status    int
	requestID string
	err       error
}

// failedStatus returns the status of an answer whose body could not be
// read, which err describes, or 0.
func failedStatus(err error) int {
	var e *bodyError
	if errors.As(err, &e) {
		return e.status
	}
	return 0
}

// bodyFailed describes err, the failure to read the body of resp.
func bodyFailed(resp *http.Response, err error) *bodyError {
	return &bodyError{status: resp.StatusCode, requestID: rawRequestID(resp.Header), err: err}
}

func (e *bodyError) Error() string {
	if e.requestID != "" {
		return "reading the answer (request " + e.requestID + "): " + e.err.Error()
	}
	return "reading the answer: " + e.err.Error()
}

// Unwrap returns why the body could not be read.
func (e *bodyError) Unwrap() error { return e.err }
