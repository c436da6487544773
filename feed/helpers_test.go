package feed_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// recorder is a Handler that keeps every change it is handed.
type recorder struct {
	mu      sync.Mutex
	changes []*feed.Change
	changed chan struct{}
	fail    func(c *feed.Change) error // optional: a failure to answer instead
}

func newRecorder() *recorder { return &recorder{changed: make(chan struct{})} }

func (r *recorder) handle(_ context.Context, c *feed.Change) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		if err := r.fail(c); err != nil {
			return err
		}
	}
	r.changes = append(r.changes, c)
	close(r.changed)
	r.changed = make(chan struct{})
	return nil
}

// waitFor waits until cond holds of the changes so far.
func (r *recorder) waitFor(t *testing.T, what string, cond func([]*feed.Change) bool) []*feed.Change {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		r.mu.Lock()
		got, ch := append([]*feed.Change(nil), r.changes...), r.changed
		r.mu.Unlock()
		if cond(got) {
			return got
		}
		select {
		case <-ch:
		case <-ctx.Done():
			t.Fatalf("waiting for %s: got %s", what, describe(got))
		}
	}
}

// waitN waits for n changes.
func (r *recorder) waitN(t *testing.T, n int) []*feed.Change {
	t.Helper()
	return r.waitFor(t, fmt.Sprintf("%d changes", n), func(cs []*feed.Change) bool { return len(cs) >= n })
}

// describe lists changes as kind id: from>to.
func describe(cs []*feed.Change) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%s %d #%d: %s>%s; ", c.Kind, c.ResourceID, c.Seq, c.From, c.To)
	}
	return b.String()
}

// of answers the changes of one resource, as "from>to" strings.
func of(cs []*feed.Change, kind feed.Kind, id int64) []string {
	var out []string
	for _, c := range cs {
		if c.Kind == kind && c.ResourceID == id {
			out = append(out, c.From+">"+c.To)
		}
	}
	return out
}

// setup starts a fake whose webhooks go to a running Feed with rec's
// handler, and answers them.
func setup(t *testing.T, rec *recorder, opts ...feed.Option) (*workforcetest.Server, *feed.Feed, *workforce.Client) {
	t.Helper()
	fake := workforcetest.NewServer(t)
	c, err := fake.Client()
	require.NoError(t, err)
	opts = append([]feed.Option{feed.WithRetry(time.Millisecond, 10*time.Millisecond), feed.WithPoll(20 * time.Millisecond),
		feed.WithSyncInterval(-1)}, opts...)
	f, err := feed.New(c, fake.Private.SecretKey, rec.handle, opts...)
	require.NoError(t, err)
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	require.NoError(t, fake.AddWebhookReceiver(srv.URL+"/webhooks"))
	run(t, f)
	return fake, f, c
}

// run runs f until the test ends.
func run(t *testing.T, f *feed.Feed) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
}

// job builds a copy of a Job with transitions given oldest first as
// "id:state", each a second after the one before.
func job(id int64, transitions ...string) *workforce.Job {
	j := &workforce.Job{ID: id}
	base := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i, t := range transitions {
		var tid int64
		var name string
		fmt.Sscanf(strings.Replace(t, ":", " ", 1), "%d %s", &tid, &name)
		j.Transitions = append([]workforce.Transition{{ID: tid, JobID: id, Name: workforce.JobState(name),
			CreatedAt: workforce.Time{Time: base.Add(time.Duration(i) * time.Second)}}}, j.Transitions...)
		j.State = workforce.JobState(name)
	}
	return j
}

// jobRequest builds a copy of a Job Request in state, updated at second sec.
func jobRequest(id int64, state string, sec int) *workforce.JobRequest {
	return &workforce.JobRequest{ID: id, State: workforce.JobRequestState(state),
		UpdatedAt: workforce.Time{Time: time.Date(2026, 3, 1, 9, 0, sec, 0, time.UTC)}}
}
