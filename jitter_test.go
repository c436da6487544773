package workforce_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// TestRetryWaitsAreJittered checks that the client draws each wait of its
// backoff from 0 to the exponential ceiling (full jitter) when the server
// gives no Retry-After, and waits what was drawn.
func TestRetryWaitsAreJittered(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithRetry(3, 10*time.Millisecond, 25*time.Millisecond))
	var mu sync.Mutex
	var ceilings []time.Duration
	workforce.SetJitterForTest(c, func(d time.Duration) time.Duration {
		mu.Lock()
		defer mu.Unlock()
		ceilings = append(ceilings, d)
		return 0 // the draw: no wait
	})
	calls := script(m, http.MethodGet, "jobs/42", step{status: 502}, step{status: 503}, step{status: 504}, step{status: 200})
	require.NoError(t, getJob42(c))
	assert.EqualValues(t, 4, calls.Load())
	assert.Equal(t, []time.Duration{10 * time.Millisecond, 20 * time.Millisecond, 25 * time.Millisecond}, ceilings,
		"drawn below min·2^attempt, capped at max")
}
