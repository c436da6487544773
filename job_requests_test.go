package workforce_test

import (
	"context"
	"encoding/json"
	"net/http"
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

func TestJobRequestsActions(t *testing.T) {
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

func TestWallClock(t *testing.T) {
	t.Parallel()
	w := workforce.NewWallClock(2026, 12, 1, 9, 5)
	assert.Equal(t, "2026-12-01 09:05", w.String())
	assert.Equal(t, w, workforce.WallClockOf(time.Date(2026, 12, 1, 9, 5, 30, 0, time.FixedZone("X", -11*3600))), "the zone is ignored")
	parsed, err := workforce.ParseWallClock("2026-12-01 09:05")
	require.NoError(t, err)
	assert.Equal(t, w, parsed)
	_, err = workforce.ParseWallClock("2026-12-01T09:05:00Z")
	assert.ErrorIs(t, err, workforce.ErrInvalidArgument)
	la, _ := time.LoadLocation("America/Los_Angeles")
	if la != nil {
		assert.Equal(t, "2026-12-01T09:05:00-08:00", w.In(la).Format(time.RFC3339))
	}
	assert.True(t, workforce.WallClock{}.IsZero())
	assert.Equal(t, "", workforce.WallClock{}.String())
	assert.Equal(t, "2026-12-02 00:00", workforce.NewWallClock(2026, 12, 1, 24, 0).String())
}
