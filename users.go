package workforce

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"log/slog"
	"net/http"
	"net/mail"
	"reflect"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// UsersService reads, creates, invites and changes Users: Workers and
// Employers.
type UsersService service

// A User is a Worker or an Employer (a Requestor). Jobs embed theirs: an
// embedded User carries the fields of a Job's worker and employer (id,
// external_id, type, names, avatar_url, city, zip, rating, suspended,
// latitude, longitude, workplace_image_url, logo_url, business_name,
// email, gender, the W2 fields, dob, ssn, address, address_state,
// user_badges), GET /users the others; a field not sent is zero.
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
	W2OnboardingStarted bool     `json:"w2_onboarding_started"`
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
	switch t {
	case "", UserWorker, UserEmployer:
		return nil
	}
	return &ArgumentError{Name: name, Reason: fmt.Sprintf("must be %q or %q, got %q", UserWorker, UserEmployer, string(t))}
}

// UserListOptions filters and pages GET /users. Zero fields are not sent.
// The filters that are lists select Users matching any of their values;
// the values are sent joined by commas in one parameter, so a value may
// not hold a comma.
type UserListOptions struct {
	ListOptions
	// Type selects Workers or Employers.
	Type UserType `url:"type,omitempty"`
	// Email, FirstName, LastName and ExternalID select Users by any of
	// the values given.
	Email      []string `url:"email,omitempty,comma"`
	FirstName  []string `url:"first_name,omitempty,comma"`
	LastName   []string `url:"last_name,omitempty,comma"`
	ExternalID []string `url:"external_id,omitempty,comma"`
	// OnboardingLastState, W2OnboardingStatus and W2EmployeeID select
	// Workers by where their onboarding and W2 employment stand.
	OnboardingLastState []string `url:"onboarding_last_state,omitempty,comma"`
	W2OnboardingStatus  []string `url:"w2_onboarding_status,omitempty,comma"`
	W2EmployeeID        []string `url:"w2_employee_id,omitempty,comma"`
	// AddressState selects Users by the state of their address, e.g. "IL".
	AddressState []string `url:"address_state,omitempty,comma"`
	// DrugTested selects by the drug-test flag, e.g. []string{"true"}.
	DrugTested []string `url:"drug_tested,omitempty,comma"`
	// UpdatedBefore and UpdatedAfter select Users by the time of their last
	// change, sent in RFC 3339 with the fraction of a second kept.
	UpdatedBefore time.Time `url:"updated_before,omitempty" layout:"2006-01-02T15:04:05.999999999Z07:00"`
	UpdatedAfter  time.Time `url:"updated_after,omitempty" layout:"2006-01-02T15:04:05.999999999Z07:00"`
}

func (o *UserListOptions) check() error {
	if err := o.Type.check("Type"); err != nil {
		return err
	}
	for _, f := range []struct {
		name   string
		values []string
	}{
		{"Email", o.Email}, {"FirstName", o.FirstName}, {"LastName", o.LastName}, {"ExternalID", o.ExternalID},
		{"OnboardingLastState", o.OnboardingLastState}, {"W2OnboardingStatus", o.W2OnboardingStatus},
		{"W2EmployeeID", o.W2EmployeeID}, {"AddressState", o.AddressState}, {"DrugTested", o.DrugTested},
	} {
		for i, v := range f.values {
			switch {
			case strings.TrimSpace(v) == "":
				return &ArgumentError{Name: fmt.Sprintf("%s[%d]", f.name, i), Reason: "is empty"}
			case strings.Contains(v, ","):
				return &ArgumentError{Name: fmt.Sprintf("%s[%d]", f.name, i), Reason: "holds a comma, which the API reads as a separator"}
			}
		}
	}
	return o.ListOptions.check()
}

// UserCreate is the body of POST /users. Type, FirstName, LastName and an
// Email or a Phone are required; zero fields are not sent.
//
// Password and PasswordConfirmation never print: fmt (every verb), slog
// and encoding/json show "[REDACTED]" or leave them out, and only the
// request body the client sends carries them.
type UserCreate struct {
	Type      UserType `json:"type,omitempty"`
	FirstName string   `json:"first_name,omitempty"` // letters, digits, - and . only
	LastName  string   `json:"last_name,omitempty"`  // letters, digits, - and . only
	// Email, if set, is a bare address such as "ada@example.com".
	Email        string `json:"email,omitempty"`
	Phone        string `json:"phone,omitempty"`
	Gender       string `json:"gender,omitempty"`
	Address      string `json:"address,omitempty"`
	City         string `json:"city,omitempty"`
	AddressState string `json:"address_state,omitempty"`
	Zip          string `json:"zip,omitempty"`
	ExternalID   string `json:"external_id,omitempty"`
	// CustomerID ties an Employer to one of the company's Customers.
	CustomerID          int64  `json:"customer_id,omitempty"`
	Role                string `json:"role,omitempty"`
	Title               string `json:"title,omitempty"`
	OnboardingLastState string `json:"onboarding_last_state,omitempty"`
	W2EmployeeID        string `json:"w2_employee_id,omitempty"`
	W2OnboardingStatus  string `json:"w2_onboarding_status,omitempty"`
	// The flags are pointers so that false can be sent; nil sends nothing.
	// Use Ptr(false).
	DrugTested    *bool `json:"drug_tested,omitempty"`
	Suspended     *bool `json:"suspended,omitempty"`
	AgreedToTerms *bool `json:"agreed_to_terms,omitempty"`
	// Password, if set, has 8 or more characters and equals
	// PasswordConfirmation.
	Password             string `json:"password,omitempty"`
	PasswordConfirmation string `json:"password_confirmation,omitempty"`
	// UserBadgesAttributes gives the User Badges or takes them away.
	UserBadgesAttributes []UserBadgeAttributes `json:"user_badges_attributes,omitempty"`
}

// UserUpdate is the body of PATCH /users/:id: the fields of UserCreate,
// every one optional, at least one set. Zero fields are not sent, so a
// text field cannot be cleared. Its passwords never print, as UserCreate's.
type UserUpdate UserCreate

// UserBadgeAttributes gives a User a Badge, or with Destroy takes away the
// User Badge whose ID it names.
type UserBadgeAttributes struct {
	// ID names an existing User Badge (the holding, not the Badge).
	ID int64 `json:"id,omitempty"`
	// BadgeID names the Badge to give.
	BadgeID int64 `json:"badge_id,omitempty"`
	// Destroy takes the User Badge ID names away.
	Destroy bool `json:"_destroy,omitempty"`
}

// userWire encodes a user write with every field, passwords included: it
// has none of UserCreate's methods. Only the request body uses it.
type userWire UserCreate

// MarshalJSON encodes the fields that are set, leaving the passwords out:
// the client sends them, but a caller marshalling u for a log does not.
func (u UserCreate) MarshalJSON() ([]byte, error) { return json.Marshal(userWire(u).public()) }

// MarshalJSON encodes the fields that are set, leaving the passwords out,
// as UserCreate's does.
func (u UserUpdate) MarshalJSON() ([]byte, error) { return json.Marshal(userWire(u).public()) }

// Format prints the fields that are set, the passwords as [REDACTED],
// whatever the verb.
func (u UserCreate) Format(f fmt.State, _ rune) { userWire(u).format(f, "workforce.UserCreate") }

// Format prints the fields that are set, the passwords as [REDACTED],
// whatever the verb.
func (u UserUpdate) Format(f fmt.State, _ rune) { userWire(u).format(f, "workforce.UserUpdate") }

// LogValue logs the fields that are set, the passwords as [REDACTED].
func (u UserCreate) LogValue() slog.Value { return slog.GroupValue(userWire(u).attrs()...) }

// LogValue logs the fields that are set, the passwords as [REDACTED].
func (u UserUpdate) LogValue() slog.Value { return slog.GroupValue(userWire(u).attrs()...) }

// passwords answers the passwords u holds, which no error or log line may
// show should the server echo them.
func (u userWire) passwords() []string {
	var out []string
	for _, p := range []string{u.Password, u.PasswordConfirmation} {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// public returns u without its passwords.
func (u userWire) public() userWire {
	u.Password, u.PasswordConfirmation = "", ""
	return u
}

// attrs lists the fields of u that are set, by Go name, pointers followed
// and every password field replaced by [REDACTED]. It reads the fields by
// reflection, so that a field added later is neither forgotten nor, if its
// JSON name holds "password", shown.
func (u userWire) attrs() []slog.Attr {
	v := reflect.ValueOf(u)
	var attrs []slog.Attr
	for i := range v.NumField() {
		field, value := v.Type().Field(i), v.Field(i)
		switch {
		case value.IsZero():
			continue
		case strings.Contains(field.Tag.Get("json"), "password"):
			attrs = append(attrs, slog.String(field.Name, "[REDACTED]"))
		case value.Kind() == reflect.Pointer:
			attrs = append(attrs, slog.Any(field.Name, value.Elem().Interface()))
		default:
			attrs = append(attrs, slog.Any(field.Name, value.Interface()))
		}
	}
	return attrs
}

// format prints u as name{Field:value ...}, from attrs.
func (u userWire) format(f fmt.State, name string) {
	fmt.Fprint(f, name+"{")
	for i, a := range u.attrs() {
		if i > 0 {
			fmt.Fprint(f, " ")
		}
		fmt.Fprintf(f, "%s:%+v", a.Key, a.Value.Any())
	}
	fmt.Fprint(f, "}")
}

// check validates the fields that are set; create reports whether the
// fields a create needs must be there.
func (u *userWire) check(create bool) error {
	if create {
		if err := required(field{"Type", string(u.Type)}, field{"FirstName", u.FirstName}, field{"LastName", u.LastName}); err != nil {
			return err
		}
		if strings.TrimSpace(u.Email) == "" && strings.TrimSpace(u.Phone) == "" {
			return &ArgumentError{Name: "Email", Reason: "or Phone is required"}
		}
	}
	if err := checkPerson(u.Type, u.FirstName, u.LastName, u.Email); err != nil {
		return err
	}
	if u.CustomerID < 0 {
		return &ArgumentError{Name: "CustomerID", Reason: fmt.Sprintf("must not be negative, got %d", u.CustomerID)}
	}
	switch {
	case u.Password == "" && u.PasswordConfirmation != "":
		return &ArgumentError{Name: "Password", Reason: "is required with PasswordConfirmation"}
	case u.Password != "" && utf8.RuneCountInString(u.Password) < 8:
		return &ArgumentError{Name: "Password", Reason: "must have 8 or more characters"}
	case u.Password != u.PasswordConfirmation:
		return &ArgumentError{Name: "PasswordConfirmation", Reason: "must equal Password"}
	}
	for i, b := range u.UserBadgesAttributes {
		name := fmt.Sprintf("UserBadgesAttributes[%d]", i)
		switch {
		case b.ID < 0 || b.BadgeID < 0:
			return &ArgumentError{Name: name, Reason: "holds a negative ID"}
		case b.Destroy && b.ID == 0:
			return &ArgumentError{Name: name + ".ID", Reason: "is required with Destroy"}
		case b.ID == 0 && b.BadgeID == 0:
			return &ArgumentError{Name: name + ".BadgeID", Reason: "or ID is required"}
		}
	}
	return nil
}

// A field is a text argument and its name, for required.
type field struct{ name, value string }

// required refuses the first of fields that is empty or only spaces.
func required(fields ...field) error {
	for _, f := range fields {
		if strings.TrimSpace(f.value) == "" {
			return &ArgumentError{Name: f.name, Reason: "is required"}
		}
	}
	return nil
}

// checkPerson validates the fields users, invitations and their updates
// share, those that are set: a known type, names of letters, digits, - and
// . only, and a bare email address.
func checkPerson(typ UserType, first, last, email string) error {
	if err := typ.check("Type"); err != nil {
		return err
	}
	for _, f := range []field{{"FirstName", first}, {"LastName", last}} {
		if i := strings.IndexFunc(f.value, notNameRune); i >= 0 {
			return &ArgumentError{Name: f.name, Reason: fmt.Sprintf("may hold letters, digits, - and . only, not %q", []rune(f.value[i:])[0])}
		}
	}
	if email != "" {
		if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
			return &ArgumentError{Name: "Email", Reason: fmt.Sprintf("%q is not a bare email address such as ada@example.com", email)}
		}
	}
	return nil
}

// notNameRune reports whether r may not stand in a name. Combining marks
// are allowed, so that a name typed in decomposed form passes.
func notNameRune(r rune) bool {
	return !(unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || r == '-' || r == '.')
}

// UserInvite is the body of POST /users/invite. Type, Phone, FirstName and
// LastName are required.
type UserInvite struct {
	Type       UserType `json:"type"`
	Phone      string   `json:"phone"`
	FirstName  string   `json:"first_name"` // letters, digits, - and . only
	LastName   string   `json:"last_name"`  // letters, digits, - and . only
	Email      string   `json:"email,omitempty"`
	ExternalID string   `json:"external_id,omitempty"`
}

func (u *UserInvite) check() error {
	if u == nil {
		return &ArgumentError{Name: "UserInvite", Reason: "is required"}
	}
	if err := required(field{"Type", string(u.Type)}, field{"Phone", u.Phone}, field{"FirstName", u.FirstName}, field{"LastName", u.LastName}); err != nil {
		return err
	}
	return checkPerson(u.Type, u.FirstName, u.LastName, u.Email)
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
	if opts == nil {
		opts = &UserListOptions{}
	}
	if err := opts.check(); err != nil {
		return nil, nil, err
	}
	return list[*User](ctx, s.client, users, opts, opts.ListOptions)
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
// nothing even while Users change, for the reasons JobsService.Sync gives.
//
// API: GET /info, then GET /users with updated_after and updated_before
func (s *UsersService) Sync(ctx context.Context, watermark *time.Time, opts *SyncOptions) iter.Seq2[*User, error] {
	return syncAll(ctx, s.client, watermark, opts, func(ctx context.Context, after, before time.Time, page int) ([]*User, *Response, error) {
		return s.List(ctx, &UserListOptions{ListOptions: ListOptions{Page: page, Per: MaxPerPage}, UpdatedAfter: after, UpdatedBefore: before})
	})
}

// Get returns one User.
//
// API: GET /users/:id
func (s *UsersService) Get(ctx context.Context, id int64) (*User, *Response, error) {
	if err := checkID("id", id); err != nil {
		return nil, nil, err
	}
	return call[*User](ctx, s.client, request{method: http.MethodGet, path: userPath(id), key: "user"})
}

// Create creates a User. Public Pool keys get ErrForbidden.
//
// When the error matches ErrOutcomeUnknown the User may exist: Settle
// tells whether this call made it, before creating it again.
//
// API: POST /users
func (s *UsersService) Create(ctx context.Context, user *UserCreate) (*User, *Response, error) {
	if user == nil {
		return nil, nil, &ArgumentError{Name: "UserCreate", Reason: "is required"}
	}
	w := userWire(*user)
	if err := w.check(true); err != nil {
		return nil, nil, err
	}
	body := map[string]userWire{"user": w}
	return call[*User](ctx, s.client, request{method: http.MethodPost, path: "users", body: body, key: "user", create: true,
		secrets: w.passwords()})
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
	if err := invite.check(); err != nil {
		return nil, nil, err
	}
	body := map[string]*UserInvite{"user": invite}
	return call[*User](ctx, s.client, request{method: http.MethodPost, path: "users/invite", body: body, key: "user", create: true})
}

// Settle answers the User that a Create of user, which failed with err
// matching ErrOutcomeUnknown, made; or an error matching ErrNotFound when
// it made none, so that creating it again cannot make two (see
// JobsService.Settle for the pattern). The User it answers has the Email
// sent (in any case), or, without one, the Phone sent (by its digits), with
// the same Type and names, and was made at or after the call began by the
// server's clock (see "Settle a write" in the package documentation). Users
// carry no creation time the API documents: a User with no created_at is
// judged by updated_at, so that one made before the call but changed since,
// with the same email or phone and names, cannot be told from it. err must
// be the create's own error, which records when its call began.
//
// API: GET /info, then GET /users with email (or type) and updated_after
func (s *UsersService) Settle(ctx context.Context, user *UserCreate, err error) (*User, error) {
	if user == nil {
		return nil, &ArgumentError{Name: "UserCreate", Reason: "is required"}
	}
	w := userWire(*user)
	if e := w.check(true); e != nil {
		return nil, e
	}
	return s.settle(ctx, err, user.Type, user.FirstName, user.LastName, user.Email, user.Phone)
}

// SettleInvite answers the User that an Invite of invite, which failed
// with err matching ErrOutcomeUnknown, made; or an error matching
// ErrNotFound when it made none, as Settle does for a Create.
//
// API: GET /info, then GET /users with email (or type) and updated_after
func (s *UsersService) SettleInvite(ctx context.Context, invite *UserInvite, err error) (*User, error) {
	if e := invite.check(); e != nil {
		return nil, e
	}
	return s.settle(ctx, err, invite.Type, invite.FirstName, invite.LastName, invite.Email, invite.Phone)
}

// settle finds the User a create or an invite of these values made.
func (s *UsersService) settle(ctx context.Context, callErr error, typ UserType, first, last, email, phone string) (*User, error) {
	floor, err := s.client.settleFloor(ctx, callErr)
	if err != nil {
		return nil, err
	}
	opts := &UserListOptions{Type: typ, UpdatedAfter: floor.Add(-filterMargin)}
	what := fmt.Sprintf("User with phone %q", phone)
	if email = strings.TrimSpace(email); email != "" {
		opts.Email, what = []string{email}, fmt.Sprintf("User with email %q", email)
	}
	return settleIn(s.All(ctx, opts), floor, userMade, func(u *User) bool {
		if (email != "" && !sameText(u.Email, email)) || (email == "" && !samePhone(u.Phone, phone)) {
			return false
		}
		return u.Type == typ && sameText(u.FirstName, first) && sameText(u.LastName, last)
	}, what)
}

// Update changes the fields of a User that update sets. Public Pool keys
// get ErrForbidden.
//
// API: PATCH /users/:id
func (s *UsersService) Update(ctx context.Context, id int64, update *UserUpdate) (*User, *Response, error) {
	if err := checkID("id", id); err != nil {
		return nil, nil, err
	}
	if update == nil {
		return nil, nil, &ArgumentError{Name: "UserUpdate", Reason: "is required"}
	}
	w := userWire(*update)
	if err := w.check(false); err != nil {
		return nil, nil, err
	}
	if b, err := json.Marshal(w); err == nil && string(b) == "{}" {
		return nil, nil, &ArgumentError{Name: "UserUpdate", Reason: "must set at least one field"}
	}
	body := map[string]userWire{"user": w}
	return call[*User](ctx, s.client, request{method: http.MethodPatch, path: userPath(id), body: body, key: "user",
		secrets: w.passwords()})
}

// Tracking returns where a Worker checked in on their Jobs, newest first.
// Public Pool keys get ErrForbidden.
//
// API: GET /users/:id/tracking
func (s *UsersService) Tracking(ctx context.Context, id int64) ([]*TrackingPoint, *Response, error) {
	if err := checkID("id", id); err != nil {
		return nil, nil, err
	}
	return call[[]*TrackingPoint](ctx, s.client, request{method: http.MethodGet, path: userPath(id) + "/tracking", key: "tracking"})
}

func userPath(id int64) string { return fmt.Sprintf("users/%d", id) }
