package workforce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// jobRequestJSON is a Job Request as the API writes it: decimals as
// strings and numbers, a start time with an offset, skills as text, and a
// field the SDK does not model.
const jobRequestJSON = `{
  "id": 9, "state": "posted", "request_name": "Forklift driver", "customer_id": 4, "employer_id": 3,
  "zip": "90012", "city": "Los Angeles", "address": "1 Main St", "venue": "Dock 4",
  "slots": 3, "filled_slots": 1, "category": "warehouse", "description": "",
  "description_tasks": "Move pallets", "description_company": "ACME", "description_travel": "Bus 4",
  "description_skills": "forklift|english", "description_contact": "Ann", "description_arrival": "Gate B",
  "start_time": "2026-12-01T09:00:00.000-08:00", "duration": 480, "wage": "18.50",
  "classification": "w2", "w2_hourly_rate": 21.25, "open_request": true, "multi_day": true,
  "multi_day_job_request_id": 6, "agent_code": "AG-1", "organizational_path": "west/la",
  "use_pending_state": false, "notification_distance": "25", "preferred_candidate_ids": [7, 8],
  "ban_list": [11], "badge_requirements": [{"badge_id": 2}],
  "created_at": "2026-11-20T10:00:00Z", "updated_at": "2026-11-21T10:00:00Z",
  "surge_multiplier": "1.2"
}`

func TestJobRequestsList(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/job_requests", got.respond(200, `{"job_requests": [`+jobRequestJSON+`]}`))

	before := time.Date(2026, 11, 2, 8, 0, 0, 0, time.FixedZone("PST", -8*3600))
	after := time.Date(2026, 11, 1, 8, 0, 0, 5e8, time.UTC)
	jrs, resp, err := c.JobRequests.List(context.Background(), &workforce.JobRequestListOptions{
		ListOptions:          workforce.ListOptions{Page: 2, Per: 10},
		State:                workforce.JobRequestFilled,
		CompanyID:            4,
		MultiDayJobRequestID: 6,
		Classification:       workforce.ClassificationW2,
		W2HourlyRate:         workforce.NewDecimal(21.25),
		UpdatedBefore:        before,
		UpdatedAfter:         after,
		AgentCode:            "AG-1",
	})
	require.NoError(t, err)
	require.Len(t, jrs, 1)
	assert.Equal(t, int64(9), jrs[0].ID)
	assert.JSONEq(t, jobRequestJSON, string(jrs[0].Raw))
	assert.Zero(t, resp.NextPage)
	assert.Equal(t, "/api_v2/job_requests", got.req.URL.Path)
	assert.Equal(t, map[string][]string{
		"page": {"2"}, "per": {"10"}, "state": {"filled"}, "company_id": {"4"}, "multi_day_job_request_id": {"6"},
		"classification": {"w2"}, "w2_hourly_rate": {"21.25"}, "agent_code": {"AG-1"},
		"updated_before": {"2026-11-02T08:00:00-08:00"}, "updated_after": {"2026-11-01T08:00:00.5Z"},
		"token": {testToken},
	}, map[string][]string(got.req.URL.Query()))

	_, _, err = c.JobRequests.List(context.Background(), &workforce.JobRequestListOptions{AgentCode: workforce.AgentCodeNull})
	require.NoError(t, err)
	assert.Equal(t, "Null", got.req.URL.Query().Get("agent_code"), "the API's literal for an empty agent code")
}

func TestJobRequestsGetDecodesLeniently(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/job_requests/9",
		httpmock.NewStringResponder(200, `{"job_request": `+jobRequestJSON+`}`))

	jr, _, err := c.JobRequests.Get(context.Background(), 9)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestPosted, jr.State)
	assert.Equal(t, "Forklift driver", jr.RequestName)
	assert.Equal(t, int64(4), jr.CustomerID)
	assert.Equal(t, 3, jr.Slots)
	assert.Equal(t, 1, jr.FilledSlots)
	assert.Equal(t, workforce.Skills{"forklift", "english"}, jr.DescriptionSkills)
	assert.Equal(t, time.Date(2026, 12, 1, 17, 0, 0, 0, time.UTC), jr.StartTime.UTC())
	_, offset := jr.StartTime.Zone()
	assert.Equal(t, -8*3600, offset, "the venue's offset is kept")
	assert.Equal(t, "480", jr.Duration.String())
	assert.Equal(t, "18.50", jr.Wage.String())
	assert.Equal(t, 21.25, jr.W2HourlyRate.Float64())
	assert.Equal(t, 25.0, jr.NotificationDistance.Float64())
	assert.Equal(t, workforce.ClassificationW2, jr.Classification)
	assert.True(t, jr.OpenRequest)
	assert.True(t, jr.MultiDay)
	assert.Equal(t, int64(6), jr.MultiDayJobRequestID)
	assert.Equal(t, "AG-1", jr.AgentCode)
	assert.Equal(t, "west/la", jr.OrganizationalPath)
	assert.Equal(t, workforce.IDs{7, 8}, jr.PreferredCandidateIDs)
	assert.Equal(t, workforce.IDs{11}, jr.BanList)
	assert.Equal(t, []workforce.BadgeRequirement{{BadgeID: 2, JobRequestID: jr.ID}}, jr.BadgeRequirements, "job_request_id is the Job Request's when not sent")
	assert.Equal(t, time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC), jr.UpdatedAt.Time)

	assertKept(t, jr.Raw, "surge_multiplier", `"1.2"`)
}

func TestJobRequestsDecodeOtherForms(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/job_requests/9", httpmock.NewStringResponder(200,
		`{"id": 9, "state": "on_hold", "description_skills": ["a", "b"], "wage": 18.5, "w2_hourly_rate": "", "start_time": null}`))
	jr, _, err := c.JobRequests.Get(context.Background(), 9)
	require.NoError(t, err, "unwrapped")
	assert.Equal(t, workforce.JobRequestState("on_hold"), jr.State, "an unknown state is kept")
	assert.Equal(t, workforce.Skills{"a", "b"}, jr.DescriptionSkills)
	assert.Equal(t, "18.5", jr.Wage.String())
	assert.False(t, jr.W2HourlyRate.Valid())
	assert.True(t, jr.StartTime.IsZero())
}

func TestJobRequestsCreate(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/job_requests", got.respond(200, `{"job_request": {"id": 10, "state": "posted"}}`))

	// 09:00 on the venue's clock, given from a time in another zone.
	tokyo := time.FixedZone("JST", 9*3600)
	jr, _, err := c.JobRequests.Create(context.Background(), &workforce.JobRequestParams{
		RequestName: "Forklift driver", Zip: "90012", City: "Los Angeles", Address: "1 Main St", Venue: "Dock 4",
		Slots: 3, Category: "warehouse", DescriptionTasks: "Move pallets", State: workforce.JobRequestPosted,
		DescriptionCompany: "ACME", DescriptionTravel: "Bus 4", DescriptionSkills: workforce.Skills{"forklift", "english"},
		DescriptionContact: "Ann", DescriptionArrival: "Gate B",
		StartTime: workforce.WallClockOf(time.Date(2026, 12, 1, 9, 0, 59, 0, tokyo)), Duration: 480, EmployerID: 3,
		Wage: workforce.NewDecimal(18.5), Classification: workforce.ClassificationW2, W2HourlyRate: workforce.NewDecimal(21.25),
		OpenRequest: workforce.Ptr(false), MultiDay: workforce.Ptr(true), MultiDayJobRequestID: 6,
		PreferredCandidateIDs: []int64{7, 8}, BanList: []int64{11},
		BadgeRequirements:    []workforce.BadgeRequirement{{BadgeID: 2, ID: 5, BadgeName: "Forklift", JobRequestID: 1}}, // as read
		NotificationDistance: workforce.NewDecimal(25), PushAllNotificationsASAP: workforce.SwitchOff, Can: "x",
		AgentCode: "AG-1", OrganizationalPath: "west/la", UsePendingState: workforce.Ptr(true),
	})
	require.NoError(t, err)
	assert.Equal(t, int64(10), jr.ID)
	assert.Equal(t, "application/json", got.req.Header.Get("Content-Type"))
	assert.Equal(t, map[string]any{"job_request": map[string]any{
		"request_name": "Forklift driver", "zip": "90012", "city": "Los Angeles", "address": "1 Main St", "venue": "Dock 4",
		"slots": float64(3), "category": "warehouse", "description_tasks": "Move pallets", "state": "posted",
		"description_company": "ACME", "description_travel": "Bus 4", "description_skills": "forklift|english",
		"description_contact": "Ann", "description_arrival": "Gate B",
		"start_time": "2026-12-01 09:00", "duration": float64(480), "employer_id": float64(3),
		"wage": 18.5, "classification": "w2", "w2_hourly_rate": 21.25,
		"open_request": false, "multi_day": true, "multi_day_job_request_id": float64(6),
		"preferred_candidate_ids": []any{float64(7), float64(8)}, "ban_list": []any{float64(11)},
		"badge_requirements_attributes": []any{map[string]any{"badge_id": float64(2)}},
		"notification_distance":         float64(25), "push_all_notifications_asap": "off", "can": "x",
		"agent_code": "AG-1", "organizational_path": "west/la", "use_pending_state": true,
	}}, got.jsonBody(t))
}

// A Job Request read from the API marshals with every field of its Badge
// requirements, and reads back the same; only a write sends badge_id alone.
func TestBadgeRequirementsRoundTrip(t *testing.T) {
	t.Parallel()
	var jr *workforce.JobRequest
	_, err := workforce.Decode([]byte(`{"id": 9, "badge_requirements": [{"id": 5, "badge_id": 2, "job_request_id": 9,
		"badge_name": "Forklift", "badge_icon_url": null, "badge_description": "Certified.",
		"created_at": "2017-09-13T11:34:36.820-07:00", "updated_at": "2017-09-13T11:34:36.820-07:00"}]}`), &jr)
	require.NoError(t, err)
	b, err := json.Marshal(jr)
	require.NoError(t, err)
	var again *workforce.JobRequest
	_, err = workforce.Decode(b, &again)
	require.NoError(t, err)
	assert.Equal(t, jr.BadgeRequirements, again.BadgeRequirements)
}

func TestJobRequestsUpdateAndCancel(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodPatch, mockBase+"/api_v2/job_requests/9", got.respond(200, `{"job_request": {"id": 9, "state": "cancelled"}}`))
	ctx := context.Background()

	_, _, err := c.JobRequests.Update(ctx, 9, &workforce.JobRequestParams{Slots: 4, OpenRequest: workforce.Ptr(false),
		StartTime: workforce.NewWallClock(2026, 12, 1, 23, 30)})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"job_request": map[string]any{
		"slots": float64(4), "open_request": false, "start_time": "2026-12-01 23:30",
	}}, got.jsonBody(t), "only what is set")

	jr, _, err := c.JobRequests.Cancel(ctx, 9)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestCancelled, jr.State)
	assert.Equal(t, map[string]any{"state": "cancelled"}, got.jsonBody(t), "top-level state")
}

func TestJobRequestsActionsSendAndDecode(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var rankings, resend, rerank capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/job_requests/9/rankings", rankings.respond(200, `{"rankings": [
		{"rank": 1, "worker_id": 7, "score": "0.93", "worker": {"id": 7, "type": "Worker", "first_name": "Ada", "rating": 4.5}, "reason": "near"},
		{"rank": 2, "worker_id": 8, "score": 0.5, "worker": null}]}`))
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/job_requests/9/resend_notifications", resend.respond(200, `{"job_request": {"id": 9}}`))
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/job_requests/9/re_rank_workers", rerank.respond(200, `{"job_request": {"id": 9}}`))
	ctx := context.Background()

	ranked, _, err := c.JobRequests.Rankings(ctx, 9)
	require.NoError(t, err)
	require.Len(t, ranked, 2)
	assert.Equal(t, 1, ranked[0].Rank)
	assert.Equal(t, int64(7), ranked[0].WorkerID)
	assert.Equal(t, "0.93", ranked[0].Score.String())
	assert.Equal(t, "Ada", ranked[0].Worker.FirstName)
	assert.Equal(t, 4.5, ranked[0].Worker.Rating.Float64())
	assertKept(t, ranked[0].Raw, "reason", `"near"`)
	assert.JSONEq(t, `{"id": 7, "type": "Worker", "first_name": "Ada", "rating": 4.5}`, string(ranked[0].Worker.Raw), "the Worker keeps its own document")
	assert.Equal(t, 0.5, ranked[1].Score.Float64())
	assert.Nil(t, ranked[1].Worker)

	for _, s := range []workforce.Switch{workforce.SwitchOn, workforce.SwitchOff} {
		jr, _, err := c.JobRequests.ResendNotifications(ctx, 9, s)
		require.NoError(t, err)
		assert.Equal(t, int64(9), jr.ID)
		assert.Equal(t, map[string]any{"push_all_notifications_asap": string(s)}, resend.jsonBody(t))
	}
	_, _, err = c.JobRequests.ResendNotifications(ctx, 9, "")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{}, resend.jsonBody(t), "no setting sent")

	jr, _, err := c.JobRequests.ReRankWorkers(ctx, 9)
	require.NoError(t, err)
	assert.Equal(t, int64(9), jr.ID)
	assert.Empty(t, rerank.body)
}

func rankedIDs(rankings []*workforce.Ranking) []int64 {
	ids := make([]int64, len(rankings))
	for i, r := range rankings {
		ids[i] = r.WorkerID
	}
	return ids
}

func TestJobRequestsRoundTripThroughTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	start := startIn(srv, 72*time.Hour)
	created, _, err := c.JobRequests.Create(ctx, &workforce.JobRequestParams{
		RequestName: "Night Shift Pickers", Zip: "90021", City: "Los Angeles", Address: "1200 E 7th St", Venue: "DC 4",
		Slots: 3, Category: "Warehouse", Description: "Order picking for the holidays.", DescriptionTasks: "Pick|Pack",
		DescriptionCompany: "A regional distributor.", DescriptionTravel: "Parking on site.",
		DescriptionSkills: workforce.Skills{"Scanning", "Lifting"}, DescriptionContact: "Ask for Rosa.",
		DescriptionArrival: "Gate 2.", State: workforce.JobRequestPosted, StartTime: start, Duration: 480,
		EmployerID: seed.EmployerID, Wage: workforce.NewDecimal(19.5), Classification: workforce.Classification1099,
		OpenRequest: workforce.Ptr(true), PreferredCandidateIDs: []int64{seed.WorkerIDs[0]}, BanList: []int64{seed.WorkerIDs[3]},
		BadgeRequirements: []workforce.BadgeRequirement{{BadgeID: seed.BadgeID}}, NotificationDistance: workforce.NewDecimal(25),
		PushAllNotificationsASAP: workforce.SwitchOn, AgentCode: "AG-42", OrganizationalPath: "west/la",
		UsePendingState: workforce.Ptr(false)})
	require.NoError(t, err)
	assert.Positive(t, created.ID)
	assert.Equal(t, workforce.JobRequestPosted, created.State)
	assert.Equal(t, "Night Shift Pickers", created.RequestName)
	assert.Equal(t, seed.CustomerID, created.CustomerID, "the Employer's Customer")
	assert.Equal(t, seed.EmployerID, created.EmployerID)
	assert.Equal(t, "90021", created.Zip)
	assert.Equal(t, "Los Angeles", created.City)
	assert.Equal(t, "1200 E 7th St", created.Address)
	assert.Equal(t, "DC 4", created.Venue)
	assert.Equal(t, 3, created.Slots)
	assert.Zero(t, created.FilledSlots)
	assert.Equal(t, "Warehouse", created.Category)
	assert.Equal(t, "Order picking for the holidays.", created.Description)
	assert.Equal(t, "Pick|Pack", created.DescriptionTasks)
	assert.Equal(t, "A regional distributor.", created.DescriptionCompany)
	assert.Equal(t, "Parking on site.", created.DescriptionTravel)
	assert.Equal(t, workforce.Skills{"Scanning", "Lifting"}, created.DescriptionSkills)
	assert.Equal(t, "Ask for Rosa.", created.DescriptionContact)
	assert.Equal(t, "Gate 2.", created.DescriptionArrival)
	assert.True(t, created.StartTime.Equal(start.In(fakeZone)), "start time %v, sent %v", created.StartTime, start)
	assert.Equal(t, "480", created.Duration.String())
	assert.InDelta(t, 19.5, created.Wage.Float64(), 1e-9)
	assert.Equal(t, workforce.Classification1099, created.Classification)
	assert.False(t, created.W2HourlyRate.Valid())
	assert.True(t, created.OpenRequest)
	assert.False(t, created.MultiDay)
	assert.Zero(t, created.MultiDayJobRequestID)
	assert.Equal(t, "AG-42", created.AgentCode)
	assert.Equal(t, "west/la", created.OrganizationalPath)
	assert.False(t, created.UsePendingState)
	assert.Equal(t, "25", created.NotificationDistance.String())
	assert.Equal(t, workforce.IDs{seed.WorkerIDs[0]}, created.PreferredCandidateIDs)
	assert.Equal(t, workforce.IDs{seed.WorkerIDs[3]}, created.BanList)
	require.Len(t, created.BadgeRequirements, 1)
	assert.Equal(t, seed.BadgeID, created.BadgeRequirements[0].BadgeID)
	assert.Equal(t, created.ID, created.BadgeRequirements[0].JobRequestID)
	assert.True(t, created.CreatedAt.Equal(srv.Now()))
	assert.True(t, created.UpdatedAt.Equal(created.CreatedAt.Time))

	got, _, err := c.JobRequests.Get(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, created.ID, got.ID)
	assert.Equal(t, created.RequestName, got.RequestName)
	assert.True(t, got.StartTime.Equal(created.StartTime.Time))
	seeded, _, err := c.JobRequests.Get(ctx, seed.JobRequestW2ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.ClassificationW2, seeded.Classification)
	assert.Equal(t, "22.75", seeded.W2HourlyRate.String())
	assert.False(t, seeded.Wage.Valid(), "no wage")
	assert.Equal(t, 10, seeded.Slots)

	w2, _, err := c.JobRequests.Create(ctx, &workforce.JobRequestParams{RequestName: "Banquet Captain", Zip: "90015",
		City: "Los Angeles", Address: "800 W Olympic Blvd", Slots: 1, Category: "Hospitality", Description: "Lead the floor.",
		State: workforce.JobRequestDraft, Classification: workforce.ClassificationW2, W2HourlyRate: workforce.NewDecimal(27.25)})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestDraft, w2.State)
	assert.Equal(t, workforce.ClassificationW2, w2.Classification)
	assert.InDelta(t, 27.25, w2.W2HourlyRate.Float64(), 1e-9)
	assert.Equal(t, seed.EmployerID, w2.EmployerID, "the key's Employer by default")
	assert.True(t, w2.StartTime.IsZero(), "no start time")

	srv.Advance(time.Minute)
	updated, _, err := c.JobRequests.Update(ctx, created.ID, &workforce.JobRequestParams{Slots: 4, Venue: "DC 5",
		Wage: workforce.NewDecimal(21), BanList: []int64{seed.WorkerIDs[3], seed.WorkerIDs[4]}, OpenRequest: workforce.Ptr(false)})
	require.NoError(t, err)
	assert.Equal(t, 4, updated.Slots)
	assert.Equal(t, "DC 5", updated.Venue)
	assert.InDelta(t, 21, updated.Wage.Float64(), 1e-9)
	assert.Equal(t, workforce.IDs{seed.WorkerIDs[3], seed.WorkerIDs[4]}, updated.BanList)
	assert.False(t, updated.OpenRequest, "Ptr(false) is sent")
	assert.Equal(t, "Night Shift Pickers", updated.RequestName, "what the update does not set stays")
	assert.Equal(t, "AG-42", updated.AgentCode)
	assert.True(t, updated.UpdatedAt.After(created.UpdatedAt.Time))
	posted, _, err := c.JobRequests.Update(ctx, w2.ID, &workforce.JobRequestParams{State: workforce.JobRequestPosted})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestPosted, posted.State, "draft to posted")

	list, _, err := c.JobRequests.List(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list, 10, "eight seeded and two created")
	assert.Equal(t, []int64{w2.ID, created.ID}, []int64{list[0].ID, list[1].ID}, "newest first")
	for name, tc := range map[string]struct {
		opts *workforce.JobRequestListOptions
		want []int64
	}{
		"agent code":   {&workforce.JobRequestListOptions{AgentCode: "AG-42"}, []int64{created.ID}},
		"customer":     {&workforce.JobRequestListOptions{CompanyID: seed.PendingCustomerID}, []int64{seed.PendingJobRequestID}},
		"draft":        {&workforce.JobRequestListOptions{State: workforce.JobRequestDraft}, []int64{seed.DraftJobRequestID}},
		"multi-day":    {&workforce.JobRequestListOptions{MultiDayJobRequestID: seed.MultiDayJobRequestID}, []int64{seed.MultiDayDayIDs[1], seed.MultiDayDayIDs[0]}},
		"w2 rate":      {&workforce.JobRequestListOptions{Classification: workforce.ClassificationW2, W2HourlyRate: workforce.NewDecimal(27.25)}, []int64{w2.ID}},
		"updated":      {&workforce.JobRequestListOptions{UpdatedAfter: srv.Now().Add(-time.Second)}, []int64{w2.ID, created.ID}},
		"nothing left": {&workforce.JobRequestListOptions{ListOptions: workforce.ListOptions{Page: 2}}, nil},
	} {
		page, _, err := c.JobRequests.List(ctx, tc.opts)
		require.NoError(t, err, name)
		var ids []int64
		for _, jr := range page {
			ids = append(ids, jr.ID)
		}
		assert.Equal(t, tc.want, ids, name)
	}
	noCode := walk(t, c.JobRequests.All(ctx, &workforce.JobRequestListOptions{AgentCode: workforce.AgentCodeNull}), jobRequestID)
	assert.Len(t, noCode, 8, "all but the two with an agent code")
	assert.NotContains(t, noCode, created.ID)
	assert.NotContains(t, noCode, seed.BadgeJobRequestID)

	// 422 where the fake checks what the SDK cannot.
	bad := func(mod func(p *workforce.JobRequestParams)) error {
		p := postable(srv, "Refused", 1)
		mod(p)
		_, _, err := c.JobRequests.Create(ctx, p)
		return err
	}
	assert.Contains(t, fieldErrors(t, bad(func(p *workforce.JobRequestParams) {
		p.BadgeRequirements = []workforce.BadgeRequirement{{BadgeID: 99999}}
	})), "badge_requirements_attributes")
	assert.Contains(t, fieldErrors(t, bad(func(p *workforce.JobRequestParams) { p.EmployerID = 99999 })), "employer_id")
	assert.Contains(t, fieldErrors(t, bad(func(p *workforce.JobRequestParams) { p.EmployerID = seed.WorkerIDs[0] })), "employer_id",
		"a Worker is no Employer")
	assert.Contains(t, fieldErrors(t, bad(func(p *workforce.JobRequestParams) { p.BanList = []int64{seed.EmployerID} })), "ban_list")
	assert.Contains(t, fieldErrors(t, bad(func(p *workforce.JobRequestParams) { p.MultiDayJobRequestID = 99999 })), "multi_day_job_request_id")
	assert.Contains(t, fieldErrors(t, bad(func(p *workforce.JobRequestParams) {
		p.EmployerID, p.Classification, p.W2HourlyRate = seed.PendingEmployerID, workforce.ClassificationW2, workforce.NewDecimal(20)
	})), "classification", "Harbor Events may not post W2")
	_, _, err = c.JobRequests.Update(ctx, created.ID, &workforce.JobRequestParams{State: workforce.JobRequestDraft})
	assert.Contains(t, fieldErrors(t, err), "state", "posted cannot go back to draft")
	_, _, err = c.JobRequests.Update(ctx, created.ID, &workforce.JobRequestParams{PreferredCandidateIDs: []int64{99999}})
	assert.Contains(t, fieldErrors(t, err), "preferred_candidate_ids")
	after, _, err := c.JobRequests.Get(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestPosted, after.State, "refused updates change nothing")
	assert.Equal(t, workforce.IDs{seed.WorkerIDs[0]}, after.PreferredCandidateIDs)
	assert.Len(t, walk(t, c.JobRequests.All(ctx, nil), jobRequestID), 10, "refused creates made nothing")

	// 404
	_, _, err = c.JobRequests.Get(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.JobRequests.Update(ctx, 99999, &workforce.JobRequestParams{Venue: "Nowhere"})
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.JobRequests.Cancel(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.JobRequests.Rankings(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.JobRequests.ResendNotifications(ctx, 99999, workforce.SwitchOn)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.JobRequests.ReRankWorkers(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)

	// 401
	unauth := tokenOnly(t, srv)
	_, _, err = unauth.JobRequests.List(ctx, nil)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	for _, err := range unauth.JobRequests.All(ctx, nil) {
		assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	}
	_, _, err = unauth.JobRequests.Get(ctx, created.ID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = unauth.JobRequests.Create(ctx, postable(srv, "Unauthorized", 1))
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = unauth.JobRequests.Update(ctx, created.ID, &workforce.JobRequestParams{Venue: "Nowhere"})
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = unauth.JobRequests.Cancel(ctx, created.ID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = unauth.JobRequests.Rankings(ctx, created.ID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = unauth.JobRequests.ResendNotifications(ctx, created.ID, workforce.SwitchOff)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = unauth.JobRequests.ReRankWorkers(ctx, created.ID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	state, _ := srv.JobRequestState(created.ID)
	assert.Equal(t, "posted", state, "refused calls changed nothing")
}

func TestJobRequestsOfAPublicPoolKeyAreItsOwn(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()
	pub, err := srv.PublicClient()
	require.NoError(t, err)

	own := walk(t, pub.JobRequests.All(ctx, nil), jobRequestID)
	assert.Equal(t, []int64{seed.PublicJobRequestID}, own, "a Public Pool key sees only the Job Requests it created")
	jr, _, err := pub.JobRequests.Get(ctx, seed.PublicJobRequestID)
	require.NoError(t, err)
	assert.Equal(t, "Event Setup", jr.RequestName)
	assert.Equal(t, 1, jr.FilledSlots, "the seeded Public Job")
	_, _, err = pub.JobRequests.Get(ctx, seed.JobRequest1099ID)
	assert.ErrorIs(t, err, workforce.ErrNotFound, "a Private Pool Job Request is not the Public key's to see")

	// 403: Job Request writes, rankings and actions (CONTRACT §7).
	_, _, err = pub.JobRequests.Create(ctx, postable(srv, "Public post", 1))
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.JobRequests.Update(ctx, seed.PublicJobRequestID, &workforce.JobRequestParams{Venue: "Hall C"})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.JobRequests.Cancel(ctx, seed.PublicJobRequestID)
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.JobRequests.Rankings(ctx, seed.PublicJobRequestID)
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.JobRequests.ResendNotifications(ctx, seed.PublicJobRequestID, workforce.SwitchOn)
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.JobRequests.ReRankWorkers(ctx, seed.PublicJobRequestID)
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.MultiDayJobRequests.Create(ctx, &workforce.MultiDayJobRequestParams{RepeatType: workforce.RepeatDaily})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.MultiDayJobRequests.Update(ctx, seed.MultiDayJobRequestID, &workforce.MultiDayJobRequestParams{RepeatNumber: 5})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	series, _, err := pub.MultiDayJobRequests.Get(ctx, seed.MultiDayJobRequestID)
	require.NoError(t, err)
	assert.Empty(t, series.JobRequestIDs, "its days are the Private Pool's")

	after, _, err := c.JobRequests.Get(ctx, seed.PublicJobRequestID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestPosted, after.State)
	assert.Empty(t, after.Venue)
	assert.Len(t, walk(t, c.JobRequests.All(ctx, nil), jobRequestID), 8, "nothing created")
	plan, _, err := c.MultiDayJobRequests.Get(ctx, seed.MultiDayJobRequestID)
	require.NoError(t, err)
	assert.Equal(t, 2, plan.RepeatNumber, "nothing updated")
}

func TestJobRequestsAllWalksTheFakesPages(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()

	const n = 53
	created := make([]int64, n)
	for i := range n {
		p := postable(srv, fmt.Sprintf("Shift %02d", i), 1)
		p.AgentCode = "BULK"
		jr, _, err := c.JobRequests.Create(ctx, p)
		require.NoError(t, err)
		created[i] = jr.ID
	}
	ids := walk(t, c.JobRequests.All(ctx, nil), jobRequestID)
	require.Len(t, ids, n+8, "every created Job Request and the eight seeded")
	assertNewestFirst(t, ids)
	assert.Equal(t, created[n-1], ids[0])
	pers, pages := listPages(srv, "/api_v2/job_requests")
	assert.Equal(t, []string{"50", "50"}, pers)
	assert.Equal(t, []string{"1", "2"}, pages)

	bulk := walk(t, c.JobRequests.All(ctx, &workforce.JobRequestListOptions{AgentCode: "BULK"}), jobRequestID)
	require.Len(t, bulk, n)
	assertNewestFirst(t, bulk)
	for i, id := range bulk {
		assert.Equal(t, created[n-1-i], id)
	}
}

func TestJobRequestStateFollowsItsSlotsOnTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	jr, _, err := c.JobRequests.Create(ctx, postable(srv, "Loading Dock", 2))
	require.NoError(t, err)
	require.Equal(t, workforce.JobRequestPosted, jr.State)

	ana, err := srv.AcceptJobRequest(jr.ID, seed.WorkerIDs[0])
	require.NoError(t, err)
	got, _, err := c.JobRequests.Get(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestPosted, got.State, "one slot of two")
	assert.Equal(t, 1, got.FilledSlots)

	ben, err := srv.AcceptJobRequest(jr.ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	got, _, err = c.JobRequests.Get(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestFilled, got.State, "every slot filled")
	assert.Equal(t, 2, got.FilledSlots)

	require.NoError(t, srv.WithdrawJob(ben))
	got, _, err = c.JobRequests.Get(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestPosted, got.State, "back to posted when a Worker leaves")
	assert.Equal(t, 1, got.FilledSlots)

	chloe, err := srv.AcceptJobRequest(jr.ID, seed.WorkerIDs[2])
	require.NoError(t, err)
	require.NoError(t, srv.StartJob(ana))
	got, _, err = c.JobRequests.Get(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestInProgress, got.State)
	assert.Equal(t, 2, got.FilledSlots)

	srv.Advance(time.Minute)
	cancelled, _, err := c.JobRequests.Cancel(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestCancelled, cancelled.State)
	assert.Zero(t, cancelled.FilledSlots, "its open Jobs are cancelled with it")
	assert.True(t, cancelled.UpdatedAt.After(got.UpdatedAt.Time))
	for id, want := range map[int64]workforce.JobState{ana: workforce.JobCancelled, chloe: workforce.JobCancelled, ben: workforce.JobWithdrawn} {
		job, _, err := c.Jobs.Get(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, want, job.State, "job %d", id)
		if want == workforce.JobCancelled {
			assert.Equal(t, workforce.CancelReason("job_request_cancelled"), job.CancelledReason)
			assert.Equal(t, workforce.JobCancelled, job.Transitions[0].Name)
		}
	}
	cancelledJobs, _, err := c.Jobs.List(ctx, &workforce.JobListOptions{JobRequestID: jr.ID, State: workforce.JobCancelled})
	require.NoError(t, err)
	assert.Len(t, cancelledJobs, 2)

	_, _, err = c.JobRequests.Cancel(ctx, jr.ID)
	assert.Contains(t, fieldErrors(t, err), "state", "cancelled already")
	_, err = srv.AcceptJobRequest(jr.ID, seed.WorkerIDs[4])
	assert.Error(t, err, "a cancelled Job Request takes no Jobs")

	// A completed Job Request is past cancelling.
	done, _, err := c.JobRequests.Create(ctx, postable(srv, "One-off", 1))
	require.NoError(t, err)
	job, err := srv.AcceptJobRequest(done.ID, seed.WorkerIDs[5])
	require.NoError(t, err)
	require.NoError(t, srv.StartJob(job))
	require.NoError(t, srv.CompleteJob(job))
	got, _, err = c.JobRequests.Get(ctx, done.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestCompleted, got.State)
	_, _, err = c.JobRequests.Cancel(ctx, done.ID)
	assert.Contains(t, fieldErrors(t, err), "state", "completed")
	require.NoError(t, srv.ApproveJob(job))
	got, _, err = c.JobRequests.Get(ctx, done.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestApproved, got.State)

	// A draft is cancelled as well.
	draft, _, err := c.JobRequests.Cancel(ctx, seed.DraftJobRequestID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestCancelled, draft.State)
}

func TestJobRequestsRankingsListThePreferredBestFirst(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()
	w := seed.WorkerIDs

	p := postable(srv, "Ranked", 3)
	p.PreferredCandidateIDs = []int64{w[0], w[2]}
	p.BanList = []int64{w[3]}
	jr, _, err := c.JobRequests.Create(ctx, p)
	require.NoError(t, err)

	rankings, _, err := c.JobRequests.Rankings(ctx, jr.ID)
	require.NoError(t, err)
	require.Len(t, rankings, 2, "the preferred candidates")
	assert.Equal(t, 1, rankings[0].Rank)
	assert.Equal(t, w[2], rankings[0].WorkerID, "rating 5.0")
	assert.Equal(t, "1.00", rankings[0].Score.String())
	require.NotNil(t, rankings[0].Worker)
	assert.Equal(t, w[2], rankings[0].Worker.ID)
	assert.Equal(t, "Chloe", rankings[0].Worker.FirstName)
	assert.Contains(t, string(rankings[0].Worker.Raw), `"first_name":"Chloe"`)
	assert.Equal(t, 2, rankings[1].Rank)
	assert.Equal(t, w[0], rankings[1].WorkerID)
	assert.Equal(t, "0.95", rankings[1].Score.String(), "rating 4.5, preferred")

	// A Worker who accepted joins the candidates; the banned one never does.
	_, err = srv.AcceptJobRequest(jr.ID, w[1])
	require.NoError(t, err)
	rankings, _, err = c.JobRequests.Rankings(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, []int64{w[2], w[1], w[0]}, rankedIDs(rankings))

	srv.Advance(time.Minute)
	reranked, _, err := c.JobRequests.ReRankWorkers(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, jr.ID, reranked.ID)
	assert.Equal(t, "Ranked", reranked.RequestName)
	assert.Equal(t, 1, reranked.FilledSlots)
	rankings, _, err = c.JobRequests.Rankings(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, []int64{w[2], w[1], w[0], w[5], w[4]}, rankedIDs(rankings), "every Worker but the banned one")
	for i, r := range rankings {
		assert.Equal(t, i+1, r.Rank)
	}
	assert.Equal(t, "0.50", rankings[4].Score.String(), "no rating")

	empty, _, err := c.JobRequests.Rankings(ctx, seed.JobRequest1099ID)
	require.NoError(t, err)
	assert.Empty(t, empty, "no candidates yet")
}

func TestJobRequestsResendNotificationsOnTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	before, _, err := c.JobRequests.Get(ctx, seed.JobRequest1099ID)
	require.NoError(t, err)
	srv.Advance(time.Minute)
	on, _, err := c.JobRequests.ResendNotifications(ctx, seed.JobRequest1099ID, workforce.SwitchOn)
	require.NoError(t, err)
	assert.Equal(t, seed.JobRequest1099ID, on.ID)
	assert.Equal(t, "Warehouse Loader", on.RequestName)
	assert.Equal(t, workforce.JobRequestPosted, on.State)
	assert.True(t, on.UpdatedAt.After(before.UpdatedAt.Time), "the switch changed")

	srv.Advance(time.Minute)
	again, _, err := c.JobRequests.ResendNotifications(ctx, seed.JobRequest1099ID, workforce.SwitchOn)
	require.NoError(t, err)
	assert.True(t, again.UpdatedAt.Equal(on.UpdatedAt.Time), "the switch did not change")
	same, _, err := c.JobRequests.ResendNotifications(ctx, seed.JobRequest1099ID, "")
	require.NoError(t, err)
	assert.True(t, same.UpdatedAt.Equal(on.UpdatedAt.Time), "no setting sent")
	off, _, err := c.JobRequests.ResendNotifications(ctx, seed.JobRequest1099ID, workforce.SwitchOff)
	require.NoError(t, err)
	assert.True(t, off.UpdatedAt.After(on.UpdatedAt.Time))
	assert.Equal(t, 4, countRequests(srv, http.MethodPost, fmt.Sprintf("/api_v2/job_requests/%d/resend_notifications", seed.JobRequest1099ID)))
}

func TestJobRequestSlotsAndCutoffOnTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	open, _, err := c.JobRequests.Create(ctx, postable(srv, "Open slot", 2))
	require.NoError(t, err)
	full, _, err := c.JobRequests.Create(ctx, postable(srv, "Full", 2))
	require.NoError(t, err)
	_, err = srv.AcceptJobRequest(open.ID, seed.WorkerIDs[0])
	require.NoError(t, err)
	for _, w := range seed.WorkerIDs[1:3] {
		_, err = srv.AcceptJobRequest(full.ID, w)
		require.NoError(t, err)
	}

	// Changing the slots moves the Job Request as its Jobs do.
	jr, _, err := c.JobRequests.Update(ctx, open.ID, &workforce.JobRequestParams{Slots: 1})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestFilled, jr.State, "its one Job now fills every slot")
	jr, _, err = c.JobRequests.Update(ctx, open.ID, &workforce.JobRequestParams{Slots: 2})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestPosted, jr.State, "a slot open again")

	// At the start time a Job Request with an open slot is unfilled; a full one stays filled.
	srv.Advance(73 * time.Hour)
	jr, _, err = c.JobRequests.Get(ctx, open.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestUnfilled, jr.State)
	jr, _, err = c.JobRequests.Get(ctx, full.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestFilled, jr.State)
	unfilled := walk(t, c.JobRequests.All(ctx, &workforce.JobRequestListOptions{State: workforce.JobRequestUnfilled}), jobRequestID)
	assert.Contains(t, unfilled, open.ID)
	assert.NotContains(t, unfilled, full.ID)

	jr, _, err = c.JobRequests.Cancel(ctx, open.ID)
	require.NoError(t, err, "an unfilled Job Request may still be cancelled")
	assert.Equal(t, workforce.JobRequestCancelled, jr.State)
}

// TestJobRequestsRefusedBeforeIO checks every argument rule of Job Requests: each is refused with an
// *ArgumentError naming the field, and nothing is sent.
func TestJobRequestsRefusedBeforeIO(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	long := func(n int) string { return strings.Repeat("é", n) }
	jr := func(edit func(p *workforce.JobRequestParams)) *workforce.JobRequestParams {
		p := &workforce.JobRequestParams{RequestName: "Forklift", Zip: "90012", City: "Los Angeles", Address: "1 Main St",
			Slots: 2, DescriptionTasks: "Move pallets", Category: "warehouse", State: workforce.JobRequestPosted}
		edit(p)
		return p
	}
	createJR := func(edit func(p *workforce.JobRequestParams)) func() error {
		return func() error { _, _, err := c.JobRequests.Create(ctx, jr(edit)); return err }
	}
	updateJR := func(p *workforce.JobRequestParams) func() error {
		return func() error { _, _, err := c.JobRequests.Update(ctx, 5, p); return err }
	}
	assertRefused(t, m, []refusal{
		{"job requests per over 50", "Per", func() error {
			_, _, err := c.JobRequests.List(ctx, &workforce.JobRequestListOptions{ListOptions: workforce.ListOptions{Per: 51}})
			return err
		}},
		{"job requests company filter", "CompanyID", func() error {
			_, _, err := c.JobRequests.List(ctx, &workforce.JobRequestListOptions{CompanyID: -1})
			return err
		}},
		{"job requests series filter", "MultiDayJobRequestID", func() error {
			_, _, err := c.JobRequests.List(ctx, &workforce.JobRequestListOptions{MultiDayJobRequestID: -1})
			return err
		}},
		{"job requests classification filter", "Classification", func() error {
			_, _, err := c.JobRequests.List(ctx, &workforce.JobRequestListOptions{Classification: "w4"})
			return err
		}},
		{"job requests agent code filter", "AgentCode", func() error {
			_, _, err := c.JobRequests.List(ctx, &workforce.JobRequestListOptions{AgentCode: long(26)})
			return err
		}},
		{"job requests all from a negative page", "Page", func() error {
			for _, err := range c.JobRequests.All(ctx, &workforce.JobRequestListOptions{ListOptions: workforce.ListOptions{Page: -1}}) {
				return err
			}
			return nil
		}},
		{"job request get id 0", "id", func() error { _, _, err := c.JobRequests.Get(ctx, 0); return err }},
		{"job request create nil", "JobRequestParams", func() error { _, _, err := c.JobRequests.Create(ctx, nil); return err }},
		{"job request without name", "RequestName", createJR(func(p *workforce.JobRequestParams) { p.RequestName = "" })},
		{"job request without zip", "Zip", createJR(func(p *workforce.JobRequestParams) { p.Zip = "" })},
		{"job request without city", "City", createJR(func(p *workforce.JobRequestParams) { p.City = "" })},
		{"job request without address", "Address", createJR(func(p *workforce.JobRequestParams) { p.Address = "" })},
		{"job request without slots", "Slots", createJR(func(p *workforce.JobRequestParams) { p.Slots = 0 })},
		{"job request negative slots", "Slots", updateJR(&workforce.JobRequestParams{Slots: -2})},
		{"job request without description", "DescriptionTasks", createJR(func(p *workforce.JobRequestParams) { p.DescriptionTasks = "" })},
		{"job request without category", "Category", createJR(func(p *workforce.JobRequestParams) { p.Category = "" })},
		{"job request without state", "State", createJR(func(p *workforce.JobRequestParams) { p.State = "" })},
		{"job request W2 without rate", "W2HourlyRate", createJR(func(p *workforce.JobRequestParams) {
			p.Classification = workforce.ClassificationW2
		})},
		{"job request classification", "Classification", updateJR(&workforce.JobRequestParams{Classification: "W-2"})},
		{"job request agent code", "AgentCode", updateJR(&workforce.JobRequestParams{AgentCode: long(26)})},
		{"job request employer", "EmployerID", updateJR(&workforce.JobRequestParams{EmployerID: -4})},
		{"job request series", "MultiDayJobRequestID", updateJR(&workforce.JobRequestParams{MultiDayJobRequestID: -4})},
		{"job request preferred candidate", "PreferredCandidateIDs[1]", updateJR(&workforce.JobRequestParams{PreferredCandidateIDs: []int64{3, 0}})},
		{"job request ban list", "BanList[0]", updateJR(&workforce.JobRequestParams{BanList: []int64{-1}})},
		{"job request badge requirement", "BadgeRequirements[0].BadgeID", updateJR(&workforce.JobRequestParams{
			BadgeRequirements: []workforce.BadgeRequirement{{}}})},
		{"job request skill with a bar", "DescriptionSkills[0]", updateJR(&workforce.JobRequestParams{DescriptionSkills: workforce.Skills{"a|b"}})},
		{"job request wage NaN", "Wage", updateJR(&workforce.JobRequestParams{Wage: workforce.NewDecimal(math.Inf(1))})},
		{"job request negative duration", "Duration", updateJR(&workforce.JobRequestParams{Duration: -60})},
		{"job request push switch", "PushAllNotificationsASAP", updateJR(&workforce.JobRequestParams{PushAllNotificationsASAP: "yes"})},
		{"job request update nothing", "JobRequestParams", updateJR(&workforce.JobRequestParams{})},
		{"job request update empty lists", "JobRequestParams", updateJR(&workforce.JobRequestParams{BanList: []int64{}})},
		{"job request update id 0", "id", func() error {
			_, _, err := c.JobRequests.Update(ctx, 0, &workforce.JobRequestParams{Slots: 1})
			return err
		}},
		{"job request cancel id 0", "id", func() error { _, _, err := c.JobRequests.Cancel(ctx, 0); return err }},
		{"rankings id 0", "id", func() error { _, _, err := c.JobRequests.Rankings(ctx, 0); return err }},
		{"re-rank id 0", "id", func() error { _, _, err := c.JobRequests.ReRankWorkers(ctx, 0); return err }},
		{"resend id 0", "id", func() error { _, _, err := c.JobRequests.ResendNotifications(ctx, 0, workforce.SwitchOn); return err }},
		{"resend switch", "pushAllASAP", func() error { _, _, err := c.JobRequests.ResendNotifications(ctx, 1, "ON"); return err }},
	})
}

// TestJobRequestsAllWalksEveryPage checks that All walks every Job Request, a page of 50 at a time, keeping the filters.
func TestJobRequestsAllWalksEveryPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, m := newMock(t, workforce.WithPageWindow(1)) // pages asked one by one, in order
	asked := servePages(t, m, "job_requests", 50, 1)
	opts := &workforce.JobRequestListOptions{State: workforce.JobRequestPosted, AgentCode: workforce.AgentCodeNull,
		ListOptions: workforce.ListOptions{Page: 1}}
	ids := walk(t, c.JobRequests.All(ctx, opts), func(v *workforce.JobRequest) int64 { return v.ID })
	assertNewestFirst(t, ids)
	assert.Len(t, ids, 51)
	assert.Equal(t, []string{"1/50?agent_code=Null&state=posted", "2/50?agent_code=Null&state=posted"}, *asked)
}
