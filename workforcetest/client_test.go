package workforcetest_test

import (
	"errors"
	"net/http"
	"testing"

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
