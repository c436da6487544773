package main

import (
	"context"
	"fmt"
	"net/http"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/sqlite"
)

// readmeFeed is the README's change feed, compiled here, where the SQLite
// store is a dependency; the root module's TestREADMECodeIsCompiled checks
// that the README's block still reads the same.
func readmeFeed(ctx context.Context, client *workforce.Client, secretKey string) error {
	store, err := sqlite.Open(ctx, "feed.db") // resumes after a restart; feed.NewMemoryStore() in tests
	if err != nil {
		return err
	}
	defer store.Close()
	f, err := feed.New(client, secretKey, func(ctx context.Context, c *feed.Change) error {
		fmt.Println(c.Kind, c.ResourceID, c.From, "->", c.To) // once per change, in order per resource
		return nil                                            // nil acknowledges the change
	}, feed.WithStore(store))
	if err != nil {
		return err
	}
	http.Handle("/webhooks", f) // verifies each delivery, stores it, then answers 204
	return f.Run(ctx)           // hands changes over; syncs every minute, the safety net
}

var _ = readmeFeed // compiled, not run: it would serve on the default mux
