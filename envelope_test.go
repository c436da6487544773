package workforce_test

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// TestEnvelopeKeyAsAnOrdinaryField checks that a member named like the
// envelope but holding a scalar is a field of the resource, not an
// envelope.
func TestEnvelopeKeyAsAnOrdinaryField(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info",
		httpmock.NewStringResponder(200, `{"info": "API v2", "utc_time_now": "2026-11-23T04:50:40Z", "environment": "test"}`))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42",
		httpmock.NewStringResponder(200, `{"id": 42, "state": "filled", "job": "Warehouse Loader"}`))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/43",
		httpmock.NewStringResponder(200, `{"id": 43, "job": {"nested": true}}`))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs",
		httpmock.NewStringResponder(200, `{"jobs": [{"id": 44}], "meta": {"page": 1}}`))

	info, _, err := c.Info.Get(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "test", info.Environment)
	job, _, err := c.Jobs.Get(context.Background(), 42)
	require.NoError(t, err)
	assert.EqualValues(t, 42, job.ID)
	assert.Equal(t, workforce.JobFilled, job.State)
	assert.Contains(t, string(job.Raw), "Warehouse Loader")
	job, _, err = c.Jobs.Get(context.Background(), 43)
	require.NoError(t, err)
	assert.EqualValues(t, 43, job.ID, "an object under \"job\" beside an id is a field")
	jobs, _, err := c.Jobs.List(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, jobs, 1)
	assert.EqualValues(t, 44, jobs[0].ID, "a list envelope may carry other members")
}

// TestEnvelopesThatHoldNothingUsable checks the answers that are neither a
// resource nor an envelope holding one.
func TestEnvelopesThatHoldNothingUsable(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	for id, body := range map[int64]string{
		1: `{"job": null, "request_id": "abc"}`,
		2: `{"job": "x", "meta": 1}`,
		3: `{}`,
		4: `{"error": "not here"}`,
	} {
		m.RegisterResponder(http.MethodGet, fmt.Sprintf("%s/api_v2/jobs/%d", mockBase, id), httpmock.NewStringResponder(200, body))
		_, _, err := c.Jobs.Get(context.Background(), id)
		var decodeErr *workforce.DecodeError
		assert.ErrorAs(t, err, &decodeErr, body)
	}
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", httpmock.NewStringResponder(200, `{"jobs": null, "request_id": "abc"}`))
	jobs, _, err := c.Jobs.List(context.Background(), nil)
	require.NoError(t, err, "no list is an empty list")
	assert.Empty(t, jobs)
}

// A resource kept from a page keeps its own bytes only: its Raw is a copy,
// not a window on the page's read buffer, which the next call reuses.
func TestRawIsTheResourcesOwn(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()
	first, _, err := c.JobRequests.List(ctx, &workforce.JobRequestListOptions{ListOptions: workforce.ListOptions{Per: 50}})
	require.NoError(t, err)
	require.Greater(t, len(first), 1)
	kept := first[len(first)-1]
	want := string(kept.Raw)
	assert.Less(t, cap(kept.Raw), 2*len(kept.Raw), "its own allocation (rounded to a size class), not the page's")
	assert.Contains(t, want, fmt.Sprintf(`"id":%d`, kept.ID))

	_, _, err = c.JobRequests.Cancel(ctx, seed.DraftJobRequestID) // the same page, changed
	require.NoError(t, err)
	for range 5 { // calls that reuse the read buffer
		_, _, err := c.JobRequests.List(ctx, &workforce.JobRequestListOptions{ListOptions: workforce.ListOptions{Per: 50}})
		require.NoError(t, err)
	}
	assert.Equal(t, want, string(kept.Raw), "untouched by later reads")
}

// TestEnvelopedAnswersMustBeWellFormedWhole refuses an enveloped answer
// followed by garbage or by a second document, or holding a malformed
// member beside its envelope, or its key twice (attack 6, D5), in client
// calls and in Decode alike (D6), and pins what the envelope means at its
// edges: escaped names read unescaped; an "id" beside the key makes the
// document the record; an "id" of null or 0 is no ID.
func TestEnvelopedAnswersMustBeWellFormedWhole(t *testing.T) {
	t.Parallel()
	bad := []string{`{"job":{"id":11}}garbage`, `{"job":{"id":11}}{"job":{"id":12}}`, `{"job":{"id":11,"notes":"x"}} , "oops"`,
		`{"job":{"id":11}}}`, `{"job":{"id":11},"meta":tru}`, `{"job":{"id":11},"meta":[1,}`, `{"job":{"id":11}} x`,
		`{"job":{"id":1},"job":{"id":11}}`, `{"job":{"id":11},"\u006aob":{"id":11}}`}
	c, m := newMock(t)
	for _, body := range bad {
		var j workforce.Job
		_, err := workforce.Decode([]byte(body), &j)
		assert.Error(t, err, "Decode %s", body)
		m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/11", httpmock.NewStringResponder(200, body))
		job, _, err := c.Jobs.Get(context.Background(), 11)
		var de *workforce.DecodeError
		assert.ErrorAs(t, err, &de, "Jobs.Get %s", body)
		assert.Nil(t, job, body)
	}
	for body, want := range map[string]int64{
		`{"job":{"id":11}}  ` + "\n":             11,
		`{"\u006aob":{"id":3}}`:                  3,
		`{"job":{"id":5},"id":6}`:                6, // a record with a member "job"
		`{"job":{"id":7},"meta":{"page":[1,2]}}`: 7,
		`{"job":{"id":8,"notes":"}garbage{"}}`:   8,
	} {
		var j workforce.Job
		_, err := workforce.Decode([]byte(body), &j)
		if assert.NoError(t, err, body) {
			assert.Equal(t, want, j.ID, body)
		}
		m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/"+strconv.FormatInt(want, 10), httpmock.NewStringResponder(200, body))
		job, _, err := c.Jobs.Get(context.Background(), want)
		if assert.NoError(t, err, body) {
			assert.Equal(t, want, job.ID, body)
		}
	}
	for _, body := range []string{`{"id":null}`, `{"id":0}`, `{"id":"0"}`, `{"job":{"id":null,"state":"filled"}}`} {
		var j workforce.Job
		_, err := workforce.Decode([]byte(body), &j)
		assert.Error(t, err, "Decode %s: no ID", body)
	}
}
