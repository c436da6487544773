package workforcetest

import (
	"math"
	"net/http"
	"slices"
	"time"
)

// The Job states of CONTRACT §6.
const (
	statePending    = "pending"
	stateRejected   = "rejected"
	stateFilled     = "filled"
	stateInProgress = "in_progress"
	statePaused     = "paused"
	stateCompleted  = "completed"
	stateApproved   = "approved"
	stateCancelled  = "cancelled"
	stateWithdrawn  = "withdrawn"
	stateNoShow     = "no_show"
)

// Values of job.w2PayStatus.
const (
	payNotStarted = "not_started"
	payPending    = "pending"
	payPaid       = "paid"
)

// movesTo returns the states a Job may enter state `to` from ("" is a new Job), and whether
// `to` is a state at all. This is the table of CONTRACT §6 "Job states".
func movesTo(to string) ([]string, bool) {
	switch to {
	case statePending:
		return []string{""}, true
	case stateRejected:
		return []string{statePending}, true
	case stateFilled:
		return []string{"", statePending, stateWithdrawn}, true
	case stateInProgress:
		return []string{stateFilled, statePaused}, true
	case statePaused:
		return []string{stateInProgress}, true
	case stateCompleted:
		return []string{stateInProgress, statePaused}, true
	case stateApproved:
		return []string{stateCompleted}, true
	case stateCancelled:
		return []string{statePending, stateFilled, stateInProgress, statePaused}, true
	case stateWithdrawn:
		return []string{statePending, stateFilled}, true
	case stateNoShow:
		return []string{stateFilled}, true
	}
	return nil, false
}

// isClosed tells whether a Job in state leaves its Worker free to take the Job Request again.
func isClosed(state string) bool {
	switch state {
	case stateRejected, stateCancelled, stateWithdrawn, stateNoShow:
		return true
	}
	return false
}

// stateTable returns the states a record may enter state `to` from ("" is a new record), and
// whether `to` is a state at all.
type stateTable func(to string) (from []string, known bool)

// refusal returns why table does not allow moving from `from` to `to`, or "" when it does.
func (table stateTable) refusal(from, to, kind string) string {
	allowed, known := table(to)
	switch {
	case !known:
		return "is not a " + kind + " state: " + to
	case !slices.Contains(allowed, from):
		return "cannot change from " + describe(from) + " to " + to
	}
	return ""
}

// where tells where a move is made: by the Worker on site (its transition carries coordinates:
// those the Worker gave, else the Job Request's) or elsewhere (null coordinates).
type where struct {
	onSite              bool
	latitude, longitude string // the Worker's own position, as written; "" for the site's
}

// The two places a move is made from, when the Worker gives no position.
var (
	offSite = where{}
	onSite  = where{onSite: true}
)

// move changes j to state `to` if the state table allows it, sets the timestamps the move means,
// appends a transition, bumps updated_at, records the change for the commit and moves the Job
// Request accordingly. A disallowed move is a 422 on "state"; filling a Job Request whose slots
// are all taken is a 422 on "job_request_id". j is the Job as the transaction handed it out, or a
// new one not yet inserted (whose change its creator records).
func (tx *tx) move(j *job, to string, at where) error {
	refusal := stateTable(movesTo).refusal(j.state, to, "Job")
	if refusal == "" && to == statePaused && j.classification != classW2 {
		refusal = "cannot change to paused: only W2 Jobs can be paused"
	}
	if refusal != "" {
		return &apiError{status: http.StatusUnprocessableEntity, msg: "job " + itoa(j.id) + ": state " + refusal,
			fields: fieldErrors{"state": {refusal}}}
	}
	jr, hasJR := tx.jobRequest(j.jobRequestID)
	if to == stateFilled && hasJR && filledSlots(tx.view, jr.id) >= jr.slots {
		return invalid("job_request_id", "job request "+itoa(jr.id)+" has no open slot")
	}
	now := tx.now()
	if j.state == stateInProgress {
		j.worked += now.Sub(j.workingSince)
	}
	switch to {
	case stateFilled:
		j.confirmedAt, j.finishedAt = now, time.Time{}
	case stateInProgress:
		if j.startedAt.IsZero() {
			j.startedAt = now
		}
		j.workingSince = now
	case stateCompleted:
		j.completedAt = now
		hours := math.Round(j.worked.Hours()*100) / 100
		j.hoursWorked = &hours
	case stateApproved:
		j.finishedAt = now
		if j.classification == classW2 {
			j.w2PayStatus = payPending
		}
	case stateRejected, stateCancelled, stateWithdrawn, stateNoShow:
		j.finishedAt = now
	}
	t := transition{id: next(&tx.st.lastTransition), name: to, createdAt: now}
	switch {
	case at.latitude != "":
		t.latitude, t.longitude = at.latitude, at.longitude
	case hasJR && at.onSite:
		t.latitude, t.longitude = jr.latitude, jr.longitude
	}
	j.state, j.updatedAt = to, now
	j.transitions = append(j.transitions, t)
	if j.id == 0 {
		return nil // a new Job: createJob records it once it has its id
	}
	tx.recordChange(changedJob, j.id, to)
	if hasJR {
		tx.syncJobRequest(jr.id)
	}
	return nil
}

// describe names a state in a message; "" is a Job not created yet.
func describe(state string) string {
	if state == "" {
		return "(new)"
	}
	return state
}

// How createJob treats a Worker's withdrawn Job on the same Job Request.
const (
	newJobAlways        = false // always a new Job (POST /jobs, Apply)
	refillWithdrawnJobs = true  // fill the withdrawn Job again (the Worker accepts)
)

// createJob makes a Job of workerID on jobRequestID entering state (pending or filled). A Worker
// holds at most one Job per Job Request that is not rejected, cancelled, withdrawn or no_show.
// Unknown ids and that conflict are 422s on worker_id or job_request_id. It returns the Job's id.
func (tx *tx) createJob(jobRequestID, workerID int64, state, notes string, refill bool) (int64, error) {
	fe := fieldErrors{}
	jr, ok := tx.jobRequest(jobRequestID)
	switch {
	case !ok:
		fe.add("job_request_id", "does not exist")
	case !jobRequestTakesJobs(jr.state):
		fe.add("job_request_id", "is "+jr.state+"; it takes no Jobs")
	}
	worker, msg := userOfKind(tx.view, workerID, kindWorker)
	if msg != "" {
		fe.add("worker_id", msg)
	}
	if err := fe.err(); err != nil {
		return 0, err
	}
	if missing := missingBadges(tx.view, jr, worker); missing != "" {
		return 0, invalid("worker_id", "does not hold the badges job request "+itoa(jr.id)+" requires: "+missing)
	}
	var withdrawn int64
	for _, j := range tx.jobsOf(jobRequestID) {
		if j.workerID != workerID {
			continue
		}
		if !isClosed(j.state) {
			return 0, invalid("worker_id", "already holds job "+itoa(j.id)+" on job request "+itoa(jobRequestID))
		}
		if j.state == stateWithdrawn {
			withdrawn = max(withdrawn, j.id)
		}
	}
	if refill && withdrawn != 0 && state == stateFilled {
		j, _ := tx.editJob(withdrawn)
		return withdrawn, tx.move(j, stateFilled, offSite)
	}
	j := &job{
		jobRequestID: jr.id, workerID: workerID, owner: jr.createdBy,
		stored: stored{createdAt: tx.now()}, requestorNotes: notes, classification: jr.classification,
		adjustedWage: jr.wage,
	}
	if jr.classification == classW2 {
		j.w2HourlyRate, j.w2PayStatus = jr.w2HourlyRate, payNotStarted
	}
	if err := tx.move(j, state, offSite); err != nil {
		return 0, err
	}
	id := tx.insertJob(j)
	tx.recordChange(changedJob, id, j.state)
	tx.syncJobRequest(jr.id)
	return id, nil
}
