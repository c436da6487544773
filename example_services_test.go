package workforce_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/url"
	"strings"
	"time"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func ExampleAuthenticationService_Authenticate() {
	srv, c := startFake()
	defer srv.Close()

	tok, _, err := c.Authentication.Authenticate(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tok.ExpiresAt.Sub(srv.Now()))
	fmt.Println(strings.Contains(fmt.Sprint(tok), tok.Value)) // a Token prints its value as [REDACTED]
	// Output:
	// 24h0m0s
	// false
}

func ExampleInfoService_Get() {
	srv, c := startFake()
	defer srv.Close()

	info, _, err := c.Info.Get(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Environment, info.UTCTimeNow.Equal(srv.Now()))
	// Output: test true
}

func ExampleJobRequestsService_Create() {
	srv, c := startFake()
	defer srv.Close()
	ctx := context.Background()

	jr, _, err := c.JobRequests.Create(ctx, &workforce.JobRequestParams{
		RequestName: "Forklift driver", Category: "Warehouse", State: workforce.JobRequestPosted,
		Address: "1 Main St", City: "Los Angeles", Zip: "90012", Slots: 2,
		DescriptionTasks:  "Move pallets to the loading dock",
		DescriptionSkills: workforce.Skills{"forklift", "english"},
		StartTime:         workforce.WallClockOf(srv.Now().AddDate(0, 0, 7)),
		Duration:          480,
		Wage:              workforce.NewDecimal(18.50),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(jr.State, jr.Slots, jr.Wage, jr.DescriptionSkills)

	jr, _, err = c.JobRequests.Cancel(ctx, jr.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(jr.State)
	// Output:
	// posted 2 18.5 [forklift english]
	// cancelled
}

// A Job Request belongs to the Customer of the Employer it is posted for:
// to post for a given Customer, find one of its Employers (or make one with
// Users.Create) and name it in EmployerID.
func ExampleJobRequestsService_Create_forACustomer() {
	srv, c := startFake()
	defer srv.Close()
	ctx := context.Background()
	customerID := srv.Seed().PendingCustomerID // Harbor Events

	var employer *workforce.User
	for u, err := range c.Users.All(ctx, &workforce.UserListOptions{Type: workforce.UserEmployer}) {
		if err != nil {
			log.Fatal(err)
		}
		if u.CustomerID == customerID {
			employer = u
			break
		}
	}
	if employer == nil { // none yet: make one
		u, _, err := c.Users.Create(ctx, &workforce.UserCreate{Type: workforce.UserEmployer,
			FirstName: "Rae", LastName: "Kim", Email: "rae.kim@harbor.example", CustomerID: customerID})
		if err != nil {
			log.Fatal(err)
		}
		employer = u
	}

	jr, _, err := c.JobRequests.Create(ctx, &workforce.JobRequestParams{
		EmployerID:  employer.ID,
		RequestName: "Event setup", Category: "Events", State: workforce.JobRequestPosted,
		Address: "300 E Ocean Blvd", City: "Long Beach", Zip: "90802", Slots: 4,
		DescriptionTasks: "Set up chairs and tables",
		StartTime:        workforce.WallClockOf(srv.Now().AddDate(0, 0, 3)),
		Duration:         240,
		Wage:             workforce.NewDecimal(19),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(employer.FirstName, jr.EmployerID == employer.ID, jr.CustomerID == customerID)
	// Output: Marcus true true
}

func ExampleJobRequestsService_Rankings() {
	srv, c := startFake()
	defer srv.Close()
	seed := srv.Seed()

	rankings, _, err := c.JobRequests.Rankings(context.Background(), seed.PublicJobRequestID)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rankings {
		fmt.Println(r.Rank, r.WorkerID == seed.WorkerIDs[0], r.Score)
	}
	// Output: 1 true 0.90
}

func ExampleMultiDayJobRequestsService_Get() {
	srv, c := startFake()
	defer srv.Close()
	seed := srv.Seed()

	series, _, err := c.MultiDayJobRequests.Get(context.Background(), seed.MultiDayJobRequestID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(series.RepeatType, series.RepeatNumber, len(series.JobRequestIDs))
	// Output: daily 2 2
}

func ExampleBadgesService_Create() {
	srv, c := startFake()
	defer srv.Close()
	ctx := context.Background()

	badge, _, err := c.Badges.Create(ctx, &workforce.BadgeParams{Name: "Food Handler", Description: "Holds a food handler card."})
	if err != nil {
		log.Fatal(err)
	}
	for b, err := range c.Badges.All(ctx, &workforce.BadgeListOptions{Query: "food"}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(b.ID == badge.ID, b.Name)
	}
	// Output: true Food Handler
}

func ExampleCustomersService_Exists() {
	srv, c := startFake()
	defer srv.Close()

	exists, _, err := c.Customers.Exists(context.Background(), "ACME logistics")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(exists) // names compare without regard to case
	// Output: true
}

func ExampleCustomersService_ImportTimesheet() {
	srv, c := startFake()
	defer srv.Close()
	seed := srv.Seed()
	ctx := context.Background()
	if err := srv.StartJob(seed.PublicJobID); err != nil {
		log.Fatal(err)
	}

	csv := fmt.Sprintf("job_id,actual_duration\n%d,95\n99999,30\n", seed.PublicJobID)
	result, _, err := c.Customers.ImportTimesheet(ctx, strings.NewReader(csv))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(result.Imported, "imported")
	for _, r := range result.Rejected {
		fmt.Println("row", r.Row, r.Error)
	}
	// Output:
	// 1 imported
	// row 2 job 99999 not found
}

func ExampleUsersService_Invite() {
	srv, c := startFake()
	defer srv.Close()

	u, _, err := c.Users.Invite(context.Background(), &workforce.UserInvite{
		Type: workforce.UserWorker, Phone: "+13125550142", FirstName: "Quinn", LastName: "Avery",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(u.Type, u.FirstName, u.OnboardingLastState)
	// Output: Worker Quinn invited
}

func ExampleUsersService_Create() {
	srv, c := startFake()
	defer srv.Close()

	_, _, err := c.Users.Create(context.Background(), &workforce.UserCreate{
		Type: workforce.UserWorker, FirstName: "Ada", LastName: "O'Hara", Email: "ada@example.com",
	})
	fmt.Println(errors.Is(err, workforce.ErrInvalidArgument)) // refused before anything is sent
	fmt.Println(err)
	// Output:
	// true
	// workforce: LastName may hold letters, digits, - and . only, not '\''
}

func ExampleUsersService_Tracking() {
	srv, c := startFake()
	defer srv.Close()
	seed := srv.Seed()
	if err := srv.StartJobAt(seed.PublicJobID, workforcetest.Position{Latitude: 34.05, Longitude: -118.25}); err != nil {
		log.Fatal(err)
	}

	points, _, err := c.Users.Tracking(context.Background(), seed.WorkerIDs[0])
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range points {
		fmt.Println(p.JobID == seed.PublicJobID, p.Latitude, p.Longitude)
	}
	// Output: true 34.05 -118.25
}

func ExampleMessagesService_Create() {
	srv, c := startFake()
	defer srv.Close()
	seed := srv.Seed()

	m, _, err := c.Messages.Create(context.Background(), &workforce.MessageCreate{
		Body: "Gate B at 7, please.", JobID: seed.PublicJobID, SenderID: seed.EmployerID, ReceiverID: seed.WorkerIDs[0],
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Body, m.ReadAt.IsZero())
	// Output: Gate B at 7, please. true
}

func ExampleSearchService_Query() {
	srv, c := startFake()
	defer srv.Close()

	found, _, err := c.Search.Query(context.Background(), "forklift")
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range found.Badges {
		fmt.Println("badge:", b.Name)
	}
	for _, jr := range found.JobRequests {
		fmt.Println("job request:", jr.RequestName)
	}
	fmt.Println(len(found.Users), "users,", len(found.Customers), "customers")
	// Output:
	// badge: Forklift Certified
	// job request: Forklift Operator
	// 0 users, 0 customers
}

func ExampleJobsService_Sync() {
	srv, c := startFake()
	defer srv.Close()
	seed := srv.Seed()
	ctx := context.Background()

	var watermark time.Time // zero: everything
	n := 0
	for _, err := range c.Jobs.Sync(ctx, &watermark, nil) {
		if err != nil {
			log.Fatal(err)
		}
		n++
	}
	fmt.Println(n, "Job(s) at first")

	srv.Advance(time.Minute)
	if err := srv.StartJob(seed.PublicJobID); err != nil {
		log.Fatal(err)
	}
	srv.Advance(time.Minute)
	for job, err := range c.Jobs.Sync(ctx, &watermark, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("changed:", job.ID == seed.PublicJobID, job.State)
	}
	// Output:
	// 1 Job(s) at first
	// changed: true in_progress
}

func ExampleClient_Do() {
	srv, c := startFake()
	defer srv.Close()

	// An endpoint or parameter the SDK does not model, through the same
	// request path: token, retries, typed errors, redaction.
	var out struct {
		Jobs []struct {
			ID    int64  `json:"id"`
			State string `json:"state"`
		} `json:"jobs"`
	}
	_, err := c.Do(context.Background(), &workforce.RawRequest{
		Method: "GET", Path: "jobs", Query: url.Values{"state": {"filled"}, "per": {"5"}},
	}, &out)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(out.Jobs), out.Jobs[0].State)
	// Output: 1 filled
}

func ExampleJobsService_Settle() {
	srv, c := startFake()
	defer srv.Close()
	seed := srv.Seed()
	ctx := context.Background()
	// The fake makes the Job, then drops the connection: the outcome is unknown.
	srv.InjectFault(workforcetest.Fault{Method: "POST", Path: "/api_v2/jobs/assign", DropAfter: true})

	create := &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID}
	job, _, err := c.Jobs.Assign(ctx, create)
	fmt.Println("unknown:", errors.Is(err, workforce.ErrOutcomeUnknown))
	if errors.Is(err, workforce.ErrOutcomeUnknown) {
		job, err = c.Jobs.Settle(ctx, create, err)
		if errors.Is(err, workforce.ErrNotFound) {
			job, _, err = c.Jobs.Assign(ctx, create) // it was not done: do it now
		}
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(job.State, job.WorkerID == seed.WorkerIDs[0])
	// Output:
	// unknown: true
	// filled true
}
