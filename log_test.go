package workforce_test

import (
	"context"
	"iter"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
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

// TestIteratorsEndingLogNoFailure breaks out of every iterator after its
// first record, and runs each to its end, with a logger attached: the pages
// an iterator fetched ahead and then cancelled were abandoned, not failed,
// so no line is a warning or an error (they once logged "call failed ...
// context canceled").
func TestIteratorsEndingLogNoFailure(t *testing.T) {
	t.Parallel()
	srv := workforcetest.NewServer(t, workforcetest.WithLatency(5*time.Millisecond))
	srv.SeedJobs(3000) // 3,000 Jobs, 60 Job Requests, 50 more Workers: lists of several pages
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, err := srv.Client(workforce.WithLogger(logger), workforce.WithRetry(3, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	ctx := context.Background()
	iterators := map[string]func(breakAfter int) (int, error){
		"Jobs.All":        func(n int) (int, error) { return count(c.Jobs.All(ctx, nil), n) },
		"JobRequests.All": func(n int) (int, error) { return count(c.JobRequests.All(ctx, nil), n) },
		"Users.All":       func(n int) (int, error) { return count(c.Users.All(ctx, nil), n) },
		"Badges.All":      func(n int) (int, error) { return count(c.Badges.All(ctx, nil), n) },
		"Customers.All":   func(n int) (int, error) { return count(c.Customers.All(ctx, nil), n) },
		"Messages.All":    func(n int) (int, error) { return count(c.Messages.All(ctx, nil), n) },
		"Jobs.Sync": func(n int) (int, error) {
			var wm time.Time
			return count(c.Jobs.Sync(ctx, &wm, nil), n)
		},
		"JobRequests.Sync": func(n int) (int, error) {
			var wm time.Time
			return count(c.JobRequests.Sync(ctx, &wm, nil), n)
		},
		"Users.Sync": func(n int) (int, error) {
			var wm time.Time
			return count(c.Users.Sync(ctx, &wm, nil), n)
		},
	}
	for name, it := range iterators {
		for _, breakAfter := range []int{1, 60, 0} { // in the first page, in the second, never
			n, err := it(breakAfter)
			require.NoError(t, err, name)
			if name != "Messages.All" { // the seed has no Message
				require.Positive(t, n, name)
			}
		}
	}
	out := logs.String()
	assert.Contains(t, out, "level=DEBUG", "the calls were logged")
	for _, line := range strings.Split(out, "\n") {
		assert.NotContains(t, line, "level=WARN", "no warning")
		assert.NotContains(t, line, "level=ERROR", "no error")
	}
}

// count ranges over seq, breaking after breakAfter records (never when 0),
// and answers how many it saw, or the first error.
func count[T any](seq iter.Seq2[T, error], breakAfter int) (int, error) {
	n := 0
	for _, err := range seq {
		if err != nil {
			return n, err
		}
		if n++; n == breakAfter {
			break
		}
	}
	return n, nil
}
