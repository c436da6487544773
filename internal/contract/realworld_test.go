package contract_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/internal/contract"
)

// load returns the contract, failing the test if it does not load.
func load(t *testing.T) *contract.Contract {
	t.Helper()
	c, err := contract.Load()
	require.NoError(t, err)
	return c
}

// realworld returns a file of the repository's testdata/realworld, a copy of the real captured
// answers and requests of the shared realworld directory, as they came.
func realworld(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "realworld", name))
	require.NoError(t, err)
	return b
}

// jsonHeader is the header of a JSON answer.
func jsonHeader() http.Header {
	return http.Header{"Content-Type": {"application/json; charset=utf-8"}}
}

// jsonRequest returns a request to path (under /api_v2) with a token and a JSON content type.
func jsonRequest(method, path string) *http.Request {
	r := httptest.NewRequest(method, "http://127.0.0.1"+contract.Prefix+path+"?token=t0", http.NoBody)
	r.Header.Set("Content-Type", "application/json")
	return r
}

// TestRealAnswersValidate holds the document to the real answers: each validates as the answer
// of its operation.
func TestRealAnswersValidate(t *testing.T) {
	t.Parallel()
	c := load(t)
	for _, tc := range []struct{ method, path, file string }{
		{http.MethodGet, "/jobs", "jobs_page.json"},
		{http.MethodPatch, "/users/9012", "user.json"},
		{http.MethodPut, "/users/9012", "user.json"},
		{http.MethodGet, "/users/9012", "user.json"},
		{http.MethodGet, "/info", "info.json"},
	} {
		body := realworld(t, tc.file)
		req := jsonRequest(tc.method, tc.path)
		assert.NoError(t, c.CheckResponse(req, nil, http.StatusOK, jsonHeader(), body), "%s %s", tc.method, tc.path)
	}
	notFound := realworld(t, "error_404.json")
	for _, path := range []string{"/no_such_route", "/jobs/9999999"} {
		req := jsonRequest(http.MethodGet, path)
		assert.NoError(t, c.CheckResponse(req, nil, http.StatusNotFound, jsonHeader(), notFound), path)
	}
	assert.NoError(t, c.CheckSchema("NotFoundError", notFound))
}

// TestRealRequestsValidate holds the document to the flat request bodies of the provider's
// guides.
func TestRealRequestsValidate(t *testing.T) {
	t.Parallel()
	c := load(t)
	for _, tc := range []struct{ path, file string }{
		{"/badges", "badge_create_request.json"},
		{"/users/invite", "user_invite_request.json"},
		{"/jobs/assign", "job_assign_request.json"},
	} {
		assert.NoError(t, c.CheckRequest(jsonRequest(http.MethodPost, tc.path), realworld(t, tc.file)), tc.path)
	}
}

// TestGuessedFormsFail checks that the document tells a real form from the guesses that broke a
// real client: each real answer, changed in one field to a form the platform does not send,
// fails.
func TestGuessedFormsFail(t *testing.T) {
	t.Parallel()
	c := load(t)
	page := decode(t, realworld(t, "jobs_page.json"))
	user := decode(t, realworld(t, "user.json"))
	for _, tc := range []struct {
		name   string
		doc    map[string]any
		method string
		path   string
		change func(doc map[string]any)
	}{
		{"w2_onboarding_started a boolean", page, http.MethodGet, "/jobs", func(d map[string]any) {
			at(d, "jobs", 0, "worker")["w2_onboarding_started"] = false
		}},
		{"an embedded worker without w2_onboarding_started", page, http.MethodGet, "/jobs", func(d map[string]any) {
			delete(at(d, "jobs", 0, "worker"), "w2_onboarding_started")
		}},
		{"a rating that is not a decimal", page, http.MethodGet, "/jobs", func(d map[string]any) {
			at(d, "jobs", 0, "worker")["rating"] = "high"
		}},
		{"a Job without transitions", page, http.MethodGet, "/jobs", func(d map[string]any) {
			delete(at(d, "jobs", 0), "transitions")
		}},
		{"a shown User without suspended_until", user, http.MethodPatch, "/users/9012", func(d map[string]any) {
			delete(at(d, "user"), "suspended_until")
		}},
		{"suspended as a string", user, http.MethodGet, "/users/9012", func(d map[string]any) {
			at(d, "user")["suspended"] = "false"
		}},
	} {
		doc := decode(t, encode(t, tc.doc)) // a copy
		tc.change(doc)
		err := c.CheckResponse(jsonRequest(tc.method, tc.path), nil, http.StatusOK, jsonHeader(), encode(t, doc))
		assert.Error(t, err, tc.name)
	}
	info := decode(t, realworld(t, "info.json"))
	delete(info, "rails_environment")
	assert.Error(t, c.CheckResponse(jsonRequest(http.MethodGet, "/info"), nil, http.StatusOK, jsonHeader(), encode(t, info)))
	assert.Error(t, c.CheckSchema("NotFoundError", []byte(`{"error":"Not Found"}`)), "a 404 without status")
	assert.Error(t, c.CheckRequest(jsonRequest(http.MethodPost, "/jobs/assign"), []byte(`{"worker_id":5678}`)), "no job_request_id")
}

// decode decodes a JSON object.
func decode(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	require.NoError(t, json.Unmarshal(b, &v))
	return v
}

// encode encodes v as JSON.
func encode(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// at walks doc by keys (strings) and indexes (ints) to an object.
func at(doc map[string]any, path ...any) map[string]any {
	var v any = doc
	for _, p := range path {
		switch p := p.(type) {
		case string:
			v = v.(map[string]any)[p]
		case int:
			v = v.([]any)[p]
		}
	}
	return v.(map[string]any)
}
