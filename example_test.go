package workforce_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/workforce-marketplace/workforce-go"
)

func ExampleNew() {
	_, err := workforce.New("pk_test_123", "sk_live_456", workforce.WithBaseURL("https://api.example.com"))
	fmt.Println(errors.Is(err, workforce.ErrConfig))
	fmt.Println(err)
	// Output:
	// true
	// workforce: invalid configuration: the API key is a test key but the secret key a live key
}

func ExampleJobsService_Create() {
	srv, c := startFake()
	defer srv.Close()
	seed := srv.Seed()

	job, _, err := c.Jobs.Create(context.Background(), &workforce.JobCreate{
		WorkerID:     seed.WorkerIDs[0],
		JobRequestID: seed.JobRequest1099ID,
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(job.State, job.Transitions[0].Name, job.Worker.ID == seed.WorkerIDs[0])
	// Output: filled filled true
}

func ExampleJobsService_All() {
	srv, c := startFake()
	defer srv.Close()
	seed := srv.Seed()
	ctx := context.Background()

	opts := &workforce.JobListOptions{JobRequestID: seed.PendingJobRequestID}
	for _, worker := range seed.WorkerIDs[:3] {
		if _, err := srv.ApplyToJobRequest(seed.PendingJobRequestID, worker); err != nil {
			log.Fatal(err)
		}
	}
	for job, err := range c.Jobs.All(ctx, opts) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(job.State)
	}
	// Output:
	// pending
	// pending
	// pending
}

func ExampleJobsService_Cancel() {
	srv, c := startFake()
	defer srv.Close()
	seed := srv.Seed()
	ctx := context.Background()

	job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID})
	if err != nil {
		log.Fatal(err)
	}
	if err := srv.StartJob(job.ID); err != nil { // the Worker starts
		log.Fatal(err)
	}
	if err := srv.CompleteJob(job.ID); err != nil { // and completes
		log.Fatal(err)
	}
	_, _, err = c.Jobs.Cancel(ctx, job.ID, workforce.CancelDecidedToCancel)
	var apiErr *workforce.APIError
	if errors.As(err, &apiErr) && errors.Is(err, workforce.ErrUnprocessable) {
		fmt.Println("too late to cancel:", apiErr.StatusCode)
	}
	// Output: too late to cancel: 422
}

func ExampleAPIError() {
	srv, _ := startFake()
	defer srv.Close()
	public, err := srv.PublicClient()
	if err != nil {
		log.Fatal(err)
	}
	seed := srv.Seed()

	_, _, err = public.Jobs.Create(context.Background(), &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.PublicJobRequestID})
	var apiErr *workforce.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Method, apiErr.Path, errors.Is(err, workforce.ErrForbidden))
	}
	// Output: 403 POST /api_v2/jobs true
}
