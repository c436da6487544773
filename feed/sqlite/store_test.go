package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
	"github.com/workforce-marketplace/workforce-go/feed/sqlite"
)

// open opens a store on a new file that the test closes.
func open(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStore(t *testing.T) {
	t.Parallel()
	feedtest.TestStore(t, func(t *testing.T) feed.Store {
		s := open(t, filepath.Join(t.TempDir(), "feed.db"))
		t.Cleanup(func() { s.Close() })
		return s
	})
}
