package feed_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// WithStartFromNow takes its start by the API's clock, which stamps the
// changes: with the API 20 s behind the receiver, every change made after
// the start is handed over (none was, when the start was the receiver's
// clock); with the API 20 s ahead, none made before it is.
func TestStartFromNowTakesTheAPIsClock(t *testing.T) {
	t.Parallel()
	for _, skew := range []time.Duration{-20 * time.Second, 20 * time.Second} {
		t.Run(fmt.Sprintf("API%+v", skew), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			fake := workforcetest.NewServer(t, workforcetest.WithClock(time.Now().UTC().Add(skew)), workforcetest.WithTickingClock())
			c, err := fake.Client()
			require.NoError(t, err)
			seed := fake.Seed()
			before, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID})
			require.NoError(t, err)
			require.NoError(t, fake.StartJob(before.ID))
			fake.Advance(2 * time.Second) // the start is in a later second than every change before it

			rec := newRecorder()
			store := feed.NewMemoryStore()
			f, err := feed.New(c, fake.Private.SecretKey, rec.handle, feed.WithStore(store), feed.WithStartFromNow(),
				feed.WithSyncInterval(-1), feed.WithPoll(20*time.Millisecond), feed.WithRetry(time.Millisecond, 10*time.Millisecond))
			require.NoError(t, err)
			srv := httptest.NewServer(f)
			t.Cleanup(srv.Close)
			require.NoError(t, fake.AddWebhookReceiver(srv.URL+"/webhooks"))
			run(t, f)
			require.NoError(t, f.Sync(ctx)) // takes the start
			start, err := store.Mark(ctx, "start")
			require.NoError(t, err)
			assert.WithinDuration(t, fake.Now(), start, 5*time.Second, "the API's clock, not the receiver's")

			require.NoError(t, fake.CompleteJob(before.ID))
			after, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[2], JobRequestID: seed.JobRequest1099ID})
			require.NoError(t, err)
			require.NoError(t, fake.StartJob(after.ID))
			require.NoError(t, f.Sync(ctx)) // and whatever a webhook missed
			got := rec.waitFor(t, "the three changes made after the start", func(cs []*feed.Change) bool {
				return len(of(cs, feed.KindJob, before.ID)) == 1 && len(of(cs, feed.KindJob, after.ID)) == 2
			})
			assert.Equal(t, []string{"in_progress>completed"}, of(got, feed.KindJob, before.ID))
			assert.Equal(t, []string{">filled", "filled>in_progress"}, of(got, feed.KindJob, after.ID))
			for _, ch := range got {
				if ch.Kind == feed.KindJob {
					assert.False(t, ch.At.Before(start.Truncate(time.Second)), "%s %d #%d at %s, before the start %s", ch.Kind, ch.ResourceID, ch.Seq, ch.At, start)
				}
			}
		})
	}
}

// A server whose /info tells no utc_time_now gives its clock in the Date
// header, as the SDK's sync reads it.
func TestStartFromNowReadsTheDateHeader(t *testing.T) {
	t.Parallel()
	api := time.Now().UTC().Add(-20 * time.Second).Truncate(time.Second)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", api.Format(http.TimeFormat))
		if r.URL.Path == "/api_v2/info" {
			fmt.Fprint(w, `{"environment":"test"}`)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := workforce.New("pk_test_feedstartclock012345678", "sk_test_feedstartclock012345678",
		workforce.WithBaseURL(srv.URL), workforce.WithRetry(0, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	rec := newRecorder()
	f, err := feed.New(c, "", rec.handle, feed.WithStartFromNow(), feed.WithSyncInterval(-1), feed.WithPoll(20*time.Millisecond))
	require.NoError(t, err)
	run(t, f)
	j := &workforce.Job{ID: 1, State: workforce.JobInProgress, Transitions: []workforce.Transition{
		{ID: 2, JobID: 1, Name: workforce.JobInProgress, CreatedAt: workforce.Time{Time: api.Add(3 * time.Second)}},
		{ID: 1, JobID: 1, Name: workforce.JobFilled, CreatedAt: workforce.Time{Time: api.Add(-5 * time.Second)}},
	}}
	require.NoError(t, f.IngestJob(context.Background(), j))
	got := rec.waitN(t, 1)
	assert.Equal(t, []string{"filled>in_progress"}, of(got, feed.KindJob, 1))
	assert.EqualValues(t, 1, f.Stats().Queued)
}
