package feed_test

import (
	"testing"
	"time"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
)

func TestMemoryStore(t *testing.T) {
	t.Parallel()
	feedtest.TestStore(t, func(*testing.T) feed.Store { return feed.NewMemoryStore() })
}

// A Job's next change is handed over once the one before it is
// acknowledged, not at the next poll.
func TestMemoryStoreHandsTheNextChangeOverAtOnce(t *testing.T) {
	t.Parallel()
	at := feedtest.Follow(t, feed.NewMemoryStore(), 1, nil, time.Second)
	t.Logf("one copy revealing three changes: handed over at %v", at)
}
