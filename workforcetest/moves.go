package workforcetest

import "fmt"

// The moves below happen outside the API: a Worker's app, a requestor's dashboard, the
// platform's back office. Each one obeys the state table of CONTRACT §6, appends a transition
// and bumps updated_at, and returns a descriptive error for a disallowed move or an unknown id.

// Apply makes workerID apply to jobRequestID: a new pending Job. It is allowed only when both
// the Job Request and its Customer use the pending workflow (Seed.PendingJobRequestID does).
func (s *Server) Apply(jobRequestID, workerID int64) (int64, error) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	jr, ok := s.st.jobRequests[jobRequestID]
	if !ok {
		return 0, fmt.Errorf("workforcetest: apply: job request %d does not exist", jobRequestID)
	}
	if c, ok := s.st.customers[jr.customerID]; !ok || !c.usePendingState || !jr.usePendingState {
		return 0, fmt.Errorf("workforcetest: apply: job request %d and its customer do not both use the pending workflow", jobRequestID)
	}
	return s.st.outsideCreate("apply", jobRequestID, workerID, statePending, newJobAlways)
}

// Accept makes workerID accept jobRequestID: a new filled Job, or, when the Worker withdrew from
// it before, that withdrawn Job filled again. It answers the Job's id.
func (s *Server) Accept(jobRequestID, workerID int64) (int64, error) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	return s.st.outsideCreate("accept", jobRequestID, workerID, stateFilled, refillWithdrawnJobs)
}

// outsideCreate runs createJob for the move named verb. The caller holds st.mu.
func (st *store) outsideCreate(verb string, jobRequestID, workerID int64, state string, refill bool) (int64, error) {
	j, err := st.createJob(jobRequestID, workerID, state, "", refill)
	if err != nil {
		return 0, fmt.Errorf("workforcetest: %s: %w", verb, err)
	}
	return j.id, nil
}

// Start starts the Job (the Worker checks in, or the requestor starts it): filled or paused to
// in_progress. started_at is set the first time.
func (s *Server) Start(jobID int64) error { return s.moveJob("start", jobID, stateInProgress, onSite) }

// Pause pauses a W2 Job: in_progress to paused. 1099 Jobs cannot be paused.
func (s *Server) Pause(jobID int64) error { return s.moveJob("pause", jobID, statePaused, onSite) }

// Complete completes the Job (the Worker checks out): in_progress or paused to completed. It sets
// completed_at and hours_worked (time in progress on the fake clock).
func (s *Server) Complete(jobID int64) error {
	return s.moveJob("complete", jobID, stateCompleted, onSite)
}

// Withdraw withdraws the Worker: pending or filled to withdrawn.
func (s *Server) Withdraw(jobID int64) error {
	return s.moveJob("withdraw", jobID, stateWithdrawn, onSite)
}

// Approve approves the Job (the requestor approves or rates it): completed to approved. A W2
// Job's w2_pay_status becomes pending.
func (s *Server) Approve(jobID int64) error {
	return s.moveJob("approve", jobID, stateApproved, offSite)
}

// NoShow marks that the Worker did not show up: filled to no_show.
func (s *Server) NoShow(jobID int64) error { return s.moveJob("no show", jobID, stateNoShow, offSite) }

// moveJob moves the Job with id to state `to`; verb names the move in an error.
func (s *Server) moveJob(verb string, id int64, to string, at where) error {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	j, err := s.st.job(id)
	if err == nil {
		err = s.st.move(j, to, at)
	}
	if err != nil {
		return fmt.Errorf("workforcetest: %s: %w", verb, err)
	}
	return nil
}

// PayW2 records the payroll payment of an approved W2 Job: w2_pay_status becomes paid and
// w2_payment_ref is set to paymentRef. It is not a state change, so no transition is appended.
func (s *Server) PayW2(jobID int64, paymentRef string) error {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	j, err := s.st.job(jobID)
	switch {
	case err != nil:
		return fmt.Errorf("workforcetest: pay: %w", err)
	case j.classification != classW2 || j.state != stateApproved:
		return fmt.Errorf("workforcetest: pay: job %d is a %s job in state %s; only approved w2 jobs are paid",
			jobID, j.classification, j.state)
	}
	j.w2PayStatus, j.w2PaymentRef, j.updatedAt = payPaid, paymentRef, s.st.now()
	return nil
}

// JobState answers the state of the Job with jobID, and false if there is no such Job.
func (s *Server) JobState(jobID int64) (string, bool) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	j, ok := s.st.jobs[jobID]
	if !ok {
		return "", false
	}
	return j.state, true
}
