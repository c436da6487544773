package workforce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
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
	assert.Equal(t, "token="+testToken, got.req.URL.RawQuery, "nothing but the token when nothing is set")
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

// rawField returns one member of a JSON object.
func rawField(t *testing.T, raw json.RawMessage, name string) json.RawMessage {
	t.Helper()
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &doc), "raw: %s", raw)
	return doc[name]
}

// pagesOf registers GET /<resource> answering sizes[i] records for page
// i+1 and an empty page past the end, and records the pages, sizes and
// filters asked for.
func pagesOf(t *testing.T, m *mockAPI, resource string, sizes ...int) *[]string {
	asked := &[]string{}
	id := 10000
	var mu sync.Mutex
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/"+resource, func(req *http.Request) (*http.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		q := req.URL.Query()
		q.Del("token")
		*asked = append(*asked, q.Encode())
		var page int
		_, err := fmt.Sscan(q.Get("page"), &page)
		require.NoError(t, err)
		n := 0
		if page <= len(sizes) {
			n = sizes[page-1]
		}
		items := make([]string, n)
		for i := range items {
			id--
			items[i] = fmt.Sprintf(`{"id": %d}`, id)
		}
		return httpmock.NewStringResponse(200, `{"`+resource+`": [`+strings.Join(items, ",")+`]}`), nil
	})
	return asked
}

func TestUsersAll(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithPageWindow(1)) // pages asked one by one, in order
	asked := pagesOf(t, m, "users", 50, 50, 7)
	n, last := 0, int64(1<<62)
	for u, err := range c.Users.All(context.Background(), &workforce.UserListOptions{
		ListOptions: workforce.ListOptions{Per: 5}, Type: workforce.UserWorker, AddressState: []string{"IL", "CA"},
	}) {
		require.NoError(t, err)
		require.Less(t, u.ID, last, "newest first, no repeats")
		last = u.ID
		n++
	}
	assert.Equal(t, 107, n)
	assert.Equal(t, []string{
		"address_state=IL%2CCA&page=1&per=50&type=Worker",
		"address_state=IL%2CCA&page=2&per=50&type=Worker",
		"address_state=IL%2CCA&page=3&per=50&type=Worker",
	}, *asked, "every page keeps the filters; Per is 50 whatever was asked")
}
