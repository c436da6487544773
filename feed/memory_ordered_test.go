package feed_test

import (
	"testing"
	"time"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
)

// A resource's next change is handed over only after the handler of the
// one before it returned, with one Feed on the store or two.
func TestMemoryStoreOrdersHandlersPerResource(t *testing.T) {
	t.Parallel()
	s := feed.NewMemoryStore()
	t.Run("one", func(t *testing.T) { feedtest.Ordered(t, []feed.Store{s}, nil, 20*time.Millisecond) })
	s = feed.NewMemoryStore()
	t.Run("two", func(t *testing.T) { feedtest.Ordered(t, []feed.Store{s, s}, nil, 20*time.Millisecond) })
}
