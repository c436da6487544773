package workforce_test

import (
	"log/slog"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/workforce-marketplace/workforce-go"
)

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
