package workforce_test

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // US Pacific time, whatever the machine holds

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// The Requestor services (Customers, Badges, Job Requests, Multi-day Job Requests) driven
// against the fake: every endpoint's success with its decoded values, and its 401, 403, 404
// and 422 where the fake answers them.

// walk collects the ids an iterator yields, failing the test at its first error.
func walk[T any](t *testing.T, seq iter.Seq2[T, error], id func(T) int64) []int64 {
	t.Helper()
	var ids []int64
	for v, err := range seq {
		require.NoError(t, err)
		ids = append(ids, id(v))
	}
	return ids
}

// assertNewestFirst checks that ids are strictly descending, so also free of duplicates.
func assertNewestFirst(t *testing.T, ids []int64) {
	t.Helper()
	seen := map[int64]bool{}
	for i, id := range ids {
		assert.False(t, seen[id], "id %d yielded twice", id)
		seen[id] = true
		if i > 0 {
			assert.Greater(t, ids[i-1], id, "newest first, at %d", i)
		}
	}
}

// listPages answers the per and page parameters of the GET requests to path, in order.
func listPages(srv *workforcetest.Server, path string) (pers, pages []string) {
	for _, r := range srv.Requests() {
		if r.Method == http.MethodGet && r.Path == path {
			pers = append(pers, r.Query.Get("per"))
			pages = append(pages, r.Query.Get("page"))
		}
	}
	return pers, pages
}

// fieldsOf answers the field errors of a 422.
func fieldsOf(t *testing.T, err error) map[string][]string {
	t.Helper()
	require.ErrorIs(t, err, workforce.ErrUnprocessable)
	return fieldErr(t, err)
}

func TestE2ECustomers(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	created, _, err := c.Customers.Create(ctx, &workforce.CustomerParams{
		Name: "Northwind Traders", AccountOwner: "Olga Ruiz", AccountManager: "Sam Hill",
		Address: "1 Harbor Way", City: "Oakland", State: "CA", Zip: "94607", Phone: "+15105550100",
		ContactFirstName: "Nina", ContactLastName: "Park", ContactEmail: "nina@northwind.example",
		BillingFirstName: "Bea", BillingLastName: "Long", BillingEmail: "ap@northwind.example", BillingPhone: "+15105550101",
		FeePercentage: workforce.NewDecimal(0.2), CanPostW2: workforce.Ptr(true), CanPost1099: workforce.Ptr(false),
		CanUsePremierFeatures: workforce.Ptr(true), UseStartAndCompletePIN: workforce.Ptr(true),
		StrategicPilot: workforce.Ptr(true), UsePendingState: workforce.Ptr(true)})
	require.NoError(t, err)
	assert.Positive(t, created.ID)
	assert.Equal(t, "Northwind Traders", created.Name)
	assert.Equal(t, "Olga Ruiz", created.AccountOwner)
	assert.Equal(t, "Sam Hill", created.AccountManager)
	assert.Equal(t, "1 Harbor Way", created.Address)
	assert.Equal(t, "Oakland", created.City)
	assert.Equal(t, "CA", created.State)
	assert.Equal(t, "94607", created.Zip)
	assert.Equal(t, "+15105550100", created.Phone)
	assert.Equal(t, "Nina", created.ContactFirstName)
	assert.Equal(t, "Park", created.ContactLastName)
	assert.Equal(t, "nina@northwind.example", created.ContactEmail)
	assert.Equal(t, "Bea", created.BillingFirstName)
	assert.Equal(t, "Long", created.BillingLastName)
	assert.Equal(t, "ap@northwind.example", created.BillingEmail)
	assert.Equal(t, "+15105550101", created.BillingPhone)
	require.True(t, created.FeePercentage.Valid())
	assert.InDelta(t, 0.2, created.FeePercentage.Float64(), 1e-9)
	assert.True(t, created.CanPostW2)
	assert.False(t, created.CanPost1099)
	assert.True(t, created.CanUsePremierFeatures)
	assert.True(t, created.UseStartAndCompletePIN)
	assert.True(t, created.StrategicPilot)
	assert.True(t, created.UsePendingState)
	assert.True(t, created.CreatedAt.Equal(srv.Now()), "created at the fake's now")
	assert.True(t, created.UpdatedAt.Equal(created.CreatedAt.Time))
	assert.Contains(t, string(created.Raw), `"name":"Northwind Traders"`)

	got, _, err := c.Customers.Get(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, created.ID, got.ID)
	assert.Equal(t, created.Name, got.Name)
	assert.Equal(t, created.BillingEmail, got.BillingEmail)
	assert.Equal(t, created.FeePercentage.String(), got.FeePercentage.String())

	seeded, _, err := c.Customers.Get(ctx, seed.CustomerID)
	require.NoError(t, err)
	assert.Equal(t, "Acme Logistics", seeded.Name)
	assert.True(t, seeded.CanPostW2)
	assert.True(t, seeded.CanPost1099)
	assert.False(t, seeded.UsePendingState)
	assert.Equal(t, "0.15", seeded.FeePercentage.String())
	assert.Empty(t, seeded.AccountOwner, "null decodes to empty")

	srv.Advance(time.Minute)
	updated, _, err := c.Customers.Update(ctx, created.ID, &workforce.CustomerParams{City: "Berkeley",
		FeePercentage: workforce.NewDecimal(0.1), CanPostW2: workforce.Ptr(false)})
	require.NoError(t, err)
	assert.Equal(t, "Berkeley", updated.City)
	assert.InDelta(t, 0.1, updated.FeePercentage.Float64(), 1e-9)
	assert.False(t, updated.CanPostW2)
	assert.Equal(t, "Northwind Traders", updated.Name, "what the update does not set stays")
	assert.True(t, updated.UsePendingState, "Ptr(true) set before stays")
	assert.True(t, updated.UpdatedAt.After(created.UpdatedAt.Time))
	assert.True(t, updated.CreatedAt.Equal(created.CreatedAt.Time))

	page, resp, err := c.Customers.List(ctx, nil)
	require.NoError(t, err)
	require.Len(t, page, 4, "three seeded and one created")
	assert.Equal(t, created.ID, page[0].ID, "newest first")
	assert.Equal(t, "Berkeley", page[0].City)
	assert.Equal(t, seed.CustomerID, page[3].ID)
	assert.Equal(t, 2, resp.NextPage, "Per 0: the server's page size is unknown, so only an empty page is the last")

	for name, want := range map[string]bool{"Northwind Traders": true, "NORTHWIND traders": true, "acme logistics": true,
		"Northwind": false, "Nobody Inc": false} {
		exists, _, err := c.Customers.Exists(ctx, name)
		require.NoError(t, err, name)
		assert.Equal(t, want, exists, name)
	}

	// 422: names are unique per company, in any case; a name over 255 characters.
	_, _, err = c.Customers.Create(ctx, &workforce.CustomerParams{Name: "ACME LOGISTICS"})
	assert.Contains(t, fieldsOf(t, err), "name")
	_, _, err = c.Customers.Update(ctx, created.ID, &workforce.CustomerParams{Name: "acme logistics"})
	assert.Contains(t, fieldsOf(t, err), "name")
	_, _, err = c.Customers.Create(ctx, &workforce.CustomerParams{Name: strings.Repeat("n", 256)})
	assert.Contains(t, fieldsOf(t, err), "name")
	renamed, _, err := c.Customers.Update(ctx, created.ID, &workforce.CustomerParams{Name: "NORTHWIND TRADERS"})
	require.NoError(t, err, "a Customer may change the case of its own name")
	assert.Equal(t, "NORTHWIND TRADERS", renamed.Name)

	// 404
	_, _, err = c.Customers.Get(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.Customers.Update(ctx, 99999, &workforce.CustomerParams{City: "Nowhere"})
	assert.ErrorIs(t, err, workforce.ErrNotFound)

	// 401
	bad := tokenOnly(t, srv)
	_, _, err = bad.Customers.List(ctx, nil)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.Customers.Get(ctx, seed.CustomerID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.Customers.Create(ctx, &workforce.CustomerParams{Name: "Unauthorized Co"})
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.Customers.Update(ctx, seed.CustomerID, &workforce.CustomerParams{City: "Nowhere"})
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.Customers.Exists(ctx, "Acme Logistics")
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	exists, _, err := c.Customers.Exists(ctx, "Unauthorized Co")
	require.NoError(t, err)
	assert.False(t, exists, "a refused create made nothing")
}

func TestE2ECustomersPublicPool(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()
	pub, err := srv.PublicClient()
	require.NoError(t, err)

	// CONTRACT §7 forbids the Public Pool Job, Job Request and User writes, not Customers.
	created, _, err := pub.Customers.Create(ctx, &workforce.CustomerParams{Name: "Public Partner"})
	require.NoError(t, err)
	updated, _, err := pub.Customers.Update(ctx, created.ID, &workforce.CustomerParams{City: "Reno"})
	require.NoError(t, err)
	assert.Equal(t, "Reno", updated.City)
	got, _, err := c.Customers.Get(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, "Public Partner", got.Name)
	seeded, _, err := pub.Customers.Get(ctx, seed.CustomerID)
	require.NoError(t, err)
	assert.Equal(t, "Acme Logistics", seeded.Name)
}

func TestE2ECustomersAll(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()

	const n = 57
	created := make([]int64, n)
	for i := range n {
		cu, _, err := c.Customers.Create(ctx, &workforce.CustomerParams{Name: fmt.Sprintf("Customer %02d", i)})
		require.NoError(t, err)
		created[i] = cu.ID
	}
	ids := walk(t, c.Customers.All(ctx, nil), func(cu *workforce.Customer) int64 { return cu.ID })
	require.Len(t, ids, n+3, "every created Customer and the three seeded")
	assertNewestFirst(t, ids)
	assert.Equal(t, created[n-1], ids[0])
	for _, id := range created {
		assert.Contains(t, ids, id)
	}
	pers, pages := listPages(srv, "/api_v2/customers")
	assert.Equal(t, []string{"50", "50"}, pers, "two pages of 50")
	assert.Equal(t, []string{"1", "2"}, pages)

	from2 := walk(t, c.Customers.All(ctx, &workforce.ListOptions{Page: 2, Per: 10}), func(cu *workforce.Customer) int64 { return cu.ID })
	assert.Equal(t, ids[50:], from2, "from page 2 on, in pages of 50 whatever Per says")
}

func TestE2ETimesheetImport(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	started, err := srv.Accept(seed.JobRequest1099ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	require.NoError(t, srv.StartJob(started))
	filled, err := srv.Accept(seed.JobRequest1099ID, seed.WorkerIDs[2])
	require.NoError(t, err)

	csv := fmt.Sprintf("name,job_id,actual_duration\nBen,%d,95\nChloe,%d,60\nNobody,99999,30\nBen,%d,-5\nBen,%d,1.5\n",
		started, filled, started, started)
	out, _, err := c.Customers.ImportTimesheet(ctx, strings.NewReader(csv))
	require.NoError(t, err)
	assert.Equal(t, 1, out.Imported)
	require.Len(t, out.Rejected, 4)
	assert.Equal(t, []int{2, 3, 4, 5}, []int{out.Rejected[0].Row, out.Rejected[1].Row, out.Rejected[2].Row, out.Rejected[3].Row})
	for _, r := range out.Rejected {
		assert.NotEmpty(t, r.Error, "row %d says why", r.Row)
	}
	assert.Contains(t, out.Rejected[0].Error, "filled")
	assert.Contains(t, out.Rejected[1].Error, "99999")
	assert.Contains(t, string(out.Raw), `"imported":1`)

	job, _, err := c.Jobs.Get(ctx, started)
	require.NoError(t, err)
	assert.Equal(t, "95", job.ActualDuration.String(), "the applied row")
	job, _, err = c.Jobs.Get(ctx, filled)
	require.NoError(t, err)
	assert.False(t, job.ActualDuration.Valid(), "a rejected row changes nothing")

	// 422: not CSV, or without the two columns.
	_, _, err = c.Customers.ImportTimesheet(ctx, strings.NewReader("\x00\x01\x02 not a csv"))
	assert.Contains(t, fieldsOf(t, err), "file")
	_, _, err = c.Customers.ImportTimesheet(ctx, strings.NewReader("job_id,minutes\n1,2\n"))
	assert.Contains(t, fieldsOf(t, err), "file")
	_, _, err = c.Customers.ImportTimesheet(ctx, strings.NewReader(""))
	assert.Contains(t, fieldsOf(t, err), "file")

	// 401
	_, _, err = tokenOnly(t, srv).Customers.ImportTimesheet(ctx, strings.NewReader(csv))
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
}

func TestE2EBadges(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	created, _, err := c.Badges.Create(ctx, &workforce.BadgeParams{Name: "Food Handler", Description: "Holds a food handler card.",
		InfoURL: "https://badges.example.com/food", RemoteIconURL: "https://badges.example.com/food.png", IsSoft: workforce.Ptr(true)})
	require.NoError(t, err)
	assert.Positive(t, created.ID)
	assert.Equal(t, "Food Handler", created.Name)
	assert.Equal(t, "Holds a food handler card.", created.Description)
	assert.Equal(t, "https://badges.example.com/food", created.InfoURL)
	assert.Equal(t, "https://badges.example.com/food.png", created.IconURL, "remote_icon_url becomes icon_url")
	assert.True(t, created.IsSoft)
	assert.True(t, created.CreatedAt.Equal(srv.Now()))
	assert.True(t, created.UpdatedAt.Equal(created.CreatedAt.Time))

	got, _, err := c.Badges.Get(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, created.Name, got.Name)
	assert.Equal(t, created.IconURL, got.IconURL)
	seeded, _, err := c.Badges.Get(ctx, seed.BadgeID)
	require.NoError(t, err)
	assert.Equal(t, "Forklift Certified", seeded.Name)
	assert.Equal(t, "https://badges.example.com/forklift", seeded.InfoURL)
	assert.Empty(t, seeded.IconURL, "null decodes to empty")
	assert.False(t, seeded.IsSoft)

	srv.Advance(time.Minute)
	updated, _, err := c.Badges.Update(ctx, created.ID, &workforce.BadgeParams{Description: "Holds a current food handler card.",
		IsSoft: workforce.Ptr(false)})
	require.NoError(t, err)
	assert.Equal(t, "Holds a current food handler card.", updated.Description)
	assert.False(t, updated.IsSoft, "Ptr(false) is sent")
	assert.Equal(t, "Food Handler", updated.Name)
	assert.True(t, updated.UpdatedAt.After(created.UpdatedAt.Time))

	page, _, err := c.Badges.List(ctx, nil)
	require.NoError(t, err)
	require.Len(t, page, 2)
	assert.Equal(t, []int64{created.ID, seed.BadgeID}, []int64{page[0].ID, page[1].ID}, "newest first")
	page, _, err = c.Badges.List(ctx, &workforce.BadgeListOptions{Query: "forklift"})
	require.NoError(t, err)
	require.Len(t, page, 1, "query selects by name, in any case")
	assert.Equal(t, seed.BadgeID, page[0].ID)
	page, _, err = c.Badges.List(ctx, &workforce.BadgeListOptions{Query: "no such badge"})
	require.NoError(t, err)
	assert.Empty(t, page)

	// 422: a name over 255 characters; deleting a Badge a Job Request requires.
	_, _, err = c.Badges.Create(ctx, &workforce.BadgeParams{Name: strings.Repeat("b", 256), Description: "Too long."})
	assert.Contains(t, fieldsOf(t, err), "name")
	_, _, err = c.Badges.Update(ctx, created.ID, &workforce.BadgeParams{InfoURL: "https://example.com/" + strings.Repeat("u", 2048)})
	assert.Contains(t, fieldsOf(t, err), "info_url")
	_, _, err = c.Badges.Delete(ctx, seed.BadgeID)
	assert.Contains(t, fieldsOf(t, err), "badge")
	_, _, err = c.Badges.Get(ctx, seed.BadgeID)
	require.NoError(t, err, "a refused delete leaves the Badge")

	// Delete answers the Badge as it was; the Workers holding it lose it.
	require.NoError(t, srv.GrantBadge(seed.WorkerIDs[0], created.ID))
	deleted, _, err := c.Badges.Delete(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, created.ID, deleted.ID)
	assert.Equal(t, "Food Handler", deleted.Name)
	assert.Equal(t, "Holds a current food handler card.", deleted.Description)
	worker, _, err := c.Users.Get(ctx, seed.WorkerIDs[0])
	require.NoError(t, err)
	for _, b := range worker.UserBadges {
		assert.NotEqual(t, created.ID, b.BadgeID)
	}

	// 404
	_, _, err = c.Badges.Get(ctx, created.ID)
	assert.ErrorIs(t, err, workforce.ErrNotFound, "deleted")
	_, _, err = c.Badges.Delete(ctx, created.ID)
	assert.ErrorIs(t, err, workforce.ErrNotFound, "deleted already")
	_, _, err = c.Badges.Update(ctx, 99999, &workforce.BadgeParams{Name: "Ghost"})
	assert.ErrorIs(t, err, workforce.ErrNotFound)

	// 401
	bad := tokenOnly(t, srv)
	_, _, err = bad.Badges.List(ctx, nil)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.Badges.Get(ctx, seed.BadgeID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.Badges.Create(ctx, &workforce.BadgeParams{Name: "X", Description: "Y"})
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.Badges.Update(ctx, seed.BadgeID, &workforce.BadgeParams{Name: "X"})
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.Badges.Delete(ctx, seed.BadgeID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	still, _, err := c.Badges.Get(ctx, seed.BadgeID)
	require.NoError(t, err)
	assert.Equal(t, "Forklift Certified", still.Name, "refused calls changed nothing")
}

func TestE2EBadgesAll(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()

	const n = 55
	created := make([]int64, n)
	for i := range n {
		b, _, err := c.Badges.Create(ctx, &workforce.BadgeParams{Name: fmt.Sprintf("Skill %02d", i), Description: "A skill."})
		require.NoError(t, err)
		created[i] = b.ID
	}
	ids := walk(t, c.Badges.All(ctx, nil), func(b *workforce.Badge) int64 { return b.ID })
	require.Len(t, ids, n+1, "every created Badge and the seeded one")
	assertNewestFirst(t, ids)
	assert.Equal(t, created[n-1], ids[0])
	pers, _ := listPages(srv, "/api_v2/badges")
	assert.Equal(t, []string{"50", "50"}, pers)

	skills := walk(t, c.Badges.All(ctx, &workforce.BadgeListOptions{Query: "SKILL"}), func(b *workforce.Badge) int64 { return b.ID })
	require.Len(t, skills, n, "the query holds on every page")
	assertNewestFirst(t, skills)
	queried := 0
	for _, r := range srv.Requests() {
		if r.Method == http.MethodGet && r.Path == "/api_v2/badges" && r.Query.Get("query") == "SKILL" {
			queried++
		}
	}
	assert.Equal(t, 2, queried, "both pages carry the query")
}

// fakeZone is the zone the fake reads wall-clock start times in and writes them with: US
// Pacific time, from the time zone database the test carries.
var fakeZone = func() *time.Location {
	loc, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		panic(err)
	}
	return loc
}()

// startIn answers a wall-clock start time d after the fake's now, on the minute.
func startIn(srv *workforcetest.Server, d time.Duration) workforce.WallClock {
	return workforce.WallClockOf(srv.Now().In(fakeZone).Add(d))
}

// postable answers the fields a Job Request needs to be created, posted, for the seeded Customer.
func postable(srv *workforcetest.Server, name string, slots int) *workforce.JobRequestParams {
	return &workforce.JobRequestParams{RequestName: name, Zip: "90021", City: "Los Angeles", Address: "1200 E 7th St",
		Slots: slots, Category: "Warehouse", DescriptionTasks: "Pick and pack.", State: workforce.JobRequestPosted,
		StartTime: startIn(srv, 72*time.Hour), Duration: 240, Wage: workforce.NewDecimal(18)}
}

func jobRequestID(jr *workforce.JobRequest) int64 { return jr.ID }

func TestE2EJobRequests(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	start := startIn(srv, 72*time.Hour)
	created, _, err := c.JobRequests.Create(ctx, &workforce.JobRequestParams{
		RequestName: "Night Shift Pickers", Zip: "90021", City: "Los Angeles", Address: "1200 E 7th St", Venue: "DC 4",
		Slots: 3, Category: "Warehouse", Description: "Order picking for the holidays.", DescriptionTasks: "Pick|Pack",
		DescriptionCompany: "A regional distributor.", DescriptionTravel: "Parking on site.",
		DescriptionSkills: workforce.Skills{"Scanning", "Lifting"}, DescriptionContact: "Ask for Rosa.",
		DescriptionArrival: "Gate 2.", State: workforce.JobRequestPosted, StartTime: start, Duration: 480,
		EmployerID: seed.EmployerID, Wage: workforce.NewDecimal(19.5), Classification: workforce.Classification1099,
		OpenRequest: workforce.Ptr(true), PreferredCandidateIDs: []int64{seed.WorkerIDs[0]}, BanList: []int64{seed.WorkerIDs[3]},
		BadgeRequirements: []workforce.BadgeRequirement{{BadgeID: seed.BadgeID}}, NotificationDistance: workforce.NewDecimal(25),
		PushAllNotificationsASAP: workforce.SwitchOn, AgentCode: "AG-42", OrganizationalPath: "west/la",
		UsePendingState: workforce.Ptr(false)})
	require.NoError(t, err)
	assert.Positive(t, created.ID)
	assert.Equal(t, workforce.JobRequestPosted, created.State)
	assert.Equal(t, "Night Shift Pickers", created.RequestName)
	assert.Equal(t, seed.CustomerID, created.CustomerID, "the Employer's Customer")
	assert.Equal(t, seed.EmployerID, created.EmployerID)
	assert.Equal(t, "90021", created.Zip)
	assert.Equal(t, "Los Angeles", created.City)
	assert.Equal(t, "1200 E 7th St", created.Address)
	assert.Equal(t, "DC 4", created.Venue)
	assert.Equal(t, 3, created.Slots)
	assert.Zero(t, created.FilledSlots)
	assert.Equal(t, "Warehouse", created.Category)
	assert.Equal(t, "Order picking for the holidays.", created.Description)
	assert.Equal(t, "Pick|Pack", created.DescriptionTasks)
	assert.Equal(t, "A regional distributor.", created.DescriptionCompany)
	assert.Equal(t, "Parking on site.", created.DescriptionTravel)
	assert.Equal(t, workforce.Skills{"Scanning", "Lifting"}, created.DescriptionSkills)
	assert.Equal(t, "Ask for Rosa.", created.DescriptionContact)
	assert.Equal(t, "Gate 2.", created.DescriptionArrival)
	assert.True(t, created.StartTime.Equal(start.In(fakeZone)), "start time %v, sent %v", created.StartTime, start)
	assert.Equal(t, "480", created.Duration.String())
	assert.InDelta(t, 19.5, created.Wage.Float64(), 1e-9)
	assert.Equal(t, workforce.Classification1099, created.Classification)
	assert.False(t, created.W2HourlyRate.Valid())
	assert.True(t, created.OpenRequest)
	assert.False(t, created.MultiDay)
	assert.Zero(t, created.MultiDayJobRequestID)
	assert.Equal(t, "AG-42", created.AgentCode)
	assert.Equal(t, "west/la", created.OrganizationalPath)
	assert.False(t, created.UsePendingState)
	assert.Equal(t, "25", created.NotificationDistance.String())
	assert.Equal(t, workforce.IDs{seed.WorkerIDs[0]}, created.PreferredCandidateIDs)
	assert.Equal(t, workforce.IDs{seed.WorkerIDs[3]}, created.BanList)
	require.Len(t, created.BadgeRequirements, 1)
	assert.Equal(t, seed.BadgeID, created.BadgeRequirements[0].BadgeID)
	assert.Equal(t, created.ID, created.BadgeRequirements[0].JobRequestID)
	assert.True(t, created.CreatedAt.Equal(srv.Now()))
	assert.True(t, created.UpdatedAt.Equal(created.CreatedAt.Time))

	got, _, err := c.JobRequests.Get(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, created.ID, got.ID)
	assert.Equal(t, created.RequestName, got.RequestName)
	assert.True(t, got.StartTime.Equal(created.StartTime.Time))
	seeded, _, err := c.JobRequests.Get(ctx, seed.JobRequestW2ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.ClassificationW2, seeded.Classification)
	assert.Equal(t, "22.75", seeded.W2HourlyRate.String())
	assert.False(t, seeded.Wage.Valid(), "no wage")
	assert.Equal(t, 10, seeded.Slots)

	w2, _, err := c.JobRequests.Create(ctx, &workforce.JobRequestParams{RequestName: "Banquet Captain", Zip: "90015",
		City: "Los Angeles", Address: "800 W Olympic Blvd", Slots: 1, Category: "Hospitality", Description: "Lead the floor.",
		State: workforce.JobRequestDraft, Classification: workforce.ClassificationW2, W2HourlyRate: workforce.NewDecimal(27.25)})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestDraft, w2.State)
	assert.Equal(t, workforce.ClassificationW2, w2.Classification)
	assert.InDelta(t, 27.25, w2.W2HourlyRate.Float64(), 1e-9)
	assert.Equal(t, seed.EmployerID, w2.EmployerID, "the key's Employer by default")
	assert.True(t, w2.StartTime.IsZero(), "no start time")

	srv.Advance(time.Minute)
	updated, _, err := c.JobRequests.Update(ctx, created.ID, &workforce.JobRequestParams{Slots: 4, Venue: "DC 5",
		Wage: workforce.NewDecimal(21), BanList: []int64{seed.WorkerIDs[3], seed.WorkerIDs[4]}, OpenRequest: workforce.Ptr(false)})
	require.NoError(t, err)
	assert.Equal(t, 4, updated.Slots)
	assert.Equal(t, "DC 5", updated.Venue)
	assert.InDelta(t, 21, updated.Wage.Float64(), 1e-9)
	assert.Equal(t, workforce.IDs{seed.WorkerIDs[3], seed.WorkerIDs[4]}, updated.BanList)
	assert.False(t, updated.OpenRequest, "Ptr(false) is sent")
	assert.Equal(t, "Night Shift Pickers", updated.RequestName, "what the update does not set stays")
	assert.Equal(t, "AG-42", updated.AgentCode)
	assert.True(t, updated.UpdatedAt.After(created.UpdatedAt.Time))
	posted, _, err := c.JobRequests.Update(ctx, w2.ID, &workforce.JobRequestParams{State: workforce.JobRequestPosted})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestPosted, posted.State, "draft to posted")

	list, _, err := c.JobRequests.List(ctx, nil)
	require.NoError(t, err)
	require.Len(t, list, 10, "eight seeded and two created")
	assert.Equal(t, []int64{w2.ID, created.ID}, []int64{list[0].ID, list[1].ID}, "newest first")
	for name, tc := range map[string]struct {
		opts *workforce.JobRequestListOptions
		want []int64
	}{
		"agent code":   {&workforce.JobRequestListOptions{AgentCode: "AG-42"}, []int64{created.ID}},
		"customer":     {&workforce.JobRequestListOptions{CompanyID: seed.PendingCustomerID}, []int64{seed.PendingJobRequestID}},
		"draft":        {&workforce.JobRequestListOptions{State: workforce.JobRequestDraft}, []int64{seed.DraftJobRequestID}},
		"multi-day":    {&workforce.JobRequestListOptions{MultiDayJobRequestID: seed.MultiDayJobRequestID}, []int64{seed.MultiDayDayIDs[1], seed.MultiDayDayIDs[0]}},
		"w2 rate":      {&workforce.JobRequestListOptions{Classification: workforce.ClassificationW2, W2HourlyRate: workforce.NewDecimal(27.25)}, []int64{w2.ID}},
		"updated":      {&workforce.JobRequestListOptions{UpdatedAfter: srv.Now().Add(-time.Second)}, []int64{w2.ID, created.ID}},
		"nothing left": {&workforce.JobRequestListOptions{ListOptions: workforce.ListOptions{Page: 2}}, nil},
	} {
		page, _, err := c.JobRequests.List(ctx, tc.opts)
		require.NoError(t, err, name)
		var ids []int64
		for _, jr := range page {
			ids = append(ids, jr.ID)
		}
		assert.Equal(t, tc.want, ids, name)
	}
	noCode := walk(t, c.JobRequests.All(ctx, &workforce.JobRequestListOptions{AgentCode: workforce.AgentCodeNull}), jobRequestID)
	assert.Len(t, noCode, 8, "all but the two with an agent code")
	assert.NotContains(t, noCode, created.ID)
	assert.NotContains(t, noCode, seed.BadgeJobRequestID)

	// 422 where the fake checks what the SDK cannot.
	bad := func(mod func(p *workforce.JobRequestParams)) error {
		p := postable(srv, "Refused", 1)
		mod(p)
		_, _, err := c.JobRequests.Create(ctx, p)
		return err
	}
	assert.Contains(t, fieldsOf(t, bad(func(p *workforce.JobRequestParams) {
		p.BadgeRequirements = []workforce.BadgeRequirement{{BadgeID: 99999}}
	})), "badge_requirements_attributes")
	assert.Contains(t, fieldsOf(t, bad(func(p *workforce.JobRequestParams) { p.EmployerID = 99999 })), "employer_id")
	assert.Contains(t, fieldsOf(t, bad(func(p *workforce.JobRequestParams) { p.EmployerID = seed.WorkerIDs[0] })), "employer_id",
		"a Worker is no Employer")
	assert.Contains(t, fieldsOf(t, bad(func(p *workforce.JobRequestParams) { p.BanList = []int64{seed.EmployerID} })), "ban_list")
	assert.Contains(t, fieldsOf(t, bad(func(p *workforce.JobRequestParams) { p.MultiDayJobRequestID = 99999 })), "multi_day_job_request_id")
	assert.Contains(t, fieldsOf(t, bad(func(p *workforce.JobRequestParams) {
		p.EmployerID, p.Classification, p.W2HourlyRate = seed.PendingEmployerID, workforce.ClassificationW2, workforce.NewDecimal(20)
	})), "classification", "Harbor Events may not post W2")
	_, _, err = c.JobRequests.Update(ctx, created.ID, &workforce.JobRequestParams{State: workforce.JobRequestDraft})
	assert.Contains(t, fieldsOf(t, err), "state", "posted cannot go back to draft")
	_, _, err = c.JobRequests.Update(ctx, created.ID, &workforce.JobRequestParams{PreferredCandidateIDs: []int64{99999}})
	assert.Contains(t, fieldsOf(t, err), "preferred_candidate_ids")
	after, _, err := c.JobRequests.Get(ctx, created.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestPosted, after.State, "refused updates change nothing")
	assert.Equal(t, workforce.IDs{seed.WorkerIDs[0]}, after.PreferredCandidateIDs)
	assert.Len(t, walk(t, c.JobRequests.All(ctx, nil), jobRequestID), 10, "refused creates made nothing")

	// 404
	_, _, err = c.JobRequests.Get(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.JobRequests.Update(ctx, 99999, &workforce.JobRequestParams{Venue: "Nowhere"})
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.JobRequests.Cancel(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.JobRequests.Rankings(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.JobRequests.ResendNotifications(ctx, 99999, workforce.SwitchOn)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.JobRequests.ReRankWorkers(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)

	// 401
	unauth := tokenOnly(t, srv)
	_, _, err = unauth.JobRequests.List(ctx, nil)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	for _, err := range unauth.JobRequests.All(ctx, nil) {
		assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	}
	_, _, err = unauth.JobRequests.Get(ctx, created.ID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = unauth.JobRequests.Create(ctx, postable(srv, "Unauthorized", 1))
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = unauth.JobRequests.Update(ctx, created.ID, &workforce.JobRequestParams{Venue: "Nowhere"})
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = unauth.JobRequests.Cancel(ctx, created.ID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = unauth.JobRequests.Rankings(ctx, created.ID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = unauth.JobRequests.ResendNotifications(ctx, created.ID, workforce.SwitchOff)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = unauth.JobRequests.ReRankWorkers(ctx, created.ID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	state, _ := srv.JobRequestState(created.ID)
	assert.Equal(t, "posted", state, "refused calls changed nothing")
}

func TestE2EJobRequestsPublicPool(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()
	pub, err := srv.PublicClient()
	require.NoError(t, err)

	own := walk(t, pub.JobRequests.All(ctx, nil), jobRequestID)
	assert.Equal(t, []int64{seed.PublicJobRequestID}, own, "a Public Pool key sees only the Job Requests it created")
	jr, _, err := pub.JobRequests.Get(ctx, seed.PublicJobRequestID)
	require.NoError(t, err)
	assert.Equal(t, "Event Setup", jr.RequestName)
	assert.Equal(t, 1, jr.FilledSlots, "the seeded Public Job")
	_, _, err = pub.JobRequests.Get(ctx, seed.JobRequest1099ID)
	assert.ErrorIs(t, err, workforce.ErrNotFound, "a Private Pool Job Request is not the Public key's to see")

	// 403: Job Request writes, rankings and actions (CONTRACT §7).
	_, _, err = pub.JobRequests.Create(ctx, postable(srv, "Public post", 1))
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.JobRequests.Update(ctx, seed.PublicJobRequestID, &workforce.JobRequestParams{Venue: "Hall C"})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.JobRequests.Cancel(ctx, seed.PublicJobRequestID)
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.JobRequests.Rankings(ctx, seed.PublicJobRequestID)
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.JobRequests.ResendNotifications(ctx, seed.PublicJobRequestID, workforce.SwitchOn)
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.JobRequests.ReRankWorkers(ctx, seed.PublicJobRequestID)
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.MultiDayJobRequests.Create(ctx, &workforce.MultiDayJobRequestParams{RepeatType: workforce.RepeatDaily})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	_, _, err = pub.MultiDayJobRequests.Update(ctx, seed.MultiDayJobRequestID, &workforce.MultiDayJobRequestParams{RepeatNumber: 5})
	assert.ErrorIs(t, err, workforce.ErrForbidden)
	series, _, err := pub.MultiDayJobRequests.Get(ctx, seed.MultiDayJobRequestID)
	require.NoError(t, err)
	assert.Empty(t, series.JobRequestIDs, "its days are the Private Pool's")

	after, _, err := c.JobRequests.Get(ctx, seed.PublicJobRequestID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestPosted, after.State)
	assert.Empty(t, after.Venue)
	assert.Len(t, walk(t, c.JobRequests.All(ctx, nil), jobRequestID), 8, "nothing created")
	plan, _, err := c.MultiDayJobRequests.Get(ctx, seed.MultiDayJobRequestID)
	require.NoError(t, err)
	assert.Equal(t, 2, plan.RepeatNumber, "nothing updated")
}

func TestE2EJobRequestsAll(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()

	const n = 53
	created := make([]int64, n)
	for i := range n {
		p := postable(srv, fmt.Sprintf("Shift %02d", i), 1)
		p.AgentCode = "BULK"
		jr, _, err := c.JobRequests.Create(ctx, p)
		require.NoError(t, err)
		created[i] = jr.ID
	}
	ids := walk(t, c.JobRequests.All(ctx, nil), jobRequestID)
	require.Len(t, ids, n+8, "every created Job Request and the eight seeded")
	assertNewestFirst(t, ids)
	assert.Equal(t, created[n-1], ids[0])
	pers, pages := listPages(srv, "/api_v2/job_requests")
	assert.Equal(t, []string{"50", "50"}, pers)
	assert.Equal(t, []string{"1", "2"}, pages)

	bulk := walk(t, c.JobRequests.All(ctx, &workforce.JobRequestListOptions{AgentCode: "BULK"}), jobRequestID)
	require.Len(t, bulk, n)
	assertNewestFirst(t, bulk)
	for i, id := range bulk {
		assert.Equal(t, created[n-1-i], id)
	}
}

func TestE2EJobRequestLifecycle(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	jr, _, err := c.JobRequests.Create(ctx, postable(srv, "Loading Dock", 2))
	require.NoError(t, err)
	require.Equal(t, workforce.JobRequestPosted, jr.State)

	ana, err := srv.Accept(jr.ID, seed.WorkerIDs[0])
	require.NoError(t, err)
	got, _, err := c.JobRequests.Get(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestPosted, got.State, "one slot of two")
	assert.Equal(t, 1, got.FilledSlots)

	ben, err := srv.Accept(jr.ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	got, _, err = c.JobRequests.Get(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestFilled, got.State, "every slot filled")
	assert.Equal(t, 2, got.FilledSlots)

	require.NoError(t, srv.Withdraw(ben))
	got, _, err = c.JobRequests.Get(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestPosted, got.State, "back to posted when a Worker leaves")
	assert.Equal(t, 1, got.FilledSlots)

	chloe, err := srv.Accept(jr.ID, seed.WorkerIDs[2])
	require.NoError(t, err)
	require.NoError(t, srv.StartJob(ana))
	got, _, err = c.JobRequests.Get(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestInProgress, got.State)
	assert.Equal(t, 2, got.FilledSlots)

	srv.Advance(time.Minute)
	cancelled, _, err := c.JobRequests.Cancel(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestCancelled, cancelled.State)
	assert.Zero(t, cancelled.FilledSlots, "its open Jobs are cancelled with it")
	assert.True(t, cancelled.UpdatedAt.After(got.UpdatedAt.Time))
	for id, want := range map[int64]workforce.JobState{ana: workforce.JobCancelled, chloe: workforce.JobCancelled, ben: workforce.JobWithdrawn} {
		job, _, err := c.Jobs.Get(ctx, id)
		require.NoError(t, err)
		assert.Equal(t, want, job.State, "job %d", id)
		if want == workforce.JobCancelled {
			assert.Equal(t, workforce.CancelReason("job_request_cancelled"), job.CancelledReason)
			assert.Equal(t, workforce.JobCancelled, job.Transitions[0].Name)
		}
	}
	cancelledJobs, _, err := c.Jobs.List(ctx, &workforce.JobListOptions{JobRequestID: jr.ID, State: workforce.JobCancelled})
	require.NoError(t, err)
	assert.Len(t, cancelledJobs, 2)

	_, _, err = c.JobRequests.Cancel(ctx, jr.ID)
	assert.Contains(t, fieldsOf(t, err), "state", "cancelled already")
	_, err = srv.Accept(jr.ID, seed.WorkerIDs[4])
	assert.Error(t, err, "a cancelled Job Request takes no Jobs")

	// A completed Job Request is past cancelling.
	done, _, err := c.JobRequests.Create(ctx, postable(srv, "One-off", 1))
	require.NoError(t, err)
	job, err := srv.Accept(done.ID, seed.WorkerIDs[5])
	require.NoError(t, err)
	require.NoError(t, srv.StartJob(job))
	require.NoError(t, srv.Complete(job))
	got, _, err = c.JobRequests.Get(ctx, done.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestCompleted, got.State)
	_, _, err = c.JobRequests.Cancel(ctx, done.ID)
	assert.Contains(t, fieldsOf(t, err), "state", "completed")
	require.NoError(t, srv.Approve(job))
	got, _, err = c.JobRequests.Get(ctx, done.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestApproved, got.State)

	// A draft is cancelled as well.
	draft, _, err := c.JobRequests.Cancel(ctx, seed.DraftJobRequestID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestCancelled, draft.State)
}

func TestE2ERankings(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()
	w := seed.WorkerIDs

	p := postable(srv, "Ranked", 3)
	p.PreferredCandidateIDs = []int64{w[0], w[2]}
	p.BanList = []int64{w[3]}
	jr, _, err := c.JobRequests.Create(ctx, p)
	require.NoError(t, err)

	rankings, _, err := c.JobRequests.Rankings(ctx, jr.ID)
	require.NoError(t, err)
	require.Len(t, rankings, 2, "the preferred candidates")
	assert.Equal(t, 1, rankings[0].Rank)
	assert.Equal(t, w[2], rankings[0].WorkerID, "rating 5.0")
	assert.Equal(t, "1.00", rankings[0].Score.String())
	require.NotNil(t, rankings[0].Worker)
	assert.Equal(t, w[2], rankings[0].Worker.ID)
	assert.Equal(t, "Chloe", rankings[0].Worker.FirstName)
	assert.Contains(t, string(rankings[0].Worker.Raw), `"first_name":"Chloe"`)
	assert.Equal(t, 2, rankings[1].Rank)
	assert.Equal(t, w[0], rankings[1].WorkerID)
	assert.Equal(t, "0.95", rankings[1].Score.String(), "rating 4.5, preferred")

	// A Worker who accepted joins the candidates; the banned one never does.
	_, err = srv.Accept(jr.ID, w[1])
	require.NoError(t, err)
	rankings, _, err = c.JobRequests.Rankings(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, []int64{w[2], w[1], w[0]}, rankedIDs(rankings))

	srv.Advance(time.Minute)
	reranked, _, err := c.JobRequests.ReRankWorkers(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, jr.ID, reranked.ID)
	assert.Equal(t, "Ranked", reranked.RequestName)
	assert.Equal(t, 1, reranked.FilledSlots)
	rankings, _, err = c.JobRequests.Rankings(ctx, jr.ID)
	require.NoError(t, err)
	assert.Equal(t, []int64{w[2], w[1], w[0], w[5], w[4]}, rankedIDs(rankings), "every Worker but the banned one")
	for i, r := range rankings {
		assert.Equal(t, i+1, r.Rank)
	}
	assert.Equal(t, "0.50", rankings[4].Score.String(), "no rating")

	empty, _, err := c.JobRequests.Rankings(ctx, seed.JobRequest1099ID)
	require.NoError(t, err)
	assert.Empty(t, empty, "no candidates yet")
}

func rankedIDs(rankings []*workforce.Ranking) []int64 {
	ids := make([]int64, len(rankings))
	for i, r := range rankings {
		ids[i] = r.WorkerID
	}
	return ids
}

func TestE2EResendNotifications(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	before, _, err := c.JobRequests.Get(ctx, seed.JobRequest1099ID)
	require.NoError(t, err)
	srv.Advance(time.Minute)
	on, _, err := c.JobRequests.ResendNotifications(ctx, seed.JobRequest1099ID, workforce.SwitchOn)
	require.NoError(t, err)
	assert.Equal(t, seed.JobRequest1099ID, on.ID)
	assert.Equal(t, "Warehouse Loader", on.RequestName)
	assert.Equal(t, workforce.JobRequestPosted, on.State)
	assert.True(t, on.UpdatedAt.After(before.UpdatedAt.Time), "the switch changed")

	srv.Advance(time.Minute)
	again, _, err := c.JobRequests.ResendNotifications(ctx, seed.JobRequest1099ID, workforce.SwitchOn)
	require.NoError(t, err)
	assert.True(t, again.UpdatedAt.Equal(on.UpdatedAt.Time), "the switch did not change")
	same, _, err := c.JobRequests.ResendNotifications(ctx, seed.JobRequest1099ID, "")
	require.NoError(t, err)
	assert.True(t, same.UpdatedAt.Equal(on.UpdatedAt.Time), "no setting sent")
	off, _, err := c.JobRequests.ResendNotifications(ctx, seed.JobRequest1099ID, workforce.SwitchOff)
	require.NoError(t, err)
	assert.True(t, off.UpdatedAt.After(on.UpdatedAt.Time))
	assert.Equal(t, 4, countRequests(srv, http.MethodPost, fmt.Sprintf("/api_v2/job_requests/%d/resend_notifications", seed.JobRequest1099ID)))
}

func TestE2EMultiDayJobRequests(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	seeded, _, err := c.MultiDayJobRequests.Get(ctx, seed.MultiDayJobRequestID)
	require.NoError(t, err)
	assert.Equal(t, seed.MultiDayJobRequestID, seeded.ID)
	assert.Equal(t, workforce.RepeatDaily, seeded.RepeatType)
	assert.True(t, seeded.SameWorkers)
	assert.Equal(t, 2, seeded.RepeatNumber)
	assert.Equal(t, seed.MultiDayDayIDs, seeded.JobRequestIDs, "its days, oldest first")
	assert.False(t, seeded.CreatedAt.IsZero())

	series, _, err := c.MultiDayJobRequests.Create(ctx, &workforce.MultiDayJobRequestParams{RepeatType: workforce.RepeatWeekly,
		SameWorkers: workforce.Ptr(false), RepeatNumber: 3})
	require.NoError(t, err)
	assert.Positive(t, series.ID)
	assert.Equal(t, workforce.RepeatWeekly, series.RepeatType)
	assert.False(t, series.SameWorkers)
	assert.Equal(t, 3, series.RepeatNumber)
	assert.Empty(t, series.JobRequestIDs, "no days yet")
	assert.True(t, series.CreatedAt.Equal(srv.Now()))

	var days []int64
	for i := range 2 {
		p := postable(srv, fmt.Sprintf("Trade Show, week %d", i+1), 2)
		p.StartTime = startIn(srv, time.Duration(72+i*7*24)*time.Hour)
		p.MultiDay, p.MultiDayJobRequestID = workforce.Ptr(true), series.ID
		day, _, err := c.JobRequests.Create(ctx, p)
		require.NoError(t, err)
		assert.True(t, day.MultiDay)
		assert.Equal(t, series.ID, day.MultiDayJobRequestID)
		days = append(days, day.ID)
	}
	got, _, err := c.MultiDayJobRequests.Get(ctx, series.ID)
	require.NoError(t, err)
	assert.Equal(t, days, got.JobRequestIDs, "oldest first")
	listed := walk(t, c.JobRequests.All(ctx, &workforce.JobRequestListOptions{MultiDayJobRequestID: series.ID}), jobRequestID)
	assert.Equal(t, []int64{days[1], days[0]}, listed, "as Job Requests, newest first")

	srv.Advance(time.Minute)
	updated, _, err := c.MultiDayJobRequests.Update(ctx, series.ID, &workforce.MultiDayJobRequestParams{RepeatNumber: 4,
		SameWorkers: workforce.Ptr(true)})
	require.NoError(t, err)
	assert.Equal(t, 4, updated.RepeatNumber)
	assert.True(t, updated.SameWorkers)
	assert.Equal(t, workforce.RepeatWeekly, updated.RepeatType, "what the update does not set stays")
	assert.Equal(t, days, updated.JobRequestIDs)
	assert.True(t, updated.UpdatedAt.After(series.UpdatedAt.Time))
	daily, _, err := c.MultiDayJobRequests.Update(ctx, series.ID, &workforce.MultiDayJobRequestParams{RepeatType: workforce.RepeatDaily})
	require.NoError(t, err)
	assert.Equal(t, workforce.RepeatDaily, daily.RepeatType)
	assert.Equal(t, 4, daily.RepeatNumber)

	// 404
	_, _, err = c.MultiDayJobRequests.Get(ctx, 99999)
	assert.ErrorIs(t, err, workforce.ErrNotFound)
	_, _, err = c.MultiDayJobRequests.Update(ctx, 99999, &workforce.MultiDayJobRequestParams{RepeatNumber: 2})
	assert.ErrorIs(t, err, workforce.ErrNotFound)

	// 401
	bad := tokenOnly(t, srv)
	_, _, err = bad.MultiDayJobRequests.Get(ctx, series.ID)
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.MultiDayJobRequests.Create(ctx, &workforce.MultiDayJobRequestParams{RepeatType: workforce.RepeatDaily})
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	_, _, err = bad.MultiDayJobRequests.Update(ctx, series.ID, &workforce.MultiDayJobRequestParams{RepeatNumber: 9})
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
	got, _, err = c.MultiDayJobRequests.Get(ctx, series.ID)
	require.NoError(t, err)
	assert.Equal(t, 4, got.RepeatNumber, "refused calls changed nothing")
}

func TestE2EJobRequestSlotsAndCutoff(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()

	open, _, err := c.JobRequests.Create(ctx, postable(srv, "Open slot", 2))
	require.NoError(t, err)
	full, _, err := c.JobRequests.Create(ctx, postable(srv, "Full", 2))
	require.NoError(t, err)
	_, err = srv.Accept(open.ID, seed.WorkerIDs[0])
	require.NoError(t, err)
	for _, w := range seed.WorkerIDs[1:3] {
		_, err = srv.Accept(full.ID, w)
		require.NoError(t, err)
	}

	// Changing the slots moves the Job Request as its Jobs do.
	jr, _, err := c.JobRequests.Update(ctx, open.ID, &workforce.JobRequestParams{Slots: 1})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestFilled, jr.State, "its one Job now fills every slot")
	jr, _, err = c.JobRequests.Update(ctx, open.ID, &workforce.JobRequestParams{Slots: 2})
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestPosted, jr.State, "a slot open again")

	// At the start time a Job Request with an open slot is unfilled; a full one stays filled.
	srv.Advance(73 * time.Hour)
	jr, _, err = c.JobRequests.Get(ctx, open.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestUnfilled, jr.State)
	jr, _, err = c.JobRequests.Get(ctx, full.ID)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobRequestFilled, jr.State)
	unfilled := walk(t, c.JobRequests.All(ctx, &workforce.JobRequestListOptions{State: workforce.JobRequestUnfilled}), jobRequestID)
	assert.Contains(t, unfilled, open.ID)
	assert.NotContains(t, unfilled, full.ID)

	jr, _, err = c.JobRequests.Cancel(ctx, open.ID)
	require.NoError(t, err, "an unfilled Job Request may still be cancelled")
	assert.Equal(t, workforce.JobRequestCancelled, jr.State)
}

func TestE2ETimesheetImportPublicPool(t *testing.T) {
	t.Parallel()
	srv, c := fake(t)
	ctx := context.Background()
	seed := srv.Seed()
	pub, err := srv.PublicClient()
	require.NoError(t, err)

	private, err := srv.Accept(seed.JobRequest1099ID, seed.WorkerIDs[1])
	require.NoError(t, err)
	require.NoError(t, srv.StartJob(private))
	require.NoError(t, srv.StartJob(seed.PublicJobID))

	out, _, err := pub.Customers.ImportTimesheet(ctx, strings.NewReader(fmt.Sprintf("job_id,actual_duration\n%d,30\n%d,45\n", private, seed.PublicJobID)))
	require.NoError(t, err)
	assert.Equal(t, 1, out.Imported, "its own Job")
	require.Len(t, out.Rejected, 1)
	assert.Equal(t, 1, out.Rejected[0].Row, "a Job that is not the key's")

	job, _, err := pub.Jobs.Get(ctx, seed.PublicJobID)
	require.NoError(t, err)
	assert.Equal(t, "45", job.ActualDuration.String())
	job, _, err = c.Jobs.Get(ctx, private)
	require.NoError(t, err)
	assert.False(t, job.ActualDuration.Valid(), "the rejected row changed nothing")
}
