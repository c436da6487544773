package workforce_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// Each scalar of the SDK's types takes its plausible JSON forms without a
// warning, in a record that also fails the fast path (an unknown form
// elsewhere), so that the lenient path decodes it.
func TestLenientForms(t *testing.T) {
	t.Parallel()
	cases := []struct {
		field, value string
		check        func(*testing.T, *workforce.User)
	}{
		{"drug_tested", `true`, func(t *testing.T, u *workforce.User) { assert.True(t, u.DrugTested) }},
		{"drug_tested", `"true"`, func(t *testing.T, u *workforce.User) { assert.True(t, u.DrugTested) }},
		{"drug_tested", `"True"`, func(t *testing.T, u *workforce.User) { assert.True(t, u.DrugTested) }},
		{"drug_tested", `"1"`, func(t *testing.T, u *workforce.User) { assert.True(t, u.DrugTested) }},
		{"drug_tested", `1`, func(t *testing.T, u *workforce.User) { assert.True(t, u.DrugTested) }},
		{"drug_tested", `"yes"`, func(t *testing.T, u *workforce.User) { assert.True(t, u.DrugTested) }},
		{"drug_tested", `"false"`, func(t *testing.T, u *workforce.User) { assert.False(t, u.DrugTested) }},
		{"drug_tested", `"0"`, func(t *testing.T, u *workforce.User) { assert.False(t, u.DrugTested) }},
		{"drug_tested", `0`, func(t *testing.T, u *workforce.User) { assert.False(t, u.DrugTested) }},
		{"drug_tested", `""`, func(t *testing.T, u *workforce.User) { assert.False(t, u.DrugTested) }},
		{"drug_tested", `null`, func(t *testing.T, u *workforce.User) { assert.False(t, u.DrugTested) }},
		{"verified_phone", `"f"`, func(t *testing.T, u *workforce.User) { assert.False(t, u.VerifiedPhone) }},
		{"customer_id", `"12"`, func(t *testing.T, u *workforce.User) { assert.Equal(t, int64(12), u.CustomerID) }},
		{"customer_id", `" 12 "`, func(t *testing.T, u *workforce.User) { assert.Equal(t, int64(12), u.CustomerID) }},
		{"customer_id", `12.0`, func(t *testing.T, u *workforce.User) { assert.Equal(t, int64(12), u.CustomerID) }},
		{"customer_id", `1e3`, func(t *testing.T, u *workforce.User) { assert.Equal(t, int64(1000), u.CustomerID) }},
		{"customer_id", `""`, func(t *testing.T, u *workforce.User) { assert.Zero(t, u.CustomerID) }},
		{"customer_id", `null`, func(t *testing.T, u *workforce.User) { assert.Zero(t, u.CustomerID) }},
		{"first_name", `42`, func(t *testing.T, u *workforce.User) { assert.Equal(t, "42", u.FirstName) }},
		{"first_name", `4.50`, func(t *testing.T, u *workforce.User) { assert.Equal(t, "4.50", u.FirstName) }},
		{"first_name", `true`, func(t *testing.T, u *workforce.User) { assert.Equal(t, "true", u.FirstName) }},
		{"first_name", `"Ad\u00e9"`, func(t *testing.T, u *workforce.User) { assert.Equal(t, "Adé", u.FirstName) }},
		{"rating", `4.5`, func(t *testing.T, u *workforce.User) { assert.Equal(t, "4.5", u.Rating.String()) }},
		{"rating", `"4.5"`, func(t *testing.T, u *workforce.User) { assert.Equal(t, "4.5", u.Rating.String()) }},
		{"rating", `""`, func(t *testing.T, u *workforce.User) { assert.False(t, u.Rating.Valid()) }},
		{"dob", `"1990-04-01"`, func(t *testing.T, u *workforce.User) { assert.Equal(t, "1990-04-01", u.DOB.String()) }},
		{"dob", `"1990-04-01T00:00:00-07:00"`, func(t *testing.T, u *workforce.User) { assert.Equal(t, "1990-04-01", u.DOB.String()) }},
		{"updated_at", `"2017-09-13T11:34:36.820-07:00"`, func(t *testing.T, u *workforce.User) { assert.Equal(t, 820e6, float64(u.UpdatedAt.Nanosecond())) }},
		{"user_badges", `[{"id": "3", "badge_id": 9, "suspended": "false", "expires_at": null}]`, func(t *testing.T, u *workforce.User) {
			assert.Equal(t, []workforce.UserBadge{{ID: 3, UserID: 7, BadgeID: 9}}, u.UserBadges)
		}},
		{"user_badges", `""`, func(t *testing.T, u *workforce.User) { assert.Nil(t, u.UserBadges) }},
		{"USER_BADGES", `[{"id": 4}]`, func(t *testing.T, u *workforce.User) {
			require.Len(t, u.UserBadges, 1, "names match in any case, as encoding/json matches them")
		}},
	}
	for _, tc := range cases {
		t.Run(tc.field+"="+tc.value, func(t *testing.T) {
			t.Parallel()
			for _, fast := range []bool{true, false} {
				doc := fmt.Sprintf(`{"id": 7, %q: %s}`, tc.field, tc.value)
				if !fast {
					doc = fmt.Sprintf(`{"id": 7, "suspended": "yes", %q: %s}`, tc.field, tc.value) // "yes" fails the fast path
				}
				var u *workforce.User
				warnings, err := workforce.Decode([]byte(doc), &u)
				require.NoError(t, err)
				assert.Empty(t, warnings)
				tc.check(t, u)
				assert.JSONEq(t, doc, string(u.Raw))
			}
		})
	}
}

// A value that fits no form of its field leaves the field zero, keeps the
// record and the page, and is answered as a warning naming the record's
// place and ID, the field and the value.
func TestLenientWarnings(t *testing.T) {
	t.Parallel()
	page := `[{"id": 3, "state": "filled"},
		{"id": 2, "state": "filled", "hours_worked": true, "worker": {"id": 7, "drug_tested": "maybe", "rating": "4.5"},
		 "transitions": [{"id": 1, "latitude": "34.1"}, {"id": 2, "latitude": {"deg": 34}}]},
		{"id": "x", "state": "filled", "job_request_id": 7.5}]`
	var jobs []*workforce.Job
	warnings, err := workforce.Decode([]byte(page), &jobs)
	require.NoError(t, err)
	require.Len(t, jobs, 3)
	assert.Equal(t, []workforce.Warning{
		{Index: 1, ID: 2, Field: "hours_worked", Value: "true", Want: "decimal"},
		{Index: 1, ID: 2, Field: "worker.drug_tested", Value: `"maybe"`, Want: "boolean"},
		{Index: 1, ID: 2, Field: "transitions[1].latitude", Value: `{"deg": 34}`, Want: "decimal"},
		{Index: 2, ID: 0, Field: "id", Value: `"x"`, Want: "integer"},
		{Index: 2, ID: 0, Field: "job_request_id", Value: "7.5", Want: "integer"},
	}, warnings)
	j := jobs[1]
	assert.Equal(t, workforce.JobFilled, j.State, "the record is kept")
	assert.False(t, j.HoursWorked.Valid())
	assert.Equal(t, "4.5", j.Worker.Rating.String(), "the other fields are decoded")
	assert.Equal(t, int64(7), j.WorkerID, "from worker.id")
	assert.Equal(t, "34.1", j.Transitions[0].Latitude.String())
	assert.False(t, j.Transitions[1].Latitude.Valid())
	assert.Contains(t, string(j.Raw), `"maybe"`, "Raw keeps the value")
	assert.Equal(t, workforce.JobFilled, jobs[2].State)
	assert.Equal(t, `record 1 (id 2): worker.drug_tested: "maybe" is not a boolean`, warnings[1].String())
}

// A list element that is not a record, null or not an object, is an error:
// the answer is not a list of records.
func TestLenientRefusesNonRecords(t *testing.T) {
	t.Parallel()
	for _, page := range []string{`[{"id": 1, "hours_worked": true}, null]`, `[{"id": 1, "hours_worked": true}, 5]`,
		`[5]`, `{"id": 1}`, `[{"id": 1}`} {
		var jobs []*workforce.Job
		_, err := workforce.Decode([]byte(page), &jobs)
		assert.Error(t, err, page)
	}
	_, err := workforce.Decode([]byte(`{}`), nil)
	assert.ErrorIs(t, err, workforce.ErrInvalidArgument)
}

// The lenient path decodes valid records as encoding/json does: the same
// Job, from a document holding every field, once through the fast path
// and once through the lenient one.
func TestLenientAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	doc := `{"id": 9, "state": "completed", "job_request_id": 4, "created_at": "2017-09-13T11:34:36.820-07:00",
		"hours_worked": 0, "adjusted_wage": 18.5, "w2_hourly_rate": "", "requestor_notes": "Gate \"B\" \u2014 ask for Sam",
		"classification": "1099", "State": "ignored? no: a later member of another case",
		"worker": {"id": 7, "first_name": "Ada", "rating": "4.73913043478261", "latitude": "34.042019", "dob": "1990-04-01",
		 "ssn": "", "user_badges": [{"id": 1, "user_id": 7, "badge_id": 3, "expires_at": null, "created_at": "2017-09-01T10:00:00.000-07:00",
		 "suspended": false, "category": null, "updated_at": "2017-09-01T10:00:00.000-07:00"}]},
		"transitions": [{"id": 2, "job_id": 9, "name": "completed", "created_at": "2017-09-13T17:57:59Z", "latitude": null}],
		"state": "approved"}`
	var fast, slow *workforce.Job
	w, err := workforce.Decode([]byte(doc), &fast)
	require.NoError(t, err)
	require.Empty(t, w)
	broken := strings.Replace(doc, `"classification": "1099"`, `"classification": "1099", "actual_duration": [1]`, 1)
	w, err = workforce.Decode([]byte(broken), &slow)
	require.NoError(t, err)
	require.Len(t, w, 1)
	fast.Raw, slow.Raw = nil, nil
	assert.Equal(t, fast, slow)
	assert.Equal(t, workforce.JobApproved, fast.State, "the last member wins")
}
