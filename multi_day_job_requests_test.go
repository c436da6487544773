package workforce_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/workforce-marketplace/workforce-go"
)

func TestMultiDayJobRequestsSendAndDecodeEveryEndpoint(t *testing.T) {
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

func TestMultiDayJobRequestsRoundTripThroughTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	seeded, _, err := c.MultiDayJobRequests.Get(ctx, seed.MultiDayJobRequestID)
	require.NoError(t, err)
	assert.Equal(t, seed.MultiDayJobRequestID, seeded.ID)
	assert.Equal(t, workforce.RepeatDaily, seeded.RepeatType)
	assert.True(t, seeded.SameWorkers)
	assert.Equal(t, 2, seeded.RepeatNumber)
	assert.Equal(t, seed.MultiDayDayIDs, seeded.JobRequestIDs, "its days, oldest first")
	assert.False(t, seeded.CreatedAt.IsZero())

	series, _, err := c.MultiDayJobRequests.Create(ctx, &workforce.MultiDayJobRequestParams{RepeatType: workforce.RepeatWeekly,
		SameWorkers: workforce.Ptr(false), RepeatNumber: 3})
	require.NoError(t, err)
	assert.Positive(t, series.ID)
	assert.Equal(t, workforce.RepeatWeekly, series.RepeatType)
	assert.False(t, series.SameWorkers)
	assert.Equal(t, 3, series.RepeatNumber)
	assert.Empty(t, series.JobRequestIDs, "no days yet")
	assert.True(t, series.CreatedAt.Equal(srv.Now()))

	var days []int64
	for i := range 2 {
		p := postable(srv, fmt.Sprintf("Trade Show, week %d", i+1), 2)
		p.StartTime = startIn(srv, time.Duration(72+i*7*24)*time.Hour)
		p.MultiDay, p.MultiDayJobRequestID = workforce.Ptr(true), series.ID
		day, _, err := c.JobRequests.Create(ctx, p)
		require.NoError(t, err)
		assert.True(t, day.MultiDay)
		assert.Equal(t, series.ID, day.MultiDayJobRequestID)
		days = append(days, day.ID)
	}
	got, _, err := c.MultiDayJobRequests.Get(ctx, series.ID)
	require.NoError(t, err)
	assert.Equal(t, days, got.JobRequestIDs, "oldest first")
	listed := walk(t, c.JobRequests.All(ctx, &workforce.JobRequestListOptions{MultiDayJobRequestID: series.ID}), jobRequestID)
	assert.Equal(t, []int64{days[1], days[0]}, listed, "as Job Requests, newest first")

	srv.Advance(time.Minute)
	updated, _, err := c.MultiDayJobRequests.Update(ctx, series.ID, &workforce.MultiDayJobRequestParams{RepeatNumber: 4,
		SameWorkers: workforce.Ptr(true)})
	require.NoError(t, err)
	assert.Equal(t, 4, updated.RepeatNumber)
	assert.True(t, updated.SameWorkers)
	assert.Equal(t, workforce.RepeatWeekly, updated.RepeatType, "what the update does not set stays")
	assert.Equal(t, days, updated.JobRequestIDs)
	assert.True(t, updated.UpdatedAt.After(series.UpdatedAt.Time))
	daily, _, err := c.MultiDayJobRequests.Update(ctx, series.ID, &workforce.MultiDayJobRequestParams{RepeatType: workforce.RepeatDaily})
	require.NoError(t, err)
	assert.Equal(t, workforce.RepeatDaily, daily.RepeatType)
	assert.Equal(t, 4, daily.RepeatNumber)

	// 404
	_, _, err = c.MultiDayJobRequests.Get(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.MultiDayJobRequests.Update(ctx, 99999, &workforce.MultiDayJobRequestParams{RepeatNumber: 2})
	assert.ErrorIs(t, err, workforce.ErrNotFound)

	// 401
	bad := tokenOnly(t, srv)
	_, _, err = bad.MultiDayJobRequests.Get(ctx, series.ID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.MultiDayJobRequests.Create(ctx, &workforce.MultiDayJobRequestParams{RepeatType: workforce.RepeatDaily})
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.MultiDayJobRequests.Update(ctx, series.ID, &workforce.MultiDayJobRequestParams{RepeatNumber: 9})
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	got, _, err = c.MultiDayJobRequests.Get(ctx, series.ID)
	require.NoError(t, err)
	assert.Equal(t, 4, got.RepeatNumber, "refused calls changed nothing")
}

// TestMultiDayJobRequestsRefusedBeforeIO checks every argument rule of Multi-day Job Requests: each is refused with an
// *ArgumentError naming the field, and nothing is sent.
func TestMultiDayJobRequestsRefusedBeforeIO(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	assertRefused(t, m, []refusal{
		{"series get id 0", "id", func() error { _, _, err := c.MultiDayJobRequests.Get(ctx, 0); return err }},
		{"series create nil", "MultiDayJobRequestParams", func() error { _, _, err := c.MultiDayJobRequests.Create(ctx, nil); return err }},
		{"series create without repeat type", "RepeatType", func() error {
			_, _, err := c.MultiDayJobRequests.Create(ctx, &workforce.MultiDayJobRequestParams{RepeatNumber: 3})
			return err
		}},
		{"series repeat type", "RepeatType", func() error {
			_, _, err := c.MultiDayJobRequests.Create(ctx, &workforce.MultiDayJobRequestParams{RepeatType: "monthly"})
			return err
		}},
		{"series negative repeat number", "RepeatNumber", func() error {
			_, _, err := c.MultiDayJobRequests.Update(ctx, 2, &workforce.MultiDayJobRequestParams{RepeatNumber: -1})
			return err
		}},
		{"series update nothing", "MultiDayJobRequestParams", func() error {
			_, _, err := c.MultiDayJobRequests.Update(ctx, 2, &workforce.MultiDayJobRequestParams{})
			return err
		}},
		{"series update id 0", "id", func() error {
			_, _, err := c.MultiDayJobRequests.Update(ctx, 0, &workforce.MultiDayJobRequestParams{SameWorkers: workforce.Ptr(true)})
			return err
		}},
	})
}
