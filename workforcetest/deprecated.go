package workforcetest

// The names of the outside moves before they were named alike (verb, then the kind of record
// whose id they take), kept for the releases that exported them.

// Apply is ApplyToJobRequest.
//
// Deprecated: use ApplyToJobRequest.
func (s *Server) Apply(jobRequestID, workerID int64) (int64, error) {
	return s.ApplyToJobRequest(jobRequestID, workerID)
}

// Accept is AcceptJobRequest.
//
// Deprecated: use AcceptJobRequest.
func (s *Server) Accept(jobRequestID, workerID int64) (int64, error) {
	return s.AcceptJobRequest(jobRequestID, workerID)
}

// Pause is PauseJob.
//
// Deprecated: use PauseJob.
func (s *Server) Pause(jobID int64) error { return s.PauseJob(jobID) }

// Complete is CompleteJob.
//
// Deprecated: use CompleteJob.
func (s *Server) Complete(jobID int64) error { return s.CompleteJob(jobID) }

// CompleteAt is CompleteJobAt.
//
// Deprecated: use CompleteJobAt.
func (s *Server) CompleteAt(jobID int64, p Position) error { return s.CompleteJobAt(jobID, p) }

// Withdraw is WithdrawJob.
//
// Deprecated: use WithdrawJob.
func (s *Server) Withdraw(jobID int64) error { return s.WithdrawJob(jobID) }

// Approve is ApproveJob.
//
// Deprecated: use ApproveJob.
func (s *Server) Approve(jobID int64) error { return s.ApproveJob(jobID) }

// NoShow is NoShowJob.
//
// Deprecated: use NoShowJob.
func (s *Server) NoShow(jobID int64) error { return s.NoShowJob(jobID) }

// PayW2 is PayW2Job.
//
// Deprecated: use PayW2Job.
func (s *Server) PayW2(jobID int64, paymentRef string) error { return s.PayW2Job(jobID, paymentRef) }
