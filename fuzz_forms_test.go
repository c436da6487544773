package workforce_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

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
	{"worker.w2_onboarding_started", boolForms, func(j *workforce.Job) any { return j.Worker.W2OnboardingStarted }},
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
