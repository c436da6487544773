package workforce

import (
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// What User calls send: the list filters, creates, updates and
// invitations, with the checks that refuse them before any I/O. Their
// passwords are hidden by passwords.go.

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
	return firstError(o.Type.check("Type"),
		checkListValues("Email", o.Email), checkListValues("FirstName", o.FirstName),
		checkListValues("LastName", o.LastName), checkListValues("ExternalID", o.ExternalID),
		checkListValues("OnboardingLastState", o.OnboardingLastState),
		checkListValues("W2OnboardingStatus", o.W2OnboardingStatus), checkListValues("W2EmployeeID", o.W2EmployeeID),
		checkListValues("AddressState", o.AddressState), checkListValues("DrugTested", o.DrugTested),
		o.ListOptions.check())
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

// check refuses a UserCreate without the fields a create needs, or with
// a field out of range.
func (u *UserCreate) check(bool) error {
	if err := checkPresent("UserCreate", u); err != nil {
		return err
	}
	return (*userWire)(u).check(true)
}

// check refuses a UserUpdate that sets nothing, or a field out of range.
func (u *UserUpdate) check(bool) error {
	if err := checkPresent("UserUpdate", u); err != nil {
		return err
	}
	w := (*userWire)(u)
	if err := w.check(false); err != nil {
		return err
	}
	return checkSomething("UserUpdate", w)
}

// check validates the fields of a user write that are set; create
// reports whether the fields a create needs must be there.
func (u *userWire) check(create bool) error {
	if create {
		if err := firstError(checkRequired("Type", string(u.Type)), checkRequired("FirstName", u.FirstName),
			checkRequired("LastName", u.LastName)); err != nil {
			return err
		}
		if strings.TrimSpace(u.Email) == "" && strings.TrimSpace(u.Phone) == "" {
			return &ArgumentError{Name: "Email", Reason: "or Phone is required"}
		}
	}
	if err := firstError(checkPerson(u.Type, u.FirstName, u.LastName, u.Email), checkNotNegative("CustomerID", u.CustomerID)); err != nil {
		return err
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

// checkPerson validates the fields users, invitations and their updates
// share, those that are set: a known type, names of letters, digits, - and
// . only, and a bare email address.
func checkPerson(typ UserType, first, last, email string) error {
	if err := typ.check("Type"); err != nil {
		return err
	}
	for _, f := range []struct{ name, value string }{{"FirstName", first}, {"LastName", last}} {
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

// check refuses an invitation without its required fields, or with a
// field out of range; it only ever creates.
func (u *UserInvite) check(bool) error {
	if err := checkPresent("UserInvite", u); err != nil {
		return err
	}
	return firstError(checkRequired("Type", string(u.Type)), checkRequired("Phone", u.Phone),
		checkRequired("FirstName", u.FirstName), checkRequired("LastName", u.LastName),
		checkPerson(u.Type, u.FirstName, u.LastName, u.Email))
}
