package sqlite_test

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them. Run
// as the child of TestCrashSIGKILL, it is that child instead.
func TestMain(m *testing.M) {
	if os.Getenv("FEED_CRASH_CHILD") != "" {
		if err := crashChild(); err != nil {
			fmt.Fprintln(os.Stderr, "crash child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}
