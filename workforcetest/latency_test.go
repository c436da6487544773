package workforcetest_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// timed returns how long a GET of path took, and its status.
func (f *fake) timed(path, token string) (time.Duration, int) {
	f.t.Helper()
	start := time.Now()
	status, _ := f.get(path, token)
	return time.Since(start), status
}

func TestLatencyDelaysEveryAPIRequest(t *testing.T) {
	t.Parallel()
	f := newFake(t, workforcetest.WithLatency(40*time.Millisecond)) // the two tokens waited too
	assert.Equal(t, 40*time.Millisecond, f.Latency())
	for range 2 { // every request, not once
		took, status := f.timed("/api_v2/jobs", f.private)
		assert.Equal(t, http.StatusOK, status)
		assert.GreaterOrEqual(t, took, 40*time.Millisecond)
	}
	took, status := f.timed("/api_v2/info", "")
	assert.Equal(t, http.StatusOK, status)
	assert.GreaterOrEqual(t, took, 40*time.Millisecond, "open routes too")

	status, body := f.control(http.MethodGet, "latency")
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, obj{"latency_ms": 40.0}, body)
	status, body = f.control(http.MethodPost, "latency", "ms", "0")
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, obj{"latency_ms": 0.0}, body)
	assert.Zero(t, f.Latency())
	for _, bad := range []string{"", "-1", "1.5", "soon"} {
		status, body = f.control(http.MethodPost, "latency", "ms", bad)
		assert.Equal(t, http.StatusUnprocessableEntity, status, bad)
		assert.Contains(t, body["errors"], "ms", bad)
	}

	f.SetLatency(time.Hour) // the control API never waits; a client that gives up gets no answer
	status, _ = f.control(http.MethodGet, "latency")
	assert.Equal(t, http.StatusOK, status)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.URL+"/api_v2/info", nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		_ = resp.Body.Close()
	}
	require.ErrorIs(t, err, context.DeadlineExceeded)
	f.SetLatency(-time.Second)
	assert.Zero(t, f.Latency(), "none below 0")
	took, status = f.timed("/api_v2/info", "")
	assert.Equal(t, http.StatusOK, status)
	assert.Less(t, took, time.Second)
}
