package workforce_test

import (
	"context"
	"fmt"
	"iter"
	"math"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// servePages registers GET /api_v2/<path> answering sizes[i] records under
// path for page i+1 and an empty page past the end. It records each page
// asked for as "page/per", followed by "?" and the other parameters but
// the token, if any.
func servePages(t *testing.T, m *mockAPI, path string, sizes ...int) *[]string {
	t.Helper()
	asked := &[]string{}
	var mu sync.Mutex
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/"+path, func(req *http.Request) (*http.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		q := req.URL.Query()
		var page int
		_, err := fmt.Sscan(q.Get("page"), &page)
		require.NoError(t, err)
		seen := q.Get("page") + "/" + q.Get("per")
		for _, name := range []string{"page", "per", "token"} {
			q.Del(name)
		}
		if len(q) > 0 {
			seen += "?" + q.Encode()
		}
		*asked = append(*asked, seen)
		n := 0
		if page <= len(sizes) {
			n = sizes[page-1]
		}
		items := make([]string, n)
		for i := range items {
			items[i] = fmt.Sprintf(`{"id": %d, "state": "filled"}`, 100000-page*100-i)
		}
		return httpmock.NewStringResponse(200, `{"`+path+`": [`+strings.Join(items, ",")+`]}`), nil
	})
	return asked
}

// count ranges over seq and answers how many records it yielded, failing
// on an error or an ID that does not descend.
func count[T any](t *testing.T, seq iter.Seq2[T, error], id func(T) int64) int {
	t.Helper()
	n, last := 0, int64(math.MaxInt64)
	for v, err := range seq {
		require.NoError(t, err)
		require.Less(t, id(v), last)
		last = id(v)
		n++
	}
	return n
}

func TestRequestorListsIterateOverPages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("customers", func(t *testing.T) {
		t.Parallel()
		c, m := newMock(t, workforce.WithPageWindow(1)) // pages asked one by one, in order
		asked := servePages(t, m, "customers", 50, 50, 3)
		n := count(t, c.Customers.All(ctx, nil), func(v *workforce.Customer) int64 { return v.ID })
		assert.Equal(t, 103, n)
		assert.Equal(t, []string{"1/50", "2/50", "3/50"}, *asked)
	})
	t.Run("badges", func(t *testing.T) {
		t.Parallel()
		c, m := newMock(t, workforce.WithPageWindow(1)) // pages asked one by one, in order
		asked := servePages(t, m, "badges", 50, 50)
		opts := &workforce.BadgeListOptions{Query: "fork", ListOptions: workforce.ListOptions{Per: 5}}
		n := count(t, c.Badges.All(ctx, opts), func(v *workforce.Badge) int64 { return v.ID })
		assert.Equal(t, 100, n)
		assert.Equal(t, []string{"1/50?query=fork", "2/50?query=fork", "3/50?query=fork"}, *asked)
		assert.Equal(t, 5, opts.Per, "the caller's options are left as they were")
	})
	t.Run("job requests", func(t *testing.T) {
		t.Parallel()
		c, m := newMock(t, workforce.WithPageWindow(1)) // pages asked one by one, in order
		asked := servePages(t, m, "job_requests", 50, 1)
		opts := &workforce.JobRequestListOptions{State: workforce.JobRequestPosted, AgentCode: workforce.AgentCodeNull,
			ListOptions: workforce.ListOptions{Page: 1}}
		n := count(t, c.JobRequests.All(ctx, opts), func(v *workforce.JobRequest) int64 { return v.ID })
		assert.Equal(t, 51, n)
		assert.Equal(t, []string{"1/50?agent_code=Null&state=posted", "2/50?agent_code=Null&state=posted"}, *asked)
	})
}

// TestRequestorRefusedBeforeIO checks every validation rule of the
// Requestor's resources: each answers an *ArgumentError naming the field,
// and nothing is sent.
func TestRequestorRefusedBeforeIO(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	long := func(n int) string { return strings.Repeat("é", n) }
	jr := func(edit func(p *workforce.JobRequestParams)) *workforce.JobRequestParams {
		p := &workforce.JobRequestParams{RequestName: "Forklift", Zip: "90012", City: "Los Angeles", Address: "1 Main St",
			Slots: 2, DescriptionTasks: "Move pallets", Category: "warehouse", State: workforce.JobRequestPosted}
		edit(p)
		return p
	}
	createJR := func(edit func(p *workforce.JobRequestParams)) func() error {
		return func() error { _, _, err := c.JobRequests.Create(ctx, jr(edit)); return err }
	}
	updateJR := func(p *workforce.JobRequestParams) func() error {
		return func() error { _, _, err := c.JobRequests.Update(ctx, 5, p); return err }
	}
	createCustomer := func(p *workforce.CustomerParams) func() error {
		return func() error { _, _, err := c.Customers.Create(ctx, p); return err }
	}
	updateCustomer := func(p *workforce.CustomerParams) func() error {
		return func() error { _, _, err := c.Customers.Update(ctx, 5, p); return err }
	}
	cases := []struct {
		name, field string
		run         func() error
	}{
		// Customers
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

		// Badges
		{"badges per over 50", "Per", func() error {
			_, _, err := c.Badges.List(ctx, &workforce.BadgeListOptions{ListOptions: workforce.ListOptions{Per: 60}})
			return err
		}},
		{"badge get id 0", "id", func() error { _, _, err := c.Badges.Get(ctx, 0); return err }},
		{"badge delete id 0", "id", func() error { _, _, err := c.Badges.Delete(ctx, 0); return err }},
		{"badge create nil", "BadgeParams", func() error { _, _, err := c.Badges.Create(ctx, nil); return err }},
		{"badge create without name", "Name", func() error {
			_, _, err := c.Badges.Create(ctx, &workforce.BadgeParams{Description: "d"})
			return err
		}},
		{"badge create without description", "Description", func() error {
			_, _, err := c.Badges.Create(ctx, &workforce.BadgeParams{Name: "n"})
			return err
		}},
		{"badge update nothing", "BadgeParams", func() error {
			_, _, err := c.Badges.Update(ctx, 3, &workforce.BadgeParams{})
			return err
		}},
		{"badge update id 0", "id", func() error {
			_, _, err := c.Badges.Update(ctx, 0, &workforce.BadgeParams{Name: "n"})
			return err
		}},

		// Job Requests
		{"job requests per over 50", "Per", func() error {
			_, _, err := c.JobRequests.List(ctx, &workforce.JobRequestListOptions{ListOptions: workforce.ListOptions{Per: 51}})
			return err
		}},
		{"job requests company filter", "CompanyID", func() error {
			_, _, err := c.JobRequests.List(ctx, &workforce.JobRequestListOptions{CompanyID: -1})
			return err
		}},
		{"job requests series filter", "MultiDayJobRequestID", func() error {
			_, _, err := c.JobRequests.List(ctx, &workforce.JobRequestListOptions{MultiDayJobRequestID: -1})
			return err
		}},
		{"job requests classification filter", "Classification", func() error {
			_, _, err := c.JobRequests.List(ctx, &workforce.JobRequestListOptions{Classification: "w4"})
			return err
		}},
		{"job requests agent code filter", "AgentCode", func() error {
			_, _, err := c.JobRequests.List(ctx, &workforce.JobRequestListOptions{AgentCode: long(26)})
			return err
		}},
		{"job requests all from a negative page", "Page", func() error {
			for _, err := range c.JobRequests.All(ctx, &workforce.JobRequestListOptions{ListOptions: workforce.ListOptions{Page: -1}}) {
				return err
			}
			return nil
		}},
		{"job request get id 0", "id", func() error { _, _, err := c.JobRequests.Get(ctx, 0); return err }},
		{"job request create nil", "JobRequestParams", func() error { _, _, err := c.JobRequests.Create(ctx, nil); return err }},
		{"job request without name", "RequestName", createJR(func(p *workforce.JobRequestParams) { p.RequestName = "" })},
		{"job request without zip", "Zip", createJR(func(p *workforce.JobRequestParams) { p.Zip = "" })},
		{"job request without city", "City", createJR(func(p *workforce.JobRequestParams) { p.City = "" })},
		{"job request without address", "Address", createJR(func(p *workforce.JobRequestParams) { p.Address = "" })},
		{"job request without slots", "Slots", createJR(func(p *workforce.JobRequestParams) { p.Slots = 0 })},
		{"job request negative slots", "Slots", updateJR(&workforce.JobRequestParams{Slots: -2})},
		{"job request without description", "DescriptionTasks", createJR(func(p *workforce.JobRequestParams) { p.DescriptionTasks = "" })},
		{"job request without category", "Category", createJR(func(p *workforce.JobRequestParams) { p.Category = "" })},
		{"job request without state", "State", createJR(func(p *workforce.JobRequestParams) { p.State = "" })},
		{"job request W2 without rate", "W2HourlyRate", createJR(func(p *workforce.JobRequestParams) {
			p.Classification = workforce.ClassificationW2
		})},
		{"job request classification", "Classification", updateJR(&workforce.JobRequestParams{Classification: "W-2"})},
		{"job request agent code", "AgentCode", updateJR(&workforce.JobRequestParams{AgentCode: long(26)})},
		{"job request employer", "EmployerID", updateJR(&workforce.JobRequestParams{EmployerID: -4})},
		{"job request series", "MultiDayJobRequestID", updateJR(&workforce.JobRequestParams{MultiDayJobRequestID: -4})},
		{"job request preferred candidate", "PreferredCandidateIDs[1]", updateJR(&workforce.JobRequestParams{PreferredCandidateIDs: []int64{3, 0}})},
		{"job request ban list", "BanList[0]", updateJR(&workforce.JobRequestParams{BanList: []int64{-1}})},
		{"job request badge requirement", "BadgeRequirements[0].BadgeID", updateJR(&workforce.JobRequestParams{
			BadgeRequirements: []workforce.BadgeRequirement{{}}})},
		{"job request skill with a bar", "DescriptionSkills[0]", updateJR(&workforce.JobRequestParams{DescriptionSkills: workforce.Skills{"a|b"}})},
		{"job request wage NaN", "Wage", updateJR(&workforce.JobRequestParams{Wage: workforce.NewDecimal(math.Inf(1))})},
		{"job request negative duration", "Duration", updateJR(&workforce.JobRequestParams{Duration: -60})},
		{"job request push switch", "PushAllNotificationsASAP", updateJR(&workforce.JobRequestParams{PushAllNotificationsASAP: "yes"})},
		{"job request update nothing", "JobRequestParams", updateJR(&workforce.JobRequestParams{})},
		{"job request update empty lists", "JobRequestParams", updateJR(&workforce.JobRequestParams{BanList: []int64{}})},
		{"job request update id 0", "id", func() error {
			_, _, err := c.JobRequests.Update(ctx, 0, &workforce.JobRequestParams{Slots: 1})
			return err
		}},
		{"job request cancel id 0", "id", func() error { _, _, err := c.JobRequests.Cancel(ctx, 0); return err }},
		{"rankings id 0", "id", func() error { _, _, err := c.JobRequests.Rankings(ctx, 0); return err }},
		{"re-rank id 0", "id", func() error { _, _, err := c.JobRequests.ReRankWorkers(ctx, 0); return err }},
		{"resend id 0", "id", func() error { _, _, err := c.JobRequests.ResendNotifications(ctx, 0, workforce.SwitchOn); return err }},
		{"resend switch", "pushAllASAP", func() error { _, _, err := c.JobRequests.ResendNotifications(ctx, 1, "ON"); return err }},

		// Multi-day Job Requests
		{"series get id 0", "id", func() error { _, _, err := c.MultiDayJobRequests.Get(ctx, 0); return err }},
		{"series create nil", "MultiDayJobRequestParams", func() error { _, _, err := c.MultiDayJobRequests.Create(ctx, nil); return err }},
		{"series create without repeat type", "RepeatType", func() error {
			_, _, err := c.MultiDayJobRequests.Create(ctx, &workforce.MultiDayJobRequestParams{RepeatNumber: 3})
			return err
		}},
		{"series repeat type", "RepeatType", func() error {
			_, _, err := c.MultiDayJobRequests.Create(ctx, &workforce.MultiDayJobRequestParams{RepeatType: "monthly"})
			return err
		}},
		{"series negative repeat number", "RepeatNumber", func() error {
			_, _, err := c.MultiDayJobRequests.Update(ctx, 2, &workforce.MultiDayJobRequestParams{RepeatNumber: -1})
			return err
		}},
		{"series update nothing", "MultiDayJobRequestParams", func() error {
			_, _, err := c.MultiDayJobRequests.Update(ctx, 2, &workforce.MultiDayJobRequestParams{})
			return err
		}},
		{"series update id 0", "id", func() error {
			_, _, err := c.MultiDayJobRequests.Update(ctx, 0, &workforce.MultiDayJobRequestParams{SameWorkers: workforce.Ptr(true)})
			return err
		}},
	}
	for _, tc := range cases {
		err := tc.run()
		var argErr *workforce.ArgumentError
		if assert.ErrorAs(t, err, &argErr, tc.name) {
			assert.Equal(t, tc.field, argErr.Name, tc.name)
			assert.ErrorIs(t, err, workforce.ErrInvalidArgument, tc.name)
		}
	}
	assert.Zero(t, m.GetTotalCallCount(), "nothing may be sent")
}
