// Command staffing plays a Requestor's day against the in-memory fake API:
// it creates a Customer, one of its Employers and a Badge, posts a Job
// Request that requires the Badge, invites a Worker, finds them with Search,
// gives them the Badge, assigns them, messages them, lets the Worker start
// and complete the Job, sets its actual duration through a timesheet import,
// approves it, and prints each step with its IDs and states.
//
//	go run ./examples/staffing
//
// It needs no environment and no network: the fake runs in-process, and its
// Worker's moves (starting, completing) and the Requestor's approval, which
// happen outside the API, are the fake's methods. It exits 1 on the first
// failure.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "staffing:", err)
		os.Exit(1)
	}
}

// run plays the day against a fake of its own, writing each step to out.
func run(ctx context.Context, out io.Writer) error {
	srv, err := workforcetest.Start()
	if err != nil {
		return fmt.Errorf("starting the fake API: %w", err)
	}
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Using the in-memory fake API at %s.\n", srv.URL)
	d := day{c: c, srv: srv, out: out}
	return d.play(ctx)
}

// day is the Requestor's day: the client it works with, the fake that plays
// everyone else, and where it reports.
type day struct {
	c   *workforce.Client
	srv *workforcetest.Server
	out io.Writer
}

// step reports one step done.
func (d *day) step(format string, args ...any) { fmt.Fprintf(d.out, "- "+format+"\n", args...) }

func (d *day) play(ctx context.Context) error {
	customer, _, err := d.c.Customers.Create(ctx, &workforce.CustomerParams{
		Name: "Riverside Warehousing", City: "Chicago", State: "IL", CanPost1099: workforce.Ptr(true),
	})
	if err != nil {
		return fmt.Errorf("creating the Customer: %w", err)
	}
	d.step("Customer %d %q created.", customer.ID, customer.Name)

	employer, _, err := d.c.Users.Create(ctx, &workforce.UserCreate{
		Type: workforce.UserEmployer, FirstName: "Dana", LastName: "Ruiz", Email: "dana.ruiz@riverside.example",
		CustomerID: customer.ID, Title: "Shift Lead",
	})
	if err != nil {
		return fmt.Errorf("creating the Employer: %w", err)
	}
	d.step("Employer %d %s %s works for Customer %d.", employer.ID, employer.FirstName, employer.LastName, employer.CustomerID)

	badge, _, err := d.c.Badges.Create(ctx, &workforce.BadgeParams{
		Name: "Cold Storage Trained", Description: "Works safely at -20 °C.",
	})
	if err != nil {
		return fmt.Errorf("creating the Badge: %w", err)
	}
	d.step("Badge %d %q created.", badge.ID, badge.Name)

	start := d.srv.Now().Add(48 * time.Hour).Truncate(time.Hour)
	jr, _, err := d.c.JobRequests.Create(ctx, &workforce.JobRequestParams{
		RequestName: "Cold Storage Picker", Zip: "60607", City: "Chicago", Address: "1200 W Fulton St",
		Slots: 1, Description: "Pick orders in the freezer aisle.", Category: "Warehouse",
		State: workforce.JobRequestPosted, StartTime: workforce.WallClockOf(start), Duration: 480,
		EmployerID: employer.ID, Wage: workforce.NewDecimal(21.5),
		BadgeRequirements: []workforce.BadgeRequirement{{BadgeID: badge.ID}},
	})
	if err != nil {
		return fmt.Errorf("posting the Job Request: %w", err)
	}
	d.step("Job Request %d %q posted for Customer %d: %s, starting %s.", jr.ID, jr.RequestName, jr.CustomerID, jr.State, jr.StartTime.Format(time.RFC3339))

	worker, _, err := d.c.Users.Invite(ctx, &workforce.UserInvite{
		Type: workforce.UserWorker, Phone: "+13125550142", FirstName: "Quinn", LastName: "Avery", Email: "quinn.avery@example.com",
	})
	if err != nil {
		return fmt.Errorf("inviting the Worker: %w", err)
	}
	d.step("Worker %d %s %s invited: onboarding %q.", worker.ID, worker.FirstName, worker.LastName, worker.OnboardingLastState)

	found, _, err := d.c.Search.Query(ctx, "quinn avery")
	if err != nil {
		return fmt.Errorf("searching for the Worker: %w", err)
	}
	if len(found.Users) != 1 || found.Users[0].ID != worker.ID {
		return fmt.Errorf("searching for %q: want Worker %d, found %d Users", "quinn avery", worker.ID, len(found.Users))
	}
	d.step("Search %q found Worker %d.", "quinn avery", found.Users[0].ID)

	_, _, err = d.c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: worker.ID, JobRequestID: jr.ID})
	if !errors.Is(err, workforce.ErrUnprocessable) {
		return fmt.Errorf("assigning a Worker without the Badge: want a 422, got %v", err)
	}
	d.step("Assigning them before they hold the Badge is refused: %v", err)

	if _, _, err = d.c.Users.Update(ctx, worker.ID, &workforce.UserUpdate{
		UserBadgesAttributes: []workforce.UserBadgeAttributes{{BadgeID: badge.ID}},
	}); err != nil {
		return fmt.Errorf("giving the Worker the Badge: %w", err)
	}
	d.step("Worker %d now holds Badge %d.", worker.ID, badge.ID)

	job, _, err := d.c.Jobs.Assign(ctx, &workforce.JobCreate{
		WorkerID: worker.ID, JobRequestID: jr.ID, RequestorNotes: "Thermal gear is at the east door.",
	})
	if err != nil {
		return fmt.Errorf("assigning the Worker: %w", err)
	}
	if jr, _, err = d.c.JobRequests.Get(ctx, jr.ID); err != nil {
		return fmt.Errorf("reading the Job Request: %w", err)
	}
	d.step("Job %d assigned to Worker %d: %s; Job Request %d is %s.", job.ID, job.WorkerID, job.State, jr.ID, jr.State)

	msg, _, err := d.c.Messages.Create(ctx, &workforce.MessageCreate{
		Body: "Welcome aboard! Ask for Dana at the east door.", JobID: job.ID, SenderID: employer.ID, ReceiverID: worker.ID,
	})
	if err != nil {
		return fmt.Errorf("messaging the Worker: %w", err)
	}
	d.step("Message %d sent from %d to %d about Job %d.", msg.ID, msg.SenderID, msg.ReceiverID, msg.JobID)

	// The Worker's app checks in and out: moves made outside the API.
	d.srv.SetTime(jr.StartTime.Time)
	if err := d.srv.StartJobAt(job.ID, workforcetest.Position{Latitude: 41.8868, Longitude: -87.6571}); err != nil {
		return err
	}
	d.srv.Advance(8 * time.Hour)
	if err := d.srv.CompleteJobAt(job.ID, workforcetest.Position{Latitude: 41.8869, Longitude: -87.6570}); err != nil {
		return err
	}
	points, _, err := d.c.Users.Tracking(ctx, worker.ID)
	if err != nil {
		return fmt.Errorf("reading the Worker's check-ins: %w", err)
	}
	for i := len(points) - 1; i >= 0; i-- { // oldest first
		p := points[i]
		d.step("Worker %d checked in on Job %d at %s,%s at %s.", worker.ID, p.JobID, p.Latitude, p.Longitude,
			p.RecordedAt.In(jr.StartTime.Location()).Format(time.Kitchen))
	}

	result, _, err := d.c.Customers.ImportTimesheet(ctx, strings.NewReader(fmt.Sprintf("job_id,actual_duration\n%d,465\n", job.ID)))
	if err != nil {
		return fmt.Errorf("importing the timesheet: %w", err)
	}
	if result.Imported != 1 || len(result.Rejected) != 0 {
		return fmt.Errorf("importing the timesheet: %d imported, rejected %+v", result.Imported, result.Rejected)
	}
	d.step("Timesheet imported: %d row applied.", result.Imported)

	// The Requestor approves on the dashboard: a move made outside the API.
	if err := d.srv.ApproveJob(job.ID); err != nil {
		return err
	}
	if job, _, err = d.c.Jobs.Get(ctx, job.ID); err != nil {
		return fmt.Errorf("reading the Job: %w", err)
	}
	if jr, _, err = d.c.JobRequests.Get(ctx, jr.ID); err != nil {
		return fmt.Errorf("reading the Job Request: %w", err)
	}
	if job.State != workforce.JobApproved || job.ActualDuration.String() != "465" {
		return fmt.Errorf("job %d ended %s with an actual duration of %q; want approved, 465", job.ID, job.State, job.ActualDuration)
	}
	d.step("Job %d is %s: %s hours worked, actual duration %s minutes; Job Request %d is %s.",
		job.ID, job.State, job.HoursWorked, job.ActualDuration, jr.ID, jr.State)
	fmt.Fprintf(d.out, "The day is done: %d states, from %s to %s.\n", len(job.Transitions),
		job.Transitions[len(job.Transitions)-1].Name, job.Transitions[0].Name)
	return nil
}
