package feedtest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
)

// Follow checks that a resource's next change is handed over as soon as
// the change before it is acknowledged (after its handler, a store's
// TxHandler say, returned), not at the next poll. It runs a Feed
// on s that polls once an hour, ingests one copy of a Job (id) revealing
// three changes, and fails tb unless the handler (a recorder, wrapped by
// wrap when not nil) is called for all three, in order, within bound of
// the ingest's start; it answers when each call began, from that start.
// A Feed that waits for its poll waits an hour: only the wakeups of the
// Feed and of the store can hand the changes over.
func Follow(tb testing.TB, s feed.Store, id int64, wrap func(feed.Handler) feed.Handler, bound time.Duration) [3]time.Duration {
	tb.Helper()
	var (
		mu    sync.Mutex
		start time.Time
		at    []time.Duration
		seqs  []int64
		all   = make(chan struct{})
	)
	var h feed.Handler = func(_ context.Context, c *feed.Change) error {
		mu.Lock()
		defer mu.Unlock()
		at, seqs = append(at, time.Since(start)), append(seqs, c.Seq)
		if len(at) == 3 {
			close(all)
		}
		return nil
	}
	if wrap != nil {
		h = wrap(h)
	}
	f, err := feed.New(nil, "", h, feed.WithStore(s), feed.WithPoll(time.Hour), feed.WithSyncInterval(-1))
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- f.Run(ctx) }()
	defer func() {
		cancel()
		if err := <-ran; err != nil {
			tb.Errorf("Run: %v", err)
		}
	}()
	base := time.Now().UTC().Truncate(time.Second)
	j := &workforce.Job{ID: id, State: workforce.JobCompleted}
	for i, state := range []workforce.JobState{workforce.JobCompleted, workforce.JobInProgress, workforce.JobFilled} { // newest first
		j.Transitions = append(j.Transitions, workforce.Transition{ID: id*10 + 3 - int64(i), JobID: id, Name: state,
			CreatedAt: workforce.Time{Time: base.Add(-time.Duration(i) * time.Second)}})
	}
	mu.Lock()
	start = time.Now()
	mu.Unlock()
	if err := f.IngestJob(ctx, j); err != nil {
		tb.Fatal(err)
	}
	t := time.NewTimer(bound)
	defer t.Stop()
	select {
	case <-all:
	case <-t.C:
		mu.Lock()
		defer mu.Unlock()
		tb.Fatalf("one copy revealing three changes: %d handed over within %v (at %v): a change waited for the poll", len(at), bound, at)
	}
	mu.Lock()
	defer mu.Unlock()
	if seqs[0] != 1 || seqs[1] != 2 || seqs[2] != 3 {
		tb.Errorf("changes handed over as Seq %v, want 1, 2, 3", seqs)
	}
	return [3]time.Duration(at)
}
