package feedtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// Chaos configures RunChaos.
type Chaos struct {
	// Jobs is how many Jobs go through random lives (500 when 0), on Job
	// Requests of six slots.
	Jobs int
	// Instances is how many feeds share one store, behind one webhook URL
	// that hands each delivery to one of them at random (1 when 0).
	Instances int
	// Open opens the store of an instance (called again for a restart)
	// and answers a function that closes it.
	Open func(tb testing.TB, instance int) (feed.Store, func())
	// Wrap, when set, wraps the handler of an instance (with a store's
	// transactional variant, say); s is the store Open answered.
	Wrap func(instance int, s feed.Store, h feed.Handler) feed.Handler
	// Kill kills the last instance mid-handler once it handled a share of
	// the changes: its store answers nothing more (no acknowledgment, no
	// release, no lease renewal) and it stops, its claim abandoned. With
	// Restart, it is started again on a newly opened store, as a process
	// that restarts.
	Kill, Restart bool
	// KillAfter is how many changes the instance to be killed handles
	// before it dies in the next one's handler: Jobs/2/Instances when 0,
	// early in its share.
	KillAfter int
	// Drop, Duplicate and Reorder are the shares of the deliveries that
	// are lost, sent twice and reordered; 0.3, 0.2 and 0.5 when all zero.
	Drop, Duplicate, Reorder float64
	// Seed makes the lives and the faults repeatable; 0 draws one.
	Seed uint64
	// Lease is the lease of the instance to be killed, 10 s when 0: its
	// abandoned claim waits that long for another instance. The others
	// (and a restart) hold theirs for a minute, the default. A plain
	// handler's change is handed over once only while its lease is renewed
	// in time, and a busy machine (2 cores, -race, other test runs) stalls
	// a process for seconds: 2 s leases lost some.
	Lease time.Duration
}

// Result is what a chaos run saw.
type Result struct {
	Seed uint64
	// Jobs and Transitions are the Jobs in the fake at the end and their
	// transitions; Handled the transitions acknowledged by a handler,
	// Lost those never handled, Repeated those handled more than once,
	// OutOfOrder those handled before an earlier one of their Job or with
	// another From, To or Seq than the Job's transitions give, Invented
	// those handled that the Job does not have.
	Jobs, Transitions, Handled, Lost, Repeated, OutOfOrder, Invented int
	// JobRequests is the Job Requests in the fake; JobRequestChanges the
	// changes of theirs handed over; JobRequestErrors those Job Requests
	// whose changes do not chain (each From the To before) or do not end
	// in the fake's last state.
	JobRequests, JobRequestChanges, JobRequestErrors int
	// Deliveries is the delivery attempts made, Dropped those lost.
	Deliveries, Dropped int
	// Killed tells whether an instance was killed mid-handler; LeaseLost
	// sums the feeds' Stats.LeaseLost (a lease that ran out under a handler
	// or before its acknowledgment: a change handed over again).
	Killed    bool
	LeaseLost int64
	// Elapsed is the run's time, from the first move to the last change
	// handed over; Moves the state changes made on the fake.
	Elapsed time.Duration
	Moves   int
	// Problems describes the first few anomalies.
	Problems []string
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

// instance is one running feed.
type instance struct {
	feed  *feed.Feed
	store *killable
	close func()
	stop  context.CancelFunc
	done  chan struct{}
}

// RunChaos takes Jobs through random lives on a fake whose deliveries are
// dropped, repeated and reordered, with feeds on the stores Open answers
// handling every change, and answers what they handled against what the
// fake's Jobs say happened. It fails tb only when the run itself cannot be
// made; the caller judges the Result.
func RunChaos(tb testing.TB, c Chaos) Result {
	tb.Helper()
	if c.Jobs == 0 {
		c.Jobs = 500
	}
	c.Instances = max(c.Instances, 1)
	if c.Drop == 0 && c.Duplicate == 0 && c.Reorder == 0 {
		c.Drop, c.Duplicate, c.Reorder = 0.3, 0.2, 0.5
	}
	if c.Seed == 0 {
		c.Seed = rand.Uint64()
	}
	if c.Lease == 0 {
		c.Lease = 10 * time.Second
	}
	res := Result{Seed: c.Seed}
	tb.Logf("feedtest: chaos seed %d", c.Seed)
	rng := rand.New(rand.NewPCG(c.Seed, 0x5eed))
	ctx := context.Background()
	fake := workforcetest.NewServer(tb, workforcetest.WithWebhookChaos(workforcetest.WebhookChaos{
		Drop: c.Drop, Duplicate: c.Duplicate, Reorder: c.Reorder, Seed: c.Seed}))
	client, err := fake.Client()
	if err != nil {
		tb.Fatal(err)
	}

	led := &ledger{jobs: map[int64][]ledgerEntry{}, requests: map[int64][]ledgerEntry{}, changed: make(chan struct{})}
	var mu sync.Mutex // guards slots, killed
	slots := make([]*instance, c.Instances)
	victim := c.Instances - 1
	killAt := c.KillAfter
	if killAt == 0 {
		killAt = c.Jobs / 2 / c.Instances // early in the victim's share
	}
	var killed, victimHandled int
	var feeds []*feed.Feed // every feed started, restarts too
	var start func(i int) *instance
	kill := func(i int) {
		mu.Lock()
		in := slots[i]
		killed++
		mu.Unlock()
		in.store.kill()
		in.stop()
	}
	start = func(i int) *instance {
		s, closeStore := c.Open(tb, i)
		ks := newKillable(s)
		in := &instance{store: ks, close: closeStore, done: make(chan struct{})}
		var calls atomic.Int64 // handler calls, each followed by one Ack or Release
		var h feed.Handler = func(ctx context.Context, ch *feed.Change) error {
			if i == victim && c.Kill {
				mu.Lock()
				if killed == 0 && victimHandled >= killAt {
					mu.Unlock()
					// The feed acknowledges a change after its handler
					// returned, while the next one runs: the kill waits for
					// those acknowledgments, or it would be a crash between
					// an effect and its acknowledgment (a change handed over
					// again), not one before any effect.
					ks.waitOutcomes(calls.Load() - 1)
					kill(i) // dies mid-handler: nothing of this change is recorded
					return errors.New("feedtest: killed")
				}
				dead := ks.dead()
				victimHandled++
				mu.Unlock()
				if dead {
					return errors.New("feedtest: killed")
				}
			}
			led.record(ch)
			return nil
		}
		if c.Wrap != nil {
			h = c.Wrap(i, s, h)
		}
		inner := h
		h = func(ctx context.Context, ch *feed.Change) error {
			calls.Add(1)
			return inner(ctx, ch)
		}
		workers, lease := 4, time.Minute
		mu.Lock()
		if i == victim && c.Kill && killed == 0 {
			workers = 1 // one change in flight when it dies: the one it dies on
			lease = c.Lease
		}
		mu.Unlock()
		f, err := feed.New(client, fake.Private.SecretKey, h, feed.WithStore(ks), feed.WithWorkers(workers),
			feed.WithLease(lease), feed.WithPoll(min(c.Lease/4, 500*time.Millisecond)), feed.WithRetry(time.Millisecond, 20*time.Millisecond),
			feed.WithSyncInterval(250*time.Millisecond))
		if err != nil {
			tb.Fatal(err)
		}
		in.feed = f
		mu.Lock()
		feeds = append(feeds, f)
		mu.Unlock()
		runCtx, stop := context.WithCancel(ctx)
		in.stop = stop
		go func() {
			defer close(in.done)
			_ = f.Run(runCtx)
		}()
		return in
	}
	for i := range slots {
		slots[i] = start(i)
	}
	defer func() {
		for _, in := range slots {
			in.stop()
			<-in.done
			in.close()
		}
	}()
	pick := rand.New(rand.NewPCG(c.Seed, 0x1b)) // guarded by mu
	lb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		in := slots[pick.IntN(len(slots))]
		mu.Unlock()
		if in.store.dead() {
			http.Error(w, "the instance is down", http.StatusServiceUnavailable)
			return
		}
		in.feed.ServeHTTP(w, r)
	}))
	defer lb.Close()
	if err := fake.AddWebhookReceiver(lb.URL + "/webhooks"); err != nil {
		tb.Fatal(err)
	}

	began := time.Now()
	restart := func() {
		// A restart after the kill, while the moves go on.
		mu.Lock()
		restart := c.Restart && killed == 1
		old := slots[victim]
		if restart {
			killed++
		}
		mu.Unlock()
		if restart {
			<-old.done
			old.close()
			in := start(victim)
			mu.Lock()
			slots[victim] = in
			mu.Unlock()
		}
	}
	res.Moves = lives(tb, ctx, fake, client, rng, c.Jobs, func(int) { restart() })
	if c.Kill {
		led.waitFor(tb, "the kill", func() bool { mu.Lock(); defer mu.Unlock(); return killed > 0 })
		restart()
	}
	// Let the retries of failed deliveries fall due, then take stock.
	for range 4 {
		fake.Advance(5 * time.Minute)
		wctx, cancel := context.WithTimeout(ctx, time.Minute)
		_ = fake.WaitWebhooks(wctx)
		cancel()
	}
	want := expected(tb, ctx, client)
	res.Jobs = len(want.jobs)
	res.JobRequests = len(want.requests)
	for _, ts := range want.jobs {
		res.Transitions += len(ts)
	}
	// The safety net: a sync after the last move finds what was dropped.
	mu.Lock()
	live := slots[0]
	mu.Unlock()
	if err := live.feed.Sync(ctx); err != nil {
		tb.Fatalf("the final sync: %v", err)
	}
	var gap string
	led.waitFor(tb, "every transition", func() bool { gap = led.missing(want); return gap == "" }, &gap)
	res.Elapsed = time.Since(began)
	mu.Lock()
	res.Killed = killed > 0
	for _, f := range feeds {
		res.LeaseLost += f.Stats().LeaseLost
	}
	mu.Unlock()
	for _, a := range fake.WebhookAttempts() {
		res.Deliveries++
		if a.Error == "dropped by a webhook fault" {
			res.Dropped++
		}
	}
	led.judge(want, &res)
	return res
}

// Lives creates n Jobs on new Job Requests of fake and moves them through
// random lives (a draw of seed), interleaved, a millisecond apart on the
// fake clock (a second every 50 moves); after each move it calls between
// with the number of moves made. It answers the moves made.
func Lives(tb testing.TB, fake *workforcetest.Server, n int, seed uint64, between func(moves int)) int {
	tb.Helper()
	c, err := fake.Client()
	if err != nil {
		tb.Fatal(err)
	}
	return lives(tb, context.Background(), fake, c, rand.New(rand.NewPCG(seed, 0x5eed)), n, between)
}

func lives(tb testing.TB, ctx context.Context, fake *workforcetest.Server, c *workforce.Client, rng *rand.Rand, n int, between func(int)) int {
	tb.Helper()
	seed := fake.Seed()
	workers := seed.WorkerIDs
	type life struct {
		jr, worker, job int64
		moves           []string
	}
	scripts := [][]string{
		{"start", "complete", "approve"},
		{"start", "complete", "approve"},
		{"start", "complete"},
		{"start", "complete", "approve"},
		{"no_show"},
		{"withdraw", "accept", "start", "complete", "approve"},
		{"cancel"},
		{"start", "cancel"},
		{"withdraw"},
		{},
	}
	var all []*life
	for len(all) < n {
		jr, _, err := c.JobRequests.Create(ctx, &workforce.JobRequestParams{
			RequestName: fmt.Sprintf("Chaos shift %d", len(all)/len(workers)+1), Zip: "90012", City: "Los Angeles",
			Address: "1 Main St", Slots: len(workers), Category: "General Labor", DescriptionTasks: "Move boxes",
			State: workforce.JobRequestPosted, StartTime: workforce.NewWallClock(fake.Now().Year()+1, time.January, 5, 9, 0),
			Duration: 240, Wage: workforce.NewDecimal(18.5)})
		if err != nil {
			tb.Fatalf("creating a Job Request: %v", err)
		}
		for _, w := range workers {
			if len(all) < n {
				all = append(all, &life{jr: jr.ID, worker: w, moves: append([]string{"accept"}, scripts[rng.IntN(len(scripts))]...)})
			}
		}
	}
	moves := 0
	for open := slices.Clone(all); len(open) > 0; {
		i := rng.IntN(len(open))
		l := open[i]
		move := l.moves[0]
		l.moves = l.moves[1:]
		if len(l.moves) == 0 {
			open[i] = open[len(open)-1]
			open = open[:len(open)-1]
		}
		var err error
		switch move {
		case "accept":
			l.job, err = fake.Accept(l.jr, l.worker)
		case "start":
			err = fake.StartJob(l.job)
		case "complete":
			err = fake.Complete(l.job)
		case "approve":
			err = fake.Approve(l.job)
		case "no_show":
			err = fake.NoShow(l.job)
		case "withdraw":
			err = fake.Withdraw(l.job)
		case "cancel":
			_, _, err = c.Jobs.Cancel(ctx, l.job, workforce.CancelDecidedToCancel)
		}
		if err != nil {
			tb.Fatalf("move %s of job %d: %v", move, l.job, err)
		}
		moves++
		// A millisecond between changes, as the platform's clock has; a
		// second now and then, so that syncs have windows to walk.
		fake.Advance(time.Millisecond)
		if moves%50 == 0 {
			fake.Advance(time.Second)
		}
		between(moves)
	}
	return moves
}

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

// killable is a Store that stops answering when killed, as the store of a
// process that died: no acknowledgment, release or lease renewal reaches
// the database after that.
type killable struct {
	feed.Store
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	outcomes int64         // Acks and Releases answered
	changed  chan struct{} // closed when outcomes grows
}

func newKillable(s feed.Store) *killable {
	ctx, cancel := context.WithCancel(context.Background())
	return &killable{Store: s, ctx: ctx, cancel: cancel, changed: make(chan struct{})}
}

// outcome counts an Ack or Release answered.
func (k *killable) outcome() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.outcomes++
	close(k.changed)
	k.changed = make(chan struct{})
}

// waitOutcomes waits until n Acks and Releases were answered (a minute at
// most: a store that never answers is the run's to report).
func (k *killable) waitOutcomes(n int64) {
	bound := time.NewTimer(time.Minute)
	defer bound.Stop()
	for {
		k.mu.Lock()
		done, ch := k.outcomes >= n, k.changed
		k.mu.Unlock()
		if done {
			return
		}
		select {
		case <-ch:
		case <-bound.C:
			return
		}
	}
}

var errDead = errors.New("feedtest: the instance was killed")

func (k *killable) kill()      { k.cancel() }
func (k *killable) dead() bool { return k.ctx.Err() != nil }

// with answers a context that ends when ctx does or the store is killed.
func (k *killable) with(ctx context.Context) (context.Context, context.CancelFunc, error) {
	if k.dead() {
		return nil, nil, errDead
	}
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(k.ctx, cancel)
	return ctx, func() { stop(); cancel() }, nil
}

func (k *killable) Update(ctx context.Context, r feed.Resource, fn func([]byte) ([]byte, []feed.Queued, error)) error {
	ctx, done, err := k.with(ctx)
	if err != nil {
		return err
	}
	defer done()
	return k.Store.Update(ctx, r, fn)
}

func (k *killable) Claim(ctx context.Context, n int, lease time.Duration) ([]feed.Claim, error) {
	ctx, done, err := k.with(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	cs, err := k.Store.Claim(ctx, n, lease)
	if k.dead() {
		return nil, errDead // claimed as it died: the claims are abandoned
	}
	return cs, err
}

func (k *killable) Ack(ctx context.Context, c feed.Claim) error {
	defer k.outcome()
	ctx, done, err := k.with(ctx)
	if err != nil {
		return err
	}
	defer done()
	return k.Store.Ack(ctx, c)
}

func (k *killable) Extend(ctx context.Context, c feed.Claim, lease time.Duration) error {
	ctx, done, err := k.with(ctx)
	if err != nil {
		return err
	}
	defer done()
	return k.Store.Extend(ctx, c, lease)
}

func (k *killable) Release(ctx context.Context, c feed.Claim, at time.Time) error {
	defer k.outcome()
	ctx, done, err := k.with(ctx)
	if err != nil {
		return err
	}
	defer done()
	return k.Store.Release(ctx, c, at)
}

func (k *killable) Mark(ctx context.Context, name string) (time.Time, error) {
	ctx, done, err := k.with(ctx)
	if err != nil {
		return time.Time{}, err
	}
	defer done()
	return k.Store.Mark(ctx, name)
}

func (k *killable) SetMark(ctx context.Context, name string, t time.Time) error {
	ctx, done, err := k.with(ctx)
	if err != nil {
		return err
	}
	defer done()
	return k.Store.SetMark(ctx, name, t)
}

// Wake forwards the wakeups of a store that has them, until killed.
func (k *killable) Wake(ctx context.Context, wake func()) error {
	ctx, done, err := k.with(ctx)
	if err != nil {
		return err
	}
	defer done()
	if w, ok := k.Store.(feed.Waker); ok {
		return w.Wake(ctx, wake)
	}
	<-ctx.Done()
	return nil
}
