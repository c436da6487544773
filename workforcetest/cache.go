package workforcetest

import (
	"encoding/json"
	"math"
	"strconv"
	"sync/atomic"
	"time"
)

// The render cache keeps each Job's JSON as GET /jobs and GET /jobs/:id last wrote it for the
// Private Pool, so that a page of 50 Jobs costs no rendering while nothing it shows changes.
// A rendering notes every record read to write it (through a view with deps), at its version;
// it is valid while each of them keeps that version, which a commit moves exactly when the
// record's content changed, and while the clock leaves its time_to_start as it was. So no
// handler can make it stale: a read cannot change a record, and a write moves the versions of
// what it changed, and of nothing else.

// dep is a record a rendering shows, at the version it had.
type dep struct {
	rec *stored
	ver uint64
}

// rendering is a record's JSON as written, with what it depends on.
type rendering struct {
	deps []dep
	// timeToStart, when set, is the whole minutes from the clock's now to start that the JSON
	// shows (a Job's time_to_start).
	timeToStart *int64
	start       time.Time
	json        []byte
}

// renderCache holds the last rendering of one record. Only the store reaches it: a copy of the
// record does not.
type renderCache struct{ last atomic.Pointer[rendering] }

// current returns the cached JSON when it is still what the records make, else nil. The caller
// holds the store's lock.
func (c *renderCache) current(now time.Time) []byte {
	if r := c.last.Load(); r != nil && r.valid(now) {
		return r.json
	}
	return nil
}

// valid tells whether r is still what the records make at now. The caller holds the store's lock.
func (r *rendering) valid(now time.Time) bool {
	for _, d := range r.deps {
		if d.rec.ver != d.ver {
			return false
		}
	}
	return r.timeToStart == nil || minutesUntil(r.start, now) == *r.timeToStart
}

// minutesUntil returns the whole minutes from now to t, as time_to_start counts them.
func minutesUntil(t, now time.Time) int64 { return int64(t.Sub(now) / time.Minute) }

// jobEntry is a Job of an answer: its cached JSON, or its value to write.
type jobEntry struct {
	cached []byte
	miss   *jobMiss
}

// jobMiss is a Job rendered because its JSON was not cached: its value, and the rendering to cache
// once it is written (when cache is set).
type jobMiss struct {
	value jobJSON
	cache *renderCache
	r     rendering
}

// jobEntry returns the entry of the Job with id (which exists): every token sees a Job alike.
func (v view) jobEntry(id int64) jobEntry {
	c := v.st.renders[id-firstJobID]
	if json := c.current(v.now()); json != nil {
		return jobEntry{cached: json}
	}
	var deps []dep
	tracked := v
	tracked.deps = &deps
	j, _ := tracked.job(id)
	m := &jobMiss{value: renderJob(tracked, j), cache: c}
	m.r = rendering{deps: deps, timeToStart: m.value.TimeToStart, start: m.value.start}
	return jobEntry{miss: m}
}

// body returns the entry's JSON, writing and caching it when it was rendered; it runs outside the
// store's lock.
func (e jobEntry) body() []byte {
	if e.miss == nil {
		return e.cached
	}
	data := marshalJob(&e.miss.value)
	if e.miss.cache != nil {
		r := e.miss.r
		r.json = data
		e.miss.cache.last.Store(&r)
	}
	return data
}

// marshalJob writes j as json.Marshal does, the same bytes, at a fraction of its cost on a first
// sync, which writes every Job: the fields are appended in their order without reflection, and the
// embedded Users, already written and compact, as they are, where json would check and compact
// them again. A value json would escape or format in a way of its own is written by json.
func marshalJob(j *jobJSON) []byte {
	b := make([]byte, 0, 640+len(j.Worker)+len(j.Employer)+160*len(j.Transitions))
	b = appendInt(append(b, `{"id":`...), j.ID)
	b = appendString(append(b, `,"state":`...), j.State)
	b = appendInt(append(b, `,"job_request_id":`...), j.JobRequestID)
	b = appendInt(append(b, `,"worker_id":`...), j.WorkerID)
	b = appendString(append(b, `,"created_at":`...), j.CreatedAt)
	b = appendString(append(b, `,"updated_at":`...), j.UpdatedAt)
	b = appendOptString(append(b, `,"confirmed_at":`...), j.ConfirmedAt)
	b = appendOptString(append(b, `,"started_at":`...), j.StartedAt)
	b = appendOptString(append(b, `,"completed_at":`...), j.CompletedAt)
	b = appendFloat(append(b, `,"hours_worked":`...), j.HoursWorked)
	b = append(b, `,"actual_duration":`...)
	if j.ActualDuration == nil {
		b = append(b, "null"...)
	} else {
		b = appendInt(b, int64(*j.ActualDuration))
	}
	b = appendOptString(append(b, `,"finished_at":`...), j.FinishedAt)
	b = append(b, `,"time_to_start":`...)
	if j.TimeToStart == nil {
		b = append(b, "null"...)
	} else {
		b = appendInt(b, *j.TimeToStart)
	}
	b = append(b, `,"adjusted_wage":`...)
	if j.AdjustedWage == nil {
		b = append(b, "null"...)
	} else {
		b = appendNumber(b, *j.AdjustedWage)
	}
	b = appendOptString(append(b, `,"requestor_notes":`...), j.RequestorNotes)
	b = appendString(append(b, `,"classification":`...), j.Classification)
	b = append(b, `,"w2_hourly_rate":`...)
	if s, ok := j.W2HourlyRate.(string); ok {
		b = appendString(b, s)
	} else {
		b = appendJSON(b, j.W2HourlyRate)
	}
	b = appendOptString(append(b, `,"w2_payment_ref":`...), j.W2PaymentRef)
	b = appendOptString(append(b, `,"w2_pay_status":`...), j.W2PayStatus)
	b = appendOptString(append(b, `,"cancelled_reason":`...), j.CancelledReason)
	b = appendRaw(append(b, `,"worker":`...), j.Worker)
	b = appendRaw(append(b, `,"employer":`...), j.Employer)
	b = append(b, `,"transitions":`...)
	if j.Transitions == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, t := range j.Transitions {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendInt(append(b, `{"id":`...), t.ID)
			b = appendInt(append(b, `,"job_id":`...), t.JobID)
			b = appendString(append(b, `,"created_at":`...), t.CreatedAt)
			b = appendString(append(b, `,"name":`...), t.Name)
			b = appendOptString(append(b, `,"latitude":`...), t.Latitude)
			b = appendOptString(append(b, `,"longitude":`...), t.Longitude)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }

// appendString appends s quoted; one that json would escape (a control character, a quote, a
// backslash, <, >, &, or any byte outside ASCII) is written by json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return appendJSON(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendFloat appends f as json writes it: in decimals between 1e-6 and 1e21.
func appendFloat(b []byte, f float64) []byte {
	if a := math.Abs(f); a == 0 || a >= 1e-6 && a < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	return appendJSON(b, f)
}

// appendNumber appends n as json writes it; the plain decimals of a wage are appended as they are.
func appendNumber(b []byte, n json.Number) []byte {
	s := string(n)
	plain := s != "" && s[0] >= '1' && s[0] <= '9' && s[len(s)-1] != '.'
	for i, dot := 0, false; plain && i < len(s); i++ {
		switch c := s[i]; {
		case c == '.' && !dot:
			dot = true
		case c < '0' || c > '9':
			plain = false
		}
	}
	if !plain {
		return appendJSON(b, n)
	}
	return append(b, s...)
}

func appendOptString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendString(b, *s)
}

// appendJSON appends v as json writes it: a number, a string that needs escaping, a rate.
func appendJSON(b []byte, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		return append(b, "null"...) // never: a Job holds no value json cannot write
	}
	return append(b, data...)
}

// appendRaw appends u to b, or null when u is nil, as json writes a nil json.RawMessage.
func appendRaw(b []byte, u embeddedUserBytes) []byte {
	if u == nil {
		return append(b, "null"...)
	}
	return append(b, u...)
}

// embeddedUser returns the JSON of the User with id as a Job embeds it, or nil (JSON null) when
// there is none. Through a view that notes what a rendering shows (jobEntry's, which only reads),
// it takes the JSON from the User's render cache when current, and caches it when written, and
// notes what it shows; any other view, a transaction's among them, writes it afresh.
func embeddedUser(v view, id int64) embeddedUserBytes {
	if v.deps == nil {
		u, ok := v.user(id)
		if !ok {
			return nil
		}
		return marshalEmbeddedUser(renderEmbeddedUser(v, u))
	}
	c, _ := v.st.userRenders.Load(id)
	if c == nil {
		c, _ = v.st.userRenders.LoadOrStore(id, new(renderCache))
	}
	cache := c.(*renderCache)
	if r := cache.last.Load(); r != nil && r.valid(v.now()) {
		*v.deps = append(*v.deps, r.deps...)
		return r.json
	}
	var deps []dep
	tracked := v
	tracked.deps = &deps
	u, ok := tracked.user(id)
	if !ok {
		return nil
	}
	data := marshalEmbeddedUser(renderEmbeddedUser(tracked, u))
	cache.last.Store(&rendering{deps: deps, json: data})
	*v.deps = append(*v.deps, deps...)
	return data
}

// embeddedUserBytes is a User as a Job embeds it (embeddedUserJSON), written; nil writes null.
type embeddedUserBytes = json.RawMessage

// marshalEmbeddedUser writes u, which json can always write.
func marshalEmbeddedUser(u *embeddedUserJSON) embeddedUserBytes {
	data, err := json.Marshal(u)
	if err != nil {
		return nil // never: embeddedUserJSON holds no value json cannot write
	}
	return data
}
