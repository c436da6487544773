package workforce_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// apiErrorFor returns the *APIError of GET /jobs/42 answered with status,
// body and headers, without retries.
func apiErrorFor(t *testing.T, status int, body string, header http.Header) *workforce.APIError {
	t.Helper()
	c, m := newMock(t, workforce.WithRetry(0, 0, 0))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(*http.Request) (*http.Response, error) {
		resp := httpmock.NewStringResponse(status, body)
		for k, v := range header {
			resp.Header[k] = v
		}
		return resp, nil
	})
	_, resp, err := c.Jobs.Get(context.Background(), 42)
	var apiErr *workforce.APIError
	require.ErrorAs(t, err, &apiErr)
	require.NotNil(t, resp, "the response comes with the error")
	assert.Equal(t, status, resp.StatusCode)
	return apiErr
}

func TestAPIErrorParsesBodies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		status  int
		body    string
		message string
		fields  map[string][]string
		errs    []string
	}{
		{"error", 404, `{"error": "Job not found"}`, "Job not found", nil, nil},
		{"error and field errors", 422, `{"error": "Validation failed", "errors": {"state": ["is invalid", "cannot move"], "worker_id": "is taken"}}`,
			"Validation failed", map[string][]string{"state": {"is invalid", "cannot move"}, "worker_id": {"is taken"}}, nil},
		{"errors array", 422, `{"errors": ["x", "y"]}`, "x; y", nil, []string{"x", "y"}},
		{"message", 403, `{"message": "Public Pool keys cannot create jobs"}`, "Public Pool keys cannot create jobs", nil, nil},
		{"error as array", 400, `{"error": ["a", "b"]}`, "a; b", nil, nil},
		{"error beats message", 400, `{"error": "e", "message": "m"}`, "e", nil, nil},
		{"empty error falls back to message", 400, `{"error": "", "message": "m"}`, "m", nil, nil},
		{"error as object", 400, `{"error": {"code": 7}}`, "", nil, nil},
		{"text", 500, "upstream exploded\n", "upstream exploded", nil, nil},
		{"long text", 500, strings.Repeat("x", 300), "", nil, nil},
		{"HTML", 502, "<html><body><h1>502 Bad Gateway</h1></body></html>", "", nil, nil},
		{"empty", 500, "", "", nil, nil},
		{"JSON null", 500, "null", "", nil, nil},
		{"bare JSON array", 500, `["a", "b"]`, "a; b", nil, []string{"a", "b"}},
		{"bare JSON string", 500, `"oops"`, "oops", nil, []string{"oops"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e := apiErrorFor(t, tt.status, tt.body, nil)
			assert.Equal(t, tt.status, e.StatusCode)
			assert.Equal(t, http.MethodGet, e.Method)
			assert.Equal(t, "/api_v2/jobs/42", e.Path)
			assert.Equal(t, tt.message, e.Message)
			if tt.fields == nil {
				assert.Empty(t, e.FieldErrors)
			} else {
				assert.Equal(t, tt.fields, e.FieldErrors)
			}
			assert.Equal(t, tt.errs, e.Errors)
			assert.Equal(t, tt.body, string(e.Body))
		})
	}
}

func TestAPIErrorRequestID(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"X-Request-Id", "Request-Id"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := apiErrorFor(t, 404, `{"error": "nope"}`, http.Header{http.CanonicalHeaderKey(name): {"req-8f2a"}})
			assert.Equal(t, "req-8f2a", e.RequestID)
			assert.Contains(t, e.Error(), "(request req-8f2a)")
		})
	}
}

func TestResponseCarriesRequestID(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(*http.Request) (*http.Response, error) {
		resp := httpmock.NewStringResponse(200, `{"job": {"id": 42}}`)
		resp.Header.Set("X-Request-Id", "req-ok")
		return resp, nil
	})
	_, resp, err := c.Jobs.Get(context.Background(), 42)
	require.NoError(t, err)
	assert.Equal(t, "req-ok", resp.RequestID)
}

func TestAPIErrorString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  *workforce.APIError
		want string
	}{
		{&workforce.APIError{StatusCode: 404, Method: "GET", Path: "/api_v2/jobs/42"},
			"workforce: GET /api_v2/jobs/42: 404 Not Found"},
		{&workforce.APIError{StatusCode: 404, Method: "GET", Path: "/api_v2/jobs/42", Message: "no such job", RequestID: "r1"},
			"workforce: GET /api_v2/jobs/42: 404 Not Found: no such job (request r1)"},
		{&workforce.APIError{StatusCode: 422, Method: "PATCH", Path: "/api_v2/jobs/1", Message: "Validation failed",
			FieldErrors: map[string][]string{"state": {"is invalid", "cannot move"}, "actual_duration": {"is negative"}}},
			"workforce: PATCH /api_v2/jobs/1: 422 Unprocessable Entity: Validation failed; actual_duration is negative; state is invalid, cannot move"},
		{&workforce.APIError{StatusCode: 422, Method: "POST", Path: "/api_v2/users", Message: "validation failed: email is taken",
			FieldErrors: map[string][]string{"email": {"is taken"}, "phone": {"is blank"}}},
			"workforce: POST /api_v2/users: 422 Unprocessable Entity: validation failed: email is taken; phone is blank"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.err.Error())
	}
	// The same, end to end.
	e := apiErrorFor(t, 422, `{"error": "Validation failed", "errors": {"state": ["is invalid"]}}`, http.Header{"X-Request-Id": {"r9"}})
	assert.Equal(t, "workforce: GET /api_v2/jobs/42: 422 Unprocessable Entity: Validation failed; state is invalid (request r9)", e.Error())
}

func TestAPIErrorMatchesItsSentinel(t *testing.T) {
	t.Parallel()
	sentinels := []error{workforce.ErrUnauthorized, workforce.ErrForbidden, workforce.ErrNotFound,
		workforce.ErrUnprocessable, workforce.ErrRateLimited, workforce.ErrServer}
	tests := []struct {
		status int
		want   error // nil: none
	}{
		{400, nil}, {401, workforce.ErrUnauthorized}, {403, workforce.ErrForbidden}, {404, workforce.ErrNotFound},
		{409, nil}, {422, workforce.ErrUnprocessable}, {429, workforce.ErrRateLimited},
		{500, workforce.ErrServer}, {502, workforce.ErrServer}, {503, workforce.ErrServer}, {599, workforce.ErrServer},
		{600, nil},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			t.Parallel()
			err := fmt.Errorf("wrapped: %w", &workforce.APIError{StatusCode: tt.status})
			for _, s := range sentinels {
				assert.Equal(t, s == tt.want, errors.Is(err, s), "%v", s)
			}
			assert.False(t, errors.Is(err, workforce.ErrInvalidArgument))
			var apiErr *workforce.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, tt.status, apiErr.StatusCode)
		})
	}
}

func TestAPIErrorStatusesEndToEnd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status int
		want   error
	}{
		{403, workforce.ErrForbidden}, {404, workforce.ErrNotFound}, {422, workforce.ErrUnprocessable},
		{429, workforce.ErrRateLimited}, {500, workforce.ErrServer}, {503, workforce.ErrServer},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.status), func(t *testing.T) {
			t.Parallel()
			e := apiErrorFor(t, tt.status, `{"error": "x"}`, nil)
			assert.ErrorIs(t, e, tt.want)
		})
	}
}

func TestAPIErrorBodyIsCapped(t *testing.T) {
	t.Parallel()
	body := `{"error": "` + strings.Repeat("a", 10<<10) + `"}`
	e := apiErrorFor(t, 500, body, nil)
	assert.Len(t, e.Body, 4<<10)
	assert.Equal(t, body[:4<<10], string(e.Body))
}

func TestArgumentErrorMatchesErrInvalidArgument(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	_, resp, err := c.Jobs.Get(context.Background(), 0)
	assert.Nil(t, resp)
	require.ErrorIs(t, err, workforce.ErrInvalidArgument)
	var argErr *workforce.ArgumentError
	require.ErrorAs(t, err, &argErr)
	assert.Equal(t, "id", argErr.Name)
	assert.Equal(t, "workforce: id must be positive, got 0", err.Error())
	assert.False(t, errors.Is(err, workforce.ErrNotFound))
	assert.Zero(t, m.GetTotalCallCount(), "nothing is sent")

	direct := &workforce.ArgumentError{Name: "Per", Reason: "too big"}
	assert.ErrorIs(t, fmt.Errorf("x: %w", direct), workforce.ErrInvalidArgument)
	assert.Equal(t, "workforce: Per too big", direct.Error())
}

func TestTransportErrorUnwraps(t *testing.T) {
	t.Parallel()
	cause := errors.New("network is down")
	c, m := newMock(t, workforce.WithRetry(0, 0, 0))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", httpmock.NewErrorResponder(cause))
	_, _, err := c.Jobs.Get(context.Background(), 42)
	var trErr *workforce.TransportError
	require.ErrorAs(t, err, &trErr)
	assert.ErrorIs(t, err, cause)
	assert.Equal(t, "/api_v2/jobs/42", trErr.Path)
	assert.Equal(t, "workforce: GET /api_v2/jobs/42: network is down", err.Error())
	var apiErr *workforce.APIError
	assert.False(t, errors.As(err, &apiErr))
}

func TestDecodeErrorOnBadSuccessBody(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"job": "not an object"}`, `not json`, `{"job": {"id": 1}`, `{"jobs": [{"id": 1}]}`} {
		t.Run(body, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t)
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", httpmock.NewStringResponder(200, body))
			job, resp, err := c.Jobs.Get(context.Background(), 42)
			var decErr *workforce.DecodeError
			require.ErrorAs(t, err, &decErr)
			assert.Nil(t, job)
			require.NotNil(t, resp)
			assert.Equal(t, "/api_v2/jobs/42", decErr.Path)
			assert.NotNil(t, errors.Unwrap(decErr))
		})
	}
}

// TestRedirectsAreRefused points every kind of redirect, from every kind
// of call, at a path of the API's own host and at a second server, keeping
// the query (and so the token) in Location: neither may receive anything,
// and the caller gets a *RedirectError that names the status and the host.
func TestRedirectsAreRefused(t *testing.T) {
	t.Parallel()
	calls := []struct {
		name string
		path string // the path that redirects
		do   func(*workforce.Client) (*workforce.Response, error)
	}{
		{"authenticate", "/api_v2/authenticate", func(c *workforce.Client) (*workforce.Response, error) {
			_, resp, err := c.Authentication.Authenticate(context.Background())
			return resp, err
		}},
		{"token fetch for a GET", "/api_v2/authenticate", func(c *workforce.Client) (*workforce.Response, error) {
			_, resp, err := c.Jobs.Get(context.Background(), 42)
			return resp, err
		}},
		{"GET", "/api_v2/jobs/42", func(c *workforce.Client) (*workforce.Response, error) {
			_, resp, err := c.Jobs.Get(context.Background(), 42)
			return resp, err
		}},
		{"POST", "/api_v2/jobs", func(c *workforce.Client) (*workforce.Response, error) {
			_, resp, err := c.Jobs.Create(context.Background(), &workforce.JobCreate{WorkerID: 7, JobRequestID: 9})
			return resp, err
		}},
	}
	for _, call := range calls {
		for _, status := range []int{301, 302, 303, 307, 308} {
			for _, sameHost := range []bool{true, false} {
				name := fmt.Sprintf("%s/%d/same host %v", call.name, status, sameHost)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					var stolen atomic.Int64
					thief := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						_, _ = io.Copy(io.Discard, r.Body)
						stolen.Add(1)
					}))
					defer thief.Close()
					var api *httptest.Server
					api = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
						switch {
						case r.URL.Path == call.path:
							to := thief.URL
							if sameHost {
								to = api.URL
							}
							w.Header().Set("Location", to+"/steal?"+r.URL.RawQuery)
							w.WriteHeader(status)
						case r.URL.Path == "/api_v2/authenticate":
							fmt.Fprintf(w, `{"token": %q, "expires_at": %q}`, testToken,
								time.Now().Add(24*time.Hour).UTC().Format(time.RFC3339))
						default: // /steal on the API's own host
							stolen.Add(1)
						}
					}))
					defer api.Close()
					c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(api.URL),
						workforce.WithRetry(2, time.Millisecond, time.Millisecond))
					require.NoError(t, err)

					resp, err := call.do(c)
					var redirectErr *workforce.RedirectError
					require.ErrorAs(t, err, &redirectErr)
					assert.ErrorIs(t, err, workforce.ErrRedirect)
					assert.Equal(t, status, redirectErr.StatusCode)
					want := thief.URL
					if sameHost {
						want = api.URL
					}
					assert.Equal(t, want, redirectErr.Location, "the host, without path or query")
					assert.Zero(t, stolen.Load(), "nothing reached the redirect's target")
					for _, leak := range []string{testToken, testSecretKey, "steal", "?"} {
						assert.NotContains(t, err.Error(), leak)
						assert.NotContains(t, fmt.Sprintf("%+v", redirectErr), leak)
					}
					if resp != nil && resp.Request != nil {
						assert.NotContains(t, resp.Request.URL.String(), testToken)
						assert.Nil(t, resp.Request.GetBody)
					}
				})
			}
		}
	}
}

// TestRedirectRefusedWithTheCallersHTTPClient checks that a client given
// an http.Client that follows redirects still follows none.
func TestRedirectRefusedWithTheCallersHTTPClient(t *testing.T) {
	t.Parallel()
	var stolen atomic.Int64
	thief := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { stolen.Add(1) }))
	defer thief.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, thief.URL+"/info", http.StatusTemporaryRedirect)
	}))
	defer api.Close()
	follow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}
	c := newKeyed(t, api.URL, workforce.WithHTTPClient(follow))
	_, _, err := c.Info.Get(context.Background())
	require.ErrorIs(t, err, workforce.ErrRedirect)
	assert.Zero(t, stolen.Load())
	assert.True(t, strings.Contains(err.Error(), "307"), err.Error())
}

// TestRedirectWithoutLocation checks a 3xx that names nowhere.
func TestRedirectWithoutLocation(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 302, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(""))}, nil
	})
	_, _, err := c.Jobs.Get(context.Background(), 42)
	var redirectErr *workforce.RedirectError
	require.True(t, errors.As(err, &redirectErr), "%v", err)
	assert.Empty(t, redirectErr.Location)
	assert.Equal(t, 1, m.GetTotalCallCount()-1, "one GET after the token fetch, no retry")
}

// TestContextEndKeepsTheCall checks that a call whose context ends while it
// waits to retry returns an error that matches the context's and names the
// method, the path and the last status seen.
func TestContextEndKeepsTheCall(t *testing.T) {
	t.Parallel()
	ctx, pass := newDeadline(context.Background())
	defer pass()
	c, m := newMock(t, workforce.WithRetry(5, time.Hour, time.Hour),
		workforce.WithLogger(slog.New(onMessage{"workforce: retrying", pass}))) // the deadline passes while it waits
	script(m, http.MethodGet, "jobs/42", step{status: 503})
	_, _, err := c.Jobs.Get(ctx, 42)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	var te *workforce.TransportError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, http.MethodGet, te.Method)
	assert.Equal(t, "/api_v2/jobs/42", te.Path)
	assert.Equal(t, 503, te.LastStatus)
	assert.Contains(t, err.Error(), "GET /api_v2/jobs/42")
	assert.Contains(t, err.Error(), "503")

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = c.Jobs.Get(cancelled, 42)
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorAs(t, err, &te)
	assert.Equal(t, "/api_v2/jobs/42", te.Path)
}
