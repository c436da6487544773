package feed_test

import (
	"testing"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
)

func TestMemoryStore(t *testing.T) {
	t.Parallel()
	feedtest.TestStore(t, func(*testing.T) feed.Store { return feed.NewMemoryStore() })
}
