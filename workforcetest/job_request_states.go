package workforcetest

import (
	"net/http"
	"slices"
	"time"
)

// The Job Request states of CONTRACT §6 that are not also Job states.
const (
	stateDraft      = "draft"
	stateUnassigned = "unassigned"
	statePosted     = "posted"
	stateUnfilled   = "unfilled"
)

// jobRequestMovesTo returns the states a Job Request may enter state `to` from ("" is a new
// one), and whether `to` is a Job Request state: the moves of CONTRACT §6 "Job Requests".
// unfilled → in_progress is the fake's choice: a Job Request that reached its start time with
// an open slot still starts when one of its Workers does.
func jobRequestMovesTo(to string) ([]string, bool) {
	switch to {
	case stateDraft:
		return []string{""}, true
	case stateUnassigned:
		return nil, true // no move of the fake enters it
	case statePosted:
		return []string{"", stateDraft, stateFilled}, true
	case stateFilled:
		return []string{statePosted, stateUnassigned}, true
	case stateInProgress:
		return []string{statePosted, stateUnassigned, stateFilled, stateUnfilled}, true
	case stateCompleted:
		return []string{stateInProgress}, true
	case stateApproved:
		return []string{stateCompleted}, true
	case stateCancelled:
		return []string{stateDraft, stateUnassigned, statePosted, stateFilled, stateInProgress, stateUnfilled}, true
	case stateUnfilled:
		return []string{statePosted, stateUnassigned, stateFilled}, true
	}
	return nil, false
}

// jobRequestTakesJobs tells whether a Job Request in state accepts new Jobs: all but draft and
// cancelled ones. A completed or approved Job Request still takes late Jobs (its state does not
// move back), as an unfilled one does.
func jobRequestTakesJobs(state string) bool { return state != stateDraft && state != stateCancelled }

// moveJobRequest changes jr to state `to` at `at` if the table allows it, and records the change
// for the commit. A disallowed move is a 422 on "state". jr is as the transaction handed it out.
func (tx *tx) moveJobRequest(jr *jobRequest, to string, at time.Time) error {
	if refusal := stateTable(jobRequestMovesTo).refusal(jr.state, to, "Job Request"); refusal != "" {
		return &apiError{status: http.StatusUnprocessableEntity, msg: "job request " + itoa(jr.id) + ": state " + refusal,
			fields: fieldErrors{"state": {refusal}}}
	}
	jr.state, jr.updatedAt = to, at
	tx.recordChange(changedJobRequest, jr.id, to)
	return nil
}

// holdsSlot tells whether a Job in state takes one of its Job Request's slots.
func holdsSlot(state string) bool {
	switch state {
	case stateFilled, stateInProgress, statePaused, stateCompleted, stateApproved:
		return true
	}
	return false
}

// filledSlots counts the Jobs of the Job Request with id that hold a slot.
func filledSlots(v view, jobRequestID int64) int { return countSlots(v.jobsOf(jobRequestID)) }

// countSlots counts the Jobs of jobs that hold a slot.
func countSlots(jobs []jobLink) int {
	n := 0
	for _, j := range jobs {
		if holdsSlot(j.state) {
			n++
		}
	}
	return n
}

// syncJobRequest moves the Job Request with id after a change of its Jobs or slots: posted →
// filled when every slot holds a filled Job and back when one leaves; → in_progress when a Job
// starts; → completed when every started Job completed and no filled one waits to start; →
// approved when every completed Job is approved.
func (tx *tx) syncJobRequest(id int64) {
	jr, ok := tx.editJobRequest(id)
	if !ok {
		return
	}
	filled, active, started, done, approved := 0, 0, 0, 0, 0
	for _, j := range tx.jobsOf(id) {
		switch j.state {
		case stateFilled:
			filled++
		case stateInProgress, statePaused:
			active++
			started++
		case stateCompleted:
			started++
			done++
		case stateApproved:
			started++
			done++
			approved++
		}
	}
	now := tx.now()
	var to []string
	switch jr.state {
	case statePosted, stateUnassigned, stateFilled, stateUnfilled:
		switch {
		case active > 0:
			to = []string{stateInProgress}
		case jr.state != stateFilled && jr.state != stateUnfilled && filled >= jr.slots:
			to = []string{stateFilled}
		case jr.state == stateFilled && filled < jr.slots:
			to = []string{statePosted}
		}
	case stateInProgress:
		if active == 0 && filled == 0 && started > 0 && done == started {
			to = []string{stateCompleted}
			if approved == done {
				to = append(to, stateApproved)
			}
		}
	case stateCompleted:
		if done > 0 && approved == done {
			to = []string{stateApproved}
		}
	}
	for _, state := range to {
		_ = tx.moveJobRequest(jr, state, now) // every move above is in the table
	}
}

// applyCutoffs moves every posted, unassigned or filled Job Request whose start time the clock
// has reached with an open slot to unfilled, dated at its start time, rejects the pending Jobs
// of every Job Request whose start time (the cut-off of CONTRACT §6) the clock has reached,
// dated at that time, and notes the earliest start still ahead. The store calls it before every access when one may be due (cutoffsDue),
// so the cut-off follows the clock without a timer.
func (st *store) applyCutoffs(tx *tx) {
	now := tx.now()
	var next time.Time
	due := scan(tx.view, &st.jobRequests, func(jr *jobRequest) bool {
		switch jr.state {
		case statePosted, stateUnassigned, stateFilled:
		default:
			return false
		}
		switch {
		case jr.startTime.IsZero():
			return false
		case now.Before(jr.startTime):
			if next.IsZero() || jr.startTime.Before(next) {
				next = jr.startTime
			}
			return false
		}
		return filledSlots(tx.view, jr.id) < jr.slots
	}, 0)
	for _, d := range slices.Backward(due) { // oldest first
		jr, _ := tx.editJobRequest(d.id)
		_ = tx.moveJobRequest(jr, stateUnfilled, jr.startTime) // in the table
	}
	// The cut-off of applications is the Job Request's start time: pending Jobs are rejected.
	for _, link := range tx.jobLinks(tx.st.jobIndex.set("state", statePending)) { // oldest first
		jr, ok := tx.jobRequest(link.jobRequestID)
		switch {
		case !ok || jr.startTime.IsZero():
			continue
		case now.Before(jr.startTime):
			if next.IsZero() || jr.startTime.Before(next) {
				next = jr.startTime
			}
			continue
		}
		j, _ := tx.editJob(link.id)
		tx.when = later(jr.startTime, j.updatedAt) // dated at the cut-off, never before the application
		_ = tx.move(j, stateRejected, offSite)     // in the table
		tx.when = now
	}
	if next.IsZero() {
		next = time.Unix(1<<62, 0) // no start ahead: only a commit can make one
	}
	st.cutoffsStale, st.nextCutoff = false, next
}

// later answers the later of a and b.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// cancelJobRequest cancels jr and then each of its open Jobs (pending, filled, in_progress,
// paused), each with its transition; reason is their cancelled_reason. jr is as the transaction
// handed it out.
func (tx *tx) cancelJobRequest(jr *jobRequest, reason string) error {
	if err := tx.moveJobRequest(jr, stateCancelled, tx.now()); err != nil {
		return err
	}
	for _, link := range tx.jobsOf(jr.id) { // oldest first
		switch link.state {
		case statePending, stateFilled, stateInProgress, statePaused:
			j, _ := tx.editJob(link.id)
			j.cancelledReason = reason
			_ = tx.move(j, stateCancelled, offSite) // allowed from each of these states
		}
	}
	return nil
}

// PostJobRequest posts a draft Job Request (the requestor publishes it): draft to posted.
func (s *Server) PostJobRequest(jobRequestID int64) error {
	return s.outside("post job request", func(tx *tx) error {
		jr, ok := tx.editJobRequest(jobRequestID)
		switch {
		case !ok:
			return errorf(http.StatusNotFound, "job request %d not found", jobRequestID)
		case jr.state != stateDraft:
			return invalid("state", "cannot post job request "+itoa(jr.id)+": it is "+jr.state+", not draft")
		}
		return tx.moveJobRequest(jr, statePosted, tx.now())
	})
}

// CancelJobRequest cancels a Job Request from outside the API (the requestor's dashboard or the
// back office): any state before completed to cancelled. Its open Jobs (pending, filled,
// in_progress, paused) are cancelled with it, with cancelled_reason "job_request_cancelled".
func (s *Server) CancelJobRequest(jobRequestID int64) error {
	return s.outside("cancel job request", func(tx *tx) error {
		jr, ok := tx.editJobRequest(jobRequestID)
		if !ok {
			return errorf(http.StatusNotFound, "job request %d not found", jobRequestID)
		}
		return tx.cancelJobRequest(jr, reasonJobRequestCancelled)
	})
}

// reasonJobRequestCancelled is the cancelled_reason of the Jobs a Job Request's cancellation
// cancels when no reason is given.
const reasonJobRequestCancelled = "job_request_cancelled"

// JobRequestState returns the state of the Job Request with jobRequestID (with the cut-off of
// its start time applied), and false if there is no such Job Request.
func (s *Server) JobRequestState(jobRequestID int64) (string, bool) {
	return stateOf(s.st, (view).jobRequest, jobRequestID, func(jr *jobRequest) string { return jr.state })
}
