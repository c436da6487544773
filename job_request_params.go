package workforce

import (
	"encoding/json"
	"fmt"
	"time"
)

// What Job Request calls send: the list filters and the write
// parameters, with the checks that refuse them before any I/O.

// AgentCodeNull is the AgentCode filter that selects the Job Requests
// without an agent code. (The API spells it as the text "Null", so a Job
// Request whose agent code is that text cannot be selected by it.)
const AgentCodeNull = "Null"

// JobRequestListOptions filters and pages GET /job_requests. Zero fields
// are not sent.
type JobRequestListOptions struct {
	ListOptions
	// State selects Job Requests in this state.
	State JobRequestState `url:"state,omitempty"`
	// CompanyID selects the Job Requests of one Customer (their CustomerID).
	CompanyID int64 `url:"company_id,omitempty"`
	// MultiDayJobRequestID selects the days of one Multi-day Job Request.
	MultiDayJobRequestID int64 `url:"multi_day_job_request_id,omitempty"`
	// Classification selects 1099 or W2 Job Requests.
	Classification Classification `url:"classification,omitempty"`
	// W2HourlyRate selects W2 Job Requests paying this hourly rate.
	W2HourlyRate Decimal `url:"w2_hourly_rate,omitempty"`
	// UpdatedBefore and UpdatedAfter select Job Requests by the time of
	// their last change, sent in RFC 3339 with the fraction of a second.
	UpdatedBefore time.Time `url:"updated_before,omitempty" layout:"2006-01-02T15:04:05.999999999Z07:00"`
	UpdatedAfter  time.Time `url:"updated_after,omitempty" layout:"2006-01-02T15:04:05.999999999Z07:00"`
	// AgentCode selects Job Requests by agent code (at most 25
	// characters); AgentCodeNull selects those without one.
	AgentCode string `url:"agent_code,omitempty"`
}

func (o *JobRequestListOptions) check() error {
	return firstError(
		checkNotNegative("CompanyID", o.CompanyID),
		checkNotNegative("MultiDayJobRequestID", o.MultiDayJobRequestID),
		o.Classification.check("Classification"),
		checkLength("AgentCode", o.AgentCode, 25),
		o.ListOptions.check())
}

// JobRequestParams is the body of POST /job_requests and PATCH
// /job_requests/:id. Zero fields are not sent, so an update changes only
// what is set; Ptr(false) sends false.
//
// To create, RequestName, Zip, City, Address, Slots (at least 1),
// DescriptionTasks or Description, Category and State (JobRequestPosted,
// or JobRequestDraft) are required, and a W2 Job Request needs its
// W2HourlyRate.
type JobRequestParams struct {
	RequestName        string `json:"request_name,omitempty"`
	Zip                string `json:"zip,omitempty"`
	City               string `json:"city,omitempty"`
	Address            string `json:"address,omitempty"`
	Venue              string `json:"venue,omitempty"`
	Slots              int    `json:"slots,omitempty"`
	Category           string `json:"category,omitempty"`
	Description        string `json:"description,omitempty"`
	DescriptionTasks   string `json:"description_tasks,omitempty"`
	DescriptionCompany string `json:"description_company,omitempty"`
	DescriptionTravel  string `json:"description_travel,omitempty"`
	// DescriptionSkills is sent joined by "|".
	DescriptionSkills  Skills          `json:"description_skills,omitempty"`
	DescriptionContact string          `json:"description_contact,omitempty"`
	DescriptionArrival string          `json:"description_arrival,omitempty"`
	State              JobRequestState `json:"state,omitempty"`
	// StartTime is the wall-clock time the work starts at the venue, such
	// as NewWallClock(2026, 12, 1, 9, 0); it carries no zone.
	StartTime WallClock `json:"start_time,omitzero"`
	// Duration is the length of the work in minutes.
	Duration int `json:"duration,omitempty"`
	// EmployerID is the Requestor the Job Request is posted for: an
	// Employer User (Users.List with Type UserEmployer). The Job Request
	// belongs to that User's Customer (User.CustomerID): there is no
	// Customer field to send, so to post for a given Customer, name one of
	// its Employers; Users.Create with Type UserEmployer and CustomerID
	// makes one. The Customer must allow the Classification (CanPost1099,
	// CanPostW2). Left zero on a create, the server chooses the Requestor.
	EmployerID int64   `json:"employer_id,omitempty"`
	Wage       Decimal `json:"wage,omitzero"`
	// Classification is Classification1099 (the API's default) or
	// ClassificationW2, which needs W2HourlyRate.
	Classification Classification `json:"classification,omitempty"`
	W2HourlyRate   Decimal        `json:"w2_hourly_rate,omitzero"`
	OpenRequest    *bool          `json:"open_request,omitempty"`
	// MultiDay and MultiDayJobRequestID make the Job Request one day of a
	// Multi-day Job Request, created first with MultiDayJobRequests.Create.
	MultiDay             *bool `json:"multi_day,omitempty"`
	MultiDayJobRequestID int64 `json:"multi_day_job_request_id,omitempty"`
	// PreferredCandidateIDs are Workers offered the work first.
	PreferredCandidateIDs []int64 `json:"preferred_candidate_ids,omitempty"`
	// BanList holds Workers who may not take the work.
	BanList []int64 `json:"ban_list,omitempty"`
	// BadgeRequirements are Badges a Worker must hold to take a Job.
	BadgeRequirements []BadgeRequirement `json:"badge_requirements_attributes,omitempty"`
	// NotificationDistance is how far from the venue, in miles, Workers
	// are notified.
	NotificationDistance Decimal `json:"notification_distance,omitzero"`
	// PushAllNotificationsASAP notifies every Worker at once rather than
	// in waves.
	PushAllNotificationsASAP Switch `json:"push_all_notifications_asap,omitempty"`
	// Can is the API's "can" parameter, which it does not document; it is
	// sent as given.
	Can string `json:"can,omitempty"`
	// AgentCode is 1 to 25 characters.
	AgentCode          string `json:"agent_code,omitempty"`
	OrganizationalPath string `json:"organizational_path,omitempty"`
	UsePendingState    *bool  `json:"use_pending_state,omitempty"`
}

// MarshalJSON writes the parameters as the API takes them: every field
// that is set, and each Badge requirement as {"badge_id": N} alone.
func (p JobRequestParams) MarshalJSON() ([]byte, error) {
	type plain JobRequestParams // without this method
	type attribute struct {
		BadgeID int64 `json:"badge_id"`
	}
	var attributes []attribute
	for _, r := range p.BadgeRequirements {
		attributes = append(attributes, attribute{r.BadgeID})
	}
	return json.Marshal(struct {
		plain
		BadgeRequirements []attribute `json:"badge_requirements_attributes,omitempty"` // hides plain's
	}{plain(p), attributes})
}

// check refuses fields out of range; create also requires what the API
// requires.
func (p *JobRequestParams) check(create bool) error {
	if err := checkSomething("JobRequestParams", p); err != nil {
		return err
	}
	if create {
		description := checkRequired("DescriptionTasks", p.DescriptionTasks+p.Description)
		if description != nil {
			description = &ArgumentError{Name: "DescriptionTasks", Reason: "or Description is required"}
		}
		var rate error
		if p.Classification == ClassificationW2 && !p.W2HourlyRate.Valid() {
			rate = &ArgumentError{Name: "W2HourlyRate", Reason: "is required for a W2 Job Request"}
		}
		var slots error
		if p.Slots < 1 {
			slots = &ArgumentError{Name: "Slots", Reason: fmt.Sprintf("must be at least 1, got %d", p.Slots)}
		}
		if err := firstError(checkRequired("RequestName", p.RequestName), checkRequired("Zip", p.Zip),
			checkRequired("City", p.City), checkRequired("Address", p.Address), slots, description,
			checkRequired("Category", p.Category), checkRequired("State", string(p.State)), rate); err != nil {
			return err
		}
	}
	var slots error
	if p.Slots < 0 {
		slots = &ArgumentError{Name: "Slots", Reason: fmt.Sprintf("must be at least 1, got %d", p.Slots)}
	}
	return firstError(slots,
		checkNotNegative("Duration", p.Duration),
		checkNotNegative("EmployerID", p.EmployerID),
		checkNotNegative("MultiDayJobRequestID", p.MultiDayJobRequestID),
		checkIDs("PreferredCandidateIDs", p.PreferredCandidateIDs),
		checkIDs("BanList", p.BanList),
		checkBadgeRequirements(p.BadgeRequirements),
		p.DescriptionSkills.check("DescriptionSkills"),
		checkDecimal("Wage", p.Wage),
		checkDecimal("W2HourlyRate", p.W2HourlyRate),
		checkDecimal("NotificationDistance", p.NotificationDistance),
		p.Classification.check("Classification"),
		p.PushAllNotificationsASAP.check("PushAllNotificationsASAP"),
		checkLength("AgentCode", p.AgentCode, 25))
}

func checkBadgeRequirements(reqs []BadgeRequirement) error {
	for i, r := range reqs {
		if err := checkID(fmt.Sprintf("BadgeRequirements[%d].BadgeID", i), r.BadgeID); err != nil {
			return err
		}
	}
	return nil
}

// jobRequestCancel is the body of PATCH /job_requests/:id that cancels
// it: the state alone, at the top level.
type jobRequestCancel struct {
	State JobRequestState `json:"state"`
}

func (*jobRequestCancel) check(bool) error { return nil }

// notificationParams are the body of POST
// /job_requests/:id/resend_notifications.
type notificationParams struct {
	PushAllASAP Switch `json:"push_all_notifications_asap,omitempty"`
}

func (p *notificationParams) check(bool) error { return p.PushAllASAP.check("pushAllASAP") }
