package workforce_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

const badgeJSON = `{"id": 2, "name": "Forklift", "description": "Certified forklift driver",
  "icon_url": "https://cdn.example.com/f.png", "info_url": "https://example.com/f", "is_soft": true,
  "created_at": "2026-11-20T10:00:00Z", "updated_at": "2026-11-21T10:00:00.250-05:00", "level": 3}`

func TestBadges(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	var list, create, update, del capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/badges", list.respond(200, `{"badges": [`+badgeJSON+`]}`))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/badges/2", httpmock.NewStringResponder(200, `{"badge": `+badgeJSON+`}`))
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/badges", create.respond(200, `{"badge": `+badgeJSON+`}`))
	m.RegisterResponder(http.MethodPatch, mockBase+"/api_v2/badges/2", update.respond(200, `{"badge": `+badgeJSON+`}`))
	m.RegisterResponder(http.MethodDelete, mockBase+"/api_v2/badges/2", del.respond(200, `{"badge": `+badgeJSON+`}`))

	found, resp, err := c.Badges.List(ctx, &workforce.BadgeListOptions{Query: "fork", ListOptions: workforce.ListOptions{Page: 3, Per: 1}})
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.Equal(t, 4, resp.NextPage, "a full page may have a successor")
	assert.Equal(t, map[string][]string{"query": {"fork"}, "page": {"3"}, "per": {"1"}, "token": {testToken}},
		map[string][]string(list.req.URL.Query()))

	b, _, err := c.Badges.Get(ctx, 2)
	require.NoError(t, err)
	assert.Equal(t, "Forklift", b.Name)
	assert.Equal(t, "Certified forklift driver", b.Description)
	assert.Equal(t, "https://cdn.example.com/f.png", b.IconURL)
	assert.Equal(t, "https://example.com/f", b.InfoURL)
	assert.True(t, b.IsSoft)
	assert.Equal(t, time.Date(2026, 11, 21, 15, 0, 0, 250e6, time.UTC), b.UpdatedAt.UTC())
	assertKept(t, b.Raw, "level", "3")

	_, _, err = c.Badges.Create(ctx, &workforce.BadgeParams{Name: "Forklift", Description: "Certified",
		InfoURL: "https://example.com/f", RemoteIconURL: "https://cdn.example.com/f.png", IsSoft: workforce.Ptr(false)})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"badge": map[string]any{"name": "Forklift", "description": "Certified",
		"info_url": "https://example.com/f", "remote_icon_url": "https://cdn.example.com/f.png", "is_soft": false}}, create.jsonBody(t))

	_, _, err = c.Badges.Update(ctx, 2, &workforce.BadgeParams{Description: "Certified, 2026"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"badge": map[string]any{"description": "Certified, 2026"}}, update.jsonBody(t))

	deleted, _, err := c.Badges.Delete(ctx, 2)
	require.NoError(t, err)
	assert.Equal(t, int64(2), deleted.ID)
	assert.Empty(t, del.body)
}

func TestMultiDayJobRequests(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	const series = `{"id": 6, "repeat_type": "weekly", "same_workers": true, "repeat_number": 4,
	  "job_request_ids": [9, 10], "created_at": "2026-11-20T10:00:00Z", "updated_at": "2026-11-20T10:00:00Z", "timezone": "PST"}`
	var create, update capture
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/multi_day_job_requests", create.respond(200, `{"multi_day_job_request": `+series+`}`))
	m.RegisterResponder(http.MethodPatch, mockBase+"/api_v2/multi_day_job_requests/6", update.respond(200, `{"multi_day_job_request": `+series+`}`))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/multi_day_job_requests/6", httpmock.NewStringResponder(200, series))

	_, _, err := c.MultiDayJobRequests.Create(ctx, &workforce.MultiDayJobRequestParams{RepeatType: workforce.RepeatWeekly,
		SameWorkers: workforce.Ptr(false), RepeatNumber: 4})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"multi_day_job_request": map[string]any{
		"repeat_type": "weekly", "same_workers": false, "repeat_number": float64(4)}}, create.jsonBody(t))

	_, _, err = c.MultiDayJobRequests.Update(ctx, 6, &workforce.MultiDayJobRequestParams{RepeatType: workforce.RepeatDaily})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"multi_day_job_request": map[string]any{"repeat_type": "daily"}}, update.jsonBody(t))

	got, _, err := c.MultiDayJobRequests.Get(ctx, 6)
	require.NoError(t, err, "unwrapped")
	assert.Equal(t, workforce.RepeatWeekly, got.RepeatType)
	assert.True(t, got.SameWorkers)
	assert.Equal(t, 4, got.RepeatNumber)
	assert.Equal(t, []int64{9, 10}, got.JobRequestIDs)
	assert.Equal(t, 2026, got.CreatedAt.Year())
	assertKept(t, got.Raw, "timezone", `"PST"`)
}
