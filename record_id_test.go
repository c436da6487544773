package workforce_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// A call on one record by its ID (a get, an update, an action, a delete)
// answered with another record, a record with no usable ID, or a record
// naming two IDs (in any case, as encoding/json matches names), is a
// *DecodeError matching ErrOtherRecord, and returns nothing of it; a
// write's also matches ErrOutcomeUnknown (attack 6, D5).
func TestAnswerForAnotherRecordIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name, method, path, body string
		call                     func(c *workforce.Client) (any, error)
		write                    bool
	}{
		{"get, another id", http.MethodGet, "jobs/5", `{"job": {"id": 6, "state": "filled"}}`,
			func(c *workforce.Client) (any, error) { return first(c.Jobs.Get(ctx, 5)) }, false},
		{"get, the id twice", http.MethodGet, "jobs/5", `{"job": {"id": 5, "id": 6}}`,
			func(c *workforce.Client) (any, error) { return first(c.Jobs.Get(ctx, 5)) }, false},
		{"get, the id twice, the last the one asked", http.MethodGet, "jobs/5", `{"job": {"id": 6, "id": 5}}`,
			func(c *workforce.Client) (any, error) { return first(c.Jobs.Get(ctx, 5)) }, false},
		{"get, the id twice in other cases, the last the one asked (A8-1)", http.MethodGet, "jobs/5", `{"job": {"ID": 6, "Id": 7, "id": 5}}`,
			func(c *workforce.Client) (any, error) { return first(c.Jobs.Get(ctx, 5)) }, false},
		{"get, no id (A8-2)", http.MethodGet, "jobs/5", `{"job": {"state": "filled"}}`,
			func(c *workforce.Client) (any, error) { return first(c.Jobs.Get(ctx, 5)) }, false},
		{"get, a null id (A8-2)", http.MethodGet, "jobs/5", `{"job": {"id": null, "state": "filled"}}`,
			func(c *workforce.Client) (any, error) { return first(c.Jobs.Get(ctx, 5)) }, false},
		{"get, the id 0 (A8-2)", http.MethodGet, "jobs/5", `{"job": {"id": 0, "state": "filled"}}`,
			func(c *workforce.Client) (any, error) { return first(c.Jobs.Get(ctx, 5)) }, false},
		{"get, an id that fits no form (A8-2)", http.MethodGet, "jobs/5", `{"job": {"id": "five", "state": "filled"}}`,
			func(c *workforce.Client) (any, error) { return first(c.Jobs.Get(ctx, 5)) }, false},
		{"update, no id (A8-2)", http.MethodPatch, "jobs/5", `{"job": {"state": "cancelled"}}`,
			func(c *workforce.Client) (any, error) {
				return first(c.Jobs.Cancel(ctx, 5, workforce.CancelDecidedToCancel))
			}, true},
		{"get unwrapped, another id", http.MethodGet, "users/5", `{"id": 6, "first_name": "A"}`,
			func(c *workforce.Client) (any, error) { return first(c.Users.Get(ctx, 5)) }, false},
		{"get of a series, another id", http.MethodGet, "multi_day_job_requests/5", `{"multi_day_job_request": {"id": 6}}`,
			func(c *workforce.Client) (any, error) { return first(c.MultiDayJobRequests.Get(ctx, 5)) }, false},
		{"get, the id a string", http.MethodGet, "badges/5", `{"badge": {"id": "6", "name": "n"}}`,
			func(c *workforce.Client) (any, error) { return first(c.Badges.Get(ctx, 5)) }, false},
		{"update", http.MethodPatch, "jobs/5", `{"job": {"id": 6, "state": "cancelled"}}`,
			func(c *workforce.Client) (any, error) {
				return first(c.Jobs.Cancel(ctx, 5, workforce.CancelDecidedToCancel))
			}, true},
		{"action", http.MethodPost, "job_requests/5/re_rank_workers", `{"job_request": {"id": 6}}`,
			func(c *workforce.Client) (any, error) { return first(c.JobRequests.ReRankWorkers(ctx, 5)) }, true},
		{"delete", http.MethodDelete, "badges/5", `{"badge": {"id": 6, "name": "n"}}`,
			func(c *workforce.Client) (any, error) { return first(c.Badges.Delete(ctx, 5)) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t)
			m.RegisterResponder(tc.method, mockBase+"/api_v2/"+tc.path, httpmock.NewStringResponder(200, tc.body))
			got, err := tc.call(c)
			require.ErrorIs(t, err, workforce.ErrOtherRecord)
			var de *workforce.DecodeError
			require.True(t, errors.As(err, &de), "%T", err)
			assert.Equal(t, tc.write, errors.Is(err, workforce.ErrOutcomeUnknown))
			assert.Nil(t, got, "nothing of the other record is returned")
		})
	}
}

// The record asked for is taken, in its envelope or bare, with or without
// other members: the check costs a correct answer nothing.
func TestAnswerForTheRecordAskedIsTaken(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/5", httpmock.NewStringResponder(200, `{"job": {"id": 5, "state": "filled", "worker": {"id": 6}}}`))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/users/5", httpmock.NewStringResponder(200, `{"id": "5", "first_name": "A"}`))
	job, _, err := c.Jobs.Get(context.Background(), 5)
	require.NoError(t, err)
	assert.EqualValues(t, 5, job.ID)
	user, _, err := c.Users.Get(context.Background(), 5)
	require.NoError(t, err)
	assert.EqualValues(t, 5, user.ID)
}

// An envelope whose member comes twice is refused: which record (or
// list) it answers is not known, and encoding/json would take the last.
func TestDuplicatedEnvelopeIsRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, body := range map[string]string{
		"two records":            `{"job": {"id": 5}, "job": {"id": 5, "state": "cancelled"}}`,
		"null, then a record":    `{"job": null, "job": {"id": 5}}`,
		"escaped name":           `{"job": {"id": 5}, "\u006aob": {"id": 5}}`,
		"in another case (A8-1)": `{"job": {"id": 5, "state": "filled"}, "JOB": {"id": 5, "state": "cancelled"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t)
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/5", httpmock.NewStringResponder(200, body))
			job, _, err := c.Jobs.Get(ctx, 5)
			var de *workforce.DecodeError
			require.True(t, errors.As(err, &de), "%v", err)
			assert.Contains(t, err.Error(), `"job" more than once`)
			assert.Nil(t, job)
			var j workforce.Job
			_, err = workforce.Decode([]byte(body), &j)
			assert.Error(t, err, "Decode reads an envelope as the client does")
		})
	}
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", httpmock.NewStringResponder(200, `{"jobs": [{"id": 5}], "jobs": [{"id": 4}]}`))
	_, _, err := c.Jobs.List(ctx, nil)
	var de *workforce.DecodeError
	require.True(t, errors.As(err, &de), "a list too: %v", err)
}

// first returns the record of a service call's answer, as any (nil when
// it is a nil pointer), and its error.
func first[T any](v *T, _ *workforce.Response, err error) (any, error) {
	if v == nil {
		return nil, err
	}
	return v, err
}
