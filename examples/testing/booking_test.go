package booking_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require" // any assertion library will do

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func TestBooking(t *testing.T) {
	ctx := context.Background()
	srv := workforcetest.NewServer(t) // on loopback, closed when the test ends
	c, err := srv.Client()            // a ready Private Pool client; srv.PublicClient() for Public Pool
	require.NoError(t, err)
	seed := srv.Seed() // seeded Customers, Workers and Job Requests

	job, _, err := c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err)

	require.NoError(t, srv.StartJob(job.ID)) // what Workers and Requestors do outside the API
	srv.Advance(25 * time.Hour)              // the fake's clock: tokens expire, the client renews
	srv.InjectFault(workforcetest.Fault{Method: "GET", Path: "/api_v2/jobs", Times: 2, Status: 503})
	jobs, _, err := c.Jobs.List(ctx, &workforce.JobListOptions{JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err) // retried past both 503s, in milliseconds
	require.Equal(t, workforce.JobInProgress, jobs[0].State)

	for _, r := range srv.Requests() { // what the fake received, token and keys removed
		t.Log(r.Method, r.Path, r.Query)
	}
}
