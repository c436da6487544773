package workforce_test

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"testing"
	"time"

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
	assert.NotContains(t, string(worker.UserBadges), fmt.Sprintf(`"badge_id":%d`, created.ID))

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
