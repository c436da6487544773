package workforcetest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// job is a Worker's assignment to a Job Request. Zero times and empty strings are null.
type job struct {
	id              int64
	jobRequestID    int64
	workerID        int64
	state           string
	createdAt       time.Time
	updatedAt       time.Time
	confirmedAt     time.Time
	startedAt       time.Time
	completedAt     time.Time
	finishedAt      time.Time
	workingSince    time.Time     // when the current in_progress stretch began
	worked          time.Duration // in_progress time before workingSince
	hoursWorked     *float64      // set on completion
	actualDuration  *int          // minutes, set by PATCH
	requestorNotes  string
	classification  string
	adjustedWage    string
	w2HourlyRate    string
	w2PaymentRef    string
	w2PayStatus     string
	cancelledReason string
	transitions     []transition                // oldest first
	rendered        atomic.Pointer[renderedJob] // the JSON last written, read and written outside st.mu too
}

// transition records one state change of a Job.
type transition struct {
	id                  int64
	name                string
	createdAt           time.Time
	latitude, longitude string // set when the Worker moved on site
}

// job answers the Job with id, or a 404 error.
func (st *store) job(id int64) (*job, error) {
	j, ok := st.jobs.rows[id]
	if !ok {
		return nil, errorf(http.StatusNotFound, "job %d not found", id)
	}
	return j, nil
}

// visible tells whether a token of pool p may see j: the Public Pool sees only the Jobs of Job
// Requests it created.
func (st *store) visible(j *job, p pool) bool {
	if p != poolPublic {
		return true
	}
	jr, ok := st.jobRequests.rows[j.jobRequestID]
	return ok && jr.createdBy == poolPublic
}

// visibleJob answers the Job with id if a token of pool p may see it, else a 404.
func (st *store) visibleJob(id int64, p pool) (*job, error) {
	j, err := st.job(id)
	if err != nil || !st.visible(j, p) {
		return nil, errorf(http.StatusNotFound, "job %d not found", id)
	}
	return j, nil
}

// jobJSON is a Job as the API writes it (CONTRACT §6 Jobs, in the keys and forms of §10), with
// the seed's worker_id and cancelled_reason besides.
type jobJSON struct {
	ID              int64             `json:"id"`
	State           string            `json:"state"`
	JobRequestID    int64             `json:"job_request_id"`
	WorkerID        int64             `json:"worker_id"`
	CreatedAt       string            `json:"created_at"`
	UpdatedAt       string            `json:"updated_at"`
	ConfirmedAt     *string           `json:"confirmed_at"`
	StartedAt       *string           `json:"started_at"`
	CompletedAt     *string           `json:"completed_at"`
	HoursWorked     float64           `json:"hours_worked"`
	ActualDuration  *int              `json:"actual_duration"`
	FinishedAt      *string           `json:"finished_at"`
	TimeToStart     *int64            `json:"time_to_start"`
	AdjustedWage    *json.Number      `json:"adjusted_wage"`
	RequestorNotes  *string           `json:"requestor_notes"`
	Classification  string            `json:"classification"`
	W2HourlyRate    any               `json:"w2_hourly_rate"` // "" on a 1099 Job, a number on a W2 Job
	W2PaymentRef    *string           `json:"w2_payment_ref"`
	W2PayStatus     *string           `json:"w2_pay_status"`
	CancelledReason *string           `json:"cancelled_reason"`
	Worker          *embeddedUserJSON `json:"worker"`
	Employer        *embeddedUserJSON `json:"employer"`
	Transitions     []transitionJSON  `json:"transitions"`
}

// transitionJSON is one state change of a Job as the API writes it.
type transitionJSON struct {
	ID        int64   `json:"id"`
	JobID     int64   `json:"job_id"`
	CreatedAt string  `json:"created_at"`
	Name      string  `json:"name"`
	Latitude  *string `json:"latitude"`
	Longitude *string `json:"longitude"`
}

// renderJob writes j with its Worker, its Job Request's employer and its transitions (newest
// first). The caller holds st.mu.
func (st *store) renderJob(j *job) jobJSON {
	out := jobJSON{
		ID: j.id, State: j.state, JobRequestID: j.jobRequestID, WorkerID: j.workerID,
		CreatedAt: localTime(j.createdAt), UpdatedAt: localTime(j.updatedAt),
		ConfirmedAt: optLocal(j.confirmedAt), StartedAt: optLocal(j.startedAt),
		CompletedAt: optLocal(j.completedAt), FinishedAt: optLocal(j.finishedAt),
		ActualDuration: j.actualDuration,
		AdjustedWage:   optNumber(j.adjustedWage), RequestorNotes: optString(j.requestorNotes),
		Classification: j.classification, W2HourlyRate: "",
		W2PaymentRef: optString(j.w2PaymentRef), W2PayStatus: optString(j.w2PayStatus),
		CancelledReason: optString(j.cancelledReason),
		Worker:          st.renderEmbeddedUser(st.users.rows[j.workerID]),
		Transitions:     make([]transitionJSON, 0, len(j.transitions)),
	}
	if j.hoursWorked != nil {
		out.HoursWorked = *j.hoursWorked
	}
	if rate := optNumber(j.w2HourlyRate); j.classification == classW2 && rate != nil {
		out.W2HourlyRate = *rate
	}
	if jr, ok := st.jobRequests.rows[j.jobRequestID]; ok {
		out.Employer = st.renderEmbeddedUser(st.users.rows[jr.employerID])
	}
	out.TimeToStart = st.timeToStart(j)
	for i := len(j.transitions) - 1; i >= 0; i-- {
		t := j.transitions[i]
		out.Transitions = append(out.Transitions, transitionJSON{
			ID: t.id, JobID: j.id, Name: t.name, CreatedAt: utcTime(t.createdAt),
			Latitude: optString(t.latitude), Longitude: optString(t.longitude),
		})
	}
	return out
}

// renderJobFor writes j as a token of pool p sees it: its Worker and Employer are embedded only
// when GET /users would show them to that token, and are null otherwise (the Public Pool sees
// an Employer never, a Worker while it has an active Job on a Job Request of the pool's). The
// caller holds st.mu.
func (st *store) renderJobFor(j *job, p pool) jobJSON {
	v := st.renderJob(j)
	if p != poolPublic {
		return v
	}
	if u := st.users.rows[j.workerID]; u == nil || !st.userVisible(u, p) {
		v.Worker = nil
	}
	v.Employer = nil // an Employer is never visible to the Public Pool (userVisible)
	return v
}

// timeToStart answers j's time_to_start: the minutes from now to its Job Request's start while
// it is pending or filled, else nil (null). The caller holds st.mu.
func (st *store) timeToStart(j *job) *int64 {
	if j.state != statePending && j.state != stateFilled {
		return nil
	}
	jr, ok := st.jobRequests.rows[j.jobRequestID]
	if !ok {
		return nil
	}
	minutes := int64(jr.startTime.Sub(st.now()) / time.Minute)
	return &minutes
}

// jobFilter is the filters of GET /jobs.
type jobFilter struct {
	states         []string
	jobRequestID   int64
	classification string
	w2HourlyRate   *float64
	w2PayStatus    string
	updated        timeRange
}

// readJobFilter reads the filters of GET /jobs. Unknown enum values match nothing; a malformed
// number or date-time is a 422.
func readJobFilter(p params, fe fieldErrors) jobFilter {
	f := jobFilter{states: commaList(p, "state"), updated: readUpdatedRange(p, fe),
		jobRequestID: optionalID(p, fe, "job_request_id"), w2HourlyRate: readRateFilter(p, fe)}
	f.classification, _ = p.str("classification")
	f.w2PayStatus, _ = p.str("w2_pay_status")
	return f
}

// match tells whether j passes every filter that is set.
func (f jobFilter) match(j *job) bool {
	switch {
	case f.states != nil && !slices.Contains(f.states, j.state),
		f.jobRequestID != 0 && j.jobRequestID != f.jobRequestID,
		f.classification != "" && j.classification != f.classification,
		f.w2PayStatus != "" && j.w2PayStatus != f.w2PayStatus,
		!f.updated.contains(j.updatedAt),
		!rateMatches(f.w2HourlyRate, j.w2HourlyRate):
		return false
	}
	return true
}

// all tells whether f has no filter set.
func (f jobFilter) all() bool {
	return f.states == nil && f.jobRequestID == 0 && f.classification == "" && f.w2PayStatus == "" &&
		f.updated == (timeRange{}) && f.w2HourlyRate == nil
}

// listJobs serves GET /api_v2/jobs: the visible Jobs that pass the filters, newest first, one page.
// Inside the lock it walks only as far as the page (the Jobs of one Job Request when
// job_request_id is given) and takes each Job's cached JSON, or renders the Jobs whose cache is
// stale; the JSON is written and the page assembled outside the lock.
func (s *Server) listJobs(c *call) (any, error) {
	fe := fieldErrors{}
	pg := readPage(c.p, fe)
	f := readJobFilter(c.p, fe)
	if err := fe.err(); err != nil {
		return nil, err
	}
	var out []jobEntry
	st := s.st
	err := st.read(func() error {
		items := st.jobs.order
		if f.jobRequestID != 0 {
			items = st.jobsOf[f.jobRequestID]
			f.jobRequestID = 0
		}
		var keep func(*job) bool
		if c.pool == poolPublic || !f.all() {
			keep = func(j *job) bool { return st.visible(j, c.pool) && f.match(j) }
		}
		entry := st.jobEntry
		if c.pool == poolPublic { // rendered for the pool, not cached: what it sees moves with the clock
			entry = func(j *job) jobEntry {
				v := st.renderJobFor(j, c.pool)
				return jobEntry{value: &v}
			}
		}
		out = listPage(items, pg, keep, entry)
		return nil
	})
	if err != nil {
		return nil, err
	}
	bodies := make([][]byte, len(out))
	size := len(`{"jobs":[]}`) + len(out)
	for i, e := range out {
		bodies[i] = e.body()
		size += len(bodies[i])
	}
	buf := s.buffers.get(size)
	buf = append(buf, `{"jobs":[`...)
	for i, b := range bodies {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, b...)
	}
	return rawJSON(append(buf, "]}"...)), nil
}

// renderedJob is a Job's JSON as written at one generation of the store, with the time_to_start
// it held (which moves with the clock, not with the generation).
type renderedJob struct {
	gen         uint64
	timeToStart *int64
	json        []byte
}

// valid tells whether r is the JSON of its Job at generation gen with time_to_start tts.
func (r *renderedJob) valid(gen uint64, tts *int64) bool {
	return r != nil && r.gen == gen && (r.timeToStart == nil) == (tts == nil) &&
		(tts == nil || *tts == *r.timeToStart)
}

// jobEntry is a Job of a page: its cached JSON, or its rendering to write (and cache, with job
// set).
type jobEntry struct {
	cached   []byte
	job      *job
	rendered renderedJob
	value    *jobJSON
}

// jobEntry answers j's entry of a page. The caller holds st.mu.
func (st *store) jobEntry(j *job) jobEntry {
	tts := st.timeToStart(j)
	if r := j.rendered.Load(); r.valid(st.gen, tts) {
		return jobEntry{cached: r.json}
	}
	v := st.renderJob(j)
	return jobEntry{job: j, rendered: renderedJob{gen: st.gen, timeToStart: tts}, value: &v}
}

// body answers the entry's JSON, writing and caching it when it was rendered; it runs outside
// st.mu.
func (e jobEntry) body() []byte {
	if e.value == nil {
		return e.cached
	}
	data, err := json.Marshal(e.value)
	if err != nil {
		return []byte("null") // never: jobJSON holds no value json cannot write
	}
	if e.job != nil {
		e.rendered.json = data
		e.job.rendered.Store(&e.rendered)
	}
	return data
}

// answerJob runs find inside st.run and answers the Job it finds wrapped as {"job": {...}},
// the answer of show, create and update, as a token of pool p sees it.
func (st *store) answerJob(p pool, find func() (*job, error)) (any, error) {
	return answerOne(st, "job", find, func(j *job) jobJSON { return st.renderJobFor(j, p) })
}

// getJob serves GET /api_v2/jobs/:id. The Public Pool sees only Jobs of its own Job Requests.
func (s *Server) getJob(c *call) (any, error) {
	id, err := c.pathID()
	if err != nil {
		return nil, err
	}
	return s.st.answerJob(c.pool, func() (*job, error) { return s.st.visibleJob(id, c.pool) })
}

// createJob serves POST /api_v2/jobs and POST /api_v2/jobs/assign: job[worker_id]*,
// job[job_request_id]*, job[requestor_notes]. It creates a filled Job. 403 for the Public Pool.
func (s *Server) createJob(c *call) (any, error) {
	if err := c.forbidPublic(); err != nil {
		return nil, err
	}
	fe := fieldErrors{}
	workerID := c.p.id(fe, "worker_id", "job", "worker_id")
	jobRequestID := c.p.id(fe, "job_request_id", "job", "job_request_id")
	if err := fe.err(); err != nil {
		return nil, err
	}
	notes, _ := c.p.str("job", "requestor_notes")
	return s.st.answerJob(c.pool, func() (*job, error) {
		return s.st.createJob(jobRequestID, workerID, stateFilled, notes, newJobAlways)
	})
}

// updateJob serves PATCH /api_v2/jobs/:id. 403 for the Public Pool.
func (s *Server) updateJob(c *call) (any, error) {
	id, err := c.privateID()
	if err != nil {
		return nil, err
	}
	return s.st.answerJob(c.pool, func() (*job, error) { return s.st.patchJob(id, c.p) })
}

// patchJob applies PATCH /jobs/:id's top-level state (cancelled; filled or rejected for a
// pending Job), actual_duration (minutes ≥ 0) and cancelled_reason to the Job with id: all of
// them, or (on a 404 or 422) none. updated_at moves only when something changes; a PATCH with
// none of the three (all absent, null or blank) is a 422 "nothing to update". The caller holds st.mu.
func (st *store) patchJob(id int64, p params) (*job, error) {
	j, err := st.job(id)
	if err != nil {
		return nil, err
	}
	fe := fieldErrors{}
	state, hasState := p.str("state")
	switch {
	case !hasState:
	case state != stateCancelled && state != stateFilled && state != stateRejected:
		fe.add("state", "must be cancelled, filled or rejected")
	case state != stateCancelled && j.state != statePending:
		fe.add("state", "can be "+state+" only for a pending job; job "+itoa(j.id)+" is "+j.state)
	}
	duration, hasDuration := p.str("actual_duration")
	minutes, convErr := strconv.Atoi(strings.TrimSpace(duration))
	if hasDuration && (convErr != nil || minutes < 0) {
		fe.add("actual_duration", "must be an integer number of minutes, 0 or more")
	}
	reason, hasReason := p.str("cancelled_reason")
	if !hasState && !hasDuration && !hasReason {
		return nil, &apiError{status: http.StatusUnprocessableEntity, msg: "nothing to update",
			fields: fieldErrors{"state": {"nothing to update: send state, actual_duration or cancelled_reason (top level, not under job)"}}}
	}
	if err := fe.err(); err != nil {
		return nil, err
	}
	if hasState {
		if err := st.move(j, state, offSite); err != nil { // bumps updated_at
			return nil, err
		}
	}
	changed := false
	if hasDuration && (j.actualDuration == nil || *j.actualDuration != minutes) {
		j.actualDuration, changed = &minutes, true
	}
	if hasReason && reason != j.cancelledReason {
		j.cancelledReason, changed = reason, true
	}
	if changed {
		j.updatedAt = st.now()
	}
	return j, nil
}
