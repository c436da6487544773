package workforcetest_test

import (
	"io"
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

// textOf returns a record's field as text ("" when it is not text).
func textOf(r obj, field string) string { s, _ := r[field].(string); return s }

// numberOf returns a record's field as a number, written as a number or as text (NaN when it is
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

// timeOf returns a record's time field.
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
		id, err := f.AcceptJobRequest(seed.JobRequestW2ID, w)
		require.NoError(t, err)
		w2Jobs = append(w2Jobs, id)
		if i < 2 {
			require.NoError(t, f.StartJob(id))
			require.NoError(t, f.CompleteJob(id))
			require.NoError(t, f.ApproveJob(id))
		}
	}
	require.NoError(t, f.PayW2Job(w2Jobs[0], "PAY-1"))
	for _, w := range seed.WorkerIDs[1:3] {
		id, err := f.AcceptJobRequest(seed.PublicJobRequestID, w)
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
			"drug_tested":           {{"TRUE", isText("drug_tested", "true")}, {"0", isText("drug_tested", "")}},
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

// TestResourceListPaging checks the paging of the lists of Customers, Badges, Job Requests and
// Users: 25 by default, at most 50, newest first, an empty page past the end.
func TestResourceListPaging(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		plural string
		create func(f *fake, i int) obj
	}{
		{"customers", func(f *fake, i int) obj {
			return obj{"customer": obj{"name": "Customer " + itoa(int64(i))}}
		}},
		{"badges", func(f *fake, i int) obj {
			return obj{"badge": obj{"name": "Badge " + itoa(int64(i)), "description": "d"}}
		}},
		{"job_requests", func(f *fake, i int) obj { return obj{"job_request": jobRequestBody(nil)} }},
		{"users", func(f *fake, i int) obj {
			return obj{"user": obj{"type": "Worker", "first_name": "Paged", "last_name": "Worker" + itoa(int64(i)),
				"email": "paged" + itoa(int64(i)) + "@example.com"}}
		}},
	} {
		t.Run(tc.plural, func(t *testing.T) {
			t.Parallel()
			f := newFake(t)
			for i := range 60 {
				status, body := f.json(http.MethodPost, "/api_v2/"+tc.plural, with(f.private), tc.create(f, i))
				require.Equal(t, http.StatusOK, status, body)
			}
			_, body := f.get("/api_v2/"+tc.plural, f.private, "per", "1000")
			all := listIDs(t, body, tc.plural)
			require.Len(t, all, 50, "at most 50 whatever per says")
			for i := 1; i < len(all); i++ {
				require.Greater(t, all[i-1], all[i], "newest first")
			}
			_, body = f.get("/api_v2/"+tc.plural, f.private)
			assert.Equal(t, all[:25], listIDs(t, body, tc.plural), "25 by default")
			_, body = f.get("/api_v2/"+tc.plural, f.private, "page", "2", "per", "10")
			assert.Equal(t, all[10:20], listIDs(t, body, tc.plural))
			status, body := f.get("/api_v2/"+tc.plural, f.private, "page", "99")
			require.Equal(t, http.StatusOK, status)
			assert.Equal(t, []any{}, body[tc.plural], "a page past the end is empty")
			status, body = f.get("/api_v2/"+tc.plural, f.private, "per", "0")
			require.Equal(t, http.StatusUnprocessableEntity, status)
			assert.Contains(t, fieldErrors(t, body), "per")
		})
	}
}

// fillJobs adds n Jobs through outside moves (accept, then no-show, so that the Worker is free
// again) and returns their ids, oldest first.
func fillJobs(t *testing.T, f *fake, n int) []int64 {
	t.Helper()
	ids := make([]int64, n)
	for i := range ids {
		id, err := f.AcceptJobRequest(f.Seed().JobRequest1099ID, f.Seed().WorkerIDs[1])
		require.NoError(t, err)
		require.NoError(t, f.NoShowJob(id))
		ids[i] = id
	}
	return ids
}

func TestListPagesNewestFirstUntilAShortPage(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	fillJobs(t, f, 59)
	var all []int64 // every id, newest first, by pages of 50
	for page := 1; ; page++ {
		status, body := f.get("/api_v2/jobs", f.private, "per", "50", "page", strconv.Itoa(page))
		require.Equal(t, http.StatusOK, status, body)
		require.Len(t, body, 1, "only the plural key")
		ids := listIDs(t, body, "jobs")
		all = append(all, ids...)
		if len(ids) < 50 {
			break
		}
	}
	require.Len(t, all, 60)
	assert.IsDecreasing(t, all, "newest first")

	status, body := f.get("/api_v2/jobs", f.private)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, all[:25], listIDs(t, body, "jobs"), "default page 1 of 25")
	_, body = f.get("/api_v2/jobs", f.private, "page", "3")
	assert.Equal(t, all[50:], listIDs(t, body, "jobs"))
	_, body = f.get("/api_v2/jobs", f.private, "per", "80")
	assert.Equal(t, all[:50], listIDs(t, body, "jobs"), "per capped at 50")
	_, body = f.get("/api_v2/jobs", f.private, "per", "7", "page", "2")
	assert.Equal(t, all[7:14], listIDs(t, body, "jobs"))

	resp := f.send(http.MethodGet, "/api_v2/jobs", with(f.private, "page", "4"), "", nil)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.JSONEq(t, `{"jobs": []}`, string(raw), "past the end: an empty array")
	huge := "1000000000000000000000000000000" // more than an int64 holds
	for _, page := range []string{"9223372036854775807", huge} {
		status, body := f.get("/api_v2/jobs", f.private, "page", page)
		require.Equal(t, http.StatusOK, status, body)
		assert.Empty(t, listIDs(t, body, "jobs"), page)
	}
	for _, per := range []string{"51", "9223372036854775807", huge, "+" + huge} {
		status, body := f.get("/api_v2/jobs", f.private, "per", per)
		require.Equal(t, http.StatusOK, status, body)
		assert.Equal(t, all[:50], listIDs(t, body, "jobs"), "per %s means 50", per)
	}
}

func TestListRefusesMalformedPaging(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for _, kv := range [][]string{{"page", "0"}, {"page", "-1"}, {"page", "two"}, {"per", "0"}, {"per", "1.5"},
		{"per", "-99999999999999999999"}, {"page", "-99999999999999999999"}, {"per", "9e99"}, {"page", "99999999999999999999x"}} {
		status, body := f.get("/api_v2/jobs", f.private, kv...)
		require.Equal(t, http.StatusUnprocessableEntity, status, kv)
		assert.Contains(t, fieldErrors(t, body), kv[0], kv)
	}
}
