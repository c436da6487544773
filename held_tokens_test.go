package workforce_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// randomTokens answers POST /authenticate with a new random token each
// time, valid for 24 hours from its clock, and remembers them in order.
type randomTokens struct {
	mu     sync.Mutex
	issued []string
	now    time.Time
}

func newRandomTokens(m *mockAPI, now time.Time) *randomTokens {
	rt := &randomTokens{now: now}
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", func(*http.Request) (*http.Response, error) {
		b := make([]byte, 20)
		_, _ = rand.Read(b)
		rt.mu.Lock()
		tok := "tok_" + hex.EncodeToString(b)
		rt.issued = append(rt.issued, tok)
		expires := rt.now.Add(24 * time.Hour)
		rt.mu.Unlock()
		return httpmock.NewJsonResponse(200, map[string]any{"token": tok, "expires_at": expires.UTC().Format(time.RFC3339)})
	})
	return rt
}

func (rt *randomTokens) clock() time.Time {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.now
}

func (rt *randomTokens) set(t time.Time) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.now = t
}

func (rt *randomTokens) token(i int) string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.issued[i]
}

// TestEarlierTokensStayHidden sends a call with the first token, renews the
// token while it is in flight (by Authenticate, by a spurious 401 on
// another call, by the timed renewal), then answers the call with an error
// that repeats the first token: it is still valid, so neither the error,
// its body nor the log line may show it.
func TestEarlierTokensStayHidden(t *testing.T) {
	t.Parallel()
	renewals := map[string]func(t *testing.T, c *workforce.Client, m *mockAPI, rt *randomTokens){
		"Authenticate": func(t *testing.T, c *workforce.Client, _ *mockAPI, _ *randomTokens) {
			_, _, err := c.Authentication.Authenticate(context.Background())
			require.NoError(t, err)
		},
		"a spurious 401 on another call": func(t *testing.T, c *workforce.Client, m *mockAPI, rt *randomTokens) {
			first := rt.token(0)
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(req *http.Request) (*http.Response, error) {
				if tokenOf(req) == first {
					return httpmock.NewStringResponse(401, `{"error": "try again"}`), nil
				}
				return httpmock.NewStringResponse(200, `{"job": {"id": 42}}`), nil
			})
			getJob(t, c)
		},
		"the timed renewal": func(t *testing.T, c *workforce.Client, _ *mockAPI, rt *randomTokens) {
			rt.set(epoch.Add(24*time.Hour - 4*time.Minute)) // inside the renewal margin, still valid
			getJob(t, c)
		},
	}
	for name, renew := range renewals {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var logs syncBuffer
			c, m := newMock(t, workforce.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
			rt := newRandomTokens(m, epoch)
			workforce.SetClockForTest(c, rt.clock)
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", httpmock.NewStringResponder(200, `{"job": {"id": 42}}`))
			getJob(t, c) // the first token

			arrived, release := make(chan string, 1), make(chan struct{})
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/1", func(req *http.Request) (*http.Response, error) {
				arrived <- tokenOf(req)
				<-release
				return httpmock.NewStringResponse(500, echo(req)), nil
			})
			errc := make(chan error, 1)
			go func() {
				_, _, err := c.Jobs.Get(context.Background(), 1)
				errc <- err
			}()
			first := <-arrived
			require.Equal(t, rt.token(0), first)

			renew(t, c, m, rt)
			require.NotEqual(t, first, rt.token(len(rt.issued)-1), "renewed")
			close(release)
			err := <-errc

			var apiErr *workforce.APIError
			require.True(t, errors.As(err, &apiErr), "%v", err)
			assert.NotContains(t, err.Error(), first)
			assert.NotContains(t, string(apiErr.Body), first)
			assert.Contains(t, string(apiErr.Body), "[REDACTED]")
			assert.NotContains(t, apiErr.Message, first)
			assert.NotContains(t, logs.String(), first)
			assert.Contains(t, logs.String(), "call failed")
		})
	}
}
