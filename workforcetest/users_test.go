package workforcetest_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// userFields are the keys of a standalone User: those of the live API's (CONTRACT §10.1 "Whole
// shapes"), then the fields of §6: never a password.
var userFields = sorted("id", "external_id", "type", "first_name", "last_name", "avatar_url", "city", "zip", "rating",
	"suspended", "suspended_until", "latitude", "longitude", "workplace_image_url", "logo_url", "business_name", "email",
	"phone", "gender", "w2_employee_id", "w2_onboarding_status", "w2_onboarding_started", "dob", "ssn", "address",
	"address_state", "drug_tested", "updated_at", "w2_address_state", "w2_onboarding_completed", "lower_pool",
	"lower_pool_until", "home_latitude", "home_longitude", "referred_by", "tracking_code", "onboarding_appt_time",
	"suspended_at", "agreed_to_terms", "agreed_to_terms_date", "onboarding_last_state", "verified_phone",
	"phone_verified_at", "customer_id", "role", "title", "synced_worker_id", "user_badges")

func TestUsersCreateShowUpdate(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	status, body := f.json(http.MethodPost, "/api_v2/users", with(f.private), obj{"user": obj{
		"type": "Worker", "first_name": "Zoë", "last_name": "O.Neil-Smith", "email": "zoe@example.com",
		"phone": "+13125550100", "address_state": "IL", "drug_tested": true, "agreed_to_terms": true,
		"password": "s3cret-pass", "password_confirmation": "s3cret-pass",
		"user_badges_attributes": []any{obj{"badge_id": seed.BadgeID}}}})
	require.Equal(t, http.StatusOK, status, body)
	u := body["user"].(obj)
	assert.Equal(t, userFields, keys(u))
	assert.Equal(t, "Worker", u["type"])
	assert.Equal(t, "Zoë", u["first_name"])
	assert.Equal(t, "true", u["drug_tested"], "text, as the real client's schema has it")
	assert.Equal(t, "false", u["verified_phone"])
	assert.Equal(t, true, u["agreed_to_terms"])
	assert.NotNil(t, u["agreed_to_terms_date"])
	badges := u["user_badges"].([]any)
	require.Len(t, badges, 1)
	assert.Equal(t, sorted("id", "user_id", "badge_id", "expires_at", "created_at", "suspended", "category", "updated_at"),
		keys(badges[0].(obj)), "the keys of a real user_badges entry")
	assert.Equal(t, float64(seed.BadgeID), badges[0].(obj)["badge_id"])
	assert.Equal(t, u["id"], badges[0].(obj)["user_id"])
	assert.Regexp(t, localStamp, badges[0].(obj)["created_at"])
	id := idOf(u)

	status, body = f.get(idPath("users", id), f.private)
	require.Equal(t, http.StatusOK, status)
	shown := body["user"].(obj)
	assert.Len(t, shown, 37, "a shown User carries the real one's 37 keys (realworld/user.json)")
	for k, v := range shown {
		assert.Equal(t, u[k], v, "%s as the create answered it", k)
	}

	f.Advance(time.Minute)
	holding := int64(badges[0].(obj)["id"].(float64))
	status, body = f.form(http.MethodPut, idPath("users", id), with(f.private), url.Values{
		"user[city]": {"Chicago"}, "user[user_badges_attributes][0][id]": {itoa(holding)},
		"user[user_badges_attributes][0][_destroy]": {"1"}})
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, "Chicago", body["user"].(obj)["city"])
	assert.Empty(t, body["user"].(obj)["user_badges"], "the holding was taken away")
	assert.NotEqual(t, u["updated_at"], body["user"].(obj)["updated_at"])

	for _, req := range f.Requests() {
		assert.NotContains(t, string(req.Body), "s3cret-pass", "the request log hides passwords")
		assert.NotContains(t, req.Query.Encode(), "s3cret-pass")
	}

	status, body = f.get(idPath("users", 99999), f.private)
	assert.Equal(t, http.StatusNotFound, status, body)
	status, _ = f.json(http.MethodPatch, idPath("users", id), with("not-a-token"), obj{"user": obj{"city": "X"}})
	assert.Equal(t, http.StatusUnauthorized, status)

	f.requireInvalid(map[string]invalidCase{
		"no type":          {http.MethodPost, "/api_v2/users", obj{"user": obj{"first_name": "A", "last_name": "B", "email": "a@b.example"}}, "type"},
		"unknown type":     {http.MethodPost, "/api_v2/users", obj{"user": obj{"type": "Admin", "first_name": "A", "last_name": "B", "email": "a@b.example"}}, "type"},
		"no first name":    {http.MethodPost, "/api_v2/users", obj{"user": obj{"type": "Worker", "last_name": "B", "email": "a@b.example"}}, "first_name"},
		"name with space":  {http.MethodPost, "/api_v2/users", obj{"user": obj{"type": "Worker", "first_name": "A B", "last_name": "B", "email": "a@b.example"}}, "first_name"},
		"name with quote":  {http.MethodPatch, idPath("users", id), obj{"user": obj{"last_name": "O'Neil"}}, "last_name"},
		"no email, phone":  {http.MethodPost, "/api_v2/users", obj{"user": obj{"type": "Worker", "first_name": "A", "last_name": "B"}}, "email"},
		"bad email":        {http.MethodPost, "/api_v2/users", obj{"user": obj{"type": "Worker", "first_name": "A", "last_name": "B", "email": "Ann <a@b.example>"}}, "email"},
		"short password":   {http.MethodPatch, idPath("users", id), obj{"user": obj{"password": "short", "password_confirmation": "short"}}, "password"},
		"mismatch":         {http.MethodPatch, idPath("users", id), obj{"user": obj{"password": "long-enough", "password_confirmation": "long-enougH"}}, "password_confirmation"},
		"unknown customer": {http.MethodPatch, idPath("users", id), obj{"user": obj{"customer_id": 99999}}, "customer_id"},
		"unknown badge":    {http.MethodPatch, idPath("users", id), obj{"user": obj{"user_badges_attributes": []any{obj{"badge_id": 99999}}}}, "user_badges_attributes"},
		"other's holding":  {http.MethodPatch, idPath("users", id), obj{"user": obj{"user_badges_attributes": []any{obj{"id": 1, "_destroy": true}}}}, "user_badges_attributes"},
		"nothing":          {http.MethodPatch, idPath("users", id), obj{}, "user"},
	})
	status, body = f.get(idPath("users", id), f.private)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "Chicago", body["user"].(obj)["city"], "a refused update changed nothing")
}

func TestUsersPublicPool(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	status, body := f.get("/api_v2/users", f.public, "per", "50")
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []int64{seed.WorkerIDs[0]}, listIDs(t, body, "users"), "only the Worker of its own filled Job")
	status, _ = f.get(idPath("users", seed.WorkerIDs[1]), f.public)
	assert.Equal(t, http.StatusNotFound, status)
	status, _ = f.get(idPath("users", seed.EmployerID), f.public)
	assert.Equal(t, http.StatusNotFound, status)
	status, _ = f.get(idPath("users", seed.WorkerIDs[0]), f.public)
	assert.Equal(t, http.StatusOK, status)

	for name, req := range map[string]struct {
		method, path string
	}{
		"create": {http.MethodPost, "/api_v2/users"}, "invite": {http.MethodPost, "/api_v2/users/invite"},
		"update": {http.MethodPatch, idPath("users", seed.WorkerIDs[0])},
	} {
		status, _ := f.json(req.method, req.path, with(f.public), obj{"user": obj{"type": "Worker", "first_name": "A",
			"last_name": "B", "phone": "+15550100"}})
		assert.Equal(t, http.StatusForbidden, status, name)
	}
	status, _ = f.get(idPath("users", seed.WorkerIDs[0])+"/tracking", f.public)
	assert.Equal(t, http.StatusForbidden, status)

	// Once the Job is approved, its Worker stays visible for 24 hours.
	require.NoError(t, f.StartJob(seed.PublicJobID))
	require.NoError(t, f.CompleteJob(seed.PublicJobID))
	require.NoError(t, f.ApproveJob(seed.PublicJobID))
	f.Advance(23 * time.Hour)
	status, _ = f.get(idPath("users", seed.WorkerIDs[0]), f.public)
	assert.Equal(t, http.StatusOK, status)
	f.Advance(2 * time.Hour)
	f.public = f.token(f.Public) // the old token expired after 24 hours
	status, _ = f.get(idPath("users", seed.WorkerIDs[0]), f.public)
	assert.Equal(t, http.StatusNotFound, status)
}

func TestUsersListFilters(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	w := seed.WorkerIDs
	for name, tc := range map[string]struct {
		kv   []string
		want []int64
	}{
		"employers":         {[]string{"type", "Employer"}, []int64{seed.PendingEmployerID, seed.EmployerID}},
		"emails, any case":  {[]string{"email", "WORKER2@example.com,worker4@example.com"}, []int64{w[3], w[1]}},
		"first names":       {[]string{"first_name", "Ana,Eli"}, []int64{w[4], w[0]}},
		"last name":         {[]string{"last_name", "Nguyen"}, []int64{w[2]}},
		"external ids":      {[]string{"external_id", "EXT-1,EXT-6"}, []int64{w[5], w[0]}},
		"w2 employee id":    {[]string{"w2_employee_id", "W2-4003"}, []int64{w[3]}},
		"drug tested":       {[]string{"drug_tested", "true", "type", "Worker"}, []int64{w[5], w[2], w[0]}},
		"not drug tested":   {[]string{"drug_tested", "false", "type", "Worker"}, []int64{w[4], w[3], w[1]}},
		"address state":     {[]string{"address_state", "NY"}, []int64{}},
		"onboarding":        {[]string{"onboarding_last_state", "completed", "w2_onboarding_status", "completed"}, []int64{w[5], w[4], w[3], w[2], w[1]}},
		"updated long ago":  {[]string{"updated_before", "2000-01-01T00:00:00Z"}, []int64{}},
		"one per page":      {[]string{"type", "Worker", "per", "1", "page", "2"}, []int64{w[4]}},
		"past the last one": {[]string{"type", "Worker", "page", "2"}, []int64{}},
	} {
		status, body := f.get("/api_v2/users", f.private, tc.kv...)
		require.Equal(t, http.StatusOK, status, name, body)
		assert.Equal(t, tc.want, listIDs(t, body, "users"), name)
	}
	for _, kv := range [][]string{{"type", "Admin"}, {"drug_tested", "maybe"}, {"updated_after", "yesterday"}, {"per", "0"}} {
		status, body := f.get("/api_v2/users", f.private, kv...)
		assert.Equal(t, http.StatusUnprocessableEntity, status, kv)
		assert.Contains(t, fieldErrors(t, body), kv[0])
	}
}

func TestUsersInvite(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	status, body := f.json(http.MethodPost, "/api_v2/users/invite", with(f.private), obj{"user": obj{
		"type": "Worker", "phone": "+13125550111", "first_name": "Gus", "last_name": "Hale", "email": "gus@example.com",
		"external_id": "EXT-99", "onboarding_last_state": "completed", "title": "ignored"}})
	require.Equal(t, http.StatusOK, status, body)
	u := body["user"].(obj)
	assert.Equal(t, "invited", u["onboarding_last_state"], "invited Users start onboarding; other fields are not invite's")
	assert.Nil(t, u["title"])
	assert.Equal(t, "EXT-99", u["external_id"])
	f.requireInvalid(map[string]invalidCase{
		"no phone": {http.MethodPost, "/api_v2/users/invite", obj{"user": obj{"type": "Worker", "first_name": "A", "last_name": "B", "email": "a@b.example"}}, "phone"},
		"no type":  {http.MethodPost, "/api_v2/users/invite", obj{"user": obj{"phone": "+1555", "first_name": "A", "last_name": "B"}}, "type"},
		"no last":  {http.MethodPost, "/api_v2/users/invite", obj{"user": obj{"type": "Employer", "phone": "+1555", "first_name": "A"}}, "last_name"},
	})
}

func TestUsersTracking(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	job := f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID)
	status, body := f.get(idPath("users", seed.WorkerIDs[1])+"/tracking", f.private)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, []any{}, body["tracking"], "no check-in yet")

	require.NoError(t, f.StartJobAt(idOf(job), workforcetest.Position{Latitude: 34.05, Longitude: -118.25}))
	f.Advance(time.Hour)
	require.NoError(t, f.CompleteJob(idOf(job)))
	assert.Error(t, f.StartJobAt(idOf(job), workforcetest.Position{Latitude: 91}), "off the globe")

	status, body = f.get(idPath("users", seed.WorkerIDs[1])+"/tracking", f.private)
	require.Equal(t, http.StatusOK, status)
	points := body["tracking"].([]any)
	require.Len(t, points, 2)
	first, last := points[1].(obj), points[0].(obj)
	assert.Equal(t, obj{"job_id": float64(idOf(job)), "latitude": "34.05", "longitude": "-118.25", "recorded_at": first["recorded_at"]}, first)
	assert.Equal(t, "34.042019", last["latitude"], "without a position, the Job Request's site")
	assert.Greater(t, last["recorded_at"], first["recorded_at"], "newest first")

	status, _ = f.get(idPath("users", 99999)+"/tracking", f.private)
	assert.Equal(t, http.StatusNotFound, status)

	// Over the control API, start and complete take the position as latitude and longitude.
	other := f.createJob(seed.WorkerIDs[3], seed.JobRequest1099ID)
	status, body = f.json(http.MethodPost, "/_fake/jobs/"+itoa(idOf(other))+"/start", url.Values{"latitude": {"40.7"}, "longitude": {"-74"}}, nil)
	require.Equal(t, http.StatusOK, status, body)
	status, body = f.json(http.MethodPost, "/_fake/jobs/"+itoa(idOf(other))+"/complete", url.Values{"latitude": {"40.7"}}, nil)
	assert.Equal(t, http.StatusUnprocessableEntity, status, "both or neither")
	assert.Contains(t, fieldErrors(t, body), "longitude")
	status, body = f.get(idPath("users", seed.WorkerIDs[3])+"/tracking", f.private)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "40.7", body["tracking"].([]any)[0].(obj)["latitude"])
}

func TestUsersFormListsInIndexOrderAndPasswordsScrubbedEverywhere(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	var badges []int64
	for i := range 11 {
		status, body := f.json(http.MethodPost, "/api_v2/badges", with(f.private), obj{"badge": obj{"name": "B" + itoa(int64(i)), "description": "d"}})
		require.Equal(t, http.StatusOK, status, body)
		badges = append(badges, idOf(body["badge"]))
	}
	form := url.Values{}
	for i, b := range badges {
		form.Set("user[user_badges_attributes]["+itoa(int64(i))+"][badge_id]", itoa(b))
	}
	status, body := f.form(http.MethodPatch, idPath("users", seed.WorkerIDs[4]), with(f.private), form)
	require.Equal(t, http.StatusOK, status, body)
	assert.NotContains(t, body["user"], "user_badges", "a shown User carries the real one's keys, and no user_badges")
	var held []any // as the list shows them
	status, body = f.json(http.MethodGet, "/api_v2/users", with(f.private, "per", "50"), nil)
	require.Equal(t, http.StatusOK, status, body)
	for _, u := range body["users"].([]any) {
		if idOf(u) == seed.WorkerIDs[4] {
			held = u.(obj)["user_badges"].([]any)
		}
	}
	require.Len(t, held, 11)
	for i, h := range held {
		assert.Equal(t, float64(badges[i]), h.(obj)["badge_id"], "item %d in index order, not string order", i)
	}

	status, _ = f.json(http.MethodPost, "/api_v2/users", with(f.private), obj{"user[password]": "flat-secret-1",
		"batch": []any{obj{"password": "nested-secret-2"}}})
	assert.Equal(t, http.StatusUnprocessableEntity, status)
	for _, r := range f.Requests() {
		assert.NotContains(t, string(r.Body), "flat-secret-1")
		assert.NotContains(t, string(r.Body), "nested-secret-2")
	}
}

// TestUsersWriteRatingsAsText checks every answer that writes a User as GET /users does: its
// rating is a decimal in a string, as the live API writes it (CONTRACT §10), or null.
func TestUsersWriteRatingsAsText(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	rated, unrated := seed.WorkerIDs[1], seed.WorkerIDs[4] // 4.8, and none
	status, body := f.get(idPath("users", rated), f.private)
	require.Equal(t, http.StatusOK, status, body)
	users := map[string]any{"GET /users/:id": body["user"]}
	status, body = f.get("/api_v2/users", f.private, "per", "50")
	require.Equal(t, http.StatusOK, status, body)
	for _, u := range body["users"].([]any) {
		switch idOf(u) {
		case rated:
			users["GET /users"] = u
		case unrated:
			assert.Nil(t, u.(obj)["rating"], "no rating is null")
		}
	}
	status, body = f.get("/api_v2/search", f.private, "q", "okafor")
	require.Equal(t, http.StatusOK, status, body)
	require.Len(t, body["users"], 1)
	users["GET /search"] = body["users"].([]any)[0]
	status, body = f.json(http.MethodPatch, idPath("users", rated), with(f.private), obj{"user": obj{"city": "Echo Park"}})
	require.Equal(t, http.StatusOK, status, body)
	users["PATCH /users/:id"] = body["user"]
	for answer, u := range users {
		assert.Equal(t, "4.8", u.(obj)["rating"], answer)
	}
}
