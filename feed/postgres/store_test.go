package postgres_test

import (
	"testing"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
)

func TestStore(t *testing.T) {
	t.Parallel()
	feedtest.TestStore(t, func(t *testing.T) feed.Store { return store(t, database(t)) })
}
