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
			l.job, err = fake.AcceptJobRequest(l.jr, l.worker)
		case "start":
			err = fake.StartJob(l.job)
		case "complete":
			err = fake.CompleteJob(l.job)
		case "approve":
			err = fake.ApproveJob(l.job)
		case "no_show":
			err = fake.NoShowJob(l.job)
		case "withdraw":
			err = fake.WithdrawJob(l.job)
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
