package feedtest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
)

// Ordered checks that a resource's next change is handed over only after
// the handler of the change before it has returned, whichever Feed holds
// it: work a handler does after its transaction (a store's TxHandler)
// is in order per resource too. It runs a Feed on each of stores (one
// store twice: two Feeds sharing it), each with a handler that wrap
// makes of a recorder (wrap(s, h): a store's TxHandler calling h, say;
// nil: h itself) and that, after it returns, works on for delay before
// returning in turn. It ingests through the first Feed four Jobs of
// three changes each, and fails tb when a change's recorder is called
// before the handler of its resource's change before it returned, or when
// the twelve are not all handled within a minute.
func Ordered(tb testing.TB, stores []feed.Store, wrap func(feed.Store, feed.Handler) feed.Handler, delay time.Duration) {
	tb.Helper()
	const jobs, changes = 4, 3
	var (
		mu       sync.Mutex
		returned = map[int64]int64{} // per Job, the Seq whose handler returned last
		errs     []string
		all      = make(chan struct{})
	)
	record := func(_ context.Context, c *feed.Change) error {
		mu.Lock()
		defer mu.Unlock()
		if prev := returned[c.ResourceID]; prev != c.Seq-1 {
			errs = append(errs, fmt.Sprintf("Job %d #%d handed over when the handler of #%d had returned last", c.ResourceID, c.Seq, prev))
		}
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	var first *feed.Feed
	for _, s := range stores {
		inner := feed.Handler(record)
		if wrap != nil {
			inner = wrap(s, record)
		}
		h := func(ctx context.Context, c *feed.Change) error {
			if err := inner(ctx, c); err != nil {
				return err
			}
			t := time.NewTimer(delay) // work after the transaction: a log line, an HTTP call
			defer t.Stop()
			<-t.C
			mu.Lock()
			defer mu.Unlock()
			if returned[c.ResourceID] < c.Seq {
				returned[c.ResourceID] = c.Seq
			}
			done := 0
			for _, seq := range returned {
				done += int(seq)
			}
			if done == jobs*changes && len(returned) == jobs {
				select {
				case <-all:
				default:
					close(all)
				}
			}
			return nil
		}
		f, err := feed.New(nil, "", h, feed.WithStore(s), feed.WithPoll(20*time.Millisecond), feed.WithSyncInterval(-1))
		if err != nil {
			tb.Fatal(err)
		}
		if first == nil {
			first = f
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := f.Run(ctx); err != nil {
				tb.Errorf("Run: %v", err)
			}
		}()
	}
	base := time.Now().UTC().Truncate(time.Second)
	for id := int64(1); id <= jobs; id++ {
		j := &workforce.Job{ID: id, State: workforce.JobCompleted}
		for i, state := range []workforce.JobState{workforce.JobCompleted, workforce.JobInProgress, workforce.JobFilled} { // newest first
			j.Transitions = append(j.Transitions, workforce.Transition{ID: id*10 + 3 - int64(i), JobID: id, Name: state,
				CreatedAt: workforce.Time{Time: base.Add(-time.Duration(i) * time.Second)}})
		}
		if err := first.IngestJob(ctx, j); err != nil {
			tb.Fatal(err)
		}
	}
	t := time.NewTimer(time.Minute)
	defer t.Stop()
	select {
	case <-all:
	case <-t.C:
		tb.Errorf("not every change was handled within a minute")
	}
	mu.Lock()
	defer mu.Unlock()
	for _, e := range errs {
		tb.Error(e)
	}
}
