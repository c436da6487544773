package workforce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
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
	assert.Equal(t, `record 2 (id 0): job_request_id: 7.5 is not an integer`, warnings[4].String())
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

// A form is a JSON value a field may be sent as, and what the field must
// then hold: want when fits, else zero with a warning.
type form struct {
	raw  string
	fits bool
	want any
}

// Forms of each kind of scalar: the plausible ones with the value they
// mean, and some that fit nothing.
var (
	boolForms = []form{{`true`, true, true}, {`false`, true, false}, {`"true"`, true, true}, {`"False"`, true, false},
		{`"1"`, true, true}, {`"0"`, true, false}, {`1`, true, true}, {`0`, true, false}, {`""`, true, false},
		{`null`, true, false}, {`"yes"`, true, true}, {`"maybe"`, false, nil}, {`2`, false, nil}, {`[]`, false, nil},
		{`{"a": true}`, false, nil}}
	intForms = []form{{`12`, true, int64(12)}, {`"12"`, true, int64(12)}, {`12.0`, true, int64(12)}, {`" 7 "`, true, int64(7)},
		{`""`, true, int64(0)}, {`null`, true, int64(0)}, {`-3`, true, int64(-3)}, {`1e2`, true, int64(100)},
		{`7.5`, false, nil}, {`"x"`, false, nil}, {`true`, false, nil}, {`[1]`, false, nil}, {`1e30`, false, nil},
		{`"9223372036854775808"`, false, nil}}
	textForms = []form{{`"a b"`, true, "a b"}, {`12`, true, "12"}, {`1.50`, true, "1.50"}, {`true`, true, "true"},
		{`null`, true, ""}, {`"\u00e9\n"`, true, "é\n"}, {`""`, true, ""}, {`[]`, false, nil}, {`{"a": 1}`, false, nil}}
	decimalForms = []form{{`18.5`, true, "18.5"}, {`"18.50"`, true, "18.50"}, {`""`, true, ""}, {`null`, true, ""},
		{`-3e2`, true, "-3e2"}, {`0`, true, "0"}, {`"abc"`, false, nil}, {`true`, false, nil}, {`[]`, false, nil}}
	timeForms = []form{{`"2017-09-13T11:34:36.820-07:00"`, true, "2017-09-13T18:34:36.82Z"},
		{`"2017-11-13T17:57:59Z"`, true, "2017-11-13T17:57:59Z"}, {`null`, true, ""}, {`""`, true, ""},
		{`12`, false, nil}, {`"yesterday"`, false, nil}, {`{}`, false, nil}}
	dateForms = []form{{`"1990-04-01"`, true, "1990-04-01"}, {`null`, true, ""}, {`""`, true, ""},
		{`"04/01/1990"`, false, nil}, {`5`, false, nil}}
)

// A formField is a field of a Job whose form the fuzzer chooses: its path
// (as a Warning names it), its forms, and how to read it from the Job.
type formField struct {
	path  string
	forms []form
	get   func(*workforce.Job) any
}

func timeText(t workforce.Time) any {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

var formFields = []formField{
	{"job_request_id", intForms, func(j *workforce.Job) any { return j.JobRequestID }},
	{"state", textForms, func(j *workforce.Job) any { return string(j.State) }},
	{"hours_worked", decimalForms, func(j *workforce.Job) any { return j.HoursWorked.String() }},
	{"adjusted_wage", decimalForms, func(j *workforce.Job) any { return j.AdjustedWage.String() }},
	{"w2_hourly_rate", decimalForms, func(j *workforce.Job) any { return j.W2HourlyRate.String() }},
	{"created_at", timeForms, func(j *workforce.Job) any { return timeText(j.CreatedAt) }},
	{"finished_at", timeForms, func(j *workforce.Job) any { return timeText(j.FinishedAt) }},
	{"worker.suspended", boolForms, func(j *workforce.Job) any { return j.Worker.Suspended }},
	{"worker.w2_onboarding_started", timeForms, func(j *workforce.Job) any { return timeText(j.Worker.W2OnboardingStarted) }},
	{"worker.rating", decimalForms, func(j *workforce.Job) any { return j.Worker.Rating.String() }},
	{"worker.latitude", decimalForms, func(j *workforce.Job) any { return j.Worker.Latitude.String() }},
	{"worker.dob", dateForms, func(j *workforce.Job) any { return j.Worker.DOB.String() }},
	{"worker.first_name", textForms, func(j *workforce.Job) any { return j.Worker.FirstName }},
	{"worker.user_badges[0].badge_id", intForms, func(j *workforce.Job) any { return j.Worker.UserBadges[0].BadgeID }},
	{"worker.user_badges[0].suspended", boolForms, func(j *workforce.Job) any { return j.Worker.UserBadges[0].Suspended }},
	{"worker.user_badges[0].expires_at", timeForms, func(j *workforce.Job) any { return timeText(j.Worker.UserBadges[0].ExpiresAt) }},
	{"transitions[0].name", textForms, func(j *workforce.Job) any { return string(j.Transitions[0].Name) }},
	{"transitions[0].latitude", decimalForms, func(j *workforce.Job) any { return j.Transitions[0].Latitude.String() }},
	{"transitions[0].created_at", timeForms, func(j *workforce.Job) any { return timeText(j.Transitions[0].CreatedAt) }},
}

// formJob writes a Job with the form of each field that pick chooses, and
// free as its requestor_notes.
func formJob(id int, pick func(n int) int, free string) (string, []form) {
	chosen := make([]form, len(formFields))
	v := map[string]string{}
	for i, f := range formFields {
		chosen[i] = f.forms[pick(len(f.forms))]
		v[f.path] = chosen[i].raw
	}
	notes, _ := json.Marshal(free)
	return fmt.Sprintf(`{"id": %d, "job_request_id": %s, "state": %s, "hours_worked": %s, "adjusted_wage": %s,
		"w2_hourly_rate": %s, "created_at": %s, "finished_at": %s, "requestor_notes": %s,
		"worker": {"id": 7, "suspended": %s, "w2_onboarding_started": %s, "rating": %s, "latitude": %s, "dob": %s,
		 "first_name": %s, "ssn": "", "user_badges": [{"id": 1, "badge_id": %s, "suspended": %s, "expires_at": %s}]},
		"transitions": [{"id": 2, "job_id": %d, "name": %s, "latitude": %s, "created_at": %s}]}`,
		id, v["job_request_id"], v["state"], v["hours_worked"], v["adjusted_wage"], v["w2_hourly_rate"], v["created_at"],
		v["finished_at"], notes, v["worker.suspended"], v["worker.w2_onboarding_started"], v["worker.rating"],
		v["worker.latitude"], v["worker.dob"], v["worker.first_name"], v["worker.user_badges[0].badge_id"],
		v["worker.user_badges[0].suspended"], v["worker.user_badges[0].expires_at"], id, v["transitions[0].name"],
		v["transitions[0].latitude"], v["transitions[0].created_at"]), chosen
}

// FuzzDecodeForms decodes pages of Jobs whose fields the fuzzer sends in
// any of their forms, plausible or not, with any text in one: the page
// never fails, each Job's Raw is its document, and each typed field holds
// what its JSON says, or is zero with a warning naming the Job and the
// field.
func FuzzDecodeForms(f *testing.F) {
	f.Add([]byte{}, "Ask for Sam")
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, "\xff\x00\"")
	f.Add([]byte("every form of every field, one after the other, twice over"), "{}")
	f.Fuzz(func(t *testing.T, choices []byte, free string) {
		next := 0
		pick := func(n int) int {
			if len(choices) == 0 {
				return 0
			}
			b := choices[next%len(choices)]
			next++
			return int(b) % n
		}
		docs := make([]string, 3)
		chosen := make([][]form, 3)
		for i := range docs {
			docs[i], chosen[i] = formJob(100+i, pick, free)
		}
		page := "[" + strings.Join(docs, ",") + "]"
		var jobs []*workforce.Job
		warnings, err := workforce.Decode([]byte(page), &jobs)
		require.NoError(t, err, "no value fails the page")
		require.Len(t, jobs, len(docs))
		warned := map[string]bool{}
		for _, w := range warnings {
			warned[fmt.Sprintf("%d %d %s", w.Index, w.ID, w.Field)] = true
		}
		var notes string
		marshaled, _ := json.Marshal(free)
		require.NoError(t, json.Unmarshal(marshaled, &notes))
		for i, job := range jobs {
			assert.JSONEq(t, docs[i], string(job.Raw), "Raw is the Job's document")
			assert.Equal(t, notes, job.RequestorNotes)
			id := int64(100 + i)
			for k, field := range formFields {
				key := fmt.Sprintf("%d %d %s", i, id, field.path)
				got := field.get(job)
				if c := chosen[i][k]; c.fits {
					assert.Equal(t, c.want, got, "job %d, %s = %s", i, field.path, c.raw)
					assert.False(t, warned[key], "job %d, %s = %s: a warning for a value that fits", i, field.path, c.raw)
				} else {
					assert.Zero(t, got, "job %d, %s = %s: zero when it fits no form", i, field.path, c.raw)
					assert.True(t, warned[key], "job %d, %s = %s: no warning, in %v", i, field.path, c.raw, warnings)
				}
			}
			assert.Equal(t, int64(7), job.WorkerID, "from worker.id")
		}
	})
}

// TestMalformedValueIsAWarning checks that a bad decimal in an answer
// leaves its field zero with a warning naming it, keeps the record and its
// document, and is neither a DecodeError nor an ErrInvalidArgument.
func TestMalformedValueIsAWarning(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42",
		httpmock.NewStringResponder(200, `{"job": {"id": 42, "hours_worked": "abc", "state": "filled"}}`))
	job, resp, err := c.Jobs.Get(context.Background(), 42)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobFilled, job.State)
	assert.False(t, job.HoursWorked.Valid())
	assert.Equal(t, []workforce.Warning{{ID: 42, Field: "hours_worked", Value: `"abc"`, Want: "decimal"}}, resp.Warnings)
	assert.Contains(t, string(job.Raw), `"abc"`)
}
