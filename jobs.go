package workforce

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"time"
)

// JobsService reads, creates and changes Jobs: one Worker's engagement on
// one Job Request.
type JobsService service

// A Job is one Worker's engagement on a Job Request.
type Job struct {
	ID           int64    `json:"id"`
	State        JobState `json:"state"`
	JobRequestID int64    `json:"job_request_id"`
	// WorkerID is the Worker's ID: worker_id when the API sends it, else
	// the embedded Worker's id (the live API sends only worker.id).
	WorkerID int64 `json:"worker_id"`
	// EmployerID is the Employer's ID: employer_id when the API sends it,
	// else the embedded Employer's id.
	EmployerID  int64 `json:"employer_id"`
	CreatedAt   Time  `json:"created_at"`
	UpdatedAt   Time  `json:"updated_at"`
	ConfirmedAt Time  `json:"confirmed_at"`
	StartedAt   Time  `json:"started_at"`
	CompletedAt Time  `json:"completed_at"`
	FinishedAt  Time  `json:"finished_at"`
	// HoursWorked is the hours the Worker spent on the Job.
	HoursWorked Decimal `json:"hours_worked"`
	// ActualDuration is the minutes the Job actually lasted, as the
	// Requestor set it with Update; a Decimal, as the API may send it as text.
	ActualDuration Decimal `json:"actual_duration"`
	// TimeToStart is the minutes left until the Job starts.
	TimeToStart Decimal `json:"time_to_start"`
	// AdjustedWage is the hourly wage after adjustments.
	AdjustedWage   Decimal        `json:"adjusted_wage"`
	RequestorNotes string         `json:"requestor_notes"`
	Classification Classification `json:"classification"`
	W2HourlyRate   Decimal        `json:"w2_hourly_rate"`
	W2PaymentRef   string         `json:"w2_payment_ref"`
	W2PayStatus    W2PayStatus    `json:"w2_pay_status"`
	// CancelledReason is one of the CancelReason constants or free text,
	// when the API sends it: the live API's Jobs have been seen without
	// it, so "" does not mean the Job was not cancelled (State says).
	CancelledReason CancelReason `json:"cancelled_reason"`
	// Worker and Employer are the embedded Users, when the API sends them,
	// with the fields the API embeds (see User).
	Worker   *User `json:"worker"`
	Employer *User `json:"employer"`
	// Transitions are the Job's state changes, newest first.
	Transitions []Transition `json:"transitions"`

	// Raw is the Job's JSON document as received, with every field,
	// including those this type does not model.
	Raw json.RawMessage `json:"-"`
}

func (j *Job) setRaw(b json.RawMessage) { j.Raw = b }

// finish fills the IDs the API sends only inside embedded objects.
func (j *Job) finish() {
	if j.Worker != nil {
		if j.WorkerID == 0 {
			j.WorkerID = j.Worker.ID
		}
		j.Worker.finish()
	}
	if j.Employer != nil {
		if j.EmployerID == 0 {
			j.EmployerID = j.Employer.ID
		}
		j.Employer.finish()
	}
	for i := range j.Transitions {
		if j.Transitions[i].JobID == 0 {
			j.Transitions[i].JobID = j.ID
		}
	}
}
func (j *Job) listID() int64      { return j.ID }
func (j *Job) updated() time.Time { return j.UpdatedAt.Time }

// A Transition records a Job entering a state.
type Transition struct {
	ID        int64    `json:"id"`
	JobID     int64    `json:"job_id"`
	Name      JobState `json:"name"` // the state entered
	CreatedAt Time     `json:"created_at"`
	Latitude  Decimal  `json:"latitude"`
	Longitude Decimal  `json:"longitude"`
}

// JobState is the state of a Job. A state this SDK does not know is kept as
// it was sent.
type JobState string

// The states of a Job.
const (
	JobPending    JobState = "pending"
	JobRejected   JobState = "rejected"
	JobFilled     JobState = "filled"
	JobInProgress JobState = "in_progress"
	JobCompleted  JobState = "completed"
	JobApproved   JobState = "approved"
	JobCancelled  JobState = "cancelled"
	JobWithdrawn  JobState = "withdrawn"
	JobNoShow     JobState = "no_show"
	JobPaused     JobState = "paused"
)

// Classification is how a Worker is employed on a Job or Job Request.
type Classification string

// The classifications.
const (
	Classification1099 Classification = "1099"
	ClassificationW2   Classification = "w2"
)

// check refuses a classification other than 1099 and W2; "" passes.
func (c Classification) check(name string) error {
	return checkOneOf(name, string(c), string(Classification1099), string(ClassificationW2))
}

// W2PayStatus is the payroll state of a W2 Job.
type W2PayStatus string

// The W2 pay states.
const (
	W2NotStarted W2PayStatus = "not_started"
	W2Pending    W2PayStatus = "pending"
	W2Paid       W2PayStatus = "paid"
)

// CancelReason says why a Job was cancelled. Besides the constants, any
// other text is accepted.
type CancelReason string

// The documented cancel reasons.
const (
	CancelAdminCancelled  CancelReason = "admin_cancelled"
	CancelDecidedToCancel CancelReason = "decided_to_cancel"
	CancelAskedToCancel   CancelReason = "asked_to_cancel"
)

// JobListOptions filters and pages GET /jobs. Zero fields are not sent.
type JobListOptions struct {
	ListOptions
	// State selects Jobs in this state.
	State JobState `url:"state,omitempty"`
	// JobRequestID selects the Jobs of one Job Request.
	JobRequestID int64 `url:"job_request_id,omitempty"`
	// Classification selects 1099 or W2 Jobs.
	Classification Classification `url:"classification,omitempty"`
	// W2HourlyRate selects W2 Jobs paid this hourly rate.
	W2HourlyRate Decimal `url:"w2_hourly_rate,omitempty"`
	// W2PayStatus selects W2 Jobs by their payroll state.
	W2PayStatus W2PayStatus `url:"w2_pay_status,omitempty"`
	// UpdatedBefore and UpdatedAfter select Jobs by the time of their last
	// change. They are sent in RFC 3339 with the fraction of a second kept,
	// so a sync can pass the UpdatedAt of the last Job it saw.
	UpdatedBefore time.Time `url:"updated_before,omitempty" layout:"2006-01-02T15:04:05.999999999Z07:00"`
	UpdatedAfter  time.Time `url:"updated_after,omitempty" layout:"2006-01-02T15:04:05.999999999Z07:00"`
}

func (o *JobListOptions) check() error {
	return firstError(checkNotNegative("JobRequestID", o.JobRequestID), o.ListOptions.check())
}

// JobCreate is the body of POST /jobs and POST /jobs/assign.
type JobCreate struct {
	WorkerID       int64  `json:"worker_id"`                 // required
	JobRequestID   int64  `json:"job_request_id"`            // required
	RequestorNotes string `json:"requestor_notes,omitempty"` // optional
}

// check refuses a JobCreate without its two IDs; it only ever creates.
func (j *JobCreate) check(bool) error {
	if err := checkPresent("JobCreate", j); err != nil {
		return err
	}
	return firstError(checkID("WorkerID", j.WorkerID), checkID("JobRequestID", j.JobRequestID))
}

// JobUpdate is the body of PATCH /jobs/:id. Nil fields are not sent; at
// least one must be set.
type JobUpdate struct {
	// State is JobCancelled, or JobFilled or JobRejected to decide a pending
	// application; "" leaves the state as it is.
	State JobState `json:"state,omitempty"`
	// ActualDuration is the minutes the Job actually lasted; nil leaves it
	// as it is (0 minutes is a value).
	ActualDuration *int `json:"actual_duration,omitempty"`
	// CancelledReason says why the Job is cancelled; "" sends none.
	CancelledReason CancelReason `json:"cancelled_reason,omitempty"`
}

// check refuses a JobUpdate that sets nothing, or a negative duration.
func (u *JobUpdate) check(bool) error {
	if err := checkSomething("JobUpdate", u); err != nil {
		return err
	}
	if u.ActualDuration != nil {
		return checkNotNegative("ActualDuration", *u.ActualDuration)
	}
	return nil
}

// List returns one page of Jobs, newest first.
//
// API: GET /jobs
func (s *JobsService) List(ctx context.Context, opts *JobListOptions) ([]*Job, *Response, error) {
	return call[[]*Job](ctx, s.client, list(jobs, opts))
}

// All iterates over every Job that opts selects, from opts.Page on, fetching
// pages of 50 as it goes. opts.Per is ignored. The iteration ends at the
// first error, which it yields.
//
// API: GET /jobs
func (s *JobsService) All(ctx context.Context, opts *JobListOptions) iter.Seq2[*Job, error] {
	return allPages(ctx, s.client, opts, s.List)
}

// Sync yields every Job changed since *watermark (every Job, when it is
// zero), each once, and when the iteration ends with every Job yielded,
// sets *watermark to the time to sync from next time; after a break or an
// error it leaves *watermark as it was, and keeps its progress in
// SyncOptions.Progress, when set, for the next sync to resume from. Two
// syncs in a row may both yield a Job changed near the watermark: store
// Jobs by ID. docs/SYNC.md argues that nothing is skipped. A sync ends with
// ErrServerClock when the server's clock cannot be trusted, and with
// ErrSyncUnstable only when Jobs keep changing while that clock stands still.
//
// API: GET /info, then GET /jobs with updated_after and updated_before
func (s *JobsService) Sync(ctx context.Context, watermark *time.Time, opts *SyncOptions) iter.Seq2[*Job, error] {
	return syncAll(ctx, s.client, "jobs", watermark, opts, func(ctx context.Context, after, before time.Time, page int) ([]*Job, *Response, error) {
		return s.List(ctx, &JobListOptions{ListOptions: ListOptions{Page: page, Per: MaxPerPage}, UpdatedAfter: after, UpdatedBefore: before})
	})
}

// Get returns one Job.
//
// API: GET /jobs/:id
func (s *JobsService) Get(ctx context.Context, id int64) (*Job, *Response, error) {
	return call[*Job](ctx, s.client, jobs.get(id))
}

// Find returns the newest Job of a Worker on a Job Request, whatever its
// state, or an error matching ErrNotFound when there is none. It reads the
// Job Request's Jobs, a page of 50 at a time, until it meets the Worker's
// (by worker_id, or the embedded worker's id). To learn whether a create
// whose outcome is unknown was done, use Settle: the newest Job may be an
// older one, cancelled, that the create did not make.
//
// API: GET /jobs with job_request_id
func (s *JobsService) Find(ctx context.Context, jobRequestID, workerID int64) (*Job, error) {
	if err := firstError(checkID("jobRequestID", jobRequestID), checkID("workerID", workerID)); err != nil {
		return nil, err
	}
	for job, err := range s.All(ctx, &JobListOptions{JobRequestID: jobRequestID}) {
		if err != nil {
			return nil, err
		}
		if job.WorkerID == workerID {
			return job, nil
		}
	}
	return nil, fmt.Errorf("%w: worker %d has no Job on job request %d", ErrNotFound, workerID, jobRequestID)
}

// Settle returns the Job that a Create or Assign of create, which failed
// with err matching ErrOutcomeUnknown, made, or an error matching
// ErrNotFound when it made none. It decides by each Job's history, not its
// state now: the call's Job is the Worker's Job on the Job Request whose
// first transition is filled (what a create makes; a pending one is the
// Worker's own application), made since the call began, whatever it has
// become since (started, completed, withdrawn, cancelled). A Job of the
// Worker made since whose answer carries no transitions cannot be told:
// the error then matches ErrUndecided, never ErrNotFound
// (docs/settling.md). err must be the create's own error.
//
// API: GET /info, then GET /jobs with job_request_id and updated_after
func (s *JobsService) Settle(ctx context.Context, create *JobCreate, err error) (*Job, error) {
	if e := create.check(true); e != nil {
		return nil, e
	}
	what := fmt.Sprintf("Job of worker %d on job request %d", create.WorkerID, create.JobRequestID)
	return settle(ctx, s.client, err, what, func(floor time.Time) (*Job, bool, error) {
		jobs := s.All(ctx, &JobListOptions{JobRequestID: create.JobRequestID, UpdatedAfter: floor.Add(-filterMargin)})
		return settleIn(jobs, floor, "Job", jobMade, func(j *Job) verdict {
			notes := strings.TrimSpace(create.RequestorNotes)
			switch {
			case j.JobRequestID != 0 && j.JobRequestID != create.JobRequestID, j.WorkerID != 0 && j.WorkerID != create.WorkerID,
				strings.TrimSpace(j.RequestorNotes) != notes && j.RequestorNotes != "":
				return notTheCall // another create's (a Job's notes never change), or the call sent none
			case j.WorkerID == 0:
				return maybeTheCall // the answer names no Worker
			case notes != "" && j.RequestorNotes == "":
				return maybeTheCall // the Worker's own accept, or notes the answer leaves out
			}
			return madeByCreate(j)
		})
	})
}

// Create puts a Worker on a Job Request as a filled Job, as Assign does;
// the API documents both (Assign is a Requestor placing a Worker they
// chose). Public Pool keys get ErrForbidden; a Job Request whose slots are
// all taken, or that requires Badges the Worker lacks, gets an error
// matching ErrUnprocessable. After an error matching ErrOutcomeUnknown,
// Settle tells whether this call made the Job.
//
// API: POST /jobs
func (s *JobsService) Create(ctx context.Context, job *JobCreate) (*Job, *Response, error) {
	return call[*Job](ctx, s.client, jobs.create(job))
}

// Assign assigns a Worker to a Job Request as a filled Job. Public Pool keys
// get ErrForbidden. It is Create under the name the API gives a
// Requestor's own choice of Worker; Create's notes hold for it, and
// Settle settles an unknown outcome.
//
// API: POST /jobs/assign
func (s *JobsService) Assign(ctx context.Context, job *JobCreate) (*Job, *Response, error) {
	return call[*Job](ctx, s.client, jobAssignments.create(job))
}

// Update changes a Job's state, actual duration or cancel reason. A state
// move the API does not allow gets ErrUnprocessable; Public Pool keys
// get ErrForbidden.
//
// API: PATCH /jobs/:id
func (s *JobsService) Update(ctx context.Context, id int64, update *JobUpdate) (*Job, *Response, error) {
	return call[*Job](ctx, s.client, jobs.updateUnwrapped(id, update))
}

// Cancel cancels a Job for reason; an empty reason is not sent.
//
// API: PATCH /jobs/:id with state=cancelled
func (s *JobsService) Cancel(ctx context.Context, id int64, reason CancelReason) (*Job, *Response, error) {
	return s.Update(ctx, id, &JobUpdate{State: JobCancelled, CancelledReason: reason})
}
