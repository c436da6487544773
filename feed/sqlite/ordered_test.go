package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
	"github.com/workforce-marketplace/workforce-go/feed/sqlite"
)

// A TxHandler's transaction acknowledges its change, yet the resource's
// next change is handed over only after the Feed's handler, which works
// on after the transaction, returned: with one Feed on the store, and
// with two sharing it.
func TestTxHandlersWorkAfterTheTransactionIsInOrder(t *testing.T) {
	t.Parallel()
	wrap := func(s feed.Store, h feed.Handler) feed.Handler {
		return s.(*sqlite.Store).TxHandler(func(ctx context.Context, _ *sql.Tx, c *feed.Change) error { return h(ctx, c) })
	}
	for _, feeds := range []int{1, 2} {
		t.Run(map[int]string{1: "one", 2: "two"}[feeds], func(t *testing.T) {
			t.Parallel()
			s := open(t, filepath.Join(t.TempDir(), "feed.db"))
			t.Cleanup(func() { s.Close() })
			stores := []feed.Store{s}
			if feeds == 2 {
				stores = append(stores, s)
			}
			feedtest.Ordered(t, stores, wrap, 20*time.Millisecond)
		})
	}
}
