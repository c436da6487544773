package workforce_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// echo is an error body that repeats every secret of the request back, in
// every form a careless server might.
func echo(req *http.Request) string {
	tok := tokenOf(req)
	return fmt.Sprintf(`{"error": "rejected %s with %s/%s", "token": "%s", "api_key": "%s", "url": "%s", `+
		`"errors": {"token": ["%s is expired"], "secret_key": ["%s"]}}`,
		tok, testAPIKey, testSecretKey, tok, testAPIKey, req.URL, tok, testSecretKey)
}

func echoResponder(status int) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		return httpmock.NewStringResponse(status, echo(req)), nil
	}
}

func TestNoSecretInErrorsOrLogs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(m *mockAPI)
	}{
		{"wrong keys", func(m *mockAPI) {
			m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", echoResponder(401))
		}},
		{"token rejected twice", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", echoResponder(401))
		}},
		{"forbidden", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", echoResponder(403))
		}},
		{"unprocessable", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", echoResponder(422))
		}},
		{"server error", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", echoResponder(500))
		}},
		{"server error, plain text", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(req *http.Request) (*http.Response, error) {
				return httpmock.NewStringResponse(500, "failed: "+req.URL.String()+" token "+tokenOf(req)), nil
			})
		}},
		{"retried, then failed", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", echoResponder(503))
		}},
		{"authentication failed", func(m *mockAPI) {
			m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", echoResponder(500))
		}},
		{"transport error naming the URL", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(req *http.Request) (*http.Response, error) {
				return nil, fmt.Errorf("proxy refused %s (token %s)", req.URL, tokenOf(req))
			})
		}},
		{"transport error", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", httpmock.NewErrorResponder(errors.New("connection reset")))
		}},
		{"undecodable answer", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(req *http.Request) (*http.Response, error) {
				return httpmock.NewStringResponse(200, `{"job": "`+tokenOf(req)+`"}`), nil
			})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var logs syncBuffer
			logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			c, m := newMock(t, workforce.WithLogger(logger))
			tt.setup(m)

			_, _, err := c.Jobs.Get(context.Background(), 42)
			require.Error(t, err)

			seen := []string{err.Error(), fmt.Sprintf("%v|%+v|%s", err, err, err), logs.String()}
			var apiErr *workforce.APIError
			if errors.As(err, &apiErr) {
				seen = append(seen, string(apiErr.Body), apiErr.Message, fmt.Sprint(apiErr.FieldErrors, apiErr.Errors),
					fmt.Sprintf("%+v", *apiErr))
			}
			for _, s := range seen {
				for _, secret := range []string{testAPIKey, testSecretKey, testToken} {
					assert.NotContains(t, s, secret)
				}
			}
			assert.NotEmpty(t, logs.String(), "the failure was logged")
		})
	}
}

func TestLogsDescribeCalls(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, m := newMock(t, workforce.WithLogger(logger))
	script(m, http.MethodGet, "jobs/42", step{status: 503}, step{status: 200})
	require.NoError(t, getJob42(c))

	out := logs.String()
	assert.Contains(t, out, "workforce: retrying")
	assert.Contains(t, out, "status=503", "why it was retried")
	assert.Contains(t, out, "path=/api_v2/jobs/42")
	assert.Contains(t, out, "status=200")
	for _, secret := range []string{testAPIKey, testSecretKey, testToken} {
		assert.NotContains(t, out, secret)
	}
}

func TestNoLoggerLogsNothing(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithLogger(nil))
	script(m, http.MethodGet, "jobs/42", step{status: 500})
	require.Error(t, getJob42(c)) // and does not panic
}
