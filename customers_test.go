package workforce_test

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

const customerJSON = `{"id": 4, "name": "ACME", "account_owner": "Ann", "account_manager": "Bob",
  "address": "1 Main St", "city": "Los Angeles", "state": "CA", "zip": "90012", "phone": "555-0100",
  "contact_first_name": "Cy", "contact_last_name": "Dee", "contact_email": "cy@acme.test",
  "billing_first_name": "Eve", "billing_last_name": "Fox", "billing_email": "billing@acme.test",
  "billing_phone": "555-0101", "fee_percentage": "0.15", "can_post_w2": true, "can_post_1099": false,
  "can_use_premier_features": true, "use_start_and_complete_pin": true, "strategic_pilot": false,
  "use_pending_state": true, "created_at": "2026-11-20T10:00:00Z", "updated_at": "2026-11-21T10:00:00Z",
  "region": "west"}`

func TestCustomersGetDecodes(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/customers/4", httpmock.NewStringResponder(200, `{"customer": `+customerJSON+`}`))
	cu, _, err := c.Customers.Get(context.Background(), 4)
	require.NoError(t, err)
	assert.Equal(t, workforce.Customer{
		ID: 4, Name: "ACME", AccountOwner: "Ann", AccountManager: "Bob", Address: "1 Main St", City: "Los Angeles",
		State: "CA", Zip: "90012", Phone: "555-0100", ContactFirstName: "Cy", ContactLastName: "Dee",
		ContactEmail: "cy@acme.test", BillingFirstName: "Eve", BillingLastName: "Fox", BillingEmail: "billing@acme.test",
		BillingPhone: "555-0101", FeePercentage: cu.FeePercentage, CanPostW2: true, CanUsePremierFeatures: true,
		UseStartAndCompletePIN: true, UsePendingState: true, CreatedAt: cu.CreatedAt, UpdatedAt: cu.UpdatedAt, Raw: cu.Raw,
	}, *cu)
	assert.Equal(t, "0.15", cu.FeePercentage.String())
	assert.Equal(t, 21, cu.UpdatedAt.Day())
	assertKept(t, cu.Raw, "region", `"west"`)

	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/customers/5",
		httpmock.NewStringResponder(200, `{"id": 5, "fee_percentage": 0.2}`))
	cu, _, err = c.Customers.Get(context.Background(), 5)
	require.NoError(t, err)
	assert.Equal(t, 0.2, cu.FeePercentage.Float64(), "a number too")
}

func TestCustomersListCreateUpdateSendAndDecode(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	var list, create, update capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/customers", list.respond(200, `{"customers": [`+customerJSON+`]}`))
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/customers", create.respond(200, `{"customer": `+customerJSON+`}`))
	m.RegisterResponder(http.MethodPatch, mockBase+"/api_v2/customers/4", update.respond(200, `{"customer": `+customerJSON+`}`))

	found, _, err := c.Customers.List(ctx, &workforce.ListOptions{Page: 2, Per: 20})
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.Equal(t, "ACME", found[0].Name)
	assert.Equal(t, map[string][]string{"page": {"2"}, "per": {"20"}, "token": {testToken}}, map[string][]string(list.req.URL.Query()))

	_, _, err = c.Customers.Create(ctx, &workforce.CustomerParams{
		Name: "ACME", AccountOwner: "Ann", AccountManager: "Bob", Address: "1 Main St", City: "Los Angeles", State: "CA",
		Zip: "90012", Phone: "555-0100", ContactFirstName: "Cy", ContactLastName: "Dee", ContactEmail: "cy@acme.test",
		BillingFirstName: "Eve", BillingLastName: "Fox", BillingEmail: "billing@acme.test", BillingPhone: "555-0101",
		FeePercentage: workforce.NewDecimal(0.15), CanPostW2: workforce.Ptr(true), CanPost1099: workforce.Ptr(false),
		CanUsePremierFeatures: workforce.Ptr(true), UseStartAndCompletePIN: workforce.Ptr(false),
		StrategicPilot: workforce.Ptr(true), UsePendingState: workforce.Ptr(false),
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"customer": map[string]any{
		"name": "ACME", "account_owner": "Ann", "account_manager": "Bob", "address": "1 Main St", "city": "Los Angeles",
		"state": "CA", "zip": "90012", "phone": "555-0100", "contact_first_name": "Cy", "contact_last_name": "Dee",
		"contact_email": "cy@acme.test", "billing_first_name": "Eve", "billing_last_name": "Fox",
		"billing_email": "billing@acme.test", "billing_phone": "555-0101", "fee_percentage": 0.15,
		"can_post_w2": true, "can_post_1099": false, "can_use_premier_features": true,
		"use_start_and_complete_pin": false, "strategic_pilot": true, "use_pending_state": false,
	}}, create.jsonBody(t))

	_, _, err = c.Customers.Update(ctx, 4, &workforce.CustomerParams{FeePercentage: workforce.NewDecimal(0)})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"customer": map[string]any{"fee_percentage": float64(0)}}, update.jsonBody(t), "a zero fee is a value")
}

func TestCustomersExists(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/customers/exists", got.respond(200, `{"exists": true}`))
	ok, _, err := c.Customers.Exists(context.Background(), "Acme & Sons")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, map[string][]string{"name": {"Acme & Sons"}, "token": {testToken}}, map[string][]string(got.req.URL.Query()))

	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/customers/exists", httpmock.NewStringResponder(200, `{"exists": false}`))
	ok, _, err = c.Customers.Exists(context.Background(), "Nobody")
	require.NoError(t, err)
	assert.False(t, ok)
}

func TestCustomersRoundTripThroughTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
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
	assert.Zero(t, resp.NextPage, "Per 0 sends per=50: a page of four is the last")

	for name, want := range map[string]bool{"Northwind Traders": true, "NORTHWIND traders": true, "acme logistics": true,
		"Northwind": false, "Nobody Inc": false} {
		exists, _, err := c.Customers.Exists(ctx, name)
		require.NoError(t, err, name)
		assert.Equal(t, want, exists, name)
	}

	// 422: names are unique per company, in any case; a name over 255 characters.
	_, _, err = c.Customers.Create(ctx, &workforce.CustomerParams{Name: "ACME LOGISTICS"})
	assert.Contains(t, fieldErrors(t, err), "name")
	_, _, err = c.Customers.Update(ctx, created.ID, &workforce.CustomerParams{Name: "acme logistics"})
	assert.Contains(t, fieldErrors(t, err), "name")
	_, _, err = c.Customers.Create(ctx, &workforce.CustomerParams{Name: strings.Repeat("n", 256)})
	assert.Contains(t, fieldErrors(t, err), "name")
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

func TestCustomersOfAPublicPoolKeyAreItsOwn(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
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

func TestCustomersAllWalksTheFakesPages(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
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

// TestCustomersRefusedBeforeIO checks every argument rule of Customers: each is refused with an
// *ArgumentError naming the field, and nothing is sent.
func TestCustomersRefusedBeforeIO(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	long := func(n int) string { return strings.Repeat("é", n) }
	createCustomer := func(p *workforce.CustomerParams) func() error {
		return func() error { _, _, err := c.Customers.Create(ctx, p); return err }
	}
	updateCustomer := func(p *workforce.CustomerParams) func() error {
		return func() error { _, _, err := c.Customers.Update(ctx, 5, p); return err }
	}
	assertRefused(t, m, []refusal{
		{"customers per over 50", "Per", func() error {
			_, _, err := c.Customers.List(ctx, &workforce.ListOptions{Per: 51})
			return err
		}},
		{"customer get id 0", "id", func() error { _, _, err := c.Customers.Get(ctx, 0); return err }},
		{"customer create nil", "CustomerParams", createCustomer(nil)},
		{"customer create without name", "Name", createCustomer(&workforce.CustomerParams{City: "LA"})},
		{"customer create blank name", "Name", createCustomer(&workforce.CustomerParams{Name: "  "})},
		{"customer billing first name", "BillingFirstName", createCustomer(&workforce.CustomerParams{Name: "A", BillingFirstName: long(51)})},
		{"customer billing last name", "BillingLastName", updateCustomer(&workforce.CustomerParams{BillingLastName: long(51)})},
		{"customer billing phone", "BillingPhone", updateCustomer(&workforce.CustomerParams{BillingPhone: long(51)})},
		{"customer billing email", "BillingEmail", updateCustomer(&workforce.CustomerParams{BillingEmail: long(256)})},
		{"customer fee over 1", "FeePercentage", updateCustomer(&workforce.CustomerParams{FeePercentage: workforce.NewDecimal(1.5)})},
		{"customer fee negative", "FeePercentage", updateCustomer(&workforce.CustomerParams{FeePercentage: workforce.NewDecimal(-0.1)})},
		{"customer fee NaN", "FeePercentage", updateCustomer(&workforce.CustomerParams{FeePercentage: workforce.NewDecimal(math.NaN())})},
		{"customer update nothing", "CustomerParams", updateCustomer(&workforce.CustomerParams{})},
		{"customer update nil", "CustomerParams", updateCustomer(nil)},
		{"customer update id -1", "id", func() error {
			_, _, err := c.Customers.Update(ctx, -1, &workforce.CustomerParams{Name: "A"})
			return err
		}},
		{"customer exists empty", "name", func() error { _, _, err := c.Customers.Exists(ctx, ""); return err }},
		{"customer exists blank", "name", func() error { _, _, err := c.Customers.Exists(ctx, " \t"); return err }},
		{"timesheet nil reader", "r", func() error { _, _, err := c.Customers.ImportTimesheet(ctx, nil); return err }},
	})
}

// TestCustomersAllWalksEveryPage checks that All walks every Customer, a page of 50 at a time.
func TestCustomersAllWalksEveryPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, m := newMock(t, workforce.WithPageWindow(1)) // pages asked one by one, in order
	asked := servePages(t, m, "customers", 50, 50, 3)
	ids := walk(t, c.Customers.All(ctx, nil), func(v *workforce.Customer) int64 { return v.ID })
	assertNewestFirst(t, ids)
	assert.Len(t, ids, 103)
	assert.Equal(t, []string{"1/50", "2/50", "3/50"}, *asked)
}
