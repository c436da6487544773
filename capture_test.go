package workforce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// capturedPage is testdata/jobs_page_2017.json: a page of 50 Jobs made in
// the keys and forms of the production answer of GET /api_v2/jobs
// (testdata/realworld/jobs_page.json), with what that one lacks (cancelled
// Jobs, W2 payments): no worker_id, ratings and coordinates as text,
// w2_hourly_rate "" and 12, record times in Pacific time with both
// offsets, transitions in UTC, user_badges objects, nulls.
func capturedPage(t *testing.T) []byte {
	t.Helper()
	page, err := os.ReadFile("testdata/jobs_page_2017.json")
	require.NoError(t, err)
	return page
}

// servePage answers GET /jobs with page (its Jobs of the job_request_id
// asked for, if any), and an empty page after it.
func servePage(m *mockAPI, page []byte) {
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", func(r *http.Request) (*http.Response, error) {
		q := r.URL.Query()
		if p := q.Get("page"); p != "" && p != "1" {
			return httpmock.NewStringResponse(200, `{"jobs": []}`), nil
		}
		if q.Get("job_request_id") == "" {
			return httpmock.NewBytesResponse(200, page), nil
		}
		var doc struct{ Jobs []json.RawMessage }
		if err := json.Unmarshal(page, &doc); err != nil {
			return nil, err
		}
		var kept []json.RawMessage
		for _, j := range doc.Jobs {
			var head struct {
				JobRequestID json.Number `json:"job_request_id"`
			}
			if json.Unmarshal(j, &head) == nil && head.JobRequestID.String() == q.Get("job_request_id") {
				kept = append(kept, j)
			}
		}
		return httpmock.NewJsonResponse(200, map[string][]json.RawMessage{"jobs": kept})
	})
}

// Every typed field of every Job of the real page, and of the page made in
// its forms, equals its JSON (the 5 real w2_onboarding_started times
// among them), and every key of it is a typed field; nothing is a warning.
func TestCapturedPageDecodes(t *testing.T) {
	t.Parallel()
	real, err := os.ReadFile("testdata/realworld/jobs_page.json")
	require.NoError(t, err)
	for name, page := range map[string][]byte{"real": real, "made": capturedPage(t)} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			pageDecodes(t, page)
		})
	}
}

// The real standalone User (user.json) decodes with every value equal to
// its JSON, every key a typed field, and no warning.
func TestRealUserDecodes(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("testdata/realworld/user.json")
	require.NoError(t, err)
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/users/9012", httpmock.NewBytesResponder(200, doc))
	u, resp, err := c.Users.Get(context.Background(), 9012)
	require.NoError(t, err)
	assert.Empty(t, resp.Warnings)
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var want struct{ User map[string]any }
	require.NoError(t, dec.Decode(&want))
	sameAsJSON(t, "user", reflect.ValueOf(u).Elem(), want.User)
	assert.Equal(t, "37.7952", u.HomeLatitude.String())
}

// pageDecodes checks that every typed field of every Job of page equals
// its JSON, and every key of it is a typed field; nothing is a warning.
func pageDecodes(t *testing.T, page []byte) {
	c, m := newMock(t)
	servePage(m, page)
	jobs, resp, err := c.Jobs.List(context.Background(), &workforce.JobListOptions{ListOptions: workforce.ListOptions{Per: 50}})
	require.NoError(t, err)
	assert.Empty(t, resp.Warnings)
	require.Len(t, jobs, 50)

	dec := json.NewDecoder(bytes.NewReader(page))
	dec.UseNumber() // the oracle: encoding/json's own reading of each value, numbers as written
	var want struct{ Jobs []map[string]any }
	require.NoError(t, dec.Decode(&want))
	for i, job := range jobs {
		doc := want.Jobs[i]
		sameAsJSON(t, fmt.Sprintf("jobs[%d]", i), reflect.ValueOf(job).Elem(), doc)
		assert.Equal(t, job.Worker.ID, job.WorkerID, "WorkerID from worker.id: the page has no worker_id")
		assert.Equal(t, job.Employer.ID, job.EmployerID)
		var raw map[string]any
		require.NoError(t, json.Unmarshal(job.Raw, &raw))
		assert.Len(t, raw, len(doc), "Raw is the Job's document")
	}
}

// sameAsJSON checks that the struct v holds exactly the JSON object doc:
// each member in the field of its name, each field without a member zero
// (but for the IDs filled from embedded objects).
func sameAsJSON(t *testing.T, path string, v reflect.Value, doc map[string]any) {
	t.Helper()
	fields := map[string]reflect.Value{}
	for i := range v.NumField() {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			fields[name] = v.Field(i)
		}
	}
	for key, value := range doc {
		f, ok := fields[key]
		if !assert.True(t, ok, "%s.%s: a key no field of %s holds", path, key, v.Type()) {
			continue
		}
		sameValue(t, path+"."+key, f, value)
	}
	for name, f := range fields {
		if _, sent := doc[name]; !sent && !f.IsZero() && name != "worker_id" && name != "employer_id" {
			t.Errorf("%s.%s: %v, though the document has no such key", path, name, f.Interface())
		}
	}
}

// sameValue checks that f holds the JSON value want (as encoding/json
// decodes it into an any, numbers as json.Number).
func sameValue(t *testing.T, path string, f reflect.Value, want any) {
	t.Helper()
	switch got := f.Interface().(type) {
	case workforce.Decimal:
		switch w := want.(type) {
		case nil:
			assert.False(t, got.Valid(), path)
		case json.Number:
			assert.Equal(t, w.String(), got.String(), path)
		case string:
			assert.Equal(t, w, got.String(), path) // "" is absent, and String returns ""
		default:
			t.Errorf("%s: %v is not a decimal", path, want)
		}
	case workforce.Time:
		if want == nil {
			assert.True(t, got.IsZero(), path)
			return
		}
		w, err := time.Parse(time.RFC3339Nano, want.(string))
		require.NoError(t, err, path)
		assert.True(t, got.Equal(w), "%s: %v, want %v", path, got, w)
		_, gotOffset := got.Zone()
		_, wantOffset := w.Zone()
		assert.Equal(t, wantOffset, gotOffset, "%s: the offset sent is kept", path)
	case workforce.Date:
		if want == nil {
			assert.True(t, got.IsZero(), path)
			return
		}
		assert.Equal(t, want, got.String(), path)
	default:
		switch f.Kind() {
		case reflect.Pointer:
			if want == nil {
				assert.True(t, f.IsNil(), path)
				return
			}
			require.False(t, f.IsNil(), path)
			sameValue(t, path, f.Elem(), want)
		case reflect.Struct:
			sameAsJSON(t, path, f, want.(map[string]any))
		case reflect.Slice:
			w, _ := want.([]any)
			require.Equal(t, len(w), f.Len(), path)
			for i := range w {
				sameValue(t, fmt.Sprintf("%s[%d]", path, i), f.Index(i), w[i])
			}
		case reflect.Int, reflect.Int64:
			if want == nil {
				assert.Zero(t, f.Int(), path)
				return
			}
			n, err := want.(json.Number).Int64()
			require.NoError(t, err, path)
			assert.Equal(t, n, f.Int(), path)
		case reflect.String:
			if want == nil {
				want = ""
			}
			assert.Equal(t, want, f.String(), path)
		case reflect.Bool:
			if s, ok := want.(string); ok { // "" for false, as the live API writes drug_tested
				assert.Contains(t, []string{"", "false"}, s, path)
				assert.False(t, f.Bool(), path)
				return
			}
			assert.Equal(t, want == true, f.Bool(), path) // null is false
		default:
			t.Errorf("%s: no check for %s", path, f.Type())
		}
	}
}

// shiftTimes returns page with every time in it moved by shift, each in
// its own form (offset, fraction).
func shiftTimes(page []byte, shift time.Duration) []byte {
	stamp := regexp.MustCompile(`"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)"`)
	return stamp.ReplaceAllFunc(page, func(s []byte) []byte {
		text := string(s[1 : len(s)-1])
		at, _ := time.Parse(time.RFC3339Nano, text)
		layout := "2006-01-02T15:04:05Z07:00"
		if dot := strings.IndexByte(text, '.'); dot >= 0 {
			digits := len(text[dot+1:]) - len(strings.TrimLeft(text[dot+1:], "0123456789"))
			layout = "2006-01-02T15:04:05." + strings.Repeat("0", digits) + "Z07:00"
		}
		return []byte(`"` + at.Add(shift).Format(layout) + `"`)
	})
}

// Find and Settle work on the captured page, which names Workers only in
// worker.id: the Worker re-assigned on a Job Request after a cancelled Job
// is found by Find, and settled, to the new Job, never the cancelled one.
func TestCapturedPageFindAndSettle(t *testing.T) {
	t.Parallel()
	page := capturedPage(t)
	var doc struct {
		Jobs []struct {
			ID           int64  `json:"id"`
			State        string `json:"state"`
			JobRequestID int64  `json:"job_request_id"`
			CreatedAt    string `json:"created_at"`
			Worker       struct {
				ID int64 `json:"id"`
			} `json:"worker"`
		} `json:"jobs"`
	}
	require.NoError(t, json.Unmarshal(page, &doc))
	// The page's Worker with a cancelled Job and a newer filled one on the same Job Request.
	type pair struct{ jr, worker int64 }
	cancelled := map[pair]int64{}
	for _, j := range doc.Jobs {
		if j.State == "cancelled" {
			cancelled[pair{j.JobRequestID, j.Worker.ID}] = j.ID
		}
	}
	var newer int64
	var at pair
	var made time.Time
	for _, j := range doc.Jobs { // newest first: the first filled Job of such a pair
		p := pair{j.JobRequestID, j.Worker.ID}
		if cancelled[p] != 0 && j.State == "filled" && newer == 0 {
			newer, at = j.ID, p
			var err error
			made, err = time.Parse(time.RFC3339Nano, j.CreatedAt)
			require.NoError(t, err)
		}
	}
	require.NotZero(t, newer, "the page holds a Worker assigned again after a cancelled Job")

	// The page moved by whole days to today: a Settle refuses a server
	// clock more than MaxClockSkew from the client's.
	shift := time.Since(made).Truncate(24 * time.Hour)
	page, made = shiftTimes(page, shift), made.Add(shift)
	c, m := newMock(t, workforce.WithSettleHorizon(0))
	servePage(m, page)
	ctx := context.Background()
	job, err := c.Jobs.Find(ctx, at.jr, at.worker)
	require.NoError(t, err)
	assert.Equal(t, newer, job.ID)

	// The call began 5 s ago by the local clock; the server tells 3 s after the Job was made.
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info", httpmock.NewStringResponder(200,
		fmt.Sprintf(`{"utc_time_now": %q}`, made.Add(3*time.Second).UTC().Format("2006-01-02T15:04:05.000Z"))))
	unknown := &workforce.TransportError{Method: http.MethodPost, Path: "/api_v2/jobs/assign", OutcomeUnknown: true,
		Started: time.Now().Add(-5 * time.Second)}
	create := &workforce.JobCreate{WorkerID: at.worker, JobRequestID: at.jr, RequestorNotes: job.RequestorNotes} // as sent
	job, err = c.Jobs.Settle(ctx, create, unknown)
	require.NoError(t, err)
	assert.Equal(t, newer, job.ID, "the filled Job made after the call began, by worker.id")

	unknown.Started = time.Now() // began 3 s after the Job was made: not this call's
	_, err = c.Jobs.Settle(ctx, create, unknown)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
}

// Pages in the forms of the real client's schemas decode without a
// warning: drug_tested and verified_phone as text, ratings, wages and
// coordinates as numbers, ID lists as text, re_ranked_worker_ids as one
// text, badge_requirements objects.
func TestRealClientShapesDecode(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/users", httpmock.NewStringResponder(200, `{"users": [
		{"id": 1, "updated_at": "2019-06-01T10:00:00.000-07:00", "customer_id": null, "role": null, "synced_worker_id": null,
		 "last_name": "Reyes", "first_name": "Maya", "email": "maya@example.com", "type": "Worker", "gender": "female",
		 "avatar_url": null, "address": "1 Main St", "city": "Los Angeles", "address_state": "CA", "zip": "90012",
		 "phone": "+12135550100", "suspended": false, "suspended_at": null, "rating": 4.5, "agreed_to_terms": true,
		 "agreed_to_terms_date": "2019-01-01T09:00:00.000-08:00", "external_id": null, "onboarding_last_state": "completed",
		 "w2_employee_id": null, "drug_tested": "true", "verified_phone": "false", "phone_verified_at": null, "title": null},
		{"id": 2, "type": "Worker", "rating": "4.25", "drug_tested": "false", "verified_phone": "true"},
		{"id": 3, "type": "Employer", "rating": null, "drug_tested": "", "verified_phone": null, "customer_id": "12"},
		{"id": 4, "type": "Worker", "drug_tested": true, "verified_phone": "1", "synced_worker_id": 88}]}`))
	users, resp, err := c.Users.List(context.Background(), nil)
	require.NoError(t, err)
	assert.Empty(t, resp.Warnings)
	require.Len(t, users, 4)
	assert.True(t, users[0].DrugTested)
	assert.False(t, users[0].VerifiedPhone)
	assert.Equal(t, "4.5", users[0].Rating.String())
	assert.False(t, users[1].DrugTested)
	assert.True(t, users[1].VerifiedPhone)
	assert.Equal(t, "4.25", users[1].Rating.String())
	assert.False(t, users[2].DrugTested)
	assert.Equal(t, int64(12), users[2].CustomerID)
	assert.True(t, users[3].DrugTested && users[3].VerifiedPhone)

	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/job_requests", httpmock.NewStringResponder(200, `{"job_requests": [
		{"id": 884101, "state": "posted", "category": "Warehouse", "wage": 18.5, "slots": 3, "latitude": 34.042019,
		 "longitude": -118.267109, "start_time": "2019-12-01T09:00:00-08:00", "flag_color": "green", "duration": 480,
		 "venue": null, "address": "800 W Olympic Blvd", "city": "Los Angeles", "zip": "90015", "postal_code": "90015",
		 "country": "US", "updated_at": "2019-11-20T10:00:00.000-08:00", "description": "Pick and pack.",
		 "employer_id": 21877, "company_id": 12, "request_name": "Pickers", "multi_day": false,
		 "multi_day_job_request_id": null, "preferred_candidate_ids": ["105", "107"], "preferred_wonoloers_info": ["Ana G."],
		 "classification": "1099", "w2_hourly_rate": "", "notification_distance": 25, "ban_list": [],
		 "push_all_notifications_asap": "off", "cached_job_states": {"filled": 2, "cancelled": 1},
		 "in_white_gloves_period": false, "can": null, "agent_code": null, "organizational_path": null,
		 "timezone": "America/Los_Angeles", "re_ranked_worker_ids": "105,107,110", "use_pending_state": false,
		 "badge_requirements": [{"id": 9, "badge_id": 44, "job_request_id": 884101, "badge_name": "Forklift",
		  "badge_icon_url": null, "badge_description": "Certified.", "created_at": "2019-11-01T10:00:00.000-07:00",
		  "updated_at": "2019-11-01T10:00:00.000-07:00"}]}]}`))
	jrs, resp, err := c.JobRequests.List(context.Background(), nil)
	require.NoError(t, err)
	assert.Empty(t, resp.Warnings)
	jr := jrs[0]
	assert.Equal(t, "18.5", jr.Wage.String())
	assert.Equal(t, 3, jr.Slots)
	assert.Equal(t, "34.042019", jr.Latitude.String())
	assert.Equal(t, int64(12), jr.CompanyID)
	assert.Equal(t, int64(12), jr.CustomerID, "from company_id")
	assert.Equal(t, workforce.IDs{105, 107}, jr.PreferredCandidateIDs)
	assert.Equal(t, workforce.IDs{105, 107, 110}, jr.ReRankedWorkerIDs)
	assert.False(t, jr.W2HourlyRate.Valid())
	assert.False(t, jr.PushAllNotificationsASAP, `"off"`)
	assert.JSONEq(t, `{"filled": 2, "cancelled": 1}`, string(jr.CachedJobStates))
	assert.Equal(t, "green", jr.FlagColor)
	assert.Equal(t, "America/Los_Angeles", jr.Timezone)
	require.Len(t, jr.BadgeRequirements, 1)
	assert.Equal(t, "Forklift", jr.BadgeRequirements[0].BadgeName)

	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", httpmock.NewStringResponder(200, `{"jobs": [
		{"id": 7, "state": "completed", "job_request_id": 884101, "created_at": "2019-11-20T10:00:00.000-08:00",
		 "updated_at": "2019-11-21T18:00:00.000-08:00", "confirmed_at": null, "started_at": "2019-11-21T09:00:00.000-08:00",
		 "completed_at": "2019-11-21T17:00:00.000-08:00", "hours_worked": 8, "actual_duration": 480,
		 "finished_at": null, "adjusted_wage": 18.5}]}`))
	jobs, resp, err := c.Jobs.List(context.Background(), nil)
	require.NoError(t, err)
	assert.Empty(t, resp.Warnings)
	assert.Equal(t, "8", jobs[0].HoursWorked.String())
	assert.Equal(t, "480", jobs[0].ActualDuration.String())
}
