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

func TestSearchQuery(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/search", got.respond(200, `{
	  "users": [`+userJSON+`, {"id": 6, "type": "Employer", "first_name": "Adam", "rating": 4}],
	  "customers": [{"id": 21, "name": "Adastra Events", "fee_percentage": "0.15"}],
	  "job_requests": [{"id": 31, "request_name": "Ada's launch party", "wage": 18.5}],
	  "badges": [],
	  "venues": [{"id": 1}]}`))

	res, _, err := c.Search.Query(context.Background(), "ada & co")
	require.NoError(t, err)
	assert.Equal(t, "/api_v2/search", got.req.URL.Path)
	assert.Equal(t, map[string][]string{"q": {"ada & co"}, "token": {testToken}}, map[string][]string(got.req.URL.Query()))

	require.Len(t, res.Users, 2)
	assert.Equal(t, "Lovelace", res.Users[0].LastName)
	assert.Equal(t, "4.75", res.Users[0].Rating.String())
	assert.Equal(t, 4.0, res.Users[1].Rating.Float64())
	assert.JSONEq(t, `"night"`, string(rawField(t, res.Users[0].Raw, "favourite_shift")), "a nested record keeps its Raw")
	require.Len(t, res.Customers, 1)
	assert.Equal(t, "Adastra Events", res.Customers[0].Name)
	assert.JSONEq(t, `"0.15"`, string(rawField(t, res.Customers[0].Raw, "fee_percentage")))
	require.Len(t, res.JobRequests, 1)
	assert.Equal(t, "Ada's launch party", res.JobRequests[0].RequestName)
	assert.JSONEq(t, `18.5`, string(rawField(t, res.JobRequests[0].Raw, "wage")))
	assert.Empty(t, res.Badges)
	assert.JSONEq(t, `[{"id": 1}]`, string(rawField(t, res.Raw, "venues")), "an unknown kind stays reachable")
}

func TestSearchDecodesLeniently(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		body string
		ok   bool
	}{
		"kinds missing":          {`{"users": [{"id": 1}]}`, true},
		"a null kind":            {`{"users": null, "badges": [{"id": 2, "name": "Forklift"}]}`, true},
		"wrapped":                {`{"search": {"users": [], "customers": [], "job_requests": [], "badges": [{"id": 2}]}}`, true},
		"a null record":          {`{"users": [null]}`, false},
		"a kind not a list":      {`{"badges": {"id": 2}, "users": [{"id": 1}]}`, true},
		"a malformed record":     {`{"customers": [{"id": "x"}]}`, true},
		"a record not an object": {`{"customers": [5]}`, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t)
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/search", httpmock.NewStringResponder(200, tc.body))
			res, _, err := c.Search.Query(context.Background(), "a")
			if !tc.ok {
				var decodeErr *workforce.DecodeError
				assert.ErrorAs(t, err, &decodeErr)
				assert.Nil(t, res)
				return
			}
			require.NoError(t, err)
			assert.NotNil(t, res.Raw)
		})
	}
}
