package workforcetest

import (
	"fmt"
	"net/http"
	"net/mail"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Values of user.kind.
const (
	kindWorker   = "Worker"
	kindEmployer = "Employer"
)

// onboardingInvited is the first onboarding state, the one POST /users/invite creates a User in.
const onboardingInvited = "invited"

// user is a Worker or an Employer (a requestor). Empty strings and zero times and ids are null.
type user struct {
	stored
	kind                string
	firstName, lastName string
	email, phone        string
	gender              string
	avatarURL           string
	address, city, zip  string
	addressState        string
	rating              string // a decimal, written as a string
	suspendedAt         time.Time
	agreedToTermsAt     time.Time
	externalID          string
	onboardingLastState string
	w2EmployeeID        string
	w2OnboardingStatus  string
	w2OnboardingStarted time.Time // when w2OnboardingStatus was first set
	drugTested          bool
	phoneVerifiedAt     time.Time
	customerID          int64
	role, title         string
	syncedWorkerID      int64
	latitude, longitude string    // where the User is based: decimals, written as strings
	dob                 time.Time // the date of birth, at midnight UTC
	logoURL             string
	workplaceImageURL   string
	badges              []userBadge // the Badges held, in the order granted
}

// userBadge is a User's holding of a Badge. Its id is the holding's own: the one
// user_badges_attributes names to take it away.
type userBadge struct {
	id, badgeID          int64
	createdAt, updatedAt time.Time
}

// clone returns a copy of u that shares nothing with it.
func (u *user) clone() *user {
	c := *u
	c.badges = slices.Clone(u.badges)
	return &c
}

// holds tells whether u holds the Badge badgeID.
func (u *user) holds(badgeID int64) bool {
	return slices.ContainsFunc(u.badges, func(b userBadge) bool { return b.badgeID == badgeID })
}

// userJSON is a standalone User, as GET /users/:id, PATCH /users/:id and a ranking's worker
// write it: exactly the keys and forms of the live API's (CONTRACT §10.1 "Whole shapes",
// realworld/user.json); a User of a list (GET /users, search) adds those of §6 that the real
// client synced from GET /users (userListedJSON). What the fake does not model is written as the
// live API writes it unset: null, or "" for referred_by. drug_tested is text, "" when not tested
// (as the live API wrote it) and "true" when tested.
type userJSON struct {
	ID                    int64   `json:"id"`
	ExternalID            *string `json:"external_id"`
	Type                  string  `json:"type"`
	FirstName             string  `json:"first_name"`
	LastName              string  `json:"last_name"`
	AvatarURL             *string `json:"avatar_url"`
	City                  *string `json:"city"`
	Zip                   *string `json:"zip"`
	Rating                *string `json:"rating"`
	Suspended             bool    `json:"suspended"`
	SuspendedUntil        *string `json:"suspended_until"`
	Latitude              *string `json:"latitude"`
	Longitude             *string `json:"longitude"`
	WorkplaceImageURL     *string `json:"workplace_image_url"`
	LogoURL               *string `json:"logo_url"`
	BusinessName          *string `json:"business_name"`
	Email                 *string `json:"email"`
	Phone                 *string `json:"phone"`
	Gender                *string `json:"gender"`
	W2EmployeeID          *string `json:"w2_employee_id"`
	W2OnboardingStatus    *string `json:"w2_onboarding_status"`
	W2OnboardingStarted   *string `json:"w2_onboarding_started"`
	DOB                   *string `json:"dob"`
	SSN                   string  `json:"ssn"`
	Address               *string `json:"address"`
	AddressState          *string `json:"address_state"`
	DrugTested            string  `json:"drug_tested"`
	UpdatedAt             string  `json:"updated_at"`
	W2AddressState        *string `json:"w2_address_state"`
	W2OnboardingCompleted *string `json:"w2_onboarding_completed"`
	LowerPool             *bool   `json:"lower_pool"`
	LowerPoolUntil        *string `json:"lower_pool_until"`
	HomeLatitude          *string `json:"home_latitude"`
	HomeLongitude         *string `json:"home_longitude"`
	ReferredBy            string  `json:"referred_by"`
	TrackingCode          *string `json:"tracking_code"`
	OnboardingApptTime    *string `json:"onboarding_appt_time"`
	*userListedJSON               // nil for a shown User
}

// userListedJSON holds the keys a User of a list carries beyond a shown User's (CONTRACT §10.1:
// "the list and the record may differ").
type userListedJSON struct {
	SuspendedAt         *string         `json:"suspended_at"`
	AgreedToTerms       bool            `json:"agreed_to_terms"`
	AgreedToTermsDate   *string         `json:"agreed_to_terms_date"`
	OnboardingLastState *string         `json:"onboarding_last_state"`
	VerifiedPhone       string          `json:"verified_phone"`
	PhoneVerifiedAt     *string         `json:"phone_verified_at"`
	CustomerID          *int64          `json:"customer_id"`
	Role                *string         `json:"role"`
	Title               *string         `json:"title"`
	SyncedWorkerID      *int64          `json:"synced_worker_id"`
	UserBadges          []userBadgeJSON `json:"user_badges"`
}

// userBadgeJSON is one entry of a User's user_badges (CONTRACT §10).
type userBadgeJSON struct {
	ID        int64   `json:"id"`
	UserID    int64   `json:"user_id"`
	BadgeID   int64   `json:"badge_id"`
	ExpiresAt *string `json:"expires_at"`
	CreatedAt string  `json:"created_at"`
	Suspended bool    `json:"suspended"`
	Category  string  `json:"category"`
	UpdatedAt string  `json:"updated_at"`
}

// renderListedUser writes u as a list (GET /users, search) writes it: a shown User, and the
// keys of §6 with its Badges; null for a missing user.
func renderListedUser(v view, u *user) *userJSON {
	out := renderUser(v, u)
	if out != nil {
		out.userListedJSON = &userListedJSON{SuspendedAt: optLocal(u.suspendedAt), AgreedToTerms: !u.agreedToTermsAt.IsZero(),
			AgreedToTermsDate: optLocal(u.agreedToTermsAt), OnboardingLastState: optString(u.onboardingLastState),
			VerifiedPhone: strconv.FormatBool(!u.phoneVerifiedAt.IsZero()), PhoneVerifiedAt: optLocal(u.phoneVerifiedAt),
			CustomerID: optID(u.customerID), Role: optString(u.role), Title: optString(u.title),
			SyncedWorkerID: optID(u.syncedWorkerID), UserBadges: renderUserBadges(v, u)}
	}
	return out
}

// renderUser writes u as a shown User (GET or PATCH /users/:id, a ranking's worker), or null for
// a missing user.
func renderUser(v view, u *user) *userJSON {
	if u == nil {
		return nil
	}
	drugTested := ""
	if u.drugTested {
		drugTested = "true"
	}
	return &userJSON{
		ID: u.id, ExternalID: optString(u.externalID), Type: u.kind, FirstName: u.firstName, LastName: u.lastName,
		AvatarURL: optString(u.avatarURL), City: optString(u.city), Zip: optString(u.zip), Rating: optString(u.rating),
		Suspended: !u.suspendedAt.IsZero(), Latitude: optString(u.latitude), Longitude: optString(u.longitude),
		WorkplaceImageURL: optString(u.workplaceImageURL), LogoURL: optString(u.logoURL),
		BusinessName: optString(businessName(v, u)), Email: optString(u.email), Phone: optString(u.phone),
		Gender: optString(u.gender), W2EmployeeID: optString(u.w2EmployeeID),
		W2OnboardingStatus: optString(u.w2OnboardingStatus), W2OnboardingStarted: optLocal(u.w2OnboardingStarted),
		DOB: optDate(u.dob), Address: optString(u.address), AddressState: optString(u.addressState),
		DrugTested: drugTested, UpdatedAt: localTime(u.updatedAt),
		HomeLatitude: optString(u.latitude), HomeLongitude: optString(u.longitude),
	}
}

// businessName is an Employer's business, its Customer's name; "" for a Worker.
func businessName(v view, u *user) string {
	if c, ok := v.customer(u.customerID); ok && u.kind == kindEmployer {
		return c.name
	}
	return ""
}

// optDate writes a date of birth, or nil (null) when there is none.
func optDate(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	d := t.Format(layoutDate)
	return &d
}

// embeddedUserJSON is a User as a Job embeds it (its worker and employer): exactly the keys and
// forms of the live API's (CONTRACT §10 "Embedded Users", realworld/jobs_page.json).
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
	W2OnboardingStarted *string         `json:"w2_onboarding_started"`
	DOB                 *string         `json:"dob"`
	SSN                 string          `json:"ssn"`
	Address             *string         `json:"address"`
	AddressState        *string         `json:"address_state"`
	UserBadges          []userBadgeJSON `json:"user_badges"`
}

// renderEmbeddedUser writes u as a Job embeds it, or null for a missing user. An Employer's
// business is its Customer's name. The SSN is never kept: it is written "", as the API does.
func renderEmbeddedUser(v view, u *user) *embeddedUserJSON {
	if u == nil {
		return nil
	}
	return &embeddedUserJSON{
		ID: u.id, ExternalID: optString(u.externalID), Type: u.kind, FirstName: u.firstName, LastName: u.lastName,
		AvatarURL: optString(u.avatarURL), City: optString(u.city), Zip: optString(u.zip), Rating: optString(u.rating),
		Suspended: !u.suspendedAt.IsZero(), Latitude: optString(u.latitude), Longitude: optString(u.longitude),
		WorkplaceImageURL: optString(u.workplaceImageURL), LogoURL: optString(u.logoURL),
		BusinessName: optString(businessName(v, u)), Email: optString(u.email), Gender: optString(u.gender),
		W2EmployeeID: optString(u.w2EmployeeID), W2OnboardingStatus: optString(u.w2OnboardingStatus),
		W2OnboardingStarted: optLocal(u.w2OnboardingStarted), DOB: optDate(u.dob), SSN: "",
		Address: optString(u.address), AddressState: optString(u.addressState), UserBadges: renderUserBadges(v, u),
	}
}

// renderUserBadges writes the Badges u holds.
func renderUserBadges(v view, u *user) []userBadgeJSON {
	out := make([]userBadgeJSON, 0, len(u.badges))
	for _, h := range u.badges {
		if _, ok := v.badge(h.badgeID); ok {
			out = append(out, userBadgeJSON{ID: h.id, UserID: u.id, BadgeID: h.badgeID,
				CreatedAt: localTime(h.createdAt), UpdatedAt: localTime(h.updatedAt)})
		}
	}
	return out
}

// users serves the Users from the store: Public Pool keys see only the Workers with active Jobs
// on their own Job Requests, and may not create or update.
func (s *Server) users() resource[user, *userJSON] {
	return resource[user, *userJSON]{
		st: s.st, one: "user", many: "users", table: &s.st.users,
		render: func(v view, u *user, _ pool) *userJSON { return renderUser(v, u) },
		listed: func(v view, u *user, _ pool) *userJSON { return renderListedUser(v, u) },
		read:   readUser, filters: userFilters, visible: userVisible,
	}
}

// userVisible tells whether a token of pool p may see u: the Public Pool sees only Workers with
// an active Job (filled, in_progress, paused, completed, or approved in the last 24 hours) on
// a Job Request it created.
func userVisible(v view, u *user, p pool) bool {
	if p != poolPublic {
		return true
	}
	if u.kind != kindWorker {
		return false
	}
	since := v.now().Add(-24 * time.Hour)
	for _, j := range v.jobsOfWorker(u.id) {
		if j.owner != poolPublic {
			continue
		}
		switch j.state {
		case stateFilled, stateInProgress, statePaused, stateCompleted:
			return true
		case stateApproved:
			if !j.finishedAt.Before(since) {
				return true
			}
		}
	}
	return false
}

// readUser reads user[…] into u and checks it; id is the User's own, 0 on create. A create needs
// type, first_name, last_name and an email or a phone. Passwords are checked (8 or more
// characters, equal to password_confirmation) and not kept. user_badges_attributes gives Badges
// ({"badge_id": N}) and takes holdings away ({"id": N, "_destroy": true}).
func readUser(tx *tx, f fields, u *user, id int64) {
	f.oneOf(&u.kind, "type", kindWorker, kindEmployer)
	for name, dst := range map[string]*string{"first_name": &u.firstName, "last_name": &u.lastName} {
		f.text(dst, name, 1, 255)
		if i := strings.IndexFunc(*dst, notNameRune); i >= 0 {
			r, _ := utf8.DecodeRuneInString((*dst)[i:])
			f.fe.add(name, "may hold letters, digits, - and . only, not "+strconv.QuoteRune(r))
		}
	}
	f.text(&u.email, "email", 0, 255)
	if a, err := mail.ParseAddress(u.email); u.email != "" && (err != nil || a.Address != u.email) {
		f.fe.add("email", "is not an email address")
	}
	for name, dst := range map[string]*string{"phone": &u.phone, "gender": &u.gender, "address": &u.address,
		"city": &u.city, "address_state": &u.addressState, "zip": &u.zip, "external_id": &u.externalID,
		"role": &u.role, "title": &u.title, "onboarding_last_state": &u.onboardingLastState,
		"w2_employee_id": &u.w2EmployeeID, "w2_onboarding_status": &u.w2OnboardingStatus} {
		f.text(dst, name, 0, 255)
	}
	if u.w2OnboardingStatus != "" && u.w2OnboardingStarted.IsZero() {
		u.w2OnboardingStarted = tx.now()
	}
	f.boolean(&u.drugTested, "drug_tested")
	readSince(f, &u.suspendedAt, "suspended", tx.now())
	readSince(f, &u.agreedToTermsAt, "agreed_to_terms", tx.now())
	if _, present := f.value("customer_id"); present {
		f.id(&u.customerID, "customer_id")
		if _, ok := tx.customer(u.customerID); u.customerID != 0 && !ok {
			f.fe.add("customer_id", "does not exist")
		}
	}
	readPassword(f)
	readUserBadges(tx, f, u)
	f.notBlank(map[string]string{"type": u.kind, "first_name": u.firstName, "last_name": u.lastName})
	if id == 0 && u.email == "" && u.phone == "" && len(f.fe["email"]) == 0 {
		f.fe.add("email", "can't be blank when phone is")
	}
}

// readSince reads the flag name into the time it was set: true keeps an earlier time or sets
// now, false clears it.
func readSince(f fields, dst *time.Time, name string, now time.Time) {
	if _, present := f.value(name); !present {
		return
	}
	on := !dst.IsZero()
	f.boolean(&on, name)
	switch {
	case !on:
		*dst = time.Time{}
	case dst.IsZero():
		*dst = now
	}
}

// readPassword checks password and password_confirmation: the password has 8 or more
// characters and the confirmation, when sent, equals it. Neither is kept.
func readPassword(f fields) {
	var password, confirmation string
	f.text(&password, "password", 0, 128)
	f.text(&confirmation, "password_confirmation", 0, 128)
	_, hasConfirmation := f.value("password_confirmation")
	switch {
	case len(f.fe["password"]) > 0 || len(f.fe["password_confirmation"]) > 0:
	case password == "" && confirmation != "":
		f.fe.add("password", "can't be blank when password_confirmation is set")
	case password != "" && utf8.RuneCountInString(password) < 8:
		f.fe.add("password", "is too short (minimum is 8 characters)")
	case hasConfirmation && password != confirmation:
		f.fe.add("password_confirmation", "doesn't match password")
	}
}

// readUserBadges applies user_badges_attributes to u: each item gives the Badge badge_id (held
// already: nothing changes) or, with _destroy, takes away the holding id of u.
func readUserBadges(tx *tx, f fields, u *user) {
	const name = "user_badges_attributes"
	v, present := f.value(name)
	if !present {
		return
	}
	items, ok := listItems(v)
	if !ok {
		f.fe.add(name, "must be a list of {badge_id} or {id, _destroy} objects")
		return
	}
	held := slices.Clone(u.badges)
	for _, item := range items {
		attrs, ok := item.(map[string]any)
		if !ok {
			f.fe.add(name, "must be a list of {badge_id} or {id, _destroy} objects")
			return
		}
		g := fields{p: params{name: attrs}, prefix: name, fe: fieldErrors{}}
		var holdingID, badgeID int64
		var destroy bool
		g.id(&holdingID, "id")
		g.id(&badgeID, "badge_id")
		g.boolean(&destroy, "_destroy")
		for _, msgs := range g.fe {
			for _, msg := range msgs {
				f.fe.add(name, msg)
			}
		}
		if len(g.fe) > 0 {
			return
		}
		switch {
		case holdingID != 0:
			i := slices.IndexFunc(held, func(h userBadge) bool { return h.id == holdingID })
			switch {
			case i < 0:
				f.fe.add(name, "user badge "+itoa(holdingID)+" is not this user's")
			case destroy:
				held = slices.Delete(held, i, i+1)
			}
		case destroy:
			f.fe.add(name, "_destroy needs the id of the user badge")
		case badgeID == 0:
			f.fe.add(name, "each item needs a badge_id, or an id with _destroy")
		case !exists(tx.badge(badgeID)):
			f.fe.add(name, "badge "+itoa(badgeID)+" does not exist")
		case !slices.ContainsFunc(held, func(h userBadge) bool { return h.badgeID == badgeID }):
			now := tx.now()
			held = append(held, userBadge{id: next(&tx.st.lastUserBadge), badgeID: badgeID, createdAt: now, updatedAt: now})
		}
	}
	u.badges = held
}

// notNameRune tells whether r may not stand in a name: names hold letters (with their combining
// marks), digits, - and . only.
func notNameRune(r rune) bool {
	return !(unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || r == '-' || r == '.')
}

// userFilters are the filters of GET /users: type, and email, first_name, last_name,
// external_id, onboarding_last_state, w2_onboarding_status, w2_employee_id, address_state and
// drug_tested, each one value or several comma-separated (any of them matches; emails
// case-insensitively), and updated_before and updated_after.
var userFilters = []filter[user]{
	byKey("type", func(u *user) string { return u.kind }, true, func(v string, fe fieldErrors) string {
		if v != kindWorker && v != kindEmployer {
			fe.add("type", "must be Worker or Employer")
		}
		return v
	}),
	byKey("email", func(u *user) string { return strings.ToLower(u.email) }, true, asLower),
	byKey("first_name", func(u *user) string { return u.firstName }, true, asText),
	byKey("last_name", func(u *user) string { return u.lastName }, true, asText),
	byKey("external_id", func(u *user) string { return u.externalID }, true, asText),
	byKey("onboarding_last_state", func(u *user) string { return u.onboardingLastState }, true, asText),
	byKey("w2_onboarding_status", func(u *user) string { return u.w2OnboardingStatus }, true, asText),
	byKey("w2_employee_id", func(u *user) string { return u.w2EmployeeID }, true, asText),
	byKey("address_state", func(u *user) string { return u.addressState }, true, asText),
	byKey("drug_tested", func(u *user) string { return strconv.FormatBool(u.drugTested) }, true, func(v string, fe fieldErrors) string {
		switch strings.ToLower(v) {
		case "true", "1":
			return "true"
		case "false", "0":
			return "false"
		}
		fe.add("drug_tested", "must be true or false")
		return ""
	}),
	byUpdated(func(u *user) time.Time { return u.updatedAt }),
}

// inviteUser serves POST /api_v2/users/invite: user[type]*, user[phone]*, user[first_name]*,
// user[last_name]*, user[email], user[external_id]. It creates the User in the first onboarding
// state, "invited", and answers it. Public Pool keys get 403.
func (s *Server) inviteUser(c *call) (any, error) {
	if err := c.forbidPublic(); err != nil {
		return nil, err
	}
	kept, m := map[string]any{}, c.p.object("user")
	for _, name := range []string{"type", "phone", "first_name", "last_name", "email", "external_id"} {
		if v, ok := m[name]; ok {
			kept[name] = v
		}
	}
	invite := params{"user": kept}
	var out *userJSON
	err := s.st.write(func(tx *tx) error {
		f := fields{p: invite, prefix: "user", fe: fieldErrors{}, pool: c.pool}
		u := &user{onboardingLastState: onboardingInvited}
		readUser(tx, f, u, 0)
		f.notBlank(map[string]string{"phone": u.phone})
		if err := f.fe.err(); err != nil {
			return err
		}
		u.createdAt = tx.now()
		u.updatedAt = u.createdAt
		id := insert(tx, &tx.st.users, u)
		u, _ = tx.user(id)
		out = renderListedUser(tx.view, u) // as a create's answer: see resource.listed
		return nil
	})
	return wrap("user", out, err)
}

// trackingJSON is one check-in as GET /users/:id/tracking writes it.
type trackingJSON struct {
	JobID      int64  `json:"job_id"`
	Latitude   string `json:"latitude"`
	Longitude  string `json:"longitude"`
	RecordedAt string `json:"recorded_at"`
}

// tracking serves GET /api_v2/users/{id}/tracking: {"tracking": [...]}, newest first, every
// transition with coordinates of the User's Jobs (a User who never checked in has none). Public
// Pool keys get 403.
func (s *Server) tracking(c *call) (any, error) {
	if err := c.forbidPublic(); err != nil {
		return nil, err
	}
	id, err := c.pathID()
	if err != nil {
		return nil, err
	}
	out := []trackingJSON{}
	err = s.st.read(func(v view) error {
		if !exists(v.user(id)) {
			return errorf(http.StatusNotFound, "user %d not found", id)
		}
		type point struct {
			t     transition
			jobID int64
		}
		var points []point
		for _, link := range v.jobsOfWorker(id) {
			j, _ := v.job(link.id)
			for _, t := range j.transitions {
				if t.latitude != "" && t.longitude != "" {
					points = append(points, point{t, j.id})
				}
			}
		}
		sort.Slice(points, func(a, b int) bool { return points[a].t.id > points[b].t.id })
		for _, pt := range points {
			out = append(out, trackingJSON{JobID: pt.jobID, Latitude: pt.t.latitude, Longitude: pt.t.longitude,
				RecordedAt: utcTime(pt.t.createdAt)})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return map[string][]trackingJSON{"tracking": out}, nil
}

// GrantBadge gives the Worker workerID the Badge badgeID, as the back office does (the API does
// it with user_badges_attributes). It shows in the Worker's user_badges. Granting a Badge held already changes
// nothing.
func (s *Server) GrantBadge(workerID, badgeID int64) error {
	err := s.st.write(func(tx *tx) error {
		if _, msg := userOfKind(tx.view, workerID, kindWorker); msg != "" {
			return errorf(http.StatusNotFound, "worker %d %s", workerID, msg)
		}
		if !exists(tx.badge(badgeID)) {
			return errorf(http.StatusNotFound, "badge %d does not exist", badgeID)
		}
		if w, _ := tx.editUser(workerID); !w.holds(badgeID) {
			now := tx.now()
			w.badges = append(w.badges, userBadge{id: next(&tx.st.lastUserBadge), badgeID: badgeID, createdAt: now, updatedAt: now})
			w.updatedAt = now
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("workforcetest: grant badge: %w", err)
	}
	return nil
}

// userOfKind returns a copy of the User with id if it is of kind, or a "does not exist" or
// "is not a <kind>" message.
func userOfKind(v view, id int64, kind string) (*user, string) {
	u, ok := v.user(id)
	switch {
	case !ok:
		return nil, "does not exist"
	case u.kind != kind:
		return nil, "is not a " + kind
	}
	return u, ""
}
