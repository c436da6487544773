// Command quickstart tours the SDK: it authenticates, reads the API's
// status, creates a Job, lists Jobs through an iterator, cancels the Job and
// shows the typed error a Public Pool key gets.
//
// With no environment set it runs against the in-memory fake API, started
// in-process:
//
//	go run ./examples/quickstart
//
// With WORKFORCE_API_KEY, WORKFORCE_SECRET_KEY and WORKFORCE_BASE_URL set it
// runs only the read-only part against that server.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout, os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

// run performs the tour, writing what it does to out.
func run(ctx context.Context, out io.Writer, getenv func(string) string) error {
	apiKey, secretKey, baseURL := getenv("WORKFORCE_API_KEY"), getenv("WORKFORCE_SECRET_KEY"), getenv("WORKFORCE_BASE_URL")
	switch {
	case apiKey == "" && secretKey == "" && baseURL == "":
		return againstFake(ctx, out)
	case apiKey == "" || secretKey == "" || baseURL == "":
		return errors.New("set all of WORKFORCE_API_KEY, WORKFORCE_SECRET_KEY and WORKFORCE_BASE_URL, or none to use the fake API")
	}
	fmt.Fprintf(out, "Using the API at %s (read-only tour).\n", baseURL)
	c, err := workforce.New(apiKey, secretKey, workforce.WithBaseURL(baseURL))
	if err != nil {
		return err
	}
	if err := greet(ctx, out, c); err != nil {
		return err
	}
	lastWeek := &workforce.JobListOptions{UpdatedAfter: time.Now().AddDate(0, 0, -7)}
	return listJobs(ctx, out, c, "Jobs updated in the last week", lastWeek, 10)
}

// greet authenticates and reads the API's status.
func greet(ctx context.Context, out io.Writer, c *workforce.Client) error {
	tok, _, err := c.Authentication.Authenticate(ctx)
	if err != nil {
		return fmt.Errorf("authenticating: %w", err)
	}
	fmt.Fprintf(out, "Authenticated; the token expires at %s.\n", tok.ExpiresAt.Format(time.RFC3339))

	info, _, err := c.Info.Get(ctx)
	if err != nil {
		return fmt.Errorf("reading the API's status: %w", err)
	}
	fmt.Fprintf(out, "The %q environment's clock says %s.\n", info.Environment, info.UTCTimeNow.Format(time.RFC3339))
	return nil
}

// listJobs lists up to limit Jobs that opts selects, which title describes,
// through the iterator that fetches pages as it goes.
func listJobs(ctx context.Context, out io.Writer, c *workforce.Client, title string, opts *workforce.JobListOptions, limit int) error {
	fmt.Fprintf(out, "%s (at most %d):\n", title, limit)
	n := 0
	for job, err := range c.Jobs.All(ctx, opts) {
		if err != nil {
			return fmt.Errorf("listing Jobs: %w", err)
		}
		fmt.Fprintf(out, "  Job %d on Job Request %d: %s\n", job.ID, job.JobRequestID, job.State)
		if n++; n == limit {
			break
		}
	}
	fmt.Fprintf(out, "Listed %d Job(s).\n", n)
	return nil
}

// againstFake runs the whole tour against an in-process fake API.
func againstFake(ctx context.Context, out io.Writer) error {
	srv, err := workforcetest.Start()
	if err != nil {
		return fmt.Errorf("starting the fake API: %w", err)
	}
	defer srv.Close()
	fmt.Fprintf(out, "No WORKFORCE_* environment: using the in-memory fake API at %s.\n", srv.URL)

	c, err := srv.Client()
	if err != nil {
		return err
	}
	if err := greet(ctx, out, c); err != nil {
		return err
	}
	seed := srv.Seed()
	job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{
		WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID, RequestorNotes: "Ask for Sam at the loading dock.",
	})
	if err != nil {
		return fmt.Errorf("creating a Job: %w", err)
	}
	fmt.Fprintf(out, "Created Job %d for Worker %d on Job Request %d: %s.\n", job.ID, job.WorkerID, job.JobRequestID, job.State)

	filled := &workforce.JobListOptions{State: workforce.JobFilled, JobRequestID: seed.JobRequest1099ID}
	if err := listJobs(ctx, out, c, fmt.Sprintf("Filled Jobs on Job Request %d", seed.JobRequest1099ID), filled, 10); err != nil {
		return err
	}

	job, _, err = c.Jobs.Cancel(ctx, job.ID, workforce.CancelDecidedToCancel)
	if err != nil {
		return fmt.Errorf("cancelling the Job: %w", err)
	}
	fmt.Fprintf(out, "Cancelled Job %d (%s); it went through %d state(s).\n", job.ID, job.CancelledReason, len(job.Transitions))

	public, err := srv.PublicClient()
	if err != nil {
		return err
	}
	_, _, err = public.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID})
	var apiErr *workforce.APIError
	if !errors.Is(err, workforce.ErrForbidden) || !errors.As(err, &apiErr) {
		return fmt.Errorf("a Public Pool key creating a Job: want a 403, got %v", err)
	}
	fmt.Fprintf(out, "A Public Pool key may not create Jobs: %d %q, as expected.\n", apiErr.StatusCode, apiErr.Message)
	return nil
}
