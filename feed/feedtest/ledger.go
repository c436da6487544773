package feedtest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
)

// truth is the fake's record at the end: each Job's transitions oldest
// first, each Job Request's state.
type truth struct {
	jobs     map[int64][]workforce.Transition
	requests map[int64]string
}

func expected(tb testing.TB, ctx context.Context, c *workforce.Client) truth {
	tb.Helper()
	t := truth{jobs: map[int64][]workforce.Transition{}, requests: map[int64]string{}}
	for j, err := range c.Jobs.All(ctx, nil) {
		if err != nil {
			tb.Fatalf("listing the Jobs: %v", err)
		}
		ts := slices.Clone(j.Transitions)
		slices.Reverse(ts)
		t.jobs[j.ID] = ts
	}
	for jr, err := range c.JobRequests.All(ctx, nil) {
		if err != nil {
			tb.Fatalf("listing the Job Requests: %v", err)
		}
		t.requests[jr.ID] = string(jr.State)
	}
	return t
}

// ledgerEntry is one handled change.
type ledgerEntry struct {
	seq      int64
	tid      int64
	from, to string
}

// ledger keeps every change handled, by resource.
type ledger struct {
	mu       sync.Mutex
	jobs     map[int64][]ledgerEntry
	requests map[int64][]ledgerEntry
	count    int
	changed  chan struct{}
}

func (l *ledger) record(ch *feed.Change) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := ledgerEntry{seq: ch.Seq, tid: ch.TransitionID, from: ch.From, to: ch.To}
	if ch.Kind == feed.KindJob {
		l.jobs[ch.ResourceID] = append(l.jobs[ch.ResourceID], e)
	} else {
		l.requests[ch.ResourceID] = append(l.requests[ch.ResourceID], e)
	}
	l.count++
	close(l.changed)
	l.changed = make(chan struct{})
}

// waitFor waits until cond holds, as the ledger changes; three minutes at
// most.
func (l *ledger) waitFor(tb testing.TB, what string, cond func() bool, detail ...*string) {
	tb.Helper()
	deadline := time.NewTimer(3 * time.Minute)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond) // conditions that do not follow the ledger
	defer tick.Stop()
	for {
		l.mu.Lock()
		ch := l.changed
		l.mu.Unlock()
		if cond() {
			return
		}
		select {
		case <-ch:
		case <-tick.C:
		case <-deadline.C:
			d := ""
			for _, x := range detail {
				d += *x
			}
			tb.Fatalf("feedtest: waited three minutes for %s (%d changes handled) %s", what, l.count, d)
		}
	}
}

// missing answers what of want was not handled yet: "" when nothing.
func (l *ledger) missing(want truth) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, ts := range want.jobs {
		got := l.jobs[id]
		for _, t := range ts {
			if !slices.ContainsFunc(got, func(e ledgerEntry) bool { return e.tid == t.ID }) {
				return fmt.Sprintf("job %d: transition %d (%s); handled %v", id, t.ID, t.Name, got)
			}
		}
	}
	for id, state := range want.requests {
		got := l.requests[id]
		if len(got) == 0 || got[len(got)-1].to != state {
			return fmt.Sprintf("job request %d: state %s; handled %v", id, state, got)
		}
	}
	return ""
}

// judge counts what was lost, repeated and out of order.
func (l *ledger) judge(want truth, res *Result) {
	l.mu.Lock()
	defer l.mu.Unlock()
	problem := func(format string, args ...any) {
		if len(res.Problems) < 10 {
			res.Problems = append(res.Problems, fmt.Sprintf(format, args...))
		}
	}
	for id, ts := range want.jobs {
		got := l.jobs[id]
		res.Handled += len(got)
		count := map[int64]int{}
		for _, e := range got {
			count[e.tid]++
		}
		for _, t := range ts {
			switch n := count[t.ID]; {
			case n == 0:
				res.Lost++
				problem("job %d: transition %d (%s) lost", id, t.ID, t.Name)
			case n > 1:
				res.Repeated += n - 1
				problem("job %d: transition %d (%s) handled %d times", id, t.ID, t.Name, n)
			}
		}
		pos := map[int64]int{}
		for i, t := range ts {
			pos[t.ID] = i
		}
		last := -1
		for i, e := range got {
			p, ok := pos[e.tid]
			if !ok {
				problem("job %d: handled transition %d, which the Job does not have", id, e.tid)
				res.Invented++
				continue
			}
			if p < last {
				res.OutOfOrder++
				problem("job %d: transition %d handled after a later one", id, e.tid)
			}
			last = max(last, p)
			wantFrom := ""
			if p > 0 {
				wantFrom = string(ts[p-1].Name)
			}
			if e.from != wantFrom || e.to != string(ts[p].Name) || e.seq != int64(i+1) {
				res.OutOfOrder++
				problem("job %d: change #%d %s>%s, want #%d %s>%s", id, e.seq, e.from, e.to, i+1, wantFrom, ts[p].Name)
			}
		}
	}
	for id, state := range want.requests {
		got := l.requests[id]
		res.JobRequestChanges += len(got)
		ok := len(got) > 0 && got[len(got)-1].to == state
		for i, e := range got {
			prev := ""
			if i > 0 {
				prev = got[i-1].to
			}
			if e.from != prev || e.from == e.to || e.seq != int64(i+1) {
				ok = false
			}
		}
		if !ok {
			res.JobRequestErrors++
			problem("job request %d (now %s): changes %v", id, state, got)
		}
	}
}
