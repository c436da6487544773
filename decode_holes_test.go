package workforce_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// dupJob is a Job whose worker, transitions and notes come twice, at
// several depths; %s is its job_request_id: 9 (encoding/json takes the
// record) or "9" (a tolerated form, so the record is decoded leniently).
const dupJob = `{"id":1,"state":"filled","job_request_id":%s,` +
	`"worker":{"id":7,"first_name":"Ann","email":"a@example.com"},"worker":{"last_name":"Lee","first_name":null},` +
	`"employer":{"id":3},"employer":null,"employer":{"first_name":"Bo"},` +
	`"transitions":[{"id":1,"name":"filled"},{"id":2,"name":"in_progress"}],"transitions":[{"latitude":"1.5"}],` +
	`"transitions":[{"longitude":"2.5"},{"created_at":"2026-01-02T03:04:05Z"}],` +
	`"requestor_notes":"first","requestor_notes":null}`

// asJSON is v as encoding/json writes it: Raw left out, the rest compared.
func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// A record with a member sent twice decodes as encoding/json decodes it
// (the second object into the first, null setting only what can be nil),
// on every path: the fast decoder, encoding/json, and the lenient walker
// that runs when another value arrives in a tolerated form.
func TestDuplicateMembersDecodeAsEncodingJSON(t *testing.T) {
	t.Parallel()
	var want workforce.Job
	require.NoError(t, json.Unmarshal(fmt.Appendf(nil, dupJob, "9"), &want))
	want.WorkerID, want.EmployerID = want.Worker.ID, want.Employer.ID // as the SDK fills them
	for i := range want.Transitions {
		want.Transitions[i].JobID = want.ID
	}
	require.Equal(t, int64(7), want.WorkerID, "encoding/json keeps the first worker's id")
	for _, form := range []string{`9`, `"9"`} {
		record := fmt.Sprintf(dupJob, form)
		var one workforce.Job
		_, err := workforce.Decode([]byte(record), &one)
		require.NoError(t, err, form)
		assert.Equal(t, asJSON(t, want), asJSON(t, one), "a record, job_request_id %s", form)

		var page []*workforce.Job
		_, err = workforce.Decode([]byte(`{"jobs":[{"id":2},`+record+`]}`), &page)
		require.NoError(t, err, form)
		require.Len(t, page, 2)
		assert.Equal(t, asJSON(t, want), asJSON(t, page[1]), "a page, job_request_id %s", form)

		c, m := newMock(t)
		m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", (&capture{}).respond(200, `{"jobs":[`+record+`]}`))
		jobs, _, err := c.Jobs.List(t.Context(), nil)
		require.NoError(t, err, form)
		require.Len(t, jobs, 1)
		assert.Equal(t, asJSON(t, want), asJSON(t, jobs[0]), "Jobs.List, job_request_id %s", form)
	}
}

// A search's lists sent twice decode as encoding/json decodes them, also
// when a tolerated form sends the result down the lenient path.
func TestDuplicateSearchListsDecodeAsEncodingJSON(t *testing.T) {
	t.Parallel()
	const body = `{"users":[{"id":5,"first_name":"Ann","suspended":%s}],"users":[{"last_name":"Lee"},{"id":6}],` +
		`"badges":[{"id":1,"name":"Forklift"}],"badges":[]}`
	var want workforce.SearchResult
	require.NoError(t, json.Unmarshal(fmt.Appendf(nil, body, "true"), &want))
	for _, form := range []string{`true`, `"yes"`} {
		var got workforce.SearchResult
		_, err := workforce.Decode(fmt.Appendf(nil, body, form), &got)
		require.NoError(t, err, form)
		assert.Equal(t, asJSON(t, want), asJSON(t, got), "suspended %s", form)
	}
}

// badElements are list elements that are no record, each sent down one
// path: the fast decoder, its lenient second reading of a record (a
// timestamp that fits no form), encoding/json (a name in another case
// makes the fast decoder give up), and the lenient walker after it.
var badElements = []string{
	`{}`, `{"id":null}`, `{"id":0}`, `{"id":"0"}`,
	`{"id":null,"created_at":"never"}`,
	`{"Id":null}`, `{"ID":0,"id":null}`,
	`{"Id":null,"created_at":"never"}`, `{"Id":null,"id":"0","created_at":"never"}`,
}

// A list element without an id (none, null, 0) is a decoding error
// naming its place, on every path and for every list of records, as a
// single record without one is; rankings and tracking points, which
// have no id, are not held to it.
func TestListElementWithoutIDIsAnError(t *testing.T) {
	t.Parallel()
	decoders := map[string]func([]byte) error{
		"jobs":         func(b []byte) error { var v []*workforce.Job; _, err := workforce.Decode(b, &v); return err },
		"job_requests": func(b []byte) error { var v []*workforce.JobRequest; _, err := workforce.Decode(b, &v); return err },
		"users":        func(b []byte) error { var v []workforce.User; _, err := workforce.Decode(b, &v); return err },
		"badges":       func(b []byte) error { var v []*workforce.Badge; _, err := workforce.Decode(b, &v); return err },
		"customers":    func(b []byte) error { var v []*workforce.Customer; _, err := workforce.Decode(b, &v); return err },
		"messages":     func(b []byte) error { var v []*workforce.Message; _, err := workforce.Decode(b, &v); return err },
	}
	search := func(b []byte) error { var v workforce.SearchResult; _, err := workforce.Decode(b, &v); return err }
	for key, decode := range decoders {
		for _, bad := range badElements {
			body := []byte(`{"` + key + `":[{"id":1},` + bad + `]}`)
			err := decode(body)
			require.Error(t, err, "%s", body)
			assert.Contains(t, err.Error(), "element 1", "%s", body)
			err = search(body)
			if key == "jobs" || key == "messages" {
				continue // not a kind a search finds
			}
			require.Error(t, err, "search %s", body)
			assert.Contains(t, err.Error(), key+": element 1", "search %s", body)
		}
		require.NoError(t, decode([]byte(`{"`+key+`":[{"id":1},{"id":2}]}`)), key)
	}

	c, m := newMock(t)
	for _, bad := range badElements {
		m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs",
			(&capture{}).respond(200, `{"jobs":[{"id":1},`+bad+`]}`))
		_, _, err := c.Jobs.List(t.Context(), nil)
		var decodeErr *workforce.DecodeError
		require.True(t, errors.As(err, &decodeErr), "%s: %v", bad, err)
		assert.True(t, strings.Contains(err.Error(), "element 1"), "%s: %v", bad, err)
	}

	var rankings []*workforce.Ranking
	_, err := workforce.Decode([]byte(`{"rankings":[{"worker_id":7,"rank":1},{"rank":2}]}`), &rankings)
	require.NoError(t, err, "a ranking has no id")
	var points []*workforce.TrackingPoint
	_, err = workforce.Decode([]byte(`{"tracking":[{"latitude":"1.5"},{}]}`), &points)
	require.NoError(t, err, "a tracking point has no id")
}
