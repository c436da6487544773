package workforcetest_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"sort"
	"strconv"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jrPath answers the path of a Job Request, with an optional action.
func jrPath(id int64, action ...string) string {
	p := "/api_v2/job_requests/" + strconv.FormatInt(id, 10)
	for _, a := range action {
		p += "/" + a
	}
	return p
}

// idPath answers "/api_v2/<plural>/<id>".
func idPath(plural string, id int64) string {
	return "/api_v2/" + plural + "/" + strconv.FormatInt(id, 10)
}

// jobRequestBody answers a valid job_request[…] object, with extra fields set over it.
func jobRequestBody(extra obj) obj {
	jr := obj{"request_name": "Dock Crew", "zip": "90015", "city": "Los Angeles", "address": "1 Pier Way",
		"slots": 1, "description_tasks": "Unload trucks", "category": "General Labor", "state": "posted",
		"wage": "18.5"}
	for k, v := range extra {
		jr[k] = v
	}
	return jr
}

// createJobRequest creates a Job Request with the Private Pool token and answers it.
func (f *fake) createJobRequest(extra obj) obj {
	f.t.Helper()
	status, body := f.json(http.MethodPost, "/api_v2/job_requests", with(f.private), obj{"job_request": jobRequestBody(extra)})
	require.Equal(f.t, http.StatusOK, status, body)
	return body["job_request"].(obj)
}

// getJobRequest answers the Job Request with id as the Private Pool sees it.
func (f *fake) getJobRequest(id int64) obj {
	f.t.Helper()
	status, body := f.get(jrPath(id), f.private)
	require.Equal(f.t, http.StatusOK, status, body)
	return body["job_request"].(obj)
}

// jrState answers the state of the Job Request with id, read over the API.
func (f *fake) jrState(id int64) string {
	f.t.Helper()
	return f.getJobRequest(id)["state"].(string)
}

// assign creates a filled Job of workerID on jobRequestID through POST /jobs and answers its
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

// keys answers the sorted keys of a decoded object.
func keys(o obj) []string {
	out := make([]string, 0, len(o))
	for k := range o {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sorted answers names sorted.
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
