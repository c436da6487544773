package postgres_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them. One
// of pgx's is let go: a context watcher that a connection still being
// opened in the background by a pool that was just closed leaves for a
// moment after the pool's Close returns.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/jackc/pgx/v5/pgconn/ctxwatch.(*ContextWatcher).Watch.func1"))
}
