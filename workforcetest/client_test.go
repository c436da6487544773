package workforcetest_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	workforce "github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func TestClientsUseTheKeysOfTheirPool(t *testing.T) {
	t.Parallel()
	srv := workforcetest.NewServer(t)
	seed := srv.Seed()
	ctx := t.Context()

	private, err := srv.Client(workforce.WithHTTPClient(&http.Client{}))
	require.NoError(t, err)
	job, _, err := private.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequestW2ID})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobFilled, job.State)

	public, err := srv.PublicClient()
	require.NoError(t, err)
	got, _, err := public.Jobs.Get(ctx, seed.PublicJobID)
	require.NoError(t, err)
	assert.Equal(t, seed.PublicJobID, got.ID)
	_, _, err = public.Jobs.Get(ctx, job.ID)
	var apiErr *workforce.APIError
	require.True(t, errors.As(err, &apiErr), "%v", err)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
}

// The fake's own clients settle a create whose answer a fault dropped at once, whether the fake
// acted before dropping it or not: they do not wait out workforce.DefaultSettleHorizon in real
// time. The bound is loose (2 s against the default's 2 minutes), so it is no timing race.
func TestClientsSettleADroppedCreateAtOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		fault workforcetest.Fault
		done  bool
	}{
		{"dropped after the fake acted", workforcetest.Fault{DropAfter: true}, true},
		{"dropped before the fake acted", workforcetest.Fault{Drop: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := workforcetest.NewServer(t)
			seed := srv.Seed()
			ctx := t.Context()
			c, err := srv.Client()
			require.NoError(t, err)
			create := &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequestW2ID}
			f := tc.fault
			f.Method, f.Path = http.MethodPost, "/api_v2/jobs/assign"
			srv.InjectFault(f)

			start := time.Now()
			_, _, err = c.Jobs.Assign(ctx, create)
			require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
			job, err := c.Jobs.Settle(ctx, create, err)
			took := time.Since(start)
			if tc.done {
				require.NoError(t, err)
				assert.Equal(t, create.WorkerID, job.WorkerID)
			} else {
				require.ErrorIs(t, err, workforce.ErrNotFound)
			}
			assert.Less(t, took, 2*time.Second, "the create and its settle took %v of real time", took)
		})
	}
}
