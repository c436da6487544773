package workforce

import "encoding/json"

// A User is a Worker or an Employer (a Requestor). Jobs embed theirs.
type User struct {
	ID                  int64           `json:"id"`
	Type                UserType        `json:"type"`
	FirstName           string          `json:"first_name"`
	LastName            string          `json:"last_name"`
	Email               string          `json:"email"`
	Phone               string          `json:"phone"`
	Gender              string          `json:"gender"`
	AvatarURL           string          `json:"avatar_url"`
	Address             string          `json:"address"`
	City                string          `json:"city"`
	AddressState        string          `json:"address_state"`
	Zip                 string          `json:"zip"`
	Suspended           bool            `json:"suspended"`
	SuspendedAt         Time            `json:"suspended_at"`
	Rating              Decimal         `json:"rating"`
	AgreedToTerms       bool            `json:"agreed_to_terms"`
	AgreedToTermsDate   Time            `json:"agreed_to_terms_date"`
	ExternalID          string          `json:"external_id"`
	OnboardingLastState string          `json:"onboarding_last_state"`
	W2EmployeeID        string          `json:"w2_employee_id"`
	W2OnboardingStatus  string          `json:"w2_onboarding_status"`
	DrugTested          json.RawMessage `json:"drug_tested"` // undocumented type: kept as sent
	VerifiedPhone       bool            `json:"verified_phone"`
	PhoneVerifiedAt     Time            `json:"phone_verified_at"`
	CustomerID          int64           `json:"customer_id"`
	Role                string          `json:"role"`
	Title               string          `json:"title"`
	SyncedWorkerID      int64           `json:"synced_worker_id"`
	UserBadges          json.RawMessage `json:"user_badges"` // undocumented shape: kept as sent
	UpdatedAt           Time            `json:"updated_at"`

	// Raw is the User's JSON document as received, with every field,
	// including those this type does not model. A User embedded in a Job
	// has none of its own: its document is inside the Job's Raw.
	Raw json.RawMessage `json:"-"`
}

func (u *User) setRaw(b json.RawMessage) { u.Raw = b }

// UserType tells Workers from Employers.
type UserType string

// The user types.
const (
	UserWorker   UserType = "Worker"
	UserEmployer UserType = "Employer"
)
