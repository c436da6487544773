package workforce_test

import (
	"context"
	"fmt"

	"github.com/workforce-marketplace/workforce-go"
)

// jobGetter is what staffingReport needs of the SDK: the caller's interface, as docs/testing.md
// recommends, satisfied by &c.Jobs.
type jobGetter interface {
	Get(ctx context.Context, id int64) (*workforce.Job, *workforce.Response, error)
}

// The SDK's service satisfies the caller's interface; the compiler checks it here.
var _ jobGetter = &(&workforce.Client{}).Jobs

// staffingReport is code under test: it takes the interface, not the client.
func staffingReport(ctx context.Context, jobs jobGetter, id int64) (string, error) {
	job, _, err := jobs.Get(ctx, id)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("job %d is %s", job.ID, job.State), nil
}

// stubJobs answers every Get with one Job, as a test's stub.
type stubJobs struct{ job workforce.Job }

// Get answers the stub's Job under id.
func (s stubJobs) Get(_ context.Context, id int64) (*workforce.Job, *workforce.Response, error) {
	job := s.job
	job.ID = id
	return &job, &workforce.Response{}, nil
}

// Code that takes an interface of its own instead of the client is tested with a stub; the
// client's &c.Jobs satisfies the same interface in production.
func Example_mocking() {
	ctx := context.Background()
	report, err := staffingReport(ctx, stubJobs{job: workforce.Job{State: workforce.JobFilled}}, 42)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(report)

	c, err := workforce.New("pk_test_made_up", "sk_test_made_up",
		workforce.WithBaseURL("https://workforce.example.com")) // makes no network call
	if err != nil {
		fmt.Println(err)
		return
	}
	var jobs jobGetter = &c.Jobs // what production passes
	fmt.Printf("%T\n", jobs)
	// Output:
	// job 42 is filled
	// *workforce.JobsService
}
