package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
	"github.com/workforce-marketplace/workforce-go/feed/postgres"
)

// A TxHandler's transaction marks its change handled, yet the resource's
// next change is handed over, by this instance or another, only after
// the Feed's handler, which works on after the transaction, returned.
func TestTxHandlersWorkAfterTheTransactionIsInOrder(t *testing.T) {
	t.Parallel()
	wrap := func(s feed.Store, h feed.Handler) feed.Handler {
		return s.(*postgres.Store).TxHandler(func(ctx context.Context, _ pgx.Tx, c *feed.Change) error { return h(ctx, c) })
	}
	for _, instances := range []int{1, 2} {
		t.Run(map[int]string{1: "one", 2: "two"}[instances], func(t *testing.T) {
			t.Parallel()
			pool := database(t)
			stores := []feed.Store{store(t, pool)}
			if instances == 2 {
				stores = append(stores, store(t, pool))
			}
			feedtest.Ordered(t, stores, wrap, 20*time.Millisecond)
		})
	}
}
