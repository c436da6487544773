package workforcetest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// job is a Worker's assignment to a Job Request. Zero times and empty strings are null.
type job struct {
	stored
	jobRequestID    int64
	workerID        int64
	owner           pool // the pool that created its Job Request, which sees it
	state           string
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
	transitions     []transition // oldest first
}

// transition records one state change of a Job.
type transition struct {
	id                  int64
	name                string
	createdAt           time.Time
	latitude, longitude string // set when the Worker moved on site
}

// clone returns a copy of j that shares nothing with it.
func (j *job) clone() *job {
	c := *j
	c.transitions = slices.Clone(j.transitions)
	if j.hoursWorked != nil {
		h := *j.hoursWorked
		c.hoursWorked = &h
	}
	if j.actualDuration != nil {
		d := *j.actualDuration
		c.actualDuration = &d
	}
	return &c
}

// visibleTo tells whether a token of pool p may see j: the Public Pool sees only the Jobs of the
// Job Requests it created.
func (j *job) visibleTo(p pool) bool { return p != poolPublic || j.owner == poolPublic }

// visibleJob returns a copy of the Job with id if a token of pool p may see it, else a 404.
func visibleJob(v view, id int64, p pool) (*job, error) {
	j, ok := v.job(id)
	if !ok || !j.visibleTo(p) {
		return nil, errorf(http.StatusNotFound, "job %d not found", id)
	}
	return j, nil
}

// jobFilters are the filters of GET /jobs (CONTRACT §6). Unknown values of state,
// classification and w2_pay_status match nothing; a malformed id, number or date-time is a 422.
var jobFilters = []filter[job]{
	byKey("state", func(j *job) string { return j.state }, true, asText),
	byKey("job_request_id", func(j *job) string { return itoa(j.jobRequestID) }, false, asID("job_request_id")),
	byKey("classification", func(j *job) string { return j.classification }, false, asText),
	byKey("w2_hourly_rate", func(j *job) string { return rateKey(j.w2HourlyRate) }, false, asRate),
	byKey("w2_pay_status", func(j *job) string { return j.w2PayStatus }, false, asText),
	byUpdated(func(j *job) time.Time { return j.updatedAt }),
}

// jobKeys are the keys the Jobs are filed by besides their filters': the pool that sees them,
// and their Worker.
var jobKeys = map[string]func(*job) string{
	"owner":  func(j *job) string { return j.owner.key() },
	"worker": func(j *job) string { return itoa(j.workerID) },
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
	Worker          embeddedUserBytes `json:"worker"`
	Employer        embeddedUserBytes `json:"employer"`
	Transitions     []transitionJSON  `json:"transitions"`

	start time.Time // the start its TimeToStart counts to, for the render cache
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
// first).
func renderJob(v view, j *job) jobJSON {
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
		Transitions:     make([]transitionJSON, 0, len(j.transitions)),
	}
	out.Worker = embeddedUser(v, j.workerID)
	if j.hoursWorked != nil {
		out.HoursWorked = *j.hoursWorked
	}
	if rate := optNumber(j.w2HourlyRate); j.classification == classW2 && rate != nil {
		out.W2HourlyRate = *rate
	}
	if jr, ok := v.jobRequest(j.jobRequestID); ok {
		out.Employer = embeddedUser(v, jr.employerID)
		if j.state == statePending || j.state == stateFilled {
			minutes := minutesUntil(jr.startTime, v.now())
			out.TimeToStart, out.start = &minutes, jr.startTime
		}
	}
	for i := len(j.transitions) - 1; i >= 0; i-- {
		t := j.transitions[i]
		out.Transitions = append(out.Transitions, transitionJSON{
			ID: t.id, JobID: j.id, Name: t.name, CreatedAt: utcTime(t.createdAt),
			Latitude: optString(t.latitude), Longitude: optString(t.longitude),
		})
	}
	return out
}

// listJobs serves GET /api_v2/jobs: the visible Jobs that pass the filters, newest first, one
// page. Under the read lock it finds the page's Jobs through the index and takes each one's
// cached JSON, or renders those whose JSON is not cached; the JSON is written and the page
// assembled after the lock is released.
func (s *Server) listJobs(c *call) (any, error) {
	fe := fieldErrors{}
	pg := readPage(c.p, fe)
	sels := readFilters(jobFilters, c.p, fe)
	if err := fe.err(); err != nil {
		return nil, err
	}
	if c.pool == poolPublic {
		sels = append(sels, whose(s.st.jobIndex, "owner", poolPublic.key()))
	}
	var out []jobEntry
	err := s.st.read(func(v view) error {
		ids := listed(&v.st.jobs, v.st.jobIndex, sels, pg)
		out = make([]jobEntry, len(ids))
		for i, id := range ids {
			out[i] = v.jobEntry(id)
		}
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

// getJob serves GET /api_v2/jobs/:id, with the cached JSON of the Job when it has one. The Public
// Pool sees only Jobs of its own Job Requests.
func (s *Server) getJob(c *call) (any, error) {
	id, err := c.pathID()
	if err != nil {
		return nil, err
	}
	var e jobEntry
	err = s.st.read(func(v view) error {
		if _, err := visibleJob(v, id, c.pool); err != nil {
			return err
		}
		e = v.jobEntry(id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	body := e.body()
	buf := s.buffers.get(len(`{"job":}`) + len(body))
	buf = append(append(append(buf, `{"job":`...), body...), '}')
	return rawJSON(buf), nil
}

// answerJob returns the Job with id wrapped as {"job": {...}}: the answer of create and update.
func answerJob(v view, id int64) map[string]jobJSON {
	j, _ := v.job(id)
	return map[string]jobJSON{"job": renderJob(v, j)}
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
	var out any
	err := s.st.write(func(tx *tx) error {
		id, err := tx.createJob(jobRequestID, workerID, stateFilled, notes, newJobAlways)
		if err == nil {
			out = answerJob(tx.view, id)
		}
		return err
	})
	return out, err
}

// updateJob serves PATCH /api_v2/jobs/:id. 403 for the Public Pool.
func (s *Server) updateJob(c *call) (any, error) {
	id, err := c.privateID()
	if err != nil {
		return nil, err
	}
	var out any
	err = s.st.write(func(tx *tx) error {
		err := tx.patchJob(id, c.p)
		if err == nil {
			out = answerJob(tx.view, id)
		}
		return err
	})
	return out, err
}

// patchJob applies PATCH /jobs/:id's top-level (or job[…]) state (cancelled; filled or rejected for a
// pending Job), actual_duration (minutes ≥ 0) and cancelled_reason to the Job with id: all of
// them, or (on a 404 or 422) none. updated_at moves only when something changes; a PATCH with
// none of the three (all absent, null or blank) is a 422 "nothing to update".
func (tx *tx) patchJob(id int64, p params) error {
	j, ok := tx.editJob(id)
	if !ok {
		return errorf(http.StatusNotFound, "job %d not found", id)
	}
	fe := fieldErrors{}
	// The endpoint reads them at the top level (CONTRACT §4); Rails also wraps a flat body in
	// job, so a client may send them there: the top level first, then job[…].
	top := func(key string) (string, bool) {
		if v, ok := p.str(key); ok {
			return v, true
		}
		return p.str("job", key)
	}
	state, hasState := top("state")
	switch {
	case !hasState:
	case state != stateCancelled && state != stateFilled && state != stateRejected:
		fe.add("state", "must be cancelled, filled or rejected")
	case state != stateCancelled && j.state != statePending:
		fe.add("state", "can be "+state+" only for a pending job; job "+itoa(j.id)+" is "+j.state)
	}
	duration, hasDuration := top("actual_duration")
	minutes, convErr := strconv.Atoi(strings.TrimSpace(duration))
	if hasDuration && (convErr != nil || minutes < 0) {
		fe.add("actual_duration", "must be an integer number of minutes, 0 or more")
	}
	reason, hasReason := top("cancelled_reason")
	if !hasState && !hasDuration && !hasReason {
		return &apiError{status: http.StatusUnprocessableEntity, msg: "nothing to update",
			fields: fieldErrors{"state": {"nothing to update: send state, actual_duration or cancelled_reason"}}}
	}
	if err := fe.err(); err != nil {
		return err
	}
	if hasState {
		if err := tx.move(j, state, offSite); err != nil { // bumps updated_at
			return err
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
		j.updatedAt = tx.now()
	}
	return nil
}
