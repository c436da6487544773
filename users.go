package workforce

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"time"
)

// UsersService reads, creates, invites and changes Users: Workers and
// Employers.
type UsersService service

// A User is a Worker or an Employer (a Requestor). Jobs embed theirs: an
// embedded User carries the fields of a Job's worker and employer (id,
// external_id, type, names, avatar_url, city, zip, rating, suspended,
// latitude, longitude, workplace_image_url, logo_url, business_name,
// email, gender, the W2 fields, dob, ssn, address, address_state,
// user_badges); a standalone User (GET /users/:id, a ranking's worker)
// those and suspended_until, the home coordinates, lower_pool and the
// others below; GET /users may send the others still. A field not sent is
// zero.
type User struct {
	ID                  int64    `json:"id"`
	Type                UserType `json:"type"`
	FirstName           string   `json:"first_name"`
	LastName            string   `json:"last_name"`
	Email               string   `json:"email"`
	Phone               string   `json:"phone"`
	Gender              string   `json:"gender"`
	AvatarURL           string   `json:"avatar_url"`
	Address             string   `json:"address"`
	City                string   `json:"city"`
	AddressState        string   `json:"address_state"`
	Zip                 string   `json:"zip"`
	Suspended           bool     `json:"suspended"`
	SuspendedAt         Time     `json:"suspended_at"`
	Rating              Decimal  `json:"rating"`
	AgreedToTerms       bool     `json:"agreed_to_terms"`
	AgreedToTermsDate   Time     `json:"agreed_to_terms_date"`
	ExternalID          string   `json:"external_id"`
	OnboardingLastState string   `json:"onboarding_last_state"`
	W2EmployeeID        string   `json:"w2_employee_id"`
	W2OnboardingStatus  string   `json:"w2_onboarding_status"`
	// W2OnboardingStarted is when the Worker began W2 onboarding; zero
	// when they have not.
	W2OnboardingStarted Time `json:"w2_onboarding_started"`
	// W2OnboardingCompleted is when the Worker finished W2 onboarding.
	W2OnboardingCompleted Time `json:"w2_onboarding_completed"`
	// W2AddressState is the state of the Worker's W2 address.
	W2AddressState string `json:"w2_address_state"`
	// SuspendedUntil is when a suspension ends; zero when it does not
	// (or the User is not suspended).
	SuspendedUntil Time `json:"suspended_until"`
	// LowerPool marks a Worker placed in the lower pool, until
	// LowerPoolUntil.
	LowerPool      bool `json:"lower_pool"`
	LowerPoolUntil Time `json:"lower_pool_until"`
	// OnboardingApptTime is the Worker's onboarding appointment.
	OnboardingApptTime Time `json:"onboarding_appt_time"`
	// HomeLatitude and HomeLongitude are where the User lives.
	HomeLatitude  Decimal `json:"home_latitude"`
	HomeLongitude Decimal `json:"home_longitude"`
	// ReferredBy and TrackingCode are how the User came to the platform,
	// as sent.
	ReferredBy   string `json:"referred_by"`
	TrackingCode string `json:"tracking_code"`
	// DrugTested and VerifiedPhone are read from a boolean or from the
	// text the API may send instead ("true", "false", "1", "0").
	DrugTested      bool   `json:"drug_tested"`
	VerifiedPhone   bool   `json:"verified_phone"`
	PhoneVerifiedAt Time   `json:"phone_verified_at"`
	CustomerID      int64  `json:"customer_id"`
	Role            string `json:"role"`
	Title           string `json:"title"`
	SyncedWorkerID  int64  `json:"synced_worker_id"`
	// Latitude and Longitude are where the User is based.
	Latitude  Decimal `json:"latitude"`
	Longitude Decimal `json:"longitude"`
	// DOB is the date of birth, and SSN the social security number (the
	// API sends "" for it): personal data, to be handled as such.
	DOB               Date   `json:"dob"`
	SSN               string `json:"ssn"`
	BusinessName      string `json:"business_name"`
	LogoURL           string `json:"logo_url"`
	WorkplaceImageURL string `json:"workplace_image_url"`
	// UserBadges are the Badges the User holds.
	UserBadges []UserBadge `json:"user_badges"`
	UpdatedAt  Time        `json:"updated_at"`

	// Raw is the User's JSON document as received, with every field,
	// including those this type does not model. A User embedded in a Job
	// has none of its own: its document is inside the Job's Raw.
	Raw json.RawMessage `json:"-"`
}

// A UserBadge is a User's holding of a Badge. Its ID is the holding's own,
// the one UserBadgeAttributes.ID names to take it away.
type UserBadge struct {
	ID int64 `json:"id"`
	// UserID is the holder: user_id when the API sends it, else the ID of
	// the User it came in.
	UserID  int64 `json:"user_id"`
	BadgeID int64 `json:"badge_id"`
	// ExpiresAt is when the holding lapses; zero when it does not.
	ExpiresAt Time `json:"expires_at"`
	// Suspended marks a holding that does not count for now.
	Suspended bool   `json:"suspended"`
	Category  string `json:"category"`
	CreatedAt Time   `json:"created_at"`
	UpdatedAt Time   `json:"updated_at"`
}

func (u *User) setRaw(b json.RawMessage) { u.Raw = b }
func (u *User) listID() int64            { return u.ID }

// finish fills the IDs the API sends only in the User itself.
func (u *User) finish() {
	for i := range u.UserBadges {
		if u.UserBadges[i].UserID == 0 {
			u.UserBadges[i].UserID = u.ID
		}
	}
}

func (u *User) updated() time.Time { return u.UpdatedAt.Time }

// UserType tells Workers from Employers. A type this SDK does not know is
// kept as it was sent when decoding, but refused when sending.
type UserType string

// The user types.
const (
	UserWorker   UserType = "Worker"
	UserEmployer UserType = "Employer"
)

// check refuses a type other than the two the API knows; "" passes.
func (t UserType) check(name string) error {
	return checkOneOf(name, string(t), string(UserWorker), string(UserEmployer))
}

// A TrackingPoint is where a Worker checked in on a Job.
type TrackingPoint struct {
	JobID      int64   `json:"job_id"`
	Latitude   Decimal `json:"latitude"`
	Longitude  Decimal `json:"longitude"`
	RecordedAt Time    `json:"recorded_at"`

	// Raw is the point's JSON document as received.
	Raw json.RawMessage `json:"-"`
}

func (p *TrackingPoint) setRaw(b json.RawMessage) { p.Raw = b }

// List returns one page of Users, newest first.
//
// API: GET /users
func (s *UsersService) List(ctx context.Context, opts *UserListOptions) ([]*User, *Response, error) {
	return call[[]*User](ctx, s.client, list(users, opts))
}

// All iterates over every User that opts selects, from opts.Page on,
// fetching pages of 50 as it goes. opts.Per is ignored. The iteration ends
// at the first error, which it yields.
//
// API: GET /users
func (s *UsersService) All(ctx context.Context, opts *UserListOptions) iter.Seq2[*User, error] {
	return allPages(ctx, s.client, opts, s.List)
}

// Sync yields every User changed since *watermark (every one, when it is
// zero), each once, in no particular order, and when the iteration ends
// with every one yielded, sets *watermark to the time to sync from next
// time; after a break or an error it leaves *watermark as it was. It skips
// nothing even while Users change (docs/SYNC.md).
//
// API: GET /info, then GET /users with updated_after and updated_before
func (s *UsersService) Sync(ctx context.Context, watermark *time.Time, opts *SyncOptions) iter.Seq2[*User, error] {
	return syncAll(ctx, s.client, "users", watermark, opts, func(ctx context.Context, after, before time.Time, page int) ([]*User, *Response, error) {
		return s.List(ctx, &UserListOptions{ListOptions: ListOptions{Page: page, Per: MaxPerPage}, UpdatedAfter: after, UpdatedBefore: before})
	})
}

// Get returns one User.
//
// API: GET /users/:id
func (s *UsersService) Get(ctx context.Context, id int64) (*User, *Response, error) {
	return call[*User](ctx, s.client, users.get(id))
}

// Create creates a User. Public Pool keys get ErrForbidden.
//
// When the error matches ErrOutcomeUnknown the User may exist: Settle
// tells whether this call made it, before creating it again.
//
// API: POST /users
func (s *UsersService) Create(ctx context.Context, user *UserCreate) (*User, *Response, error) {
	return call[*User](ctx, s.client, users.create(user))
}

// Invite invites a Worker or an Employer by text message to join. Public
// Pool keys get ErrForbidden.
//
// When the error matches ErrOutcomeUnknown the invitation may have gone
// out: SettleInvite tells whether this call made the User, before inviting
// again (or the person may get two texts).
//
// API: POST /users/invite
func (s *UsersService) Invite(ctx context.Context, invite *UserInvite) (*User, *Response, error) {
	return call[*User](ctx, s.client, userInvitations.create(invite))
}

// Settle returns the User that a Create of user, which failed with err
// matching ErrOutcomeUnknown, made, or an error matching ErrNotFound when
// it made none. Only a User with the Email sent (in any case), else the
// Phone (by its digits), the same Type and names, made since the call began
// (or, with no created_at, changed since) counts. One that may be the
// call's changed since (other names, another email or phone) makes the
// error match ErrUndecided, never ErrNotFound (docs/settling.md). err must
// be the create's own error.
//
// API: GET /info, then GET /users with email (or type) and updated_after
func (s *UsersService) Settle(ctx context.Context, user *UserCreate, err error) (*User, error) {
	if e := user.check(true); e != nil {
		return nil, e
	}
	return s.settle(ctx, err, user.Type, user.FirstName, user.LastName, user.Email, user.Phone)
}

// SettleInvite returns the User that an Invite of invite, which failed
// with err matching ErrOutcomeUnknown, made; or an error matching
// ErrNotFound when it made none, as Settle does for a Create.
//
// API: GET /info, then GET /users with email (or type) and updated_after
func (s *UsersService) SettleInvite(ctx context.Context, invite *UserInvite, err error) (*User, error) {
	if e := invite.check(true); e != nil {
		return nil, e
	}
	return s.settle(ctx, err, invite.Type, invite.FirstName, invite.LastName, invite.Email, invite.Phone)
}

// settle finds the User a create or an invite of these values made.
func (s *UsersService) settle(ctx context.Context, callErr error, typ UserType, first, last, email, phone string) (*User, error) {
	what := fmt.Sprintf("User with phone %q", phone)
	if email = strings.TrimSpace(email); email != "" {
		what = fmt.Sprintf("User with email %q", email)
	}
	return settle(ctx, s.client, callErr, what, func(floor time.Time) (*User, bool, error) {
		opts := &UserListOptions{Type: typ, UpdatedAfter: floor.Add(-filterMargin)}
		if email != "" {
			opts.Email = []string{email}
		}
		sameNames := func(u *User) bool { return sameText(u.FirstName, first) && sameText(u.LastName, last) }
		u, ok, err := settleIn(s.All(ctx, opts), floor, "User", userMade, func(u *User) verdict {
			switch {
			case u.Type != typ:
				return notTheCall
			case email != "" && sameText(u.Email, email) && (sameNames(u) || userMadeKnown(u)):
				return theCall // the email is the person: renamed since, when made since
			case email != "" && sameText(u.Email, email):
				return maybeTheCall // renamed since, or made before and changed since: no created_at tells
			case email == "" && samePhone(u.Phone, phone) && sameNames(u):
				return theCall
			case email == "" && (samePhone(u.Phone, phone) || sameNames(u)):
				return maybeTheCall // renamed since, or another person of the phone; or its phone changed
			}
			return notTheCall
		})
		if ok || err != nil || email == "" {
			return u, ok, err
		}
		// None has the email: one whose email changed since it was made
		// may still be the call's.
		opts.Email = nil
		return settleIn(s.All(ctx, opts), floor, "User", userMade, func(u *User) verdict {
			return doubtIf(u.Type == typ && !sameText(u.Email, email) && (sameNames(u) || phone != "" && samePhone(u.Phone, phone)))
		})
	})
}

// Update changes the fields of a User that update sets. Public Pool keys
// get ErrForbidden.
//
// API: PATCH /users/:id
func (s *UsersService) Update(ctx context.Context, id int64, update *UserUpdate) (*User, *Response, error) {
	return call[*User](ctx, s.client, users.update(id, update))
}

// Tracking returns where a Worker checked in on their Jobs, newest first.
// Public Pool keys get ErrForbidden.
//
// API: GET /users/:id/tracking
func (s *UsersService) Tracking(ctx context.Context, id int64) ([]*TrackingPoint, *Response, error) {
	return call[[]*TrackingPoint](ctx, s.client, users.nested(id, "tracking"))
}
