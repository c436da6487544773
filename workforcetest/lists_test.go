package workforcetest_test

import (
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// filterCase is one value of a list's filter and what a record it keeps must be.
type filterCase struct {
	value string
	keeps func(record obj) bool
}

// textOf answers a record's field as text ("" when it is not text).
func textOf(r obj, field string) string { s, _ := r[field].(string); return s }

// numberOf answers a record's field as a number, written as a number or as text (NaN when it is
// neither).
func numberOf(r obj, field string) float64 {
	switch v := r[field].(type) {
	case float64:
		return v
	case string:
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
	}
	return -1
}

// timeOf answers a record's time field.
func timeOf(r obj, field string) time.Time {
	t, _ := time.Parse(time.RFC3339, textOf(r, field))
	return t
}

// isText, isOneOf and isNumber are the usual tests of a filter case.
func isText(field, want string) func(obj) bool {
	return func(r obj) bool { return textOf(r, field) == want }
}
func isOneOf(field string, want ...string) func(obj) bool {
	return func(r obj) bool { return slices.Contains(want, textOf(r, field)) }
}
func isNumber(field string, want float64) func(obj) bool {
	return func(r obj) bool { return numberOf(r, field) == want }
}

// TestEveryFilterOfEveryListSelectsWhatItNames sends every filter each list declares, for both
// pools, and checks that each answers only the records it names, and, for the Private Pool, that it
// leaves out some: a filter declared but not applied, for either pool, fails. The table of cases
// must name every filter of every list.
func TestEveryFilterOfEveryListSelectsWhatItNames(t *testing.T) {
	t.Parallel()
	f := newFake(t, workforcetest.WithClock(time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC)))
	seed := f.Seed()
	f.SeedJobs(120)
	var w2Jobs []int64
	for i, w := range seed.WorkerIDs[1:5] {
		id, err := f.Accept(seed.JobRequestW2ID, w)
		require.NoError(t, err)
		w2Jobs = append(w2Jobs, id)
		if i < 2 {
			require.NoError(t, f.StartJob(id))
			require.NoError(t, f.Complete(id))
			require.NoError(t, f.Approve(id))
		}
	}
	require.NoError(t, f.PayW2(w2Jobs[0], "PAY-1"))
	for _, w := range seed.WorkerIDs[1:3] {
		id, err := f.Accept(seed.PublicJobRequestID, w)
		require.NoError(t, err)
		require.NoError(t, f.StartJob(id))
	}
	nevada := obj{"user": obj{"type": "Worker", "first_name": "Nell", "last_name": "Reno", "email": "nell@example.com", "address_state": "NV"}}
	status, body := f.json(http.MethodPost, "/api_v2/users", with(f.private), nevada)
	require.Equal(t, http.StatusOK, status, body)
	status, body = f.json(http.MethodPost, "/api_v2/badges", with(f.private), obj{"badge": obj{"name": "Welding", "description": "MIG"}})
	require.Equal(t, http.StatusOK, status, body)
	for _, m := range []obj{
		{"body": "On my way", "job_id": w2Jobs[2], "sender_id": seed.WorkerIDs[3], "receiver_id": seed.EmployerID},
		{"body": "Thanks", "job_id": seed.PublicJobID, "sender_id": seed.EmployerID, "receiver_id": seed.WorkerIDs[0]},
	} {
		status, body = f.json(http.MethodPost, "/api_v2/messages", with(f.private), obj{"message": m})
		require.Equal(t, http.StatusOK, status, body)
	}
	mid := f.Now().Add(-45 * 24 * time.Hour)
	after := func(r obj) bool { return !timeOf(r, "updated_at").Before(mid) }
	before := func(r obj) bool { return timeOf(r, "updated_at").Before(mid) }
	id := func(n int64) string { return strconv.FormatInt(n, 10) }

	cases := map[string]map[string][]filterCase{
		"/api_v2/jobs": {
			"state":          {{"approved,no_show", isOneOf("state", "approved", "no_show")}, {"filled", isText("state", "filled")}},
			"job_request_id": {{id(seed.JobRequestW2ID), isNumber("job_request_id", float64(seed.JobRequestW2ID))}},
			"classification": {{"w2", isText("classification", "w2")}},
			"w2_hourly_rate": {{"22.750", isNumber("w2_hourly_rate", 22.75)}},
			"w2_pay_status":  {{"pending", isText("w2_pay_status", "pending")}, {"paid", isText("w2_pay_status", "paid")}},
			"updated_after":  {{mid.Format(time.RFC3339), after}},
			"updated_before": {{mid.Format(time.RFC3339), before}},
		},
		"/api_v2/job_requests": {
			"state":                    {{"draft", isText("state", "draft")}},
			"company_id":               {{id(seed.PendingCustomerID), isNumber("company_id", float64(seed.PendingCustomerID))}},
			"multi_day_job_request_id": {{id(seed.MultiDayJobRequestID), isNumber("multi_day_job_request_id", float64(seed.MultiDayJobRequestID))}},
			"classification":           {{"w2", isText("classification", "w2")}},
			"w2_hourly_rate":           {{"22.75", isNumber("w2_hourly_rate", 22.75)}},
			"updated_after":            {{mid.Format(time.RFC3339), after}},
			"updated_before":           {{mid.Format(time.RFC3339), before}},
			"agent_code":               {{"AG-7", isText("agent_code", "AG-7")}, {"Null", func(r obj) bool { return r["agent_code"] == nil }}},
		},
		"/api_v2/users": {
			"type":                  {{"Employer", isText("type", "Employer")}},
			"email":                 {{"ERIN.WALSH@ACME.EXAMPLE", isText("email", "erin.walsh@acme.example")}},
			"first_name":            {{"Ana,Ben", isOneOf("first_name", "Ana", "Ben")}},
			"last_name":             {{"Garcia", isText("last_name", "Garcia")}},
			"external_id":           {{"EXT-2", isText("external_id", "EXT-2")}},
			"onboarding_last_state": {{"completed", isText("onboarding_last_state", "completed")}},
			"w2_onboarding_status":  {{"completed", isText("w2_onboarding_status", "completed")}},
			"w2_employee_id":        {{"W2-4001", isText("w2_employee_id", "W2-4001")}},
			"address_state":         {{"NV", isText("address_state", "NV")}},
			"drug_tested":           {{"TRUE", isText("drug_tested", "true")}, {"0", isText("drug_tested", "false")}},
			"updated_after":         {{mid.Format(time.RFC3339), after}},
			"updated_before":        {{mid.Format(time.RFC3339), before}},
		},
		"/api_v2/messages": {
			"job_id":      {{id(seed.PublicJobID), isNumber("job_id", float64(seed.PublicJobID))}},
			"sender_id":   {{id(seed.WorkerIDs[3]), isNumber("sender_id", float64(seed.WorkerIDs[3]))}},
			"receiver_id": {{id(seed.WorkerIDs[0]), isNumber("receiver_id", float64(seed.WorkerIDs[0]))}},
		},
		"/api_v2/badges": {
			"query": {{"FORK", func(r obj) bool { return strings.Contains(strings.ToLower(textOf(r, "name")), "fork") }}},
		},
		"/api_v2/customers": {},
	}

	lists := f.ListFilters()
	for _, pattern := range f.RoutePatterns() {
		method, p, _ := strings.Cut(pattern, " ")
		if method == http.MethodGet && strings.HasPrefix(p, "/api_v2/") && !strings.Contains(p, "{") &&
			!slices.Contains([]string{"/api_v2/info", "/api_v2/search", "/api_v2/customers/exists"}, p) {
			assert.Contains(t, lists, p, "the list %s declares its filters", p)
		}
	}
	for list, names := range lists {
		var named []string
		for name := range cases[list] {
			named = append(named, name)
		}
		assert.ElementsMatch(t, names, named, "the cases of %s name its filters", list)
		key := path.Base(list)
		for name, tcs := range cases[list] {
			for _, tc := range tcs {
				for pool, token := range map[string]string{"private": f.private, "public": f.public} {
					status, body := f.get(list, token, name, tc.value, "per", "50")
					require.Equal(t, http.StatusOK, status, "%s?%s=%s: %v", list, name, tc.value, body)
					records, _ := body[key].([]any)
					for _, r := range records {
						assert.True(t, tc.keeps(r.(obj)), "%s?%s=%s (%s) answers record %v", list, name, tc.value, pool, r.(obj)["id"])
					}
					if pool == "private" {
						assert.NotEmpty(t, records, "%s?%s=%s keeps some", list, name, tc.value)
						assert.True(t, leavesOut(t, f, list, tc.keeps), "%s?%s=%s leaves some out", list, name, tc.value)
					}
				}
			}
		}
	}
}

// leavesOut tells whether the unfiltered list holds a record that keeps does not keep.
func leavesOut(t *testing.T, f *fake, list string, keeps func(obj) bool) bool {
	t.Helper()
	for page := 1; ; page++ {
		status, body := f.get(list, f.private, "per", "50", "page", strconv.Itoa(page))
		require.Equal(t, http.StatusOK, status, body)
		records, _ := body[path.Base(list)].([]any)
		for _, r := range records {
			if !keeps(r.(obj)) {
				return true
			}
		}
		if len(records) < 50 {
			return false
		}
	}
}
