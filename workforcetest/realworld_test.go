package workforcetest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The forms of CONTRACT §10.1 in the names of form.
const (
	pacificMillis = "Pacific time with milliseconds"
	number        = "number"
	someText      = "text"
)

// readReal reads a real capture of testdata/realworld, a copy of the
// shared captures, as they came.
func readReal(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../testdata/realworld/" + name)
	require.NoError(t, err)
	return data
}

// decodeObject reads one JSON object, numbers as written.
func decodeObject(t *testing.T, data []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var o map[string]any
	require.NoError(t, dec.Decode(&o))
	return o
}

// allow adds forms to the key of s: what CONTRACT §10.1 gives from the real
// client's schemas for a key the real page shows null only.
func (s *shape) allow(key string, forms ...string) {
	for _, f := range forms {
		s.keys[key][f] = true
	}
}

// mergeForms gives each of shapes every form any of them shows for a key
// they both have: a Job's worker and employer are Users alike.
func mergeForms(shapes ...*shape) {
	for _, a := range shapes {
		for _, b := range shapes {
			for k, forms := range a.keys {
				if b.keys[k] == nil {
					continue
				}
				for f := range forms {
					b.keys[k][f] = true
				}
			}
		}
	}
}

// realJobs returns the shape of the real page's Jobs, with the forms §10.1
// gives for the keys the page shows null only, and worker and employer each
// allowing the forms of the other.
func realJobs(t *testing.T) *shape {
	t.Helper()
	capture := newShape()
	for _, j := range decodeJobs(t, readReal(t, "jobs_page.json")) {
		capture.add(j)
	}
	for _, key := range []string{"confirmed_at", "started_at", "finished_at"} {
		capture.allow(key, pacificMillis)
	}
	capture.allow("actual_duration", number)
	capture.allow("adjusted_wage", number)
	capture.allow("time_to_start", number)
	for _, key := range []string{"requestor_notes", "w2_payment_ref", "w2_pay_status"} {
		capture.allow(key, someText)
	}
	worker, employer := capture.below["worker"], capture.below["employer"]
	user := newShape() // the real standalone User: the same User, as the API wrote it in 2019
	user.add(decodeObject(t, readReal(t, "user.json"))["user"].(map[string]any))
	mergeForms(worker, employer, user)
	worker.allow("gender", someText) // null in both captures; text by §6
	employer.allow("gender", someText)
	worker.below["user_badges"].allow("expires_at", pacificMillis)
	employer.below["user_badges"] = worker.below["user_badges"]
	return capture
}

// The fake's standalone Users (GET /users/:id, PATCH /users/:id, GET /users,
// a ranking's worker) carry every key of the real User (user.json), and the
// fields of §6 besides, each in a form the real User or the real page's
// Users show; their user_badges as the page's.
func TestFakeUsersLikeTheRealUser(t *testing.T) {
	t.Parallel()
	real := newShape()
	real.add(decodeObject(t, readReal(t, "user.json"))["user"].(map[string]any))
	embedded := realJobs(t).below["worker"]
	mergeForms(real, embedded)
	real.allow("gender", someText)
	real.allow("drug_tested", someText) // "" in user.json; text in the real client's schema
	real.below["user_badges"] = embedded.below["user_badges"]

	f := newFake(t)
	seed := f.Seed()
	require.NoError(t, f.GrantBadge(seed.WorkerIDs[0], seed.BadgeID))
	fake := newShape()
	for _, id := range append([]int64{seed.EmployerID}, seed.WorkerIDs...) {
		resp := f.send(http.MethodGet, "/api_v2/users/"+itoa(id), url.Values{"token": {f.private}}, "", nil)
		fake.add(decodeAnswer(t, resp)["user"].(map[string]any))
	}
	resp := f.send(http.MethodPatch, "/api_v2/users/"+itoa(seed.WorkerIDs[1]), url.Values{"token": {f.private}},
		"application/json", []byte(`{"user": {"city": "Pasadena"}}`))
	fake.add(decodeAnswer(t, resp)["user"].(map[string]any))
	resp = f.send(http.MethodGet, "/api_v2/users", url.Values{"token": {f.private}, "per": {"50"}}, "", nil)
	for _, u := range decodeAnswer(t, resp)["users"].([]any) {
		fake.add(u.(map[string]any))
	}
	status, _ := f.json(http.MethodPost, "/api_v2/job_requests/"+itoa(seed.JobRequest1099ID)+"/re_rank_workers", with(f.private), nil)
	require.Equal(t, http.StatusOK, status)
	resp = f.send(http.MethodGet, "/api_v2/job_requests/"+itoa(seed.JobRequest1099ID)+"/rankings", url.Values{"token": {f.private}}, "", nil)
	rankings := decodeAnswer(t, resp)["rankings"].([]any)
	require.NotEmpty(t, rankings)
	for _, r := range rankings {
		fake.add(r.(map[string]any)["worker"].(map[string]any))
	}
	compareShapes(t, "user", real, fake, "user_badges", "suspended_at", "agreed_to_terms", "agreed_to_terms_date",
		"onboarding_last_state", "verified_phone", "phone_verified_at", "customer_id", "role", "title", "synced_worker_id")
	compareShapes(t, "user.user_badges", real.below["user_badges"], fake.below["user_badges"])
}

// decodeAnswer reads a 200 answer, numbers as written.
func decodeAnswer(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(data))
	return decodeObject(t, data)
}

// GET /info answers exactly the real keys, in the real forms.
func TestFakeInfoLikeTheRealOne(t *testing.T) {
	t.Parallel()
	real := newShape()
	real.add(decodeObject(t, readReal(t, "info.json")))
	f := newFake(t)
	fake := newShape()
	fake.add(decodeAnswer(t, f.send(http.MethodGet, "/api_v2/info", nil, "", nil)))
	compareShapes(t, "info", real, fake)
}

// An unknown route answers 404 with the real body, word for word; the
// fake's other errors carry the status beside the message too.
func TestFakeNotFoundLikeTheRealOne(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	resp := f.send(http.MethodGet, "/api_v2/no_such_thing", url.Values{"token": {f.private}}, "", nil)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.JSONEq(t, string(readReal(t, "error_404.json")), string(body))

	status, answer := f.get("/api_v2/jobs/999999", f.private)
	assert.Equal(t, http.StatusNotFound, status)
	assert.Equal(t, float64(http.StatusNotFound), answer["status"])
	status, answer = f.json(http.MethodPost, "/api_v2/badges", with(f.private), obj{"badge": obj{}})
	assert.Equal(t, http.StatusUnprocessableEntity, status)
	assert.Equal(t, float64(http.StatusUnprocessableEntity), answer["status"])
	assert.NotEmpty(t, answer["errors"])
}
