package workforcetest

import "time"

// userJSON is a User as the API writes it (CONTRACT §6 Users).
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
	Rating              *string         `json:"rating"`
	AgreedToTerms       bool            `json:"agreed_to_terms"`
	AgreedToTermsDate   *string         `json:"agreed_to_terms_date"`
	ExternalID          *string         `json:"external_id"`
	OnboardingLastState *string         `json:"onboarding_last_state"`
	W2EmployeeID        *string         `json:"w2_employee_id"`
	W2OnboardingStatus  *string         `json:"w2_onboarding_status"`
	DrugTested          bool            `json:"drug_tested"`
	VerifiedPhone       bool            `json:"verified_phone"`
	PhoneVerifiedAt     *string         `json:"phone_verified_at"`
	CustomerID          *int64          `json:"customer_id"`
	Role                *string         `json:"role"`
	Title               *string         `json:"title"`
	SyncedWorkerID      *int64          `json:"synced_worker_id"`
	UserBadges          []userBadgeJSON `json:"user_badges"`
	UpdatedAt           string          `json:"updated_at"`
}

// renderUser writes u with its Badges, or null for a missing user. The caller holds st.mu.
func (st *store) renderUser(u *user) *userJSON {
	if u == nil {
		return nil
	}
	badges := make([]userBadgeJSON, 0, len(u.badges))
	for _, h := range u.badges {
		if b := st.badges.rows[h.badgeID]; b != nil {
			badges = append(badges, userBadgeJSON{ID: h.id, BadgeID: h.badgeID, Name: b.name})
		}
	}
	return &userJSON{
		ID: u.id, Type: u.kind, FirstName: u.firstName, LastName: u.lastName,
		Email: optString(u.email), Phone: optString(u.phone), Gender: optString(u.gender),
		AvatarURL: optString(u.avatarURL), Address: optString(u.address), City: optString(u.city),
		AddressState: optString(u.addressState), Zip: optString(u.zip),
		Suspended: !u.suspendedAt.IsZero(), SuspendedAt: optUTC(u.suspendedAt),
		Rating:        optString(u.rating),
		AgreedToTerms: !u.agreedToTermsAt.IsZero(), AgreedToTermsDate: optUTC(u.agreedToTermsAt),
		ExternalID: optString(u.externalID), OnboardingLastState: optString(u.onboardingLastState),
		W2EmployeeID: optString(u.w2EmployeeID), W2OnboardingStatus: optString(u.w2OnboardingStatus),
		DrugTested: u.drugTested, VerifiedPhone: !u.phoneVerifiedAt.IsZero(),
		PhoneVerifiedAt: optUTC(u.phoneVerifiedAt), CustomerID: optID(u.customerID),
		Role: optString(u.role), Title: optString(u.title), SyncedWorkerID: optID(u.syncedWorkerID),
		UserBadges: badges, UpdatedAt: localTime(u.updatedAt),
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
	Name      string  `json:"name"`
	CreatedAt string  `json:"created_at"`
	Latitude  *string `json:"latitude"`
	Longitude *string `json:"longitude"`
}

// jobJSON is a Job as the API writes it (CONTRACT §6 Jobs).
type jobJSON struct {
	ID              int64            `json:"id"`
	State           string           `json:"state"`
	JobRequestID    int64            `json:"job_request_id"`
	WorkerID        int64            `json:"worker_id"`
	CreatedAt       string           `json:"created_at"`
	UpdatedAt       string           `json:"updated_at"`
	ConfirmedAt     *string          `json:"confirmed_at"`
	StartedAt       *string          `json:"started_at"`
	CompletedAt     *string          `json:"completed_at"`
	FinishedAt      *string          `json:"finished_at"`
	HoursWorked     *float64         `json:"hours_worked"`
	ActualDuration  *int             `json:"actual_duration"`
	TimeToStart     *int64           `json:"time_to_start"`
	AdjustedWage    *string          `json:"adjusted_wage"`
	RequestorNotes  *string          `json:"requestor_notes"`
	Classification  string           `json:"classification"`
	W2HourlyRate    *string          `json:"w2_hourly_rate"`
	W2PaymentRef    *string          `json:"w2_payment_ref"`
	W2PayStatus     *string          `json:"w2_pay_status"`
	CancelledReason *string          `json:"cancelled_reason"`
	Worker          *userJSON        `json:"worker"`
	Employer        *userJSON        `json:"employer"`
	Transitions     []transitionJSON `json:"transitions"`
}

// renderJob writes j with its Worker, its Job Request's employer and its transitions (newest
// first). The caller holds st.mu.
func (st *store) renderJob(j *job) jobJSON {
	out := jobJSON{
		ID: j.id, State: j.state, JobRequestID: j.jobRequestID, WorkerID: j.workerID,
		CreatedAt: localTime(j.createdAt), UpdatedAt: localTime(j.updatedAt),
		ConfirmedAt: optUTC(j.confirmedAt), StartedAt: optUTC(j.startedAt),
		CompletedAt: optUTC(j.completedAt), FinishedAt: optUTC(j.finishedAt),
		HoursWorked: j.hoursWorked, ActualDuration: j.actualDuration,
		AdjustedWage: optString(j.adjustedWage), RequestorNotes: optString(j.requestorNotes),
		Classification: j.classification, W2HourlyRate: optString(j.w2HourlyRate),
		W2PaymentRef: optString(j.w2PaymentRef), W2PayStatus: optString(j.w2PayStatus),
		CancelledReason: optString(j.cancelledReason),
		Worker:          st.renderUser(st.users.rows[j.workerID]),
		Transitions:     make([]transitionJSON, 0, len(j.transitions)),
	}
	if jr, ok := st.jobRequests.rows[j.jobRequestID]; ok {
		out.Employer = st.renderUser(st.users.rows[jr.employerID])
	}
	out.TimeToStart = st.timeToStart(j)
	for i := len(j.transitions) - 1; i >= 0; i-- {
		t := j.transitions[i]
		out.Transitions = append(out.Transitions, transitionJSON{
			ID: t.id, JobID: j.id, Name: t.name, CreatedAt: localTime(t.createdAt),
			Latitude: optString(t.latitude), Longitude: optString(t.longitude),
		})
	}
	return out
}
