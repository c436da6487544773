package workforce_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/webhook"
)

// Every Go block of the README is compiled: the tour and the webhook
// receiver below hold them verbatim, the testing one is
// examples/testing/booking_test.go, and TestREADMECodeIsCompiled checks
// that each block still appears in one of them.

// readmeTour is the README's tour.
func readmeTour(ctx context.Context, apiKey, secretKey string) error {
	c, err := workforce.New(apiKey, secretKey, // pk_test_… and sk_test_…, or pk_live_… and sk_live_…
		workforce.WithBaseURL("https://api.example.com"), // or WORKFORCE_BASE_URL / WORKFORCE_TEST_BASE_URL
		workforce.WithLogger(slog.Default()),             // optional; every line is redacted
	)
	if err != nil {
		return err // a configuration error, matching workforce.ErrConfig; New makes no network call
	}

	create := &workforce.JobCreate{WorkerID: 7, JobRequestID: 9}
	job, _, err := c.Jobs.Assign(ctx, create)
	if errors.Is(err, workforce.ErrOutcomeUnknown) {
		// The request reached the server and no answer came: did this call make the Job?
		job, err = c.Jobs.Settle(ctx, create, err)
		if errors.Is(err, workforce.ErrNotFound) {
			job, _, err = c.Jobs.Assign(ctx, create) // it was not done: do it now
		}
	}
	if err != nil {
		return err
	}

	for job, err := range c.Jobs.All(ctx, &workforce.JobListOptions{State: workforce.JobFilled}) {
		if err != nil {
			return err
		}
		fmt.Println(job.ID, job.State, job.AdjustedWage)
	}

	_, _, err = c.Jobs.Cancel(ctx, job.ID, workforce.CancelDecidedToCancel)
	switch {
	case errors.Is(err, workforce.ErrForbidden): // a Public Pool key may not change Jobs
	case errors.Is(err, workforce.ErrUnprocessable): // the Job is past cancelling
	}

	// Post a Job Request. StartTime is read off the venue's wall clock: it carries no zone.
	jr, _, err := c.JobRequests.Create(ctx, &workforce.JobRequestParams{
		RequestName: "Forklift driver", Category: "warehouse", State: workforce.JobRequestPosted,
		Address: "1 Main St", City: "Los Angeles", Zip: "90012", Slots: 2,
		DescriptionTasks:  "Move pallets to the loading dock",
		DescriptionSkills: workforce.Skills{"forklift", "english"},              // sent as "forklift|english"
		StartTime:         workforce.NewWallClock(2026, time.December, 1, 9, 0), // sent as "2026-12-01 09:00"
		Duration:          480,                                                  // minutes
		Wage:              workforce.NewDecimal(18.50),
		OpenRequest:       workforce.Ptr(false), // a nil pointer is not sent; Ptr(false) sends false
	})
	if err != nil {
		return err
	}
	fmt.Println("posted", jr.ID, jr.State)

	// List Customers, 50 a page, newest first.
	for customer, err := range c.Customers.All(ctx, nil) {
		if err != nil {
			return err
		}
		fmt.Println(customer.ID, customer.Name, customer.FeePercentage)
	}

	// Upload a timesheet: streamed from the file, rewound and sent again only if the server did not act.
	f, err := os.Open("timesheet.csv")
	if err != nil {
		return err
	}
	defer f.Close()
	result, _, err := c.Customers.ImportTimesheet(ctx, f)
	if err != nil {
		return err
	}
	fmt.Println(result.Imported, "rows applied;", len(result.Rejected), "rejected")

	// Find Users, Customers, Job Requests and Badges by name; read a Worker's check-ins.
	found, _, err := c.Search.Query(ctx, "forklift")
	if err != nil {
		return err
	}
	for _, u := range found.Users {
		points, _, err := c.Users.Tracking(ctx, u.ID)
		if err != nil {
			return err
		}
		fmt.Println(u.FirstName, u.LastName, len(points), "check-ins")
	}
	return nil
}

// readmeStore is where the README's webhook receiver keeps what it gets.
type readmeStore interface {
	SaveJob(context.Context, *workforce.Job) error
	SaveJobRequest(context.Context, *workforce.JobRequest) error
}

// readmeWebhooks is the README's webhook receiver.
func readmeWebhooks(secretKey, certFile, keyFile string, store readmeStore) error {
	h, err := webhook.Handler(secretKey, func(ctx context.Context, ev *webhook.Event) error {
		switch ev.Kind {
		case webhook.KindJob:
			return store.SaveJob(ctx, ev.Job) // ev.Job is a *workforce.Job, ev.Body the bytes received
		case webhook.KindJobRequest:
			return store.SaveJobRequest(ctx, ev.JobRequest)
		}
		return nil // an unknown kind: acknowledge it
	})
	if err != nil {
		return err // a secret key workforce.New would refuse too (a stray space or line break)
	}
	http.Handle("/webhooks", h)
	srv := &http.Server{Addr: ":8443", ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 15 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 60 * time.Second}
	return srv.ListenAndServeTLS(certFile, keyFile)
}

var _, _ = readmeTour, readmeWebhooks // compiled, not run: they would reach the network

func TestREADMECodeIsCompiled(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	var compiled strings.Builder
	for _, name := range []string{"readme_test.go", filepath.Join("examples", "testing", "booking_test.go")} {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		compiled.WriteString(flatten(string(b)))
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```\n").FindAllStringSubmatch(string(readme), -1)
	require.Len(t, blocks, 3, "the tour, the webhook receiver and the test")
	for _, b := range blocks {
		assert.Contains(t, compiled.String(), flatten(b[1]), "a README block that no compiled file holds:\n%s", b[1])
	}
}

// flatten drops the indentation of every line, so that a block matches
// the same lines indented in a function body.
func flatten(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, "\t ")
	}
	return strings.Join(lines, "\n")
}
