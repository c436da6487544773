package workforce_test

import (
	"context"
	"net/http"
	"testing"

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

func TestCustomersListCreateUpdate(t *testing.T) {
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
