package workforce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// userJSON is a Worker as the API writes it: a decimal rating as a string,
// mixed timestamp forms, and a field the SDK does not model.
const userJSON = `{
  "id": 7, "type": "Worker", "first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com",
  "phone": "+15555550100", "gender": "female", "avatar_url": "https://img.example.com/7.png",
  "address": "1 Main St", "city": "Springfield", "address_state": "IL", "zip": "62701",
  "suspended": false, "suspended_at": null, "rating": "4.75", "agreed_to_terms": true,
  "agreed_to_terms_date": "2026-01-02T03:04:05.678-06:00", "external_id": "ext-7",
  "onboarding_last_state": "background_check", "w2_employee_id": "E-7", "w2_onboarding_status": "complete",
  "drug_tested": true, "verified_phone": true, "phone_verified_at": "2026-01-02T09:00:00Z",
  "customer_id": null, "role": "", "title": "", "synced_worker_id": null,
  "user_badges": [{"id": 3, "badge_id": 11}], "updated_at": "2026-11-20T10:00:00Z",
  "favourite_shift": "night"
}`

func TestUsersList(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/users", got.respond(200, `{"users": [`+userJSON+`]}`))

	after := time.Date(2026, 11, 1, 8, 0, 0, 123e6, time.UTC)
	before := time.Date(2026, 11, 2, 8, 0, 0, 0, time.FixedZone("PST", -8*3600))
	users, resp, err := c.Users.List(context.Background(), &workforce.UserListOptions{
		ListOptions:         workforce.ListOptions{Page: 2, Per: 10},
		Type:                workforce.UserWorker,
		Email:               []string{"ada@example.com", "grace@example.com"},
		FirstName:           []string{"Ada"},
		LastName:            []string{"Lovelace", "Hopper"},
		ExternalID:          []string{"ext-7", "ext-8"},
		OnboardingLastState: []string{"background_check"},
		W2OnboardingStatus:  []string{"complete", "pending"},
		W2EmployeeID:        []string{"E-7"},
		AddressState:        []string{"IL", "CA"},
		DrugTested:          []string{"true"},
		UpdatedBefore:       before,
		UpdatedAfter:        after,
	})
	require.NoError(t, err)
	require.Len(t, users, 1)
	assert.Equal(t, int64(7), users[0].ID)
	assert.Zero(t, resp.NextPage, "a page of 1 with per=10 is the last")
	assert.Equal(t, "/api_v2/users", got.req.URL.Path)
	assert.Equal(t, map[string][]string{
		"page": {"2"}, "per": {"10"}, "type": {"Worker"},
		"email": {"ada@example.com,grace@example.com"}, "first_name": {"Ada"}, "last_name": {"Lovelace,Hopper"},
		"external_id": {"ext-7,ext-8"}, "onboarding_last_state": {"background_check"},
		"w2_onboarding_status": {"complete,pending"}, "w2_employee_id": {"E-7"}, "address_state": {"IL,CA"},
		"drug_tested":    {"true"},
		"updated_before": {"2026-11-02T08:00:00-08:00"}, "updated_after": {"2026-11-01T08:00:00.123Z"},
		"token": {testToken},
	}, map[string][]string(got.req.URL.Query()))

	_, _, err = c.Users.List(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, "per=50&token="+testToken, got.req.URL.RawQuery, "nothing but the page size and the token when nothing is set")
}

func TestUsersGetDecodesLeniently(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"wrapped":   `{"user": ` + userJSON + `}`,
		"unwrapped": userJSON,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t)
			var got capture
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/users/7", got.respond(200, body))

			u, _, err := c.Users.Get(context.Background(), 7)
			require.NoError(t, err)
			assert.Equal(t, http.MethodGet, got.req.Method)
			assert.Equal(t, workforce.UserWorker, u.Type)
			assert.Equal(t, "Lovelace", u.LastName)
			assert.Equal(t, "4.75", u.Rating.String())
			assert.Equal(t, time.Date(2026, 1, 2, 9, 4, 5, 678e6, time.UTC), u.AgreedToTermsDate.UTC())
			assert.True(t, u.SuspendedAt.IsZero())
			assert.Zero(t, u.CustomerID, "null is zero")
			assert.Equal(t, []workforce.UserBadge{{ID: 3, UserID: 7, BadgeID: 11}}, u.UserBadges, "user_id is the User's when not sent")
			var extra struct {
				Shift string `json:"favourite_shift"`
			}
			require.NoError(t, json.Unmarshal(u.Raw, &extra))
			assert.Equal(t, "night", extra.Shift, "an unmodelled field stays reachable")
		})
	}
}

func TestUsersCreate(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/users", got.respond(200, `{"user": {"id": 8, "type": "Employer", "rating": 3}}`))

	u, _, err := c.Users.Create(context.Background(), &workforce.UserCreate{
		Type: workforce.UserEmployer, FirstName: "Grace", LastName: "Hopper-Smith", Email: "grace@example.com",
		Phone: "+15555550101", CustomerID: 12, Role: "manager", Title: "Ops.Lead", AddressState: "CA",
		Suspended: workforce.Ptr(false), DrugTested: workforce.Ptr(true),
		Password: "correct-horse-1", PasswordConfirmation: "correct-horse-1",
		UserBadgesAttributes: []workforce.UserBadgeAttributes{{BadgeID: 11}, {ID: 3, Destroy: true}},
	})
	require.NoError(t, err)
	assert.Equal(t, int64(8), u.ID)
	assert.Equal(t, 3.0, u.Rating.Float64(), "a rating as a number")
	assert.Equal(t, "application/json", got.req.Header.Get("Content-Type"))
	assert.Equal(t, map[string]any{"user": map[string]any{
		"type": "Employer", "first_name": "Grace", "last_name": "Hopper-Smith", "email": "grace@example.com",
		"phone": "+15555550101", "customer_id": float64(12), "role": "manager", "title": "Ops.Lead",
		"address_state": "CA", "suspended": false, "drug_tested": true,
		"password": "correct-horse-1", "password_confirmation": "correct-horse-1",
		"user_badges_attributes": []any{
			map[string]any{"badge_id": float64(11)},
			map[string]any{"id": float64(3), "_destroy": true},
		},
	}}, got.jsonBody(t), "the wire carries the passwords, and false where it is set")
}

func TestUsersInvite(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/users/invite", got.respond(200, `{"user": {"id": 9, "type": "Worker"}}`))

	u, _, err := c.Users.Invite(context.Background(), &workforce.UserInvite{
		Type: workforce.UserWorker, Phone: "+15555550102", FirstName: "Zoë", LastName: "O.Neil", ExternalID: "ext-9",
	})
	require.NoError(t, err)
	assert.Equal(t, int64(9), u.ID)
	assert.Equal(t, map[string]any{"user": map[string]any{
		"type": "Worker", "phone": "+15555550102", "first_name": "Zoë", "last_name": "O.Neil", "external_id": "ext-9",
	}}, got.jsonBody(t))
}

func TestUsersUpdate(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodPatch, mockBase+"/api_v2/users/7", got.respond(200, `{"user": `+userJSON+`}`))

	u, _, err := c.Users.Update(context.Background(), 7, &workforce.UserUpdate{City: "Chicago", Suspended: workforce.Ptr(false)})
	require.NoError(t, err)
	assert.Equal(t, int64(7), u.ID)
	assert.Equal(t, map[string]any{"user": map[string]any{"city": "Chicago", "suspended": false}}, got.jsonBody(t))
}

func TestUsersTracking(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/users/7/tracking", got.respond(200, `{"tracking": [
	  {"job_id": 42, "latitude": "34.042019", "longitude": -118.235, "recorded_at": "2026-11-20T10:00:00.5-08:00", "accuracy_m": 12},
	  {"job_id": 41, "latitude": 33.9, "longitude": "", "recorded_at": "2026-11-19T10:00:00Z"}]}`))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/users/8/tracking", httpmock.NewStringResponder(403, `{"error": "Public Pool keys cannot track"}`))

	points, _, err := c.Users.Tracking(context.Background(), 7)
	require.NoError(t, err)
	assert.Equal(t, http.MethodGet, got.req.Method)
	require.Len(t, points, 2)
	assert.Equal(t, int64(42), points[0].JobID)
	assert.Equal(t, "34.042019", points[0].Latitude.String())
	assert.Equal(t, -118.235, points[0].Longitude.Float64())
	assert.Equal(t, time.Date(2026, 11, 20, 18, 0, 0, 5e8, time.UTC), points[0].RecordedAt.UTC())
	assert.JSONEq(t, `12`, string(rawField(t, points[0].Raw, "accuracy_m")))
	assert.False(t, points[1].Longitude.Valid(), `"" is absent`)

	_, _, err = c.Users.Tracking(context.Background(), 8)
	assert.ErrorIs(t, err, workforce.ErrForbidden)
}

func TestUsersAll(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithPageWindow(1)) // pages asked one by one, in order
	asked := servePages(t, m, "users", 50, 50, 7)
	ids := walk(t, c.Users.All(context.Background(), &workforce.UserListOptions{
		ListOptions: workforce.ListOptions{Per: 5}, Type: workforce.UserWorker, AddressState: []string{"IL", "CA"},
	}), func(u *workforce.User) int64 { return u.ID })
	assertNewestFirst(t, ids)
	assert.Len(t, ids, 107)
	assert.Equal(t, []string{
		"1/50?address_state=IL%2CCA&type=Worker",
		"2/50?address_state=IL%2CCA&type=Worker",
		"3/50?address_state=IL%2CCA&type=Worker",
	}, *asked, "every page keeps the filters; Per is 50 whatever was asked")
}

func TestUsersRoundTripThroughTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	u, _, err := c.Users.Create(ctx, &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "Zoë", LastName: "Hale",
		Email: "zoe.hale@example.com", AddressState: "IL", DrugTested: workforce.Ptr(true),
		Password: "correct-horse", PasswordConfirmation: "correct-horse",
		UserBadgesAttributes: []workforce.UserBadgeAttributes{{BadgeID: seed.BadgeID}}})
	require.NoError(t, err)
	assert.Equal(t, workforce.UserWorker, u.Type)
	assert.Equal(t, "Zoë", u.FirstName)
	assert.Equal(t, "IL", u.AddressState)
	assert.True(t, u.DrugTested)
	require.Len(t, u.UserBadges, 1)
	assert.Equal(t, seed.BadgeID, u.UserBadges[0].BadgeID)
	assert.Equal(t, u.ID, u.UserBadges[0].UserID)
	assert.NotContains(t, string(u.Raw), "correct-horse")
	for _, req := range srv.Requests() {
		assert.NotContains(t, string(req.Body), "correct-horse", "the fake's log hides passwords")
	}

	got, _, err := c.Users.Get(ctx, u.ID)
	require.NoError(t, err)
	assert.Equal(t, u.Email, got.Email)

	srv.Advance(time.Second)
	updated, _, err := c.Users.Update(ctx, u.ID, &workforce.UserUpdate{City: "Chicago", Suspended: workforce.Ptr(true)})
	require.NoError(t, err)
	assert.Equal(t, "Chicago", updated.City)
	assert.True(t, updated.Suspended)
	assert.True(t, updated.UpdatedAt.After(u.UpdatedAt.Time))

	invited, _, err := c.Users.Invite(ctx, &workforce.UserInvite{Type: workforce.UserWorker, Phone: "+13125550123",
		FirstName: "Gus", LastName: "Hale", ExternalID: "EXT-77"})
	require.NoError(t, err)
	assert.Equal(t, "invited", invited.OnboardingLastState)

	found, _, err := c.Users.List(ctx, &workforce.UserListOptions{LastName: []string{"Hale"}, Type: workforce.UserWorker})
	require.NoError(t, err)
	require.Len(t, found, 2)
	assert.Equal(t, []int64{invited.ID, u.ID}, []int64{found[0].ID, found[1].ID}, "newest first")
	found, _, err = c.Users.List(ctx, &workforce.UserListOptions{Email: []string{"WORKER1@example.com", "zoe.hale@example.com"}})
	require.NoError(t, err)
	assert.Len(t, found, 2, "several values, any of them, emails in any case")
	found, _, err = c.Users.List(ctx, &workforce.UserListOptions{DrugTested: []string{"true"}, AddressState: []string{"IL"}})
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.Equal(t, u.ID, found[0].ID)

	_, _, err = c.Users.Get(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.Users.Update(ctx, u.ID, &workforce.UserUpdate{CustomerID: 99999})
	assert.ErrorIs(t, err, workforce.ErrUnprocessable)
	assert.Contains(t, fieldErrors(t, err), "customer_id")
	_, _, err = c.Users.Create(ctx, &workforce.UserCreate{Type: workforce.UserEmployer, FirstName: "A", LastName: "B",
		Email: "a@example.com", UserBadgesAttributes: []workforce.UserBadgeAttributes{{BadgeID: 99999}}})
	assert.ErrorIs(t, err, workforce.ErrUnprocessable)
	assert.Contains(t, fieldErrors(t, err), "user_badges_attributes")

	_, _, err = tokenOnly(t, srv).Users.List(ctx, nil)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
}

func TestUsersSeenByAPublicPoolKeyAreItsWorkers(t *testing.T) {
	t.Parallel()
	srv, _ := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()
	pub, err := srv.PublicClient()
	require.NoError(t, err)

	var ids []int64
	for u, err := range pub.Users.All(ctx, nil) {
		require.NoError(t, err)
		ids = append(ids, u.ID)
	}
	assert.Equal(t, []int64{seed.WorkerIDs[0]}, ids, "only the Workers of its own active Jobs")
	_, _, err = pub.Users.Get(ctx, seed.WorkerIDs[1])
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = pub.Users.Create(ctx, &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "A", LastName: "B", Phone: "+1555"})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.Users.Invite(ctx, &workforce.UserInvite{Type: workforce.UserWorker, Phone: "+1555", FirstName: "A", LastName: "B"})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.Users.Update(ctx, seed.WorkerIDs[0], &workforce.UserUpdate{City: "X"})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.Users.Tracking(ctx, seed.WorkerIDs[0])
	assert.ErrorIs(t, err, workforce.ErrForbidden)
}

func TestUsersAllWalksTheFakesPages(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	want := map[int64]bool{}
	for i := range 60 {
		u, _, err := c.Users.Create(ctx, &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "Page",
			LastName: fmt.Sprintf("W%d", i), Phone: "+1555" + fmt.Sprint(i)})
		require.NoError(t, err)
		want[u.ID] = true
	}
	srv.ResetRequests()
	var got []int64
	for u, err := range c.Users.All(ctx, &workforce.UserListOptions{FirstName: []string{"Page"}}) {
		require.NoError(t, err)
		got = append(got, u.ID)
	}
	require.Len(t, got, 60)
	for i, id := range got {
		assert.True(t, want[id])
		if i > 0 {
			assert.Less(t, id, got[i-1], "newest first, no repeats")
		}
	}
	assert.GreaterOrEqual(t, len(srv.Requests()), 2, "two pages of 50")
}

func TestUsersTrackingReadsTheFakesCheckIns(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()
	job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[3], JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err)
	require.NoError(t, srv.StartJobAt(job.ID, workforcetest.Position{Latitude: 41.8781, Longitude: -87.6298}))
	srv.Advance(4 * time.Hour)
	require.NoError(t, srv.CompleteJobAt(job.ID, workforcetest.Position{Latitude: 41.88, Longitude: -87.63}))

	points, _, err := c.Users.Tracking(ctx, seed.WorkerIDs[3])
	require.NoError(t, err)
	require.Len(t, points, 2)
	assert.Equal(t, job.ID, points[0].JobID)
	assert.Equal(t, "41.88", points[0].Latitude.String(), "newest first")
	assert.Equal(t, "41.8781", points[1].Latitude.String())
	assert.Equal(t, "-87.6298", points[1].Longitude.String())
	assert.Equal(t, 4*time.Hour, points[0].RecordedAt.Sub(points[1].RecordedAt.Time))

	none, _, err := c.Users.Tracking(ctx, seed.WorkerIDs[4])
	require.NoError(t, err)
	assert.Empty(t, none)
	_, _, err = c.Users.Tracking(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = tokenOnly(t, srv).Users.Tracking(ctx, seed.WorkerIDs[3])
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
}

// TestUsersRefusedBeforeIO checks every argument rule of Users, and that no error repeats a password: each is refused with an
// *ArgumentError naming the field, and nothing is sent.
func TestUsersRefusedBeforeIO(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	const pw = "s3cret-made-up"
	// valid is a UserCreate that passes; each case changes one thing.
	valid := func(change func(*workforce.UserCreate)) *workforce.UserCreate {
		u := &workforce.UserCreate{Type: workforce.UserWorker, FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com"}
		change(u)
		return u
	}
	create := func(change func(*workforce.UserCreate)) func() error {
		return func() error { _, _, err := c.Users.Create(ctx, valid(change)); return err }
	}
	update := func(u workforce.UserUpdate) func() error {
		return func() error { _, _, err := c.Users.Update(ctx, 7, &u); return err }
	}
	invite := func(change func(*workforce.UserInvite)) func() error {
		return func() error {
			u := &workforce.UserInvite{Type: workforce.UserWorker, Phone: "+15555550100", FirstName: "Ada", LastName: "Lovelace"}
			change(u)
			_, _, err := c.Users.Invite(ctx, u)
			return err
		}
	}
	listUsers := func(o workforce.UserListOptions) func() error {
		return func() error { _, _, err := c.Users.List(ctx, &o); return err }
	}
	firstOf := func(seq func(yield func(*workforce.User, error) bool)) func() error {
		return func() error {
			for _, err := range seq {
				return err
			}
			return nil
		}
	}
	assertRefused(t, m, []refusal{
		{"list: per over 50", "Per", listUsers(workforce.UserListOptions{ListOptions: workforce.ListOptions{Per: 51}})},
		{"list: negative page", "Page", listUsers(workforce.UserListOptions{ListOptions: workforce.ListOptions{Page: -1}})},
		{"list: unknown type", "Type", listUsers(workforce.UserListOptions{Type: "Admin"})},
		{"list: comma in a value", "Email[1]", listUsers(workforce.UserListOptions{Email: []string{"a@example.com", "b@example.com,c@example.com"}})},
		{"list: empty value", "AddressState[0]", listUsers(workforce.UserListOptions{AddressState: []string{" "}})},
		{"all: negative page", "Page", firstOf(c.Users.All(ctx, &workforce.UserListOptions{ListOptions: workforce.ListOptions{Page: -2}}))},
		{"all: unknown type", "Type", firstOf(c.Users.All(ctx, &workforce.UserListOptions{Type: "worker"}))},
		{"get id 0", "id", func() error { _, _, err := c.Users.Get(ctx, 0); return err }},
		{"get id -1", "id", func() error { _, _, err := c.Users.Get(ctx, -1); return err }},
		{"tracking id 0", "id", func() error { _, _, err := c.Users.Tracking(ctx, 0); return err }},
		{"update id -5", "id", func() error { _, _, err := c.Users.Update(ctx, -5, &workforce.UserUpdate{City: "Chicago"}); return err }},
		{"create nil", "UserCreate", func() error { _, _, err := c.Users.Create(ctx, nil); return err }},
		{"create no type", "Type", create(func(u *workforce.UserCreate) { u.Type = "" })},
		{"create unknown type", "Type", create(func(u *workforce.UserCreate) { u.Type = "Admin" })},
		{"create no first name", "FirstName", create(func(u *workforce.UserCreate) { u.FirstName = "  " })},
		{"create no last name", "LastName", create(func(u *workforce.UserCreate) { u.LastName = "" })},
		{"create no email nor phone", "Email", create(func(u *workforce.UserCreate) { u.Email = "" })},
		{"create name with a space", "FirstName", create(func(u *workforce.UserCreate) { u.FirstName = "Ada May" })},
		{"create name with an apostrophe", "LastName", create(func(u *workforce.UserCreate) { u.LastName = "O'Neil" })},
		{"create email that does not parse", "Email", create(func(u *workforce.UserCreate) { u.Email = "ada@" })},
		{"create email with a display name", "Email", create(func(u *workforce.UserCreate) { u.Email = "Ada <ada@example.com>" })},
		{"create email with spaces", "Email", create(func(u *workforce.UserCreate) { u.Email = " ada@example.com" })},
		{"create short password", "Password", create(func(u *workforce.UserCreate) { u.Password, u.PasswordConfirmation = "short7!", "short7!" })},
		{"create password unconfirmed", "PasswordConfirmation", create(func(u *workforce.UserCreate) { u.Password = pw })},
		{"create confirmation differs", "PasswordConfirmation", create(func(u *workforce.UserCreate) { u.Password, u.PasswordConfirmation = pw, pw+"x" })},
		{"create confirmation alone", "Password", create(func(u *workforce.UserCreate) { u.PasswordConfirmation = pw })},
		{"create negative customer", "CustomerID", create(func(u *workforce.UserCreate) { u.CustomerID = -1 })},
		{"create badge with no id", "UserBadgesAttributes[1].BadgeID", create(func(u *workforce.UserCreate) {
			u.UserBadgesAttributes = []workforce.UserBadgeAttributes{{BadgeID: 1}, {}}
		})},
		{"create badge destroy without id", "UserBadgesAttributes[0].ID", create(func(u *workforce.UserCreate) {
			u.UserBadgesAttributes = []workforce.UserBadgeAttributes{{BadgeID: 1, Destroy: true}}
		})},
		{"create negative badge", "UserBadgesAttributes[0]", create(func(u *workforce.UserCreate) {
			u.UserBadgesAttributes = []workforce.UserBadgeAttributes{{BadgeID: -1}}
		})},
		{"update nil", "UserUpdate", func() error { _, _, err := c.Users.Update(ctx, 7, nil); return err }},
		{"update nothing", "UserUpdate", update(workforce.UserUpdate{})},
		{"update an empty badge list", "UserUpdate", update(workforce.UserUpdate{UserBadgesAttributes: []workforce.UserBadgeAttributes{}})},
		{"update unknown type", "Type", update(workforce.UserUpdate{Type: "Robot"})},
		{"update bad name", "LastName", update(workforce.UserUpdate{LastName: "Love_lace"})},
		{"update bad email", "Email", update(workforce.UserUpdate{Email: "not an email"})},
		{"update short password", "Password", update(workforce.UserUpdate{Password: "1234567", PasswordConfirmation: "1234567"})},
		{"update confirmation differs", "PasswordConfirmation", update(workforce.UserUpdate{Password: pw, PasswordConfirmation: "other-made-up"})},
		{"update confirmation alone", "Password", update(workforce.UserUpdate{PasswordConfirmation: pw})},
		{"invite nil", "UserInvite", func() error { _, _, err := c.Users.Invite(ctx, nil); return err }},
		{"invite no type", "Type", invite(func(u *workforce.UserInvite) { u.Type = "" })},
		{"invite unknown type", "Type", invite(func(u *workforce.UserInvite) { u.Type = "Requestor" })},
		{"invite no phone", "Phone", invite(func(u *workforce.UserInvite) { u.Phone = " " })},
		{"invite no first name", "FirstName", invite(func(u *workforce.UserInvite) { u.FirstName = "" })},
		{"invite no last name", "LastName", invite(func(u *workforce.UserInvite) { u.LastName = "" })},
		{"invite bad name", "FirstName", invite(func(u *workforce.UserInvite) { u.FirstName = "Ada!" })},
		{"invite bad email", "Email", invite(func(u *workforce.UserInvite) { u.Email = "ada@example.com, bob@example.com" })},
	}, pw)
}

// TestUsersCreateAcceptsNamesOfAnyScript checks that the name rule lets through what the
// API accepts: letters of any script, digits, - and . .
func TestUsersCreateAcceptsNamesOfAnyScript(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder("POST", mockBase+"/api_v2/users", got.respond(200, `{"user": {"id": 1}}`))
	for _, name := range []string{"Zoë", "Jean-Luc", "St.John", "Nguyễn", "Ada2", "José", "Jose\u0301"} {
		_, _, err := c.Users.Create(context.Background(), &workforce.UserCreate{
			Type: workforce.UserWorker, FirstName: name, LastName: name, Phone: "+15555550100",
		})
		assert.NoError(t, err, name)
	}
}
