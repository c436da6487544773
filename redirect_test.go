package workforce_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

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
	c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(api.URL), workforce.WithHTTPClient(follow))
	require.NoError(t, err)
	_, _, err = c.Info.Get(context.Background())
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
