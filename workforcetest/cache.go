package workforcetest

import (
	"bytes"
	"encoding/json"
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

// jobEntry returns the entry of the Job with id (which exists) as a token of pool p sees it. The
// Public Pool's are rendered for it, uncached: what it sees of a Job's Worker moves with the clock.
func (v view) jobEntry(id int64, p pool) jobEntry {
	if p == poolPublic {
		j, _ := v.job(id)
		return jobEntry{miss: &jobMiss{value: renderJobFor(v, j, p)}}
	}
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

// jobTail is how json writes a jobJSON's last fields when they are empty; marshalJob writes them
// itself.
const jobTail = `"worker":null,"employer":null,"transitions":null}`

// marshalJob writes j as json.Marshal does, the same bytes, at about half its cost on a first
// sync: json writes the head of the Job, and its embedded Users, already written and compact, are
// spliced in as they are, where json would check and compact them again.
func marshalJob(j *jobJSON) []byte {
	head := *j
	head.Worker, head.Employer, head.Transitions = nil, nil, nil
	h, err := json.Marshal(&head)
	if err != nil {
		return []byte("null") // never: jobJSON holds no value json cannot write
	}
	ts, err := json.Marshal(j.Transitions)
	if err != nil || !bytes.HasSuffix(h, []byte(jobTail)) {
		h, _ = json.Marshal(j) // never: json writes the fields in their order, and transitions can be written
		return h
	}
	h = h[:len(h)-len(jobTail)]
	out := make([]byte, 0, len(h)+len(j.Worker)+len(j.Employer)+len(ts)+64)
	out = append(out, h...)
	out = appendRaw(append(out, `"worker":`...), j.Worker)
	out = appendRaw(append(out, `,"employer":`...), j.Employer)
	out = append(append(append(out, `,"transitions":`...), ts...), '}')
	return out
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
