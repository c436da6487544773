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
	"time"
)

// The two offsets of US Pacific time, the zone the API writes its local timestamps in.
var (
	pacificStandard = time.FixedZone("PST", -8*60*60)
	pacificDaylight = time.FixedZone("PDT", -7*60*60)
)

// pacific answers the offset of US Pacific time in force at t: daylight time (-07:00) from the
// second Sunday of March at 02:00 standard time to the first Sunday of November at 02:00
// daylight time, standard time (-08:00) otherwise. That is the rule since 2007 (America/
// Los_Angeles in the time zone database), applied to every year: computed here rather than
// read from the system's zoneinfo, which a machine may lack, or from time/tzdata, which would
// add 450 KB to every program that imports the fake.
func pacific(t time.Time) *time.Location {
	year := t.UTC().Year()                                                                         // the switches are far from New Year, where UTC and Pacific years differ
	start := time.Date(year, time.March, nthSunday(year, time.March, 2), 10, 0, 0, 0, time.UTC)    // 02:00 PST
	end := time.Date(year, time.November, nthSunday(year, time.November, 1), 9, 0, 0, 0, time.UTC) // 02:00 PDT
	if !t.Before(start) && t.Before(end) {
		return pacificDaylight
	}
	return pacificStandard
}

// nthSunday answers the day of the month of the n-th Sunday of month in year.
func nthSunday(year int, month time.Month, n int) int {
	first := time.Date(year, month, 1, 0, 0, 0, 0, time.UTC).Weekday()
	return 1 + (7-int(first))%7 + 7*(n-1)
}

// pacificWallClock answers the instant at which clocks in US Pacific time show the wall-clock
// reading w (given in UTC as a reading, not an instant). A reading that the spring change skips
// or the autumn change repeats is taken in standard time.
func pacificWallClock(w time.Time) time.Time {
	t := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), pacificStandard)
	if pacific(t) == pacificDaylight {
		if d := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), pacificDaylight); pacific(d) == pacificDaylight {
			return d
		}
	}
	return t
}

// Layouts of the timestamp styles the fake writes, as the API does (CONTRACT §10). Each field
// always uses the same one.
const (
	// layoutLocal is a record's own times (created_at, updated_at, confirmed_at, started_at,
	// completed_at, finished_at, ...): US Pacific time with milliseconds and its offset.
	layoutLocal = "2006-01-02T15:04:05.000Z07:00"
	// layoutUTC is a transition's created_at, a check-in's time and a token's expires_at: UTC,
	// seconds and Z.
	layoutUTC = time.RFC3339
	// layoutDate is a date of birth.
	layoutDate = time.DateOnly
)

// localTime formats t as a record's own times are written.
func localTime(t time.Time) string { return t.In(pacific(t)).Format(layoutLocal) }

// optLocal formats t as localTime does, or answers nil (JSON null) for the zero time.
func optLocal(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := localTime(t)
	return &s
}

// utcTime formats t as a transition's created_at and a token's expires_at are written.
func utcTime(t time.Time) string { return t.UTC().Format(layoutUTC) }

// optString answers nil (JSON null) for an empty string.
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// optID answers nil (JSON null) for a zero id.
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

// Error answers the message, which names the failing fields of a 422.
func (e *apiError) Error() string { return e.msg }

// errorf builds an apiError with the given status and message.
func errorf(status int, format string, args ...any) *apiError {
	return &apiError{status: status, msg: fmt.Sprintf(format, args...)}
}

// fieldErrors collects the per-field messages of a 422 answer.
type fieldErrors map[string][]string

// add records msg against field.
func (fe fieldErrors) add(field, msg string) { fe[field] = append(fe[field], msg) }

// err answers nil when nothing was recorded, else a 422 apiError carrying the fields, with a
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

// invalid answers a 422 with one field error.
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

// get answers an empty buffer of at least size bytes.
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

// writeJSON answers status with v encoded as JSON (a rawJSON as it is).
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := []byte(nil), error(nil)
	if raw, ok := v.(rawJSON); ok {
		data = raw
	} else {
		data, err = json.Marshal(v)
	}
	if err != nil {
		status = http.StatusInternalServerError
		data = []byte(`{"error":"internal error: cannot encode the response"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// writeError answers err as {"error": "..."} (with "errors" on a 422).
func writeError(w http.ResponseWriter, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		ae = errorf(http.StatusInternalServerError, "internal error: %v", err)
	}
	body := struct {
		Error  string              `json:"error"`
		Errors map[string][]string `json:"errors,omitempty"`
	}{Error: ae.Error(), Errors: ae.fields}
	writeJSON(w, ae.status, body)
}

// itoa writes an id in a message.
func itoa(id int64) string { return strconv.FormatInt(id, 10) }
