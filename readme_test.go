package workforce_test

import (
	"context"
	"errors"
	"fmt"
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

// Every Go block of the README and of docs/client.md is compiled: the
// functions below hold them verbatim, the testing one is
// examples/testing/booking_test.go, the feed's is in examples/feed (a
// module of its own, for the SQLite driver), and TestREADMECodeIsCompiled
// checks that each block still appears in one of them.

// readmeFirstCall is the README's first call.
func readmeFirstCall(ctx context.Context, workerID int64) error {
	c, err := workforce.New(os.Getenv("WORKFORCE_API_KEY"), os.Getenv("WORKFORCE_SECRET_KEY"),
		workforce.WithBaseURL(os.Getenv("WORKFORCE_BASE_URL"))) // New makes no network call
	if err != nil {
		return err // a configuration error (a missing or malformed key), matching workforce.ErrConfig
	}
	// Every filled Job changed today, newest first: the iterator reads the pages, 50 a request.
	opts := &workforce.JobListOptions{State: workforce.JobFilled, UpdatedAfter: time.Now().Add(-24 * time.Hour)}
	for job, err := range c.Jobs.All(ctx, opts) {
		if err != nil {
			return err
		}
		if job.WorkerID == workerID {
			fmt.Println("found", job.ID, job.State)
			break // ends the walk; pages asked for ahead are abandoned
		}
	}
	return nil
}

// readmeTour is the README's tour.
func readmeTour(ctx context.Context, c *workforce.Client) error {
	create := &workforce.JobCreate{WorkerID: 7, JobRequestID: 9}
	job, _, err := c.Jobs.Assign(ctx, create)
	if errors.Is(err, workforce.ErrOutcomeUnknown) {
		// The request reached the server and no answer came: did this call make the Job?
		job, err = c.Jobs.Settle(ctx, create, err)
		if errors.Is(err, workforce.ErrNotFound) {
			job, _, err = c.Jobs.Assign(ctx, create) // it was not done: do it now
		}
	}
	var apiErr *workforce.APIError
	switch {
	case errors.Is(err, workforce.ErrUnauthorized): // 401: the keys are wrong
	case errors.Is(err, workforce.ErrForbidden): // 403: a Public Pool key may not assign
	case errors.As(err, &apiErr) && apiErr.StatusCode == 422:
		fmt.Println(apiErr.Message, apiErr.FieldErrors) // what the API refused, field by field
	case err != nil:
		return err
	default:
		fmt.Println("assigned", job.ID, job.State)
	}
	return nil
}

// clientTour is the longer tour of docs/client.md.
func clientTour(ctx context.Context, c *workforce.Client, jobID int64) error {
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

	// Cancel a Job: the API says why not with a status.
	_, _, err = c.Jobs.Cancel(ctx, jobID, workforce.CancelDecidedToCancel)
	switch {
	case errors.Is(err, workforce.ErrForbidden): // a Public Pool key may not change Jobs
	case errors.Is(err, workforce.ErrUnprocessable): // the Job is past cancelling
	}

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

var _, _, _, _ = readmeFirstCall, readmeTour, clientTour, readmeWebhooks // compiled, not run: they would reach the network

func TestREADMECodeIsCompiled(t *testing.T) {
	t.Parallel()
	var compiled strings.Builder
	for _, name := range []string{"readme_test.go", filepath.Join("examples", "testing", "booking_test.go"),
		filepath.Join("examples", "feed", "readme_test.go")} {
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		compiled.WriteString(flatten(string(b)))
	}
	for doc, want := range map[string]int{
		"README.md":                        5, // the first call, the tour, the webhook receiver, the test, the feed
		filepath.Join("docs", "client.md"): 1, // the longer tour
	} {
		b, err := os.ReadFile(doc)
		require.NoError(t, err)
		blocks := regexp.MustCompile("(?s)```go\n(.*?)```\n").FindAllStringSubmatch(string(b), -1)
		require.Len(t, blocks, want, doc)
		for _, b := range blocks {
			assert.Contains(t, compiled.String(), flatten(b[1]), "a block of %s that no compiled file holds:\n%s", doc, b[1])
		}
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

// TestREADMEGoVersions checks the Go versions the README states against
// the go lines that set them: the root module's and feed/postgres's for
// importers, feed/sqlite's, and the workspace's for contributors.
func TestREADMEGoVersions(t *testing.T) {
	t.Parallel()
	goLine := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		m := regexp.MustCompile(`(?m)^go (\d+\.\d+)(\.0)?$`).FindStringSubmatch(string(b))
		require.NotNil(t, m, "%s has a go line", name)
		return m[1]
	}
	root := goLine("go.mod")
	require.Equal(t, root, goLine(filepath.Join("feed", "postgres", "go.mod")), "the README gives one version for both")
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	for _, want := range []string{
		"and `feed/postgres` need **Go " + root + "** or newer",
		"`feed/sqlite` needs **Go " + goLine(filepath.Join("feed", "sqlite", "go.mod")) + "**",
		"working in this repository needs **Go " + goLine("go.work") + "**",
	} {
		assert.Contains(t, string(readme), want)
	}
}
