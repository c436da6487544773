package workforce_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// A create refused with 429s before the attempt that may have acted
// records when that attempt was sent (Sent), after the 429s were answered,
// not when the call began: the server may work on it from then on (D1).
func TestOutcomeUnknownRecordsTheLastAttemptSent(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var refused time.Time // when the server answered the last 429
	posts := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/api_v2/authenticate":
			fmt.Fprintf(w, `{"token": %q, "expires_at": %q}`, testToken, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
		case r.Method == http.MethodPost:
			mu.Lock()
			posts++
			n := posts
			if n <= 3 {
				refused = time.Now()
			}
			mu.Unlock()
			if n <= 3 {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			w.WriteHeader(http.StatusBadGateway) // may have been done
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(srv.URL),
		workforce.WithRetry(3, 0, time.Second), workforce.WithRetryAfterUnit(time.Nanosecond))
	require.NoError(t, err)
	_, _, err = c.Jobs.Create(context.Background(), &workforce.JobCreate{WorkerID: 7, JobRequestID: 9})
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
	started, _ := workforce.CallStarted(err)
	sent := workforce.CallSent(err)
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, 4, posts)
	assert.True(t, started.Before(refused), "the call began before its 429s")
	assert.True(t, sent.After(refused), "Sent %v is not after the last 429 (%v): the horizon would count from before the attempt that may have acted", sent, refused)
}

// The horizon counts from Sent, not from Started: a create whose call
// began two horizons ago, but whose acting attempt was sent just now, may
// still be in flight, and its Settle never answers ErrNotFound yet (D1).
func TestSettleHorizonCountsFromTheLastAttemptSent(t *testing.T) {
	t.Parallel()
	api := newHeldAPI()
	srv := httptest.NewServer(api)
	defer srv.Close()
	c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(srv.URL), workforce.WithSettleHorizon(time.Hour))
	require.NoError(t, err)
	now := time.Now()
	createErr := &workforce.TransportError{OutcomeUnknown: true, Started: now.Add(-2 * time.Hour), Sent: now}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-api.listed; cancel() }()
	_, serr := c.Jobs.Settle(ctx, &workforce.JobCreate{WorkerID: 7, JobRequestID: 9}, createErr)
	cancel()
	require.NotErrorIs(t, serr, workforce.ErrNotFound, "the acting attempt was sent less than the horizon ago")
	require.ErrorIs(t, serr, workforce.ErrTooEarly)
	var unsettled *workforce.UnsettledError
	require.ErrorAs(t, serr, &unsettled)
	assert.Equal(t, now.Add(time.Hour), unsettled.Until)
	assert.Equal(t, createErr.Started, unsettled.Started, "the floor's origin stays the call's start")
	assert.Equal(t, now, unsettled.Sent)
}
