package feed_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/webhook"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// A Feed is the http.Handler of your webhook URL. Here two deliveries of
// one Job arrive out of order: the later copy first (filled, then
// in_progress), then the earlier one again (filled only). The Job's
// changes are handed over once each, in order; the late copy reveals
// nothing new.
func ExampleFeed_ServeHTTP() {
	secretKey := "sk_test_51Hfake0000000000000000" // the secret key of your key pair
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f, err := feed.New(nil, secretKey, func(ctx context.Context, c *feed.Change) error {
		fmt.Printf("job %d, change %d: %q -> %q\n", c.ResourceID, c.Seq, c.From, c.To)
		if c.To == "in_progress" {
			cancel() // enough for this example: Run returns
		}
		return nil // acknowledged: never handed over again
	}) // no client: no sync; the MemoryStore by default
	if err != nil {
		panic(err)
	}

	later := `{"job":{"id":42,"state":"in_progress","transitions":[
		{"id":2,"job_id":42,"name":"in_progress","created_at":"2026-03-01T09:05:00Z"},
		{"id":1,"job_id":42,"name":"filled","created_at":"2026-03-01T08:00:00Z"}]}}`
	earlier := `{"job":{"id":42,"state":"filled","transitions":[
		{"id":1,"job_id":42,"name":"filled","created_at":"2026-03-01T08:00:00Z"}]}}`
	for _, body := range []string{later, earlier} {
		req := httptest.NewRequest(http.MethodPost, "/webhooks", strings.NewReader(body))
		req.Header.Set(webhook.Header, webhook.Sign([]byte(body), secretKey))
		rec := httptest.NewRecorder()
		f.ServeHTTP(rec, req) // verified, stored, then answered
		fmt.Println("delivery answered", rec.Code)
	}

	if err := f.Run(ctx); err != nil { // hands the changes over until ctx ends
		panic(err)
	}
	fmt.Println(f.Stats().Handled, "changes handled")
	// Output:
	// delivery answered 204
	// delivery answered 204
	// job 42, change 1: "" -> "filled"
	// job 42, change 2: "filled" -> "in_progress"
	// 2 changes handled
}

// Sync reads what changed from the API, the safety net for deliveries that
// never came; Run calls it on an interval. Here the feed syncs once from
// the fake, after a Worker was assigned and started a Job, and hands over
// that Job's changes.
func ExampleFeed_Sync() {
	srv, err := workforcetest.Start() // the fake, on loopback
	if err != nil {
		panic(err)
	}
	defer srv.Close()
	c, err := srv.Client()
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	seed := srv.Seed()
	job, _, err := c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID})
	if err != nil {
		panic(err)
	}
	if err := srv.StartJob(job.ID); err != nil { // the Worker checks in
		panic(err)
	}

	f, err := feed.New(c, srv.Private.SecretKey, func(ctx context.Context, ch *feed.Change) error {
		if ch.Kind == feed.KindJob && ch.ResourceID == job.ID {
			fmt.Printf("our Job: %q -> %q\n", ch.From, ch.To)
			if ch.To == "in_progress" {
				cancel()
			}
		}
		return nil // the seed's other records: acknowledged, nothing to do
	}, feed.WithSyncInterval(-1)) // this example syncs by hand
	if err != nil {
		panic(err)
	}
	if err := f.Sync(ctx); err != nil {
		panic(err)
	}
	if err := f.Run(ctx); err != nil {
		panic(err)
	}
	// Output:
	// our Job: "" -> "filled"
	// our Job: "filled" -> "in_progress"
}
