package contract_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/internal/contract"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// TestEveryEndpointKeepsTheContract drives every operation of the OpenAPI document through the
// SDK against the fake, behind the contract's validator: every request the SDK sends and every
// answer the fake gives validate, each of the 40 operations answers at least once, and every
// webhook the fake delivers validates too.
func TestEveryEndpointKeepsTheContract(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	rec := contract.Guard(t)
	hooks := &webhookLog{}
	receiver := httptest.NewServer(hooks)
	t.Cleanup(receiver.Close)
	var noQueryToken sync.Map // the API requests without a token in their query string
	tokenCheck := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("token") == "" && r.URL.Path != "/api_v2/authenticate" && r.URL.Path != "/api_v2/info" {
				noQueryToken.Store(r.Method+" "+r.URL.Path, true)
			}
			next.ServeHTTP(w, r)
		})
	}
	srv := workforcetest.NewServer(t, workforcetest.WithMiddleware(rec.Middleware),
		workforcetest.WithMiddleware(tokenCheck), workforcetest.WithWebhookReceiver(receiver.URL))
	c, err := srv.Client(workforce.WithRetry(0, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	seed := srv.Seed()
	step := func(name string, err error) {
		t.Helper()
		require.NoError(t, err, name)
	}
	discard := func(_ any, _ *workforce.Response, err error) error { return err }

	_, _, err = c.Authentication.Authenticate(ctx)
	step("authenticate", err)
	step("info", discard(c.Info.Get(ctx)))

	customer, _, err := c.Customers.Create(ctx, &workforce.CustomerParams{Name: "Contract Co", City: "Fresno",
		FeePercentage: workforce.NewDecimal(0.2), CanPost1099: workforce.Ptr(true)})
	step("create customer", err)
	step("list customers", discard(c.Customers.List(ctx, nil)))
	step("get customer", discard(c.Customers.Get(ctx, customer.ID)))
	step("update customer", discard(c.Customers.Update(ctx, customer.ID, &workforce.CustomerParams{Phone: "+15595550100"})))
	step("customer exists", discard(c.Customers.Exists(ctx, "Contract Co")))
	step("replace customer", raw(c, t, http.MethodPut, fmt.Sprintf("customers/%d", customer.ID),
		map[string]any{"customer": map[string]any{"name": "Contract Co", "zip": "93701"}}))

	employer, _, err := c.Users.Create(ctx, &workforce.UserCreate{Type: workforce.UserEmployer,
		FirstName: "Rae", LastName: "Kim", Email: "rae.kim@contract.example", CustomerID: seed.CustomerID})
	step("create user", err)
	step("invite user", discard(c.Users.Invite(ctx, &workforce.UserInvite{Type: workforce.UserWorker,
		Phone: "+13125550142", FirstName: "Quinn", LastName: "Avery"})))
	step("list users", discard(c.Users.List(ctx, &workforce.UserListOptions{Type: workforce.UserWorker})))
	step("get user", discard(c.Users.Get(ctx, seed.WorkerIDs[1])))
	step("update user", discard(c.Users.Update(ctx, employer.ID, &workforce.UserUpdate{Title: "Manager"})))
	step("replace user", raw(c, t, http.MethodPut, fmt.Sprintf("users/%d", employer.ID),
		map[string]any{"user": map[string]any{"title": "Director"}}))

	badge, _, err := c.Badges.Create(ctx, &workforce.BadgeParams{Name: "Forklift", Description: "Certified"})
	step("create badge", err)
	step("list badges", discard(c.Badges.List(ctx, nil)))
	step("get badge", discard(c.Badges.Get(ctx, badge.ID)))
	step("update badge", discard(c.Badges.Update(ctx, badge.ID, &workforce.BadgeParams{InfoURL: "https://example.com/forklift"})))
	step("delete badge", discard(c.Badges.Delete(ctx, badge.ID)))

	jr, _, err := c.JobRequests.Create(ctx, &workforce.JobRequestParams{
		EmployerID: employer.ID, RequestName: "Event setup", Category: "Events", State: workforce.JobRequestPosted,
		Address: "300 E Ocean Blvd", City: "Long Beach", Zip: "90802", Slots: 4,
		DescriptionTasks: "Set up chairs", DescriptionSkills: workforce.Skills{"lifting", "english"},
		StartTime: workforce.WallClockOf(srv.Now().AddDate(0, 0, 3)), Duration: 240,
		Wage: workforce.NewDecimal(19), PreferredCandidateIDs: []int64{seed.WorkerIDs[2]},
		PushAllNotificationsASAP: workforce.SwitchOn,
	})
	step("create job request", err)
	step("list job requests", discard(c.JobRequests.List(ctx, nil)))
	step("get job request", discard(c.JobRequests.Get(ctx, jr.ID)))
	step("update job request", discard(c.JobRequests.Update(ctx, jr.ID, &workforce.JobRequestParams{Venue: "Hall B"})))
	step("rankings", discard(c.JobRequests.Rankings(ctx, jr.ID)))
	step("resend notifications", discard(c.JobRequests.ResendNotifications(ctx, jr.ID, workforce.SwitchOff)))
	step("re-rank workers", discard(c.JobRequests.ReRankWorkers(ctx, jr.ID)))

	series, _, err := c.MultiDayJobRequests.Create(ctx, &workforce.MultiDayJobRequestParams{RepeatType: workforce.RepeatDaily})
	step("create multi-day job request", err)
	step("get multi-day job request", discard(c.MultiDayJobRequests.Get(ctx, series.ID)))
	step("update multi-day job request", discard(c.MultiDayJobRequests.Update(ctx, series.ID,
		&workforce.MultiDayJobRequestParams{RepeatType: workforce.RepeatWeekly})))

	job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: jr.ID, RequestorNotes: "Welcome"})
	step("create job", err)
	assigned, _, err := c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[2], JobRequestID: jr.ID})
	step("assign job", err)
	step("list jobs", discard(c.Jobs.List(ctx, &workforce.JobListOptions{JobRequestID: jr.ID})))
	step("get job", discard(c.Jobs.Get(ctx, job.ID)))
	step("message", discard(c.Messages.Create(ctx, &workforce.MessageCreate{Body: "On my way", JobID: job.ID,
		SenderID: seed.WorkerIDs[1], ReceiverID: employer.ID})))
	messages, _, err := c.Messages.List(ctx, &workforce.MessageListOptions{JobID: job.ID})
	step("list messages", err)
	require.NotEmpty(t, messages)
	step("get message", discard(c.Messages.Get(ctx, messages[0].ID)))

	step("start", srv.StartJobAt(job.ID, workforcetest.Position{Latitude: 34.05, Longitude: -118.25}))
	step("tracking", discard(c.Users.Tracking(ctx, seed.WorkerIDs[1])))
	csv := fmt.Sprintf("job_id,actual_duration\n%d,95\n99999,30\n", job.ID)
	step("import timesheet", discard(c.Customers.ImportTimesheet(ctx, strings.NewReader(csv))))
	step("cancel job", discard(c.Jobs.Cancel(ctx, assigned.ID, workforce.CancelDecidedToCancel)))
	step("search", discard(c.Search.Query(ctx, "a")))

	var want []string
	for _, op := range rec.Operations() {
		want = append(want, op.ID)
	}
	assert.Len(t, want, 40, "the operations of CONTRACT.md §6 with /authenticate, the PUT variants included")
	assert.ElementsMatch(t, want, rec.Answered(), "every operation answered through the SDK")

	noQueryToken.Range(func(k, _ any) bool {
		t.Errorf("the SDK sent %s without a token in the query string", k)
		return true
	})
	step("webhooks delivered", srv.WaitWebhooks(ctx))
	cc, err := contract.Load()
	require.NoError(t, err)
	deliveries := hooks.all()
	require.NotEmpty(t, deliveries)
	for _, d := range deliveries {
		if err := cc.CheckWebhook(d.header, d.body); err != nil {
			t.Errorf("a webhook breaks the OpenAPI document: %s", strings.Join(contract.Describe(err), "; "))
		}
	}
}

// raw sends a request through the client's raw path, for the PUT variants the SDK has no
// method of.
func raw(c *workforce.Client, t *testing.T, method, path string, body any) error {
	_, err := c.Do(t.Context(), &workforce.RawRequest{Method: method, Path: path, Body: body}, nil)
	return err
}

// webhookLog is a webhook receiver that keeps every delivery.
type webhookLog struct {
	mu         sync.Mutex
	deliveries []delivery
}

// delivery is one webhook delivery.
type delivery struct {
	header http.Header
	body   []byte
}

// ServeHTTP keeps the delivery and answers 200.
func (l *webhookLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	l.mu.Lock()
	l.deliveries = append(l.deliveries, delivery{header: r.Header.Clone(), body: body})
	l.mu.Unlock()
}

// all returns the deliveries so far.
func (l *webhookLog) all() []delivery {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]delivery(nil), l.deliveries...)
}
