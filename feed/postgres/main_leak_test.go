package postgres_test

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them. One
// of pgx's is let go: a context watcher that a connection still being
// opened in the background by a pool that was just closed leaves for a
// moment after the pool's Close returns. Without a database named, it says
// so before the tests skip, where go test shows a test's output without -v.
func TestMain(m *testing.M) {
	if os.Getenv(dsnVar) == "" && os.Getenv("CI") == "" {
		fmt.Printf("feed/postgres: %s not set: PostgreSQL tests skipped\n", dsnVar)
	}
	goleak.VerifyTestMain(m, goleak.IgnoreTopFunction("github.com/jackc/pgx/v5/pgconn/ctxwatch.(*ContextWatcher).Watch.func1"))
}
