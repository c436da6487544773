package workforce_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// jobJSON is a Job as the live API writes it: decimals as strings, mixed
// timestamp forms, an embedded worker, and a field the SDK does not model.
const jobJSON = `{
  "id": 42, "state": "filled", "job_request_id": 9, "worker_id": 7,
  "created_at": "2017-09-13T11:34:36.820-07:00", "updated_at": "2017-09-13T18:34:36Z",
  "confirmed_at": null, "started_at": "", "completed_at": null, "finished_at": null,
  "hours_worked": "7.5", "actual_duration": 450, "time_to_start": null,
  "adjusted_wage": "18.50", "requestor_notes": "gate B", "classification": "w2",
  "w2_hourly_rate": 21.25, "w2_payment_ref": null, "w2_pay_status": "pending",
  "cancelled_reason": null,
  "worker": {"id": 7, "type": "Worker", "first_name": "Ada", "rating": "4.5", "drug_tested": true},
  "employer": {"id": 3, "type": "Employer", "first_name": "Grace", "rating": ""},
  "transitions": [{"id": 2, "job_id": 42, "name": "filled", "created_at": "2017-09-13T18:34:36Z",
                   "latitude": "34.042019", "longitude": -118.235}],
  "surge_multiplier": "1.2"
}`

func TestJobsList(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", got.respond(200, `{"jobs": [`+jobJSON+`]}`))

	after := time.Date(2026, 11, 1, 8, 0, 0, 123e6, time.UTC)
	before := time.Date(2026, 11, 2, 8, 0, 0, 0, time.FixedZone("PST", -8*3600))
	jobs, resp, err := c.Jobs.List(context.Background(), &workforce.JobListOptions{
		ListOptions:    workforce.ListOptions{Page: 2, Per: 10},
		State:          workforce.JobFilled,
		JobRequestID:   9,
		Classification: workforce.ClassificationW2,
		W2HourlyRate:   workforce.NewDecimal(21.25),
		W2PayStatus:    workforce.W2Paid,
		UpdatedBefore:  before,
		UpdatedAfter:   after,
	})
	require.NoError(t, err)
	require.Len(t, jobs, 1)
	assert.Equal(t, int64(42), jobs[0].ID)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Zero(t, resp.NextPage, "a page of 1 with per=10 is the last")

	q := got.req.URL.Query()
	assert.Equal(t, map[string][]string{
		"page": {"2"}, "per": {"10"}, "state": {"filled"}, "job_request_id": {"9"},
		"classification": {"w2"}, "w2_hourly_rate": {"21.25"}, "w2_pay_status": {"paid"},
		"updated_before": {"2026-11-02T08:00:00-08:00"}, "updated_after": {"2026-11-01T08:00:00.123Z"},
		"token": {testToken},
	}, map[string][]string(q))
	assert.Equal(t, "/api_v2/jobs", got.req.URL.Path)
}

func TestJobsListSendsOnlyWhatIsSet(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", got.respond(200, `{"jobs": []}`))

	jobs, resp, err := c.Jobs.List(context.Background(), nil)
	require.NoError(t, err)
	assert.Empty(t, jobs)
	assert.Zero(t, resp.NextPage)
	assert.Equal(t, "per=50&token="+testToken, got.req.URL.RawQuery, "Per 0 sends the largest page, so that NextPage is exact")
}

func TestJobsRefusedBeforeIO(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	neg := -1
	cases := map[string]func() error{
		"per over 50": func() error {
			_, _, err := c.Jobs.List(ctx, &workforce.JobListOptions{ListOptions: workforce.ListOptions{Per: 51}})
			return err
		},
		"negative page": func() error {
			_, _, err := c.Jobs.List(ctx, &workforce.JobListOptions{ListOptions: workforce.ListOptions{Page: -1}})
			return err
		},
		"get id 0":   func() error { _, _, err := c.Jobs.Get(ctx, 0); return err },
		"get id -3":  func() error { _, _, err := c.Jobs.Get(ctx, -3); return err },
		"create nil": func() error { _, _, err := c.Jobs.Create(ctx, nil); return err },
		"create no worker": func() error {
			_, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{JobRequestID: 9})
			return err
		},
		"assign no job request": func() error {
			_, _, err := c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: 7})
			return err
		},
		"update nothing": func() error { _, _, err := c.Jobs.Update(ctx, 42, &workforce.JobUpdate{}); return err },
		"update nil":     func() error { _, _, err := c.Jobs.Update(ctx, 42, nil); return err },
		"update id 0":    func() error { _, _, err := c.Jobs.Cancel(ctx, 0, ""); return err },
		"negative length": func() error {
			_, _, err := c.Jobs.Update(ctx, 42, &workforce.JobUpdate{ActualDuration: &neg})
			return err
		},
		"negative job request filter": func() error {
			_, _, err := c.Jobs.List(ctx, &workforce.JobListOptions{JobRequestID: -1})
			return err
		},
		"NaN rate filter": func() error {
			_, _, err := c.Jobs.List(ctx, &workforce.JobListOptions{W2HourlyRate: workforce.NewDecimal(math.NaN())})
			return err
		},
		"all from a negative page": func() error {
			for _, err := range c.Jobs.All(ctx, &workforce.JobListOptions{ListOptions: workforce.ListOptions{Page: -2}}) {
				return err
			}
			return nil
		},
	}
	for name, run := range cases {
		err := run()
		require.Error(t, err, name)
		assert.ErrorIs(t, err, workforce.ErrInvalidArgument, name)
		var argErr *workforce.ArgumentError
		assert.True(t, errors.As(err, &argErr), name)
	}
	assert.Zero(t, m.GetTotalCallCount(), "nothing may be sent")
}

func TestJobsGetDecodesLeniently(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"wrapped":   `{"job": ` + jobJSON + `}`,
		"unwrapped": jobJSON,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t)
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", httpmock.NewStringResponder(200, body))

			job, _, err := c.Jobs.Get(context.Background(), 42)
			require.NoError(t, err)
			assert.Equal(t, workforce.JobFilled, job.State)
			assert.Equal(t, "18.50", job.AdjustedWage.String())
			assert.Equal(t, 21.25, job.W2HourlyRate.Float64())
			assert.Equal(t, 7.5, job.HoursWorked.Float64())
			assert.Equal(t, "450", job.ActualDuration.String())
			assert.False(t, job.TimeToStart.Valid(), "null is absent")
			assert.True(t, job.StartedAt.IsZero(), `"" is absent`)
			assert.Equal(t, time.Date(2017, 9, 13, 18, 34, 36, 820e6, time.UTC), job.CreatedAt.UTC())
			assert.Equal(t, time.Date(2017, 9, 13, 18, 34, 36, 0, time.UTC), job.UpdatedAt.Time)
			assert.Equal(t, workforce.ClassificationW2, job.Classification)
			assert.Equal(t, workforce.W2Pending, job.W2PayStatus)
			require.NotNil(t, job.Worker)
			assert.Equal(t, "Ada", job.Worker.FirstName)
			assert.Equal(t, 4.5, job.Worker.Rating.Float64())
			assert.True(t, job.Worker.DrugTested)
			assert.False(t, job.Employer.Rating.Valid())
			require.Len(t, job.Transitions, 1)
			assert.Equal(t, "34.042019", job.Transitions[0].Latitude.String())
			assert.Equal(t, -118.235, job.Transitions[0].Longitude.Float64())

			assertKept(t, job.Raw, "surge_multiplier", `"1.2"`)
		})
	}
}

func TestJobsUnknownStateIsKept(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/5",
		httpmock.NewStringResponder(200, `{"job": {"id": 5, "state": "on_hold", "transitions": [{"name": "on_hold"}]}}`))
	job, _, err := c.Jobs.Get(context.Background(), 5)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobState("on_hold"), job.State)
	assert.Equal(t, workforce.JobState("on_hold"), job.Transitions[0].Name)
}

func TestJobsCreateAndAssign(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"jobs", "jobs/assign"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t)
			var got capture
			m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/"+path, got.respond(200, `{"job": {"id": 77, "state": "filled"}}`))

			create := c.Jobs.Create
			if path == "jobs/assign" {
				create = c.Jobs.Assign
			}
			job, _, err := create(context.Background(), &workforce.JobCreate{WorkerID: 7, JobRequestID: 9, RequestorNotes: "bring boots"})
			require.NoError(t, err)
			assert.Equal(t, int64(77), job.ID)
			assert.Equal(t, "application/json", got.req.Header.Get("Content-Type"))
			assert.Equal(t, testToken, got.req.URL.Query().Get("token"))
			assert.Equal(t, map[string]any{"job": map[string]any{
				"worker_id": float64(7), "job_request_id": float64(9), "requestor_notes": "bring boots",
			}}, got.jsonBody(t))
		})
	}
}

func TestJobsUpdateAndCancel(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodPatch, mockBase+"/api_v2/jobs/42", got.respond(200, `{"job": {"id": 42, "state": "cancelled"}}`))
	ctx := context.Background()

	job, _, err := c.Jobs.Cancel(ctx, 42, workforce.CancelDecidedToCancel)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobCancelled, job.State)
	assert.Equal(t, map[string]any{"state": "cancelled", "cancelled_reason": "decided_to_cancel"}, got.jsonBody(t))

	_, _, err = c.Jobs.Cancel(ctx, 42, "")
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"state": "cancelled"}, got.jsonBody(t))

	minutes := 0
	_, _, err = c.Jobs.Update(ctx, 42, &workforce.JobUpdate{ActualDuration: &minutes})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"actual_duration": float64(0)}, got.jsonBody(t), "zero minutes is sent")
}

func TestJobsErrorsAreTyped(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodPatch, mockBase+"/api_v2/jobs/42", httpmock.NewStringResponder(422,
		`{"error": "cannot move from approved to cancelled", "errors": {"state": ["is not allowed"]}}`))
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/jobs", httpmock.NewStringResponder(403, `{"error": "Public Pool keys cannot create Jobs"}`))
	ctx := context.Background()

	_, resp, err := c.Jobs.Cancel(ctx, 42, "")
	require.ErrorIs(t, err, workforce.ErrUnprocessable)
	assert.Equal(t, 422, resp.StatusCode)
	var apiErr *workforce.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, []string{"is not allowed"}, apiErr.FieldErrors["state"])
	assert.Equal(t, "/api_v2/jobs/42", apiErr.Path)
	assert.Equal(t, http.MethodPatch, apiErr.Method)

	_, _, err = c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: 1, JobRequestID: 2})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	assert.NotErrorIs(t, err, workforce.ErrNotFound)
}

func TestJobsAll(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		sizes []int
		asked []string
		count int
	}{
		{"short last page", []int{50, 50, 7}, []string{"1/50?state=filled", "2/50?state=filled", "3/50?state=filled"}, 107},
		{"empty last page", []int{50, 50}, []string{"1/50?state=filled", "2/50?state=filled", "3/50?state=filled"}, 100},
		{"nothing at all", nil, []string{"1/50?state=filled"}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t, workforce.WithPageWindow(1))
			asked := servePages(t, m, "jobs", tc.sizes...)
			n, last := 0, int64(1<<62)
			for job, err := range c.Jobs.All(context.Background(), &workforce.JobListOptions{State: workforce.JobFilled}) {
				require.NoError(t, err)
				require.Less(t, job.ID, last, "newest first, no repeats")
				last = job.ID
				n++
			}
			assert.Equal(t, tc.count, n)
			assert.Equal(t, tc.asked, *asked)
		})
	}
}

func TestJobsAllStopsOnBreakAndOnError(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithPageWindow(1))
	asked := servePages(t, m, "jobs", 50, 50, 50)
	n := 0
	for _, err := range c.Jobs.All(context.Background(), nil) {
		require.NoError(t, err)
		if n++; n == 60 {
			break
		}
	}
	assert.Equal(t, []string{"1/50", "2/50"}, *asked, "no page is fetched after the loop breaks")

	c, m = newMock(t, workforce.WithRetry(0, 0, 0))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", httpmock.NewStringResponder(500, `{"error": "boom"}`))
	var errs []error
	for job, err := range c.Jobs.All(context.Background(), &workforce.JobListOptions{ListOptions: workforce.ListOptions{Page: 3}}) {
		assert.Nil(t, job)
		errs = append(errs, err)
	}
	require.Len(t, errs, 1, "one error ends the iteration")
	assert.ErrorIs(t, errs[0], workforce.ErrServer)
}

func TestJobsAllStopsWhenTheServerIgnoresThePage(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	asked := 0
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", func(*http.Request) (*http.Response, error) {
		asked++
		items := make([]string, 50)
		for i := range items {
			items[i] = fmt.Sprintf(`{"id": %d}`, 100-i)
		}
		return httpmock.NewStringResponse(200, `{"jobs": [`+strings.Join(items, ",")+`]}`), nil
	})
	n := 0
	var last error
	for _, err := range c.Jobs.All(context.Background(), nil) {
		if err != nil {
			last = err
			continue
		}
		n++
	}
	assert.ErrorIs(t, last, workforce.ErrPageRepeated)
	assert.Equal(t, 50, n, "the first page once, not again")
	assert.Equal(t, 2, asked)
}

func TestJobsRefusesNullsAndHugeAnswers(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	workforce.SetMaxBodyForTest(c, 1<<20)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/1", httpmock.NewStringResponder(200, `{"job": null}`))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", httpmock.NewStringResponder(200, `{"jobs": [{"id": 2}, null]}`))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/2", func(*http.Request) (*http.Response, error) {
		huge := io.LimitReader(zeros{}, 1<<20+1)
		return &http.Response{StatusCode: 200, Body: io.NopCloser(huge), Header: http.Header{}}, nil
	})
	ctx := context.Background()
	var decodeErr *workforce.DecodeError

	job, _, err := c.Jobs.Get(ctx, 1)
	assert.Nil(t, job)
	assert.ErrorAs(t, err, &decodeErr)
	jobs, _, err := c.Jobs.List(ctx, nil)
	assert.Nil(t, jobs)
	assert.ErrorAs(t, err, &decodeErr)
	_, _, err = c.Jobs.Get(ctx, 2)
	require.ErrorAs(t, err, &decodeErr)
	assert.ErrorContains(t, err, "larger than 1048576 bytes")
}

// zeros reads as an endless run of spaces.
type zeros struct{}

var spaces = []byte(strings.Repeat(" ", 64<<10))

func (zeros) Read(p []byte) (int, error) { return copy(p, spaces), nil }

func TestJobsAllMayBeRangedConcurrently(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	servePages(t, m, "jobs", 50, 3)
	seq := c.Jobs.All(context.Background(), &workforce.JobListOptions{State: workforce.JobFilled})
	counts := make(chan int, 2)
	for range 2 {
		go func() {
			n := 0
			for _, err := range seq {
				if err == nil {
					n++
				}
			}
			counts <- n
		}()
	}
	assert.Equal(t, 53, <-counts)
	assert.Equal(t, 53, <-counts)
}

func TestJobLifecycleOnTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID, RequestorNotes: "gate B"})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobFilled, job.State)
	assert.Equal(t, "gate B", job.RequestorNotes)
	require.NotNil(t, job.Worker)
	assert.Equal(t, seed.WorkerIDs[0], job.Worker.ID)
	require.Len(t, job.Transitions, 1)
	assert.Equal(t, workforce.JobFilled, job.Transitions[0].Name)
	assert.False(t, job.CreatedAt.IsZero())

	require.NoError(t, srv.StartJob(job.ID))
	require.NoError(t, srv.CompleteJob(job.ID))
	minutes := 95
	job, _, err = c.Jobs.Update(ctx, job.ID, &workforce.JobUpdate{ActualDuration: &minutes})
	require.NoError(t, err)
	assert.Equal(t, "95", job.ActualDuration.String())
	assert.Equal(t, workforce.JobCompleted, job.State)

	got, _, err := c.Jobs.Get(ctx, job.ID)
	require.NoError(t, err)
	assert.Equal(t, []workforce.JobState{workforce.JobCompleted, workforce.JobInProgress, workforce.JobFilled}, states(got.Transitions))

	_, _, err = c.Jobs.Cancel(ctx, job.ID, workforce.CancelAskedToCancel)
	assert.ErrorIs(t, err, workforce.ErrUnprocessable, "a completed Job cannot be cancelled")

	_, _, err = c.Jobs.Get(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
}

func TestJobsAssignAndCancelOnTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	job, _, err := c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequestW2ID})
	require.NoError(t, err)
	assert.Equal(t, workforce.ClassificationW2, job.Classification)
	assert.True(t, job.W2HourlyRate.Valid())

	job, _, err = c.Jobs.Cancel(ctx, job.ID, workforce.CancelDecidedToCancel)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobCancelled, job.State)
	assert.Equal(t, workforce.CancelDecidedToCancel, job.CancelledReason)
	state, _ := srv.JobState(job.ID)
	assert.Equal(t, "cancelled", state)
}

func TestJobsPendingApplicationIsDecidedOnTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	granted, err := srv.ApplyToJobRequest(seed.PendingJobRequestID, seed.WorkerIDs[0])
	require.NoError(t, err)
	rejected, err := srv.ApplyToJobRequest(seed.PendingJobRequestID, seed.WorkerIDs[1])
	require.NoError(t, err)

	job, _, err := c.Jobs.Update(ctx, granted, &workforce.JobUpdate{State: workforce.JobFilled})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobFilled, job.State)
	job, _, err = c.Jobs.Update(ctx, rejected, &workforce.JobUpdate{State: workforce.JobRejected})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRejected, job.State)

	_, _, err = c.Jobs.Update(ctx, granted, &workforce.JobUpdate{State: workforce.JobRejected})
	assert.ErrorIs(t, err, workforce.ErrUnprocessable, "only a pending Job can be rejected")
}

func TestJobsListFiltersAndAllWalksTheFakesPages(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	create := func() *workforce.Job {
		job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID})
		require.NoError(t, err)
		return job
	}
	for range 59 { // a Worker holds one open Job per Job Request: cancel each before the next
		_, _, err := c.Jobs.Cancel(ctx, create().ID, "")
		require.NoError(t, err)
	}
	srv.Advance(time.Minute)
	latest := create()

	page, resp, err := c.Jobs.List(ctx, &workforce.JobListOptions{JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err)
	assert.Len(t, page, 50, "Per 0: MaxPerPage, sent")
	assert.Equal(t, 2, resp.NextPage)

	var seen []int64
	for job, err := range c.Jobs.All(ctx, &workforce.JobListOptions{JobRequestID: seed.JobRequest1099ID, State: workforce.JobCancelled}) {
		require.NoError(t, err)
		assert.Equal(t, workforce.JobCancelled, job.State)
		seen = append(seen, job.ID)
	}
	require.Len(t, seen, 59)
	for i := 1; i < len(seen); i++ {
		assert.Greater(t, seen[i-1], seen[i], "newest first")
	}

	recent, _, err := c.Jobs.List(ctx, &workforce.JobListOptions{UpdatedAfter: srv.Now().Add(-time.Second)})
	require.NoError(t, err)
	require.Len(t, recent, 1)
	assert.Equal(t, latest.ID, recent[0].ID)

	var getPages int
	for _, r := range srv.Requests() {
		if r.Method == http.MethodGet && r.Path == "/api_v2/jobs" && r.Query.Get("state") == "cancelled" {
			getPages++
			assert.Equal(t, "50", r.Query.Get("per"))
		}
	}
	assert.Equal(t, 2, getPages, "59 Jobs: a full page, then a short one")
}

func TestJobsOfAPublicPoolKeyAreItsOwnAndReadOnly(t *testing.T) {
	t.Parallel()
	srv := workforcetest.NewServer(t)
	c, err := srv.PublicClient()
	require.NoError(t, err)
	ctx := context.Background()
	seed := srv.Seed()

	_, _, err = c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.PublicJobRequestID})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = c.Jobs.Cancel(ctx, seed.PublicJobID, "")
	assert.ErrorIs(t, err, workforce.ErrForbidden)

	var ids []int64
	for job, err := range c.Jobs.All(ctx, nil) {
		require.NoError(t, err)
		ids = append(ids, job.ID)
	}
	assert.Equal(t, []int64{seed.PublicJobID}, ids, "a Public Pool key sees only its own Jobs")
}

func TestJobsRenewAnExpiredTokenOnTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()

	_, _, err := c.Jobs.List(ctx, nil)
	require.NoError(t, err)
	srv.Advance(25 * time.Hour) // the server now rejects the token the client holds

	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := c.Jobs.List(ctx, nil)
			assert.NoError(t, err)
		}()
	}
	wg.Wait()
	assert.Equal(t, 2, countRequests(srv, http.MethodPost, "/api_v2/authenticate"), "one token, then one renewal")
}

func TestJobsAreRetriedThroughTheFakesFaults(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	srv.InjectFault(workforcetest.Fault{Method: http.MethodGet, Path: "/api_v2/jobs", Times: 2, Status: http.StatusServiceUnavailable})
	_, _, err := c.Jobs.List(ctx, nil)
	require.NoError(t, err, "two 503s, then the page")

	srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/jobs", Times: 1, Status: http.StatusServiceUnavailable})
	_, _, err = c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID})
	assert.ErrorIs(t, err, workforce.ErrServer, "a create is not sent twice")
	assert.Equal(t, 1, countRequests(srv, http.MethodPost, "/api_v2/jobs"))

	srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/jobs", Times: 1, Status: http.StatusTooManyRequests, RetryAfter: "0"})
	_, _, err = c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err, "a 429 means the server did not act: the create is sent again")

	srv.InjectFault(workforcetest.Fault{Method: http.MethodPost, Path: "/api_v2/jobs", Times: 1, Drop: true})
	_, _, err = c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID})
	var transportErr *workforce.TransportError
	assert.ErrorAs(t, err, &transportErr, "a dropped create may have been acted on: not sent again")

	srv.InjectFault(workforcetest.Fault{Method: http.MethodGet, Path: "/api_v2/jobs", Times: 1, Delay: time.Hour})
	short, pass := newDeadline(ctx)
	defer pass()
	short = httptrace.WithClientTrace(short, &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { pass() }})
	_, _, err = c.Jobs.List(short, nil)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}
