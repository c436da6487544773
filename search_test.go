package workforce_test

import (
	"bytes"
	"context"
	"encoding/json"
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

// FuzzSearchResult checks that no answer to GET /search makes decoding
// panic, and that what decodes keeps every record's own JSON, a part of
// the result's.
func FuzzSearchResult(f *testing.F) {
	f.Add([]byte(`{"users": [{"id": 1, "rating": "4.5"}], "customers": [], "job_requests": [{"id": 2}], "badges": null}`))
	f.Add([]byte(`{"users": [null]}`))
	f.Add([]byte(`{"badges": {"id": 2}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var res workforce.SearchResult
		if _, err := workforce.Decode(data, &res); err != nil {
			return
		}
		for _, u := range res.Users {
			if u == nil || !json.Valid(u.Raw) || !bytes.Contains(res.Raw, u.Raw) {
				t.Fatalf("a user without its JSON: %q", data)
			}
		}
	})
}

func TestSearchFindsTheFakesRecordsByName(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()
	res, _, err := c.Search.Query(ctx, "forklift")
	require.NoError(t, err)
	require.Len(t, res.Badges, 1)
	assert.Equal(t, seed.BadgeID, res.Badges[0].ID)
	require.Len(t, res.JobRequests, 1)
	assert.Equal(t, seed.BadgeJobRequestID, res.JobRequests[0].ID)
	assert.Empty(t, res.Users)
	assert.Empty(t, res.Customers)
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(res.Raw, &raw))
	assert.Len(t, raw, 4, "every kind's list is present")

	res, _, err = c.Search.Query(ctx, "Harbor")
	require.NoError(t, err)
	require.Len(t, res.Customers, 1)
	assert.Equal(t, seed.PendingCustomerID, res.Customers[0].ID)
	require.Len(t, res.Users, 1)
	assert.Equal(t, seed.PendingEmployerID, res.Users[0].ID)

	pub, err := srv.PublicClient()
	require.NoError(t, err)
	res, _, err = pub.Search.Query(ctx, "example.com")
	require.NoError(t, err)
	require.Len(t, res.Users, 1)
	assert.Equal(t, seed.WorkerIDs[0], res.Users[0].ID, "the Public Pool finds only whom it may see")

	_, _, err = c.Search.Query(ctx, "  ")
	assert.ErrorIs(t, err, workforce.ErrInvalidArgument)
	_, _, err = tokenOnly(t, srv).Search.Query(ctx, "a")
	assert.ErrorIs(t, err, workforce.ErrUnauthorized)
}

// TestSearchRefusedBeforeIO checks that an empty query: each is refused with an
// *ArgumentError naming the field, and nothing is sent.
func TestSearchRefusedBeforeIO(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	ctx := context.Background()
	assertRefused(t, m, []refusal{
		{"search empty", "q", func() error { _, _, err := c.Search.Query(ctx, ""); return err }},
		{"search spaces", "q", func() error { _, _, err := c.Search.Query(ctx, " \t "); return err }},
	})
}
