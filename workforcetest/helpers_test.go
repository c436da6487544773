package workforcetest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"testing"
	"time"
	_ "time/tzdata" // US Pacific time for the tests, whatever the machine holds

	"github.com/stretchr/testify/assert"
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

// send sends a request with an optional body of contentType and returns the response.
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

// decode returns the status and the JSON object of resp, checking that it is JSON.
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

// with returns a query string with token and the name/value pairs kv.
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

// getJob returns the Job with id as the Private Pool sees it.
func (f *fake) getJob(id int64) obj {
	f.t.Helper()
	status, body := f.get(jobPath(id), f.private)
	require.Equal(f.t, http.StatusOK, status, body)
	return body["job"].(obj)
}

// jobPath returns the path of a Job.
func jobPath(id int64) string { return "/api_v2/jobs/" + strconv.FormatInt(id, 10) }

// idOf returns the id of a decoded record.
func idOf(record any) int64 { return int64(record.(obj)["id"].(float64)) }

// listIDs returns the ids in the list under key.
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

// transitionNames returns the names of a decoded Job's transitions, in the order sent.
func transitionNames(job obj) []string {
	var names []string
	for _, tr := range job["transitions"].([]any) {
		names = append(names, tr.(obj)["name"].(string))
	}
	return names
}

// fieldErrors returns the "errors" object of a 422 body, checking the "error" message too.
func fieldErrors(t *testing.T, body obj) obj {
	t.Helper()
	require.NotEmpty(t, body["error"])
	errs, ok := body["errors"].(obj)
	require.True(t, ok, "no errors object in %v", body)
	return errs
}

// control sends a control request with the name/value pairs kv in the query string and no token.
func (f *fake) control(method, path string, kv ...string) (int, obj) {
	f.t.Helper()
	return f.json(method, "/_fake/"+path, with("", kv...), nil)
}

// itoa writes an id.
func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// Timestamp styles of CONTRACT §10 as the fake writes them: a record's own times in US Pacific
// time with milliseconds and the offset of the day, a transition's in UTC to the second.
const (
	localStamp = `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}-0[78]:00$`
	utcStamp   = `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`
)

// jrPath returns the path of a Job Request, with an optional action.
func jrPath(id int64, action ...string) string {
	p := "/api_v2/job_requests/" + strconv.FormatInt(id, 10)
	for _, a := range action {
		p += "/" + a
	}
	return p
}

// idPath returns "/api_v2/<plural>/<id>".
func idPath(plural string, id int64) string {
	return "/api_v2/" + plural + "/" + strconv.FormatInt(id, 10)
}

// jobRequestBody returns a valid job_request[…] object, with extra fields set over it.
func jobRequestBody(extra obj) obj {
	jr := obj{"request_name": "Dock Crew", "zip": "90015", "city": "Los Angeles", "address": "1 Pier Way",
		"slots": 1, "description_tasks": "Unload trucks", "category": "General Labor", "state": "posted",
		"wage": "18.5"}
	for k, v := range extra {
		jr[k] = v
	}
	return jr
}

// createJobRequest creates a Job Request with the Private Pool token and returns it.
func (f *fake) createJobRequest(extra obj) obj {
	f.t.Helper()
	status, body := f.json(http.MethodPost, "/api_v2/job_requests", with(f.private), obj{"job_request": jobRequestBody(extra)})
	require.Equal(f.t, http.StatusOK, status, body)
	return body["job_request"].(obj)
}

// getJobRequest returns the Job Request with id as the Private Pool sees it.
func (f *fake) getJobRequest(id int64) obj {
	f.t.Helper()
	status, body := f.get(jrPath(id), f.private)
	require.Equal(f.t, http.StatusOK, status, body)
	return body["job_request"].(obj)
}

// jrState returns the state of the Job Request with id, read over the API.
func (f *fake) jrState(id int64) string {
	f.t.Helper()
	return f.getJobRequest(id)["state"].(string)
}

// assign creates a filled Job of workerID on jobRequestID through POST /jobs and returns its
// status and body.
func (f *fake) assign(workerID, jobRequestID int64) (int, obj) {
	f.t.Helper()
	return f.json(http.MethodPost, "/api_v2/jobs", with(f.private), obj{"job": obj{"worker_id": workerID, "job_request_id": jobRequestID}})
}

// upload posts a multipart body with the file under field to path.
func (f *fake) upload(path, token, field, filename string, content []byte) (int, obj) {
	f.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if field != "" {
		part, err := w.CreateFormFile(field, filename)
		require.NoError(f.t, err)
		_, err = part.Write(content)
		require.NoError(f.t, err)
	}
	require.NoError(f.t, w.WriteField("note", "ignored"))
	require.NoError(f.t, w.Close())
	return f.decode(f.send(http.MethodPost, path, with(token), w.FormDataContentType(), buf.Bytes()))
}

// keys returns the sorted keys of a decoded object.
func keys(o obj) []string {
	out := make([]string, 0, len(o))
	for k := range o {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sorted returns names sorted.
func sorted(names ...string) []string {
	sort.Strings(names)
	return names
}

// invalidCase is a request the fake must refuse with a 422 naming field.
type invalidCase struct {
	method, path string
	body         obj
	field        string
}

// requireInvalid sends each case with the Private Pool token (a nil body sends none) and checks
// its 422 and field.
func (f *fake) requireInvalid(cases map[string]invalidCase) {
	f.t.Helper()
	for name, tc := range cases {
		var b any
		if tc.body != nil {
			b = tc.body
		}
		status, body := f.json(tc.method, tc.path, with(f.private), b)
		require.Equal(f.t, http.StatusUnprocessableEntity, status, name, body)
		assert.Contains(f.t, fieldErrors(f.t, body), tc.field, name)
	}
}

// patchState moves a Job through PATCH /jobs/:id; a refusal is an error "status <code>: <body>".
func patchState(state string) func(*fake, int64) error {
	return func(f *fake, id int64) error {
		status, body := f.patchJob(id, obj{"state": state})
		if status != http.StatusOK {
			return fmt.Errorf("status %d: %v", status, body)
		}
		return nil
	}
}

// moves are the ways a test moves a Job, by the state they enter.
func moves() map[string]func(*fake, int64) error {
	return map[string]func(*fake, int64) error{
		"in_progress": func(f *fake, id int64) error { return f.StartJob(id) },
		"paused":      func(f *fake, id int64) error { return f.PauseJob(id) },
		"completed":   func(f *fake, id int64) error { return f.CompleteJob(id) },
		"approved":    func(f *fake, id int64) error { return f.ApproveJob(id) },
		"withdrawn":   func(f *fake, id int64) error { return f.WithdrawJob(id) },
		"no_show":     func(f *fake, id int64) error { return f.NoShowJob(id) },
		"cancelled":   patchState("cancelled"),
		"filled":      patchState("filled"),
		"rejected":    patchState("rejected"),
	}
}
