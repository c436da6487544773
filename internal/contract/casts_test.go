package contract_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/internal/contract"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// castCase is a request of the forms Rails casts, as a client other than the SDK sends it.
type castCase struct {
	name, method, path string
	contentType        string // "" for application/json
	body               string
}

// TestTheFakeAndTheDocumentTakeRailsCasts sends the fake requests in the forms the platform
// (Rails) casts: ids, numbers and booleans as strings, null clearing a field, the token in the
// body, a page number beyond 64 bits, a multipart field nobody reads. The fake answers each with
// a 200 and the document takes each (the Guard fails the test on any violation). A form neither
// takes answers 422, and the document refuses it: the two agree.
func TestTheFakeAndTheDocumentTakeRailsCasts(t *testing.T) {
	t.Parallel()
	rec := contract.Guard(t)
	srv := workforcetest.NewServer(t, workforcetest.WithMiddleware(rec.Middleware))
	seed := srv.Seed()
	token := authenticate(t, srv)
	require.NoError(t, srv.StartJob(seed.PublicJobID))
	var upload bytes.Buffer
	w := multipart.NewWriter(&upload)
	part, err := w.CreateFormFile("file", "hours.csv")
	require.NoError(t, err)
	_, _ = fmt.Fprintf(part, "job_id,actual_duration\n%d,95\n", seed.PublicJobID)
	require.NoError(t, w.WriteField("note", "March"))
	require.NoError(t, w.Close())

	taken := []castCase{
		{"ids as strings, the token in the body", http.MethodPost, "/api_v2/jobs/assign", "",
			fmt.Sprintf(`{"job": {"worker_id": "%d", "job_request_id": "%d"}, "token": %q}`, seed.WorkerIDs[3], seed.JobRequest1099ID, token)},
		{"a duration as a string", http.MethodPatch, fmt.Sprintf("/api_v2/jobs/%d", seed.PublicJobID), "", `{"actual_duration": "90"}`},
		{"booleans as Rails casts them", http.MethodPost, "/api_v2/customers", "",
			`{"customer": {"name": "Cast Co", "can_post_1099": "1", "can_post_w2": "yes", "strategic_pilot": 0}}`},
		{"null clears a field", http.MethodPatch, fmt.Sprintf("/api_v2/customers/%d", seed.CustomerID), "", `{"customer": {"phone": null}}`},
		{"a series' flag and count as strings", http.MethodPatch, fmt.Sprintf("/api_v2/multi_day_job_requests/%d", seed.MultiDayJobRequestID), "",
			`{"multi_day_job_request": {"same_workers": "true", "repeat_number": "3"}}`},
		{"null, a count and ids as strings", http.MethodPatch, fmt.Sprintf("/api_v2/job_requests/%d", seed.JobRequest1099ID), "",
			fmt.Sprintf(`{"job_request": {"agent_code": null, "slots": "12", "preferred_candidate_ids": ["%d"]}}`, seed.WorkerIDs[2])},
		{"a page size beyond 64 bits", http.MethodGet, "/api_v2/jobs?per=1000000000000000000000000000000&page=%2B1", "", ""},
		{"a multipart field nobody reads", http.MethodPost, "/api_v2/customers/timesheet_import", w.FormDataContentType(), upload.String()},
	}
	for _, tc := range taken {
		status, body := send(t, srv, token, tc)
		assert.Equal(t, http.StatusOK, status, "%s: %s", tc.name, body)
	}

	c, err := contract.Load()
	require.NoError(t, err)
	refused := []castCase{
		{"an id that is no number", http.MethodPost, "/api_v2/jobs", "",
			fmt.Sprintf(`{"job": {"worker_id": "abc", "job_request_id": %d}}`, seed.JobRequest1099ID)},
		{"a duration that is no number", http.MethodPatch, fmt.Sprintf("/api_v2/jobs/%d", seed.PublicJobID), "", `{"actual_duration": "ninety"}`},
		{"a boolean Rails does not know", http.MethodPost, "/api_v2/customers", "", `{"customer": {"name": "Maybe Co", "can_post_w2": "maybe"}}`},
		{"a page size of 0", http.MethodGet, "/api_v2/jobs?per=0", "", ""},
	}
	for _, tc := range refused {
		status, body := send(t, srv, token, tc)
		assert.Equal(t, http.StatusUnprocessableEntity, status, "%s: %s", tc.name, body)
		req := newRequest(t, srv, token, tc)
		assert.Error(t, c.CheckRequest(req, []byte(tc.body)), "%s: the document refuses it too", tc.name)
	}
}

// authenticate returns a Private Pool token of srv.
func authenticate(t *testing.T, srv *workforcetest.Server) string {
	t.Helper()
	keys, err := json.Marshal(srv.Private)
	require.NoError(t, err)
	resp, err := http.Post(srv.URL+"/api_v2/authenticate", "application/json", bytes.NewReader(keys))
	require.NoError(t, err)
	defer resp.Body.Close()
	var answer struct{ Token string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&answer))
	require.NotEmpty(t, answer.Token)
	return answer.Token
}

// newRequest returns the request of tc to srv, with token in its query.
func newRequest(t *testing.T, srv *workforcetest.Server, token string, tc castCase) *http.Request {
	t.Helper()
	sep := "?"
	if strings.Contains(tc.path, "?") {
		sep = "&"
	}
	req, err := http.NewRequestWithContext(t.Context(), tc.method, srv.URL+tc.path+sep+"token="+token, strings.NewReader(tc.body))
	require.NoError(t, err)
	if tc.body != "" {
		req.Header.Set("Content-Type", "application/json")
		if tc.contentType != "" {
			req.Header.Set("Content-Type", tc.contentType)
		}
	}
	return req
}

// send sends tc to srv and returns the answer's status and body.
func send(t *testing.T, srv *workforcetest.Server, token string, tc castCase) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(newRequest(t, srv, token, tc))
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}
