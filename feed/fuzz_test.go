package feed_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/webhook"
)

// FuzzIngest checks that any delivery body is ingested without a panic,
// refused only as ErrMalformed, and that a second ingest of the same copy
// reveals nothing.
func FuzzIngest(f *testing.F) {
	f.Add([]byte(`{"job":{"id":1,"state":"completed","transitions":[{"id":3,"name":"completed","created_at":"2017-09-13T17:57:59Z"},{"id":2,"name":"filled","created_at":"2017-09-13T17:57:59Z"}]}}`))
	f.Add([]byte(`{"job_request":{"id":5,"state":"posted","updated_at":"2017-09-13T11:34:36.820-07:00"}}`))
	f.Add([]byte(`{"job":{"id":1,"transitions":[{"id":0,"name":"filled"}]}}`))
	f.Add([]byte(`{"job_request":{"id":5,"state":"","updated_at":null}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		ev, err := webhook.Parse(body)
		if err != nil {
			return
		}
		store := feed.NewMemoryStore()
		fd, err := feed.New(nil, "", func(context.Context, *feed.Change) error { return nil }, feed.WithStore(store))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		ingest := func() error {
			switch ev.Kind {
			case webhook.KindJob:
				return fd.IngestJob(ctx, ev.Job)
			case webhook.KindJobRequest:
				return fd.IngestJobRequest(ctx, ev.JobRequest)
			}
			return nil
		}
		if err := ingest(); err != nil {
			if !errors.Is(err, feed.ErrMalformed) {
				t.Fatalf("ingest: %v", err)
			}
			return
		}
		queued := fd.Stats().Queued
		if err := ingest(); err != nil {
			t.Fatalf("a second ingest: %v", err)
		}
		if again := fd.Stats().Queued; again != queued {
			t.Fatalf("a second ingest of the same copy queued %d more", again-queued)
		}
		claims, err := store.Claim(ctx, 10, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if queued > 0 && (len(claims) != 1 || claims[0].Seq != 1) {
			t.Fatalf("%d changes queued; claimed %+v", queued, claims)
		}
	})
}
