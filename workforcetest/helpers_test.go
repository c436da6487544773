package workforcetest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"
	_ "time/tzdata" // US Pacific time for the tests, whatever the machine holds

	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// pacificTime is US Pacific time, the zone the fake reads wall-clock start times in.
var pacificTime = func() *time.Location {
	loc, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		panic(err)
	}
	return loc
}()

// obj is a decoded JSON object.
type obj = map[string]any

// fake is a server under test with a plain HTTP client and a token of each pool.
type fake struct {
	*workforcetest.Server
	t       *testing.T
	private string // a Private Pool token
	public  string // a Public Pool token
}

// newFake starts a server and fetches a token of each pool.
func newFake(t *testing.T, opts ...workforcetest.Option) *fake {
	t.Helper()
	f := &fake{Server: workforcetest.NewServer(t, opts...), t: t}
	f.private = f.token(f.Private)
	f.public = f.token(f.Public)
	return f
}

// token authenticates with keys.
func (f *fake) token(keys workforcetest.KeyPair) string {
	f.t.Helper()
	status, body := f.json(http.MethodPost, "/api_v2/authenticate", nil, obj{"api_key": keys.APIKey, "secret_key": keys.SecretKey})
	require.Equal(f.t, http.StatusOK, status, body)
	return body["token"].(string)
}

// send sends a request with an optional body of contentType and answers the response.
func (f *fake) send(method, path string, query url.Values, contentType string, body []byte) *http.Response {
	f.t.Helper()
	u := f.URL + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(f.t.Context(), method, u, bytes.NewReader(body))
	require.NoError(f.t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(f.t, err)
	return resp
}

// decode answers the status and the JSON object of resp, checking that it is JSON.
func (f *fake) decode(resp *http.Response) (int, obj) {
	f.t.Helper()
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(f.t, err)
	require.Contains(f.t, resp.Header.Get("Content-Type"), "application/json")
	var body obj
	require.NoError(f.t, json.Unmarshal(raw, &body), string(raw))
	return resp.StatusCode, body
}

// json sends body (if not nil) JSON-encoded.
func (f *fake) json(method, path string, query url.Values, body any) (int, obj) {
	f.t.Helper()
	var raw []byte
	if body != nil {
		var err error
		raw, err = json.Marshal(body)
		require.NoError(f.t, err)
	}
	return f.decode(f.send(method, path, query, "application/json", raw))
}

// form sends form URL-encoded.
func (f *fake) form(method, path string, query, form url.Values) (int, obj) {
	f.t.Helper()
	return f.decode(f.send(method, path, query, "application/x-www-form-urlencoded", []byte(form.Encode())))
}

// get sends GET path with token and the name/value pairs kv in the query string.
func (f *fake) get(path, token string, kv ...string) (int, obj) {
	f.t.Helper()
	return f.json(http.MethodGet, path, with(token, kv...), nil)
}

// with answers a query string with token and the name/value pairs kv.
func with(token string, kv ...string) url.Values {
	q := url.Values{}
	if token != "" {
		q.Set("token", token)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Add(kv[i], kv[i+1])
	}
	return q
}

// createJob creates a filled Job through POST /jobs with the Private Pool token.
func (f *fake) createJob(workerID, jobRequestID int64) obj {
	f.t.Helper()
	status, body := f.json(http.MethodPost, "/api_v2/jobs", with(f.private), obj{"job": obj{"worker_id": workerID, "job_request_id": jobRequestID}})
	require.Equal(f.t, http.StatusOK, status, body)
	return body["job"].(obj)
}

// patchJob sends PATCH /jobs/:id with the Private Pool token and a JSON body.
func (f *fake) patchJob(id int64, body obj) (int, obj) {
	f.t.Helper()
	return f.json(http.MethodPatch, jobPath(id), with(f.private), body)
}

// getJob answers the Job with id as the Private Pool sees it.
func (f *fake) getJob(id int64) obj {
	f.t.Helper()
	status, body := f.get(jobPath(id), f.private)
	require.Equal(f.t, http.StatusOK, status, body)
	return body["job"].(obj)
}

// jobPath answers the path of a Job.
func jobPath(id int64) string { return "/api_v2/jobs/" + strconv.FormatInt(id, 10) }

// idOf answers the id of a decoded record.
func idOf(record any) int64 { return int64(record.(obj)["id"].(float64)) }

// listIDs answers the ids in the list under key.
func listIDs(t *testing.T, body obj, key string) []int64 {
	t.Helper()
	list, ok := body[key].([]any)
	require.True(t, ok, "%q is not an array in %v", key, body)
	ids := make([]int64, len(list))
	for i, record := range list {
		ids[i] = idOf(record)
	}
	return ids
}

// transitionNames answers the names of a decoded Job's transitions, in the order sent.
func transitionNames(job obj) []string {
	var names []string
	for _, tr := range job["transitions"].([]any) {
		names = append(names, tr.(obj)["name"].(string))
	}
	return names
}

// fieldErrors answers the "errors" object of a 422 body, checking the "error" message too.
func fieldErrors(t *testing.T, body obj) obj {
	t.Helper()
	require.NotEmpty(t, body["error"])
	errs, ok := body["errors"].(obj)
	require.True(t, ok, "no errors object in %v", body)
	return errs
}
