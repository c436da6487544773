package workforcetest

import (
	"encoding/json"
	"strconv"
	"time"
)

// userJSON is a User as GET /users writes it (CONTRACT §6 Users, in the forms of the real
// client's schema, §10): drug_tested and verified_phone as text, rating as a number.
type userJSON struct {
	ID                  int64           `json:"id"`
	Type                string          `json:"type"`
	FirstName           string          `json:"first_name"`
	LastName            string          `json:"last_name"`
	Email               *string         `json:"email"`
	Phone               *string         `json:"phone"`
	Gender              *string         `json:"gender"`
	AvatarURL           *string         `json:"avatar_url"`
	Address             *string         `json:"address"`
	City                *string         `json:"city"`
	AddressState        *string         `json:"address_state"`
	Zip                 *string         `json:"zip"`
	Suspended           bool            `json:"suspended"`
	SuspendedAt         *string         `json:"suspended_at"`
	Rating              *json.Number    `json:"rating"`
	AgreedToTerms       bool            `json:"agreed_to_terms"`
	AgreedToTermsDate   *string         `json:"agreed_to_terms_date"`
	ExternalID          *string         `json:"external_id"`
	OnboardingLastState *string         `json:"onboarding_last_state"`
	W2EmployeeID        *string         `json:"w2_employee_id"`
	W2OnboardingStatus  *string         `json:"w2_onboarding_status"`
	DrugTested          string          `json:"drug_tested"`
	VerifiedPhone       string          `json:"verified_phone"`
	PhoneVerifiedAt     *string         `json:"phone_verified_at"`
	CustomerID          *int64          `json:"customer_id"`
	Role                *string         `json:"role"`
	Title               *string         `json:"title"`
	SyncedWorkerID      *int64          `json:"synced_worker_id"`
	UserBadges          []userBadgeJSON `json:"user_badges"`
	UpdatedAt           string          `json:"updated_at"`
}

// renderUser writes u as GET /users does, with its Badges, or null for a missing user. The
// caller holds st.mu.
func (st *store) renderUser(u *user) *userJSON {
	if u == nil {
		return nil
	}
	return &userJSON{
		ID: u.id, Type: u.kind, FirstName: u.firstName, LastName: u.lastName,
		Email: optString(u.email), Phone: optString(u.phone), Gender: optString(u.gender),
		AvatarURL: optString(u.avatarURL), Address: optString(u.address), City: optString(u.city),
		AddressState: optString(u.addressState), Zip: optString(u.zip),
		Suspended: !u.suspendedAt.IsZero(), SuspendedAt: optLocal(u.suspendedAt),
		Rating:        optNumber(u.rating),
		AgreedToTerms: !u.agreedToTermsAt.IsZero(), AgreedToTermsDate: optLocal(u.agreedToTermsAt),
		ExternalID: optString(u.externalID), OnboardingLastState: optString(u.onboardingLastState),
		W2EmployeeID: optString(u.w2EmployeeID), W2OnboardingStatus: optString(u.w2OnboardingStatus),
		DrugTested: strconv.FormatBool(u.drugTested), VerifiedPhone: strconv.FormatBool(!u.phoneVerifiedAt.IsZero()),
		PhoneVerifiedAt: optLocal(u.phoneVerifiedAt), CustomerID: optID(u.customerID),
		Role: optString(u.role), Title: optString(u.title), SyncedWorkerID: optID(u.syncedWorkerID),
		UserBadges: st.renderUserBadges(u), UpdatedAt: localTime(u.updatedAt),
	}
}

// embeddedUserJSON is a User as a Job embeds it (its worker and employer) and as a ranking does:
// exactly the keys and forms of the live API's (CONTRACT §10 "Embedded Users").
type embeddedUserJSON struct {
	ID                  int64           `json:"id"`
	ExternalID          *string         `json:"external_id"`
	Type                string          `json:"type"`
	FirstName           string          `json:"first_name"`
	LastName            string          `json:"last_name"`
	AvatarURL           *string         `json:"avatar_url"`
	City                *string         `json:"city"`
	Zip                 *string         `json:"zip"`
	Rating              *string         `json:"rating"`
	Suspended           bool            `json:"suspended"`
	Latitude            *string         `json:"latitude"`
	Longitude           *string         `json:"longitude"`
	WorkplaceImageURL   *string         `json:"workplace_image_url"`
	LogoURL             *string         `json:"logo_url"`
	BusinessName        *string         `json:"business_name"`
	Email               *string         `json:"email"`
	Gender              *string         `json:"gender"`
	W2EmployeeID        *string         `json:"w2_employee_id"`
	W2OnboardingStatus  *string         `json:"w2_onboarding_status"`
	W2OnboardingStarted bool            `json:"w2_onboarding_started"`
	DOB                 *string         `json:"dob"`
	SSN                 string          `json:"ssn"`
	Address             *string         `json:"address"`
	AddressState        *string         `json:"address_state"`
	UserBadges          []userBadgeJSON `json:"user_badges"`
}

// renderEmbeddedUser writes u as a Job embeds it, or null for a missing user. An Employer's
// business is its Customer's name. The SSN is never kept: it is written "", as the API does. The
// caller holds st.mu.
func (st *store) renderEmbeddedUser(u *user) *embeddedUserJSON {
	if u == nil {
		return nil
	}
	var business string
	if c := st.customers.rows[u.customerID]; c != nil && u.kind == kindEmployer {
		business = c.name
	}
	var dob *string
	if !u.dob.IsZero() {
		d := u.dob.Format(layoutDate)
		dob = &d
	}
	return &embeddedUserJSON{
		ID: u.id, ExternalID: optString(u.externalID), Type: u.kind, FirstName: u.firstName, LastName: u.lastName,
		AvatarURL: optString(u.avatarURL), City: optString(u.city), Zip: optString(u.zip), Rating: optString(u.rating),
		Suspended: !u.suspendedAt.IsZero(), Latitude: optString(u.latitude), Longitude: optString(u.longitude),
		WorkplaceImageURL: optString(u.workplaceImageURL), LogoURL: optString(u.logoURL), BusinessName: optString(business),
		Email: optString(u.email), Gender: optString(u.gender), W2EmployeeID: optString(u.w2EmployeeID),
		W2OnboardingStatus: optString(u.w2OnboardingStatus), W2OnboardingStarted: u.w2OnboardingStatus != "",
		DOB: dob, SSN: "", Address: optString(u.address), AddressState: optString(u.addressState),
		UserBadges: st.renderUserBadges(u),
	}
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

// transitionJSON is one state change of a Job as the API writes it.
type transitionJSON struct {
	ID        int64   `json:"id"`
	JobID     int64   `json:"job_id"`
	CreatedAt string  `json:"created_at"`
	Name      string  `json:"name"`
	Latitude  *string `json:"latitude"`
	Longitude *string `json:"longitude"`
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

// optNumber answers the decimal s, kept as written, as a JSON number, or nil (null) when it is
// "". A form JSON does not write (".5", "5.", "+5"), which write parameters may hold, is written
// in its shortest JSON form.
func optNumber(s string) *json.Number {
	if s == "" {
		return nil
	}
	n := json.Number(s)
	if !json.Valid([]byte(s)) || s[0] == '+' {
		f, _ := strconv.ParseFloat(s, 64)
		n = json.Number(strconv.FormatFloat(f, 'f', -1, 64))
	}
	return &n
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
