package workforce_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// The error of a create whose outcome is unknown records when its call
// began, whatever error type says so; other errors do not.
func TestOutcomeUnknownErrorsRecordTheirStart(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	seed := srv.Seed()
	ctx := context.Background()
	for i, f := range []workforcetest.Fault{{DropAfter: true}, {Truncate: true}, {Status: 500}, {Status: 422}} {
		f.Method, f.Path = http.MethodPost, "/api_v2/jobs"
		srv.InjectFault(f)
		before := time.Now()
		_, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1+i], JobRequestID: seed.JobRequest1099ID})
		after := time.Now()
		require.Error(t, err)
		var started time.Time
		var apiErr *workforce.APIError
		var transportErr *workforce.TransportError
		var decodeErr *workforce.DecodeError
		switch {
		case errors.As(err, &apiErr):
			started = apiErr.Started
		case errors.As(err, &transportErr):
			started = transportErr.Started
		case errors.As(err, &decodeErr):
			started = decodeErr.Started
		}
		if f.Status == 422 {
			assert.NotErrorIs(t, err, workforce.ErrOutcomeUnknown)
			assert.True(t, started.IsZero(), "%+v: nothing to settle", f)
			continue
		}
		require.ErrorIs(t, err, workforce.ErrOutcomeUnknown, "%+v", f)
		assert.False(t, started.Before(before) || started.After(after), "%+v: started %v, not within the call", f, started)
	}
}

// Settle takes only the error of a create whose outcome is unknown.
func TestSettleRefusesOtherErrors(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	create := &workforce.JobCreate{WorkerID: srv.Seed().WorkerIDs[1], JobRequestID: srv.Seed().JobRequest1099ID}
	ctx := context.Background()
	for _, err := range []error{nil, errors.New("x"), &workforce.APIError{StatusCode: 422},
		&workforce.TransportError{OutcomeUnknown: true}} { // no start: not the create's own error
		_, serr := c.Jobs.Settle(ctx, create, err)
		assert.ErrorIs(t, serr, workforce.ErrInvalidArgument, "%v", err)
	}
	_, err := c.Jobs.Settle(ctx, &workforce.JobCreate{}, &workforce.TransportError{OutcomeUnknown: true, Started: time.Now()})
	assert.ErrorIs(t, err, workforce.ErrInvalidArgument)
	var noContext context.Context
	_, err = c.Jobs.Settle(noContext, create, &workforce.TransportError{OutcomeUnknown: true, Started: time.Now()})
	assert.ErrorIs(t, err, workforce.ErrInvalidArgument)
	var zero workforce.Client
	_, err = zero.Jobs.Settle(ctx, create, &workforce.TransportError{OutcomeUnknown: true, Started: time.Now()})
	assert.ErrorIs(t, err, workforce.ErrConfig)
}

// The bound is the server's time less the time since the call began, less
// a second for a clock told to the second: a Job made just after it is
// the call's, one made just before is not. Jobs of the live API's shape,
// without worker_id, are matched by worker.id.
func TestSettleBound(t *testing.T) {
	t.Parallel()
	for _, clock := range []string{"utc_time_now", "Date header"} {
		t.Run(clock, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t)
			server := time.Date(2026, 11, 20, 18, 0, 10, 0, time.UTC)
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info", func(*http.Request) (*http.Response, error) {
				if clock == "Date header" {
					resp := httpmock.NewStringResponse(404, `{"error": "not found"}`)
					resp.Header.Set("Date", server.Format(http.TimeFormat))
					return resp, nil
				}
				return httpmock.NewStringResponse(200, fmt.Sprintf(`{"utc_time_now": %q}`, server.Format(time.RFC3339))), nil
			})
			// The call began 2 s ago: the bound is about 18:00:07, less the time the settle takes
			// (the Jobs around it are seconds away, so that a slow machine cannot move it past them).
			started := time.Now().Add(-2 * time.Second)
			job := func(id int64, created time.Time, state string) string {
				return fmt.Sprintf(`{"id": %d, "state": %q, "created_at": %q, "worker": {"id": 7}}`,
					id, state, created.In(time.FixedZone("", -8*3600)).Format("2006-01-02T15:04:05.000Z07:00"))
			}
			page := `{"jobs": [` + job(13, server.Add(-1500*time.Millisecond), "filled") + `,` +
				job(12, server.Add(-10*time.Second), "filled") + `,` +
				job(11, server.Add(-time.Second), "cancelled") + `]}`
			var query string
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", func(r *http.Request) (*http.Response, error) {
				query = r.URL.RawQuery
				return httpmock.NewStringResponse(200, page), nil
			})
			create := &workforce.JobCreate{WorkerID: 7, JobRequestID: 9}
			got, err := c.Jobs.Settle(context.Background(), create, &workforce.TransportError{OutcomeUnknown: true, Started: started})
			require.NoError(t, err)
			assert.Equal(t, int64(13), got.ID, "made after the bound, filled, the Worker's by worker.id")
			assert.Contains(t, query, "job_request_id=9")
			assert.Contains(t, query, "updated_after=2026-11-20T18%3A00%3A0") // two seconds before the bound

			page = `{"jobs": [` + job(12, server.Add(-10*time.Second), "filled") + `]}`
			_, err = c.Jobs.Settle(context.Background(), create, &workforce.TransportError{OutcomeUnknown: true, Started: started})
			assert.ErrorIs(t, err, workforce.ErrNotFound, "made before the call began")
		})
	}
}
