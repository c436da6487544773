package workforce

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"
)

// JobRequestsService reads, posts, changes and cancels Job Requests: the
// work a Requestor posts, which Workers fill as Jobs.
type JobRequestsService service

// A JobRequest is work posted by a Requestor: a number of slots, each
// filled by one Worker's Job.
type JobRequest struct {
	ID    int64           `json:"id"`
	State JobRequestState `json:"state"`
	// RequestName is the Job Request's title.
	RequestName string `json:"request_name"`
	// CustomerID is the Customer the work is for; the CompanyID filter
	// selects by it. It is customer_id when the API sends it, else
	// company_id, the name the live API uses.
	CustomerID int64 `json:"customer_id"`
	// CompanyID is the same Customer's ID under the live API's name:
	// company_id when sent, else customer_id.
	CompanyID  int64  `json:"company_id"`
	EmployerID int64  `json:"employer_id"`
	Zip        string `json:"zip"`
	// PostalCode and Country complete the address, as the API geocoded it.
	PostalCode string `json:"postal_code"`
	Country    string `json:"country"`
	City       string `json:"city"`
	Address    string `json:"address"`
	Venue      string `json:"venue"`
	// Latitude and Longitude are the venue's.
	Latitude  Decimal `json:"latitude"`
	Longitude Decimal `json:"longitude"`
	// Timezone is the venue's time zone, as the API names it.
	Timezone string `json:"timezone"`
	// Slots is the number of Workers wanted; FilledSlots how many hold a
	// filled Job.
	Slots              int    `json:"slots"`
	FilledSlots        int    `json:"filled_slots"`
	Category           string `json:"category"`
	Description        string `json:"description"`
	DescriptionTasks   string `json:"description_tasks"`
	DescriptionCompany string `json:"description_company"`
	DescriptionTravel  string `json:"description_travel"`
	// DescriptionSkills is read from "|"-separated text or from an array.
	DescriptionSkills  Skills `json:"description_skills"`
	DescriptionContact string `json:"description_contact"`
	DescriptionArrival string `json:"description_arrival"`
	// StartTime is when the work starts, with the venue's offset.
	StartTime Time `json:"start_time"`
	// Duration is the length of the work in minutes.
	Duration Decimal `json:"duration"`
	// Wage is the hourly wage.
	Wage           Decimal        `json:"wage"`
	Classification Classification `json:"classification"`
	W2HourlyRate   Decimal        `json:"w2_hourly_rate"`
	OpenRequest    bool           `json:"open_request"`
	// MultiDay marks one day of a Multi-day Job Request, the series
	// MultiDayJobRequestID names.
	MultiDay             bool   `json:"multi_day"`
	MultiDayJobRequestID int64  `json:"multi_day_job_request_id"`
	AgentCode            string `json:"agent_code"`
	OrganizationalPath   string `json:"organizational_path"`
	// UsePendingState makes Workers apply (a pending Job) rather than
	// accept, when the Customer enables it too.
	UsePendingState bool `json:"use_pending_state"`
	// NotificationDistance is how far from the venue, in miles, Workers
	// are notified.
	NotificationDistance Decimal `json:"notification_distance"`
	// PushAllNotificationsASAP is true when every Worker is notified at
	// once, not in waves ("on" reads as true); JobRequestParams sends it.
	PushAllNotificationsASAP bool `json:"push_all_notifications_asap"`
	// Can is the API's undocumented "can" setting, as sent.
	Can string `json:"can"`
	// PreferredCandidateIDs are Workers offered the work first.
	PreferredCandidateIDs IDs `json:"preferred_candidate_ids"`
	// PreferredWonoloersInfo describes the preferred candidates, in a
	// shape the API does not document: kept as sent.
	PreferredWonoloersInfo json.RawMessage `json:"preferred_wonoloers_info"`
	// ReRankedWorkerIDs are the Workers ranked by the last
	// ReRankWorkers.
	ReRankedWorkerIDs IDs `json:"re_ranked_worker_ids"`
	// BanList holds the IDs of Workers who may not take the work.
	BanList IDs `json:"ban_list"`
	// BadgeRequirements are the Badges a Worker must hold to take a Job.
	BadgeRequirements []BadgeRequirement `json:"badge_requirements"`
	// CachedJobStates summarizes the states of the Job Request's Jobs, in
	// a shape the API does not document: kept as sent.
	CachedJobStates json.RawMessage `json:"cached_job_states"`
	// FlagColor is the color the Requestor's dashboard flags it with.
	FlagColor string `json:"flag_color"`
	// InWhiteGlovesPeriod marks a Job Request the platform staffs with
	// extra care, as for a new Customer.
	InWhiteGlovesPeriod bool `json:"in_white_gloves_period"`
	CreatedAt           Time `json:"created_at"`
	UpdatedAt           Time `json:"updated_at"`

	// Raw is the Job Request's JSON document as received, with every
	// field, including those this type does not model.
	Raw json.RawMessage `json:"-"`
}

func (j *JobRequest) setRaw(b json.RawMessage) { j.Raw = b }
func (j *JobRequest) listID() int64            { return j.ID }
func (j *JobRequest) updated() time.Time       { return j.UpdatedAt.Time }

// finish fills each of the Customer's two IDs from the other, and the Job
// Request's ID into its Badge requirements.
func (j *JobRequest) finish() {
	switch {
	case j.CustomerID == 0:
		j.CustomerID = j.CompanyID
	case j.CompanyID == 0:
		j.CompanyID = j.CustomerID
	}
	for i := range j.BadgeRequirements {
		if j.BadgeRequirements[i].JobRequestID == 0 {
			j.BadgeRequirements[i].JobRequestID = j.ID
		}
	}
}

// A BadgeRequirement is a Badge a Worker must hold to take a Job on a Job
// Request. JobRequestParams sends BadgeID alone; the other fields are the
// API's, read from a Job Request.
type BadgeRequirement struct {
	// ID is the requirement's own ID.
	ID      int64 `json:"id"`
	BadgeID int64 `json:"badge_id"`
	// JobRequestID is job_request_id when sent, else the ID of the Job
	// Request it came in.
	JobRequestID     int64  `json:"job_request_id"`
	BadgeName        string `json:"badge_name"`
	BadgeIconURL     string `json:"badge_icon_url"`
	BadgeDescription string `json:"badge_description"`
	CreatedAt        Time   `json:"created_at"`
	UpdatedAt        Time   `json:"updated_at"`
}

// JobRequestState is the state of a Job Request. A state this SDK does
// not know is kept as it was sent.
type JobRequestState string

// The states of a Job Request.
const (
	JobRequestDraft      JobRequestState = "draft"
	JobRequestUnassigned JobRequestState = "unassigned"
	JobRequestPosted     JobRequestState = "posted"
	JobRequestFilled     JobRequestState = "filled"
	JobRequestInProgress JobRequestState = "in_progress"
	JobRequestCompleted  JobRequestState = "completed"
	JobRequestApproved   JobRequestState = "approved"
	JobRequestCancelled  JobRequestState = "cancelled"
	JobRequestUnfilled   JobRequestState = "unfilled"
)

// A Ranking is a Worker's place in a Job Request's ranking of candidates.
type Ranking struct {
	// Rank is 1 for the best candidate.
	Rank     int     `json:"rank"`
	WorkerID int64   `json:"worker_id"`
	Score    Decimal `json:"score"`
	Worker   *User   `json:"worker"`

	// Raw is the ranking's JSON document as received; Worker.Raw is its
	// part of it.
	Raw json.RawMessage `json:"-"`
}

// setRaw keeps b, and hands the Worker its part of it: one copy of the
// ranking's JSON for both.
func (r *Ranking) setRaw(b json.RawMessage) {
	r.Raw = b
	if r.Worker != nil {
		r.Worker.Raw, _ = lastMember(b, "worker")
	}
}

// finish fills WorkerID from the Worker when the API sends only that.
func (r *Ranking) finish() {
	if r.Worker != nil {
		if r.WorkerID == 0 {
			r.WorkerID = r.Worker.ID
		}
		r.Worker.finish()
	}
}

// List returns one page of Job Requests, newest first. Public Pool keys
// see only the Job Requests they created.
//
// API: GET /job_requests
func (s *JobRequestsService) List(ctx context.Context, opts *JobRequestListOptions) ([]*JobRequest, *Response, error) {
	return call[[]*JobRequest](ctx, s.client, list(jobRequests, opts))
}

// All iterates over every Job Request that opts selects, from opts.Page
// on, fetching pages of 50 as it goes. opts.Per is ignored. The iteration
// ends at the first error, which it yields.
//
// API: GET /job_requests
func (s *JobRequestsService) All(ctx context.Context, opts *JobRequestListOptions) iter.Seq2[*JobRequest, error] {
	return allPages(ctx, s.client, opts, s.List)
}

// Sync yields every Job Request changed since *watermark (every one, when
// it is zero), each once, in no particular order, and when the iteration
// ends with every one yielded, sets *watermark to the time to sync from
// next time; after a break or an error it leaves *watermark as it was. It
// skips nothing even while Job Requests change (docs/SYNC.md).
//
// API: GET /info, then GET /job_requests with updated_after and updated_before
func (s *JobRequestsService) Sync(ctx context.Context, watermark *time.Time, opts *SyncOptions) iter.Seq2[*JobRequest, error] {
	return syncAll(ctx, s.client, "job_requests", watermark, opts, func(ctx context.Context, after, before time.Time, page int) ([]*JobRequest, *Response, error) {
		return s.List(ctx, &JobRequestListOptions{ListOptions: ListOptions{Page: page, Per: MaxPerPage}, UpdatedAfter: after, UpdatedBefore: before})
	})
}

// Get returns one Job Request.
//
// API: GET /job_requests/:id
func (s *JobRequestsService) Get(ctx context.Context, id int64) (*JobRequest, *Response, error) {
	return call[*JobRequest](ctx, s.client, jobRequests.get(id))
}

// Create posts a Job Request. Public Pool keys get ErrForbidden. It is
// posted for the Customer of jobRequest.EmployerID, an Employer User of that
// Customer (see JobRequestParams.EmployerID).
//
// When the error matches ErrOutcomeUnknown the Job Request may exist:
// Settle tells whether this call made it, before posting it again.
//
// API: POST /job_requests
func (s *JobRequestsService) Create(ctx context.Context, jobRequest *JobRequestParams) (*JobRequest, *Response, error) {
	return call[*JobRequest](ctx, s.client, jobRequests.create(jobRequest))
}

// Settle returns the Job Request that a Create of params, which failed
// with err matching ErrOutcomeUnknown, made, or an error matching
// ErrNotFound when it made none. Only one made since the call began with
// the fields sent counts (docs/settling.md lists them, and how a time zone
// this machine cannot load is told): give Job Requests an AgentCode of
// your own to tell apart two posted alike at once. One made since and
// changed since that keeps the name, the place or the description sent may
// be the call's, edited: the error then matches ErrUndecided, never
// ErrNotFound. err must be the create's own error.
//
// API: GET /info, then GET /job_requests with updated_after
func (s *JobRequestsService) Settle(ctx context.Context, params *JobRequestParams, err error) (*JobRequest, error) {
	if e := params.check(true); e != nil {
		return nil, e
	}
	zones := map[string]*time.Location{} // the settle's time zones, each loaded once
	return settle(ctx, s.client, err, fmt.Sprintf("Job Request %q", params.RequestName), func(floor time.Time) (*JobRequest, bool, error) {
		// Only updated_after filters the list: every field sent may have
		// been changed since (PATCH), and is compared below instead.
		opts := &JobRequestListOptions{UpdatedAfter: floor.Add(-filterMargin)}
		var zoneless *JobRequest // a candidate whose start could not be compared
		jr, ok, err := settleIn(s.All(ctx, opts), floor, "Job Request", func(jr *JobRequest) Time { return jr.CreatedAt }, func(jr *JobRequest) verdict {
			// Edited since, keeping its name, its place or its description?
			edited := editedSince(jr.CreatedAt, jr.UpdatedAt) && (sameText(jr.RequestName, params.RequestName) ||
				sameText(jr.Address, params.Address) && sameText(jr.Zip, params.Zip) ||
				params.Description != "" && sameText(jr.Description, params.Description) ||
				params.DescriptionTasks != "" && sameText(jr.DescriptionTasks, params.DescriptionTasks))
			if !(sameText(jr.RequestName, params.RequestName) && sameText(jr.Address, params.Address) &&
				sameText(jr.City, params.City) && sameText(jr.Zip, params.Zip) &&
				(params.EmployerID == 0 || jr.EmployerID == params.EmployerID) &&
				(params.AgentCode == "" || strings.TrimSpace(jr.AgentCode) == strings.TrimSpace(params.AgentCode)) &&
				(params.MultiDayJobRequestID == 0 || jr.MultiDayJobRequestID == params.MultiDayJobRequestID) &&
				(params.Classification == "" || jr.Classification == params.Classification)) {
				return doubtIf(edited)
			}
			if params.StartTime.IsZero() {
				return theCall
			}
			switch match, unknown := startsAt(jr, params.StartTime, zones); {
			case match:
				return theCall
			case unknown:
				zoneless = jr
				return maybeTheCall
			}
			return doubtIf(edited) // its start moved since?
		})
		if zoneless != nil && errors.Is(err, ErrUndecided) {
			err = fmt.Errorf("%w (Job Request %d matches all but its start, which cannot be compared: its time zone %q is not known on this machine; a binary without zoneinfo needs import _ \"time/tzdata\")",
				err, zoneless.ID, zoneless.Timezone)
		}
		return jr, ok, err
	})
}

// Update changes the fields of a Job Request that changes sets; at least
// one must be. Public Pool keys get ErrForbidden.
//
// API: PATCH /job_requests/:id
func (s *JobRequestsService) Update(ctx context.Context, id int64, changes *JobRequestParams) (*JobRequest, *Response, error) {
	return call[*JobRequest](ctx, s.client, jobRequests.update(id, changes))
}

// Cancel cancels a Job Request, and with it its open Jobs. A Job Request
// past cancelling gets ErrUnprocessable.
//
// API: PATCH /job_requests/:id with state=cancelled
func (s *JobRequestsService) Cancel(ctx context.Context, id int64) (*JobRequest, *Response, error) {
	return call[*JobRequest](ctx, s.client, jobRequests.updateUnwrapped(id, &jobRequestCancel{State: JobRequestCancelled}))
}

// Rankings returns the Workers ranked as candidates for a Job Request,
// best first. Public Pool keys get ErrForbidden.
//
// API: GET /job_requests/:id/rankings
func (s *JobRequestsService) Rankings(ctx context.Context, id int64) ([]*Ranking, *Response, error) {
	return call[[]*Ranking](ctx, s.client, jobRequests.nested(id, "rankings"))
}

// ResendNotifications notifies Workers of a Job Request again, all at
// once with SwitchOn, in waves with SwitchOff; "" sends no setting. Like a
// create, it is sent again only when the server provably did not act.
//
// API: POST /job_requests/:id/resend_notifications
func (s *JobRequestsService) ResendNotifications(ctx context.Context, id int64, pushAllASAP Switch) (*JobRequest, *Response, error) {
	return call[*JobRequest](ctx, s.client, jobRequests.act(id, "resend_notifications", &notificationParams{pushAllASAP}, notIdempotent))
}

// ReRankWorkers ranks the candidates for a Job Request again.
//
// API: POST /job_requests/:id/re_rank_workers
func (s *JobRequestsService) ReRankWorkers(ctx context.Context, id int64) (*JobRequest, *Response, error) {
	return call[*JobRequest](ctx, s.client, jobRequests.act(id, "re_rank_workers", nil, idempotent))
}
