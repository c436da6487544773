package workforcetest

import (
	"testing"
	"time"
)

// startStore starts a server with n more Jobs (SeedJobs) for the store's internal tests.
func startStore(t *testing.T, n int) *Server {
	t.Helper()
	s := NewServer(t, WithClock(time.Date(2026, 6, 1, 15, 0, 0, 0, time.UTC)))
	s.SeedJobs(n)
	return s
}
