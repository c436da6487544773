package workforcetest

import (
	"fmt"
	"net/http"
	"strconv"
)

// The moves below happen outside the API: a Worker's app, a requestor's dashboard, the
// platform's back office. Each is named by its verb and the kind of record whose id it takes first
// (StartJob, ApplyToJobRequest, PostJobRequest). Each one obeys the state tables of CONTRACT §6, appends a transition
// (Jobs), bumps updated_at, moves the Job Request along with its Jobs, and returns a descriptive
// error for a disallowed move or an unknown id. Each is one write of the store.

// outside runs fn in a write and prefixes an error with the move's verb.
func (s *Server) outside(verb string, fn func(*tx) error) error {
	if err := s.st.write(fn); err != nil {
		return fmt.Errorf("workforcetest: %s: %w", verb, err)
	}
	return nil
}

// ApplyToJobRequest makes workerID apply to jobRequestID: a new pending Job. It is allowed only when both
// the Job Request and its Customer use the pending workflow (Seed.PendingJobRequestID does),
// and before the Job Request's start time: the cut-off, at which pending Jobs are rejected.
func (s *Server) ApplyToJobRequest(jobRequestID, workerID int64) (int64, error) {
	var id int64
	err := s.outside("apply", func(tx *tx) error {
		jr, ok := tx.jobRequest(jobRequestID)
		if !ok {
			return errorf(http.StatusNotFound, "job request %d does not exist", jobRequestID)
		}
		if c, ok := tx.customer(jr.customerID); !ok || !c.usePendingState || !jr.usePendingState {
			return errorf(http.StatusUnprocessableEntity,
				"job request %d and its customer do not both use the pending workflow", jobRequestID)
		}
		if !jr.startTime.IsZero() && !tx.now().Before(jr.startTime) {
			return invalid("job_request_id", "job request "+itoa(jobRequestID)+
				" reached its start time, the cut-off of applications")
		}
		var err error
		id, err = tx.createJob(jobRequestID, workerID, statePending, "", newJobAlways)
		return err
	})
	return id, err
}

// AcceptJobRequest makes workerID accept jobRequestID: a new filled Job, or, when the Worker withdrew from
// it before, that withdrawn Job filled again. It returns the Job's id.
func (s *Server) AcceptJobRequest(jobRequestID, workerID int64) (int64, error) {
	var id int64
	err := s.outside("accept", func(tx *tx) error {
		var err error
		id, err = tx.createJob(jobRequestID, workerID, stateFilled, "", refillWithdrawnJobs)
		return err
	})
	return id, err
}

// StartJob starts the Job (the Worker checks in, or the requestor starts it): filled or paused to
// in_progress. started_at is set the first time. The transition carries the Job Request's
// coordinates; StartJobAt gives the Worker's own.
func (s *Server) StartJob(jobID int64) error {
	return s.moveJob("start", jobID, stateInProgress, onSite)
}

// A Position is where a Worker's phone says they are, in decimal degrees.
type Position struct {
	Latitude  float64 `json:"latitude"`  // -90 to 90
	Longitude float64 `json:"longitude"` // -180 to 180
}

// where returns the place of a move made at p, or an error for a position off the globe.
func (p Position) where() (where, error) {
	if !(p.Latitude >= -90 && p.Latitude <= 90) || !(p.Longitude >= -180 && p.Longitude <= 180) {
		return where{}, invalid("position", fmt.Sprintf("latitude %v must be from -90 to 90 and longitude %v from -180 to 180",
			p.Latitude, p.Longitude))
	}
	format := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	return where{onSite: true, latitude: format(p.Latitude), longitude: format(p.Longitude)}, nil
}

// StartJobAt starts the Job as StartJob does, with the Worker checking in at p: the transition,
// and so GET /users/:id/tracking, carries p.
func (s *Server) StartJobAt(jobID int64, p Position) error {
	at, err := p.where()
	if err != nil {
		return fmt.Errorf("workforcetest: start: %w", err)
	}
	return s.moveJob("start", jobID, stateInProgress, at)
}

// CompleteJobAt completes the Job as CompleteJob does, with the Worker checking out at p.
func (s *Server) CompleteJobAt(jobID int64, p Position) error {
	at, err := p.where()
	if err != nil {
		return fmt.Errorf("workforcetest: complete: %w", err)
	}
	return s.moveJob("complete", jobID, stateCompleted, at)
}

// PauseJob pauses a W2 Job: in_progress to paused. 1099 Jobs cannot be paused.
func (s *Server) PauseJob(jobID int64) error {
	return s.moveJob("pause", jobID, statePaused, onSite)
}

// CompleteJob completes the Job (the Worker checks out): in_progress or paused to completed. It sets
// completed_at and hours_worked (time in progress on the fake clock).
func (s *Server) CompleteJob(jobID int64) error {
	return s.moveJob("complete", jobID, stateCompleted, onSite)
}

// WithdrawJob withdraws the Worker: pending or filled to withdrawn.
func (s *Server) WithdrawJob(jobID int64) error {
	return s.moveJob("withdraw", jobID, stateWithdrawn, onSite)
}

// ApproveJob approves the Job (the requestor approves or rates it): completed to approved. A W2
// Job's w2_pay_status becomes pending.
func (s *Server) ApproveJob(jobID int64) error {
	return s.moveJob("approve", jobID, stateApproved, offSite)
}

// NoShowJob marks that the Worker did not show up: filled to no_show.
func (s *Server) NoShowJob(jobID int64) error {
	return s.moveJob("no show", jobID, stateNoShow, offSite)
}

// moveJob moves the Job with id to state `to`; verb names the move in an error.
func (s *Server) moveJob(verb string, id int64, to string, at where) error {
	return s.outside(verb, func(tx *tx) error {
		j, ok := tx.editJob(id)
		if !ok {
			return errorf(http.StatusNotFound, "job %d not found", id)
		}
		return tx.move(j, to, at)
	})
}

// PayW2Job records the payroll payment of an approved W2 Job: w2_pay_status becomes paid and
// w2_payment_ref is set to paymentRef. It is not a state change, so no transition is appended.
func (s *Server) PayW2Job(jobID int64, paymentRef string) error {
	return s.outside("pay", func(tx *tx) error {
		j, ok := tx.editJob(jobID)
		switch {
		case !ok:
			return errorf(http.StatusNotFound, "job %d not found", jobID)
		case j.classification != classW2 || j.state != stateApproved:
			return errorf(http.StatusUnprocessableEntity, "job %d is a %s job in state %s; only approved w2 jobs are paid",
				jobID, j.classification, j.state)
		}
		j.w2PayStatus, j.w2PaymentRef, j.updatedAt = payPaid, paymentRef, tx.now()
		return nil
	})
}

// JobState returns the state of the Job with jobID, and false if there is no such Job.
func (s *Server) JobState(jobID int64) (string, bool) {
	return stateOf(s.st, (view).job, jobID, func(j *job) string { return j.state })
}

// stateOf returns the state of the record with id, which get finds, and false if there is none.
func stateOf[T any](st *store, get func(view, int64) (*T, bool), id int64, state func(*T) string) (string, bool) {
	var out string
	var ok bool
	_ = st.read(func(v view) error {
		var x *T
		if x, ok = get(v, id); ok {
			out = state(x)
		}
		return nil
	})
	return out, ok
}
