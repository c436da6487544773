package workforcetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// optInt returns nil (JSON null) for 0.
func optInt(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

// optString returns nil (JSON null) for an empty string.
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// optID returns nil (JSON null) for a zero id.
func optID(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}

// apiError is an answer other than 200. It is also the error the outside moves return.
type apiError struct {
	status int
	msg    string
	fields map[string][]string
}

// Error returns the message, which names the failing fields of a 422.
func (e *apiError) Error() string { return e.msg }

// errorf builds an apiError with the given status and message.
func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, msg: fmt.Sprintf(format, args...)}
}

// fieldErrors collects the per-field messages of a 422 answer.
type fieldErrors map[string][]string

// add records msg against field.
func (fe fieldErrors) add(field, msg string) { fe[field] = append(fe[field], msg) }

// err returns nil when nothing was recorded, else a 422 apiError carrying the fields, with a
// message such as "validation failed: worker_id does not exist".
func (fe fieldErrors) err() error {
	if len(fe) == 0 {
		return nil
	}
	names := make([]string, 0, len(fe))
	for name := range fe {
		names = append(names, name)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = name + " " + strings.Join(fe[name], ", ")
	}
	return &apiError{status: http.StatusUnprocessableEntity, msg: "validation failed: " + strings.Join(parts, "; "), fields: fe}
}

// invalid returns a 422 with one field error.
func invalid(field, msg string) error {
	fe := fieldErrors{}
	fe.add(field, msg)
	return fe.err()
}

// rawJSON is an answer already encoded as JSON, which writeJSON writes as it is. serveHTTP
// hands its buffer back to Server.buffers once written.
type rawJSON []byte

// maxPooled is the largest buffer bufferPool keeps.
const maxPooled = 1 << 20

// bufferPool recycles the buffers that list answers are assembled in, so that a page of
// cached JSON costs no allocation of its size.
type bufferPool struct{ pool sync.Pool }

// get returns an empty buffer of at least size bytes.
func (p *bufferPool) get(size int) []byte {
	if b, ok := p.pool.Get().(*[]byte); ok && cap(*b) >= size {
		return (*b)[:0]
	}
	return make([]byte, 0, size)
}

// put takes back b, which nothing may use any more.
func (p *bufferPool) put(b []byte) {
	if cap(b) <= maxPooled {
		b = b[:0]
		p.pool.Put(&b)
	}
}

// document is an answer that is not JSON: its bytes and their content type.
type document struct {
	contentType string
	data        []byte
}

// writeJSON answers status with v encoded as JSON (a rawJSON as it is, a document as itself).
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err, contentType := []byte(nil), error(nil), "application/json; charset=utf-8"
	switch v := v.(type) {
	case rawJSON:
		data = v
	case document:
		data, contentType = v.data, v.contentType
	default:
		data, err = json.Marshal(v)
	}
	if err != nil {
		status, contentType = http.StatusInternalServerError, "application/json; charset=utf-8"
		data = []byte(`{"status":500,"error":"internal error: cannot encode the response"}`)
	}
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// writeError answers err as {"status": N, "error": "..."} (with "errors" on a 422: a 422 naming
// no field names "base", as Rails does), the status first, as the live API's 404 (CONTRACT §10.1).
func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = errorf(http.StatusInternalServerError, "internal error: %v", err)
	}
	fields := ae.fields
	if ae.status == http.StatusUnprocessableEntity && len(fields) == 0 {
		fields = map[string][]string{"base": {ae.Error()}}
	}
	body := struct {
		Status int                 `json:"status"`
		Error  string              `json:"error"`
		Errors map[string][]string `json:"errors,omitempty"`
	}{Status: ae.status, Error: ae.Error(), Errors: fields}
	writeJSON(w, ae.status, body)
}

// itoa writes an id in a message.
func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// optNumber returns the decimal s, kept as written, as a JSON number, or nil (null) when it is
// "". A form JSON does not write (".5", "5.", "+5"), which write parameters may hold, is written
// in its shortest JSON form.
func optNumber(s string) *json.Number {
	if s == "" {
		return nil
	}
	n := json.Number(s)
	if !json.Valid([]byte(s)) || s[0] == '+' {
		f, _ := strconv.ParseFloat(s, 64)
		n = json.Number(strconv.FormatFloat(f, 'f', -1, 64))
	}
	return &n
}
