// Command feed keeps a table of who works where (each Worker's open Jobs:
// filled, in progress or paused) from the change feed, current under
// chaos: it runs the in-memory fake API with 30% of its webhook deliveries
// dropped, 20% sent twice and the rest reordered, drives Jobs through
// their lives, and checks at the end that the table matches the API.
//
//	go run ./examples/feed                            # the MemoryStore
//	go run ./examples/feed -store sqlite:/tmp/feed.db  # a new SQLite file
//	go run ./examples/feed -store postgres:postgres://user:password@127.0.0.1:5432/db
//
// The embedded fake is new on every run, so the store starts empty: a
// SQLite file that exists is refused, and PostgreSQL tables go in a
// schema of their own, dropped at the end.
//
// It exits 0 when the table matches.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/postgres"
	"github.com/workforce-marketplace/workforce-go/feed/sqlite"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "feed:", err)
		os.Exit(1)
	}
}

// roster is who works where: each Worker's open Jobs and their states.
type roster struct {
	mu   sync.Mutex
	jobs map[int64]map[int64]string // worker → job → state
}

// open tells whether a Job in state holds its Worker.
func open(state string) bool {
	switch workforce.JobState(state) {
	case workforce.JobFilled, workforce.JobInProgress, workforce.JobPaused:
		return true
	}
	return false
}

// apply is the feed's handler: each Job change moves the roster. It is
// handed each change once, in order per Job, so the last one wins.
func (r *roster) apply(_ context.Context, c *feed.Change) error {
	if c.Err != nil {
		return c.Err // a change the store kept damaged: kept, retried, logged
	}
	if c.Kind != feed.KindJob {
		return nil
	}
	worker := c.Job.WorkerID
	if worker == 0 && c.Job.Worker != nil {
		worker = c.Job.Worker.ID
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.jobs[worker] == nil {
		r.jobs[worker] = map[int64]string{}
	}
	if open(c.To) {
		r.jobs[worker][c.ResourceID] = c.To
	} else {
		delete(r.jobs[worker], c.ResourceID)
	}
	return nil
}

// String lists the roster, one Worker a line.
func (r *roster) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var workers []int64
	for w, jobs := range r.jobs {
		if len(jobs) > 0 {
			workers = append(workers, w)
		}
	}
	slices.Sort(workers)
	var b strings.Builder
	for _, w := range workers {
		var ids []int64
		for id := range r.jobs[w] {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		fmt.Fprintf(&b, "  worker %d:", w)
		for _, id := range ids {
			fmt.Fprintf(&b, " job %d (%s)", id, r.jobs[w][id])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// openStore opens the store the -store flag names.
func openStore(ctx context.Context, spec string) (feed.Store, func(), error) {
	kind, arg, _ := strings.Cut(spec, ":")
	switch {
	case spec == "" || spec == "memory":
		return feed.NewMemoryStore(), func() {}, nil
	case kind == "sqlite" && arg != "":
		// The embedded fake is new on every run, so the state of another
		// run's fake would be wrong here: a new file only.
		if _, err := os.Stat(arg); err == nil {
			return nil, nil, fmt.Errorf("%s exists: the embedded fake is new on every run, so give a new file", arg)
		}
		s, err := sqlite.Open(ctx, arg)
		if err != nil {
			return nil, nil, err
		}
		return s, func() { s.Close() }, nil
	case kind == "postgres" && arg != "":
		return openPostgres(ctx, arg)
	}
	return nil, nil, fmt.Errorf("-store %q: want memory, sqlite:PATH or postgres:DSN", spec)
}

// openPostgres opens a Store in a schema of its own in the database dsn
// names (Open creates it), dropped on close: the embedded fake is new on
// every run. Open sizes the pool for the Feed's default workers.
func openPostgres(ctx context.Context, dsn string) (feed.Store, func(), error) {
	schema := fmt.Sprintf("workforce_feed_example_%d_%d", os.Getpid(), time.Now().UnixNano())
	drop := func() {
		if c, err := pgx.Connect(context.Background(), dsn); err == nil {
			_, _ = c.Exec(context.Background(), "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
			_ = c.Close(context.Background())
		}
	}
	s, err := postgres.Open(ctx, dsn, postgres.WithSchema(schema))
	if err != nil {
		drop()
		return nil, nil, err
	}
	return s, func() { s.Close(); drop() }, nil
}

func run(ctx context.Context, args []string, out io.Writer) error {
	flags := flag.NewFlagSet("feed", flag.ContinueOnError)
	storeSpec := flags.String("store", "memory", "where the feed keeps its state: `memory, sqlite:PATH or postgres:DSN`")
	jobs := flags.Int("jobs", 60, "how many Jobs to drive through their lives")
	if err := flags.Parse(args); err != nil {
		return err
	}
	store, closeStore, err := openStore(ctx, *storeSpec)
	if err != nil {
		return err
	}
	defer closeStore()

	fake, err := workforcetest.Start(workforcetest.WithWebhookChaos(workforcetest.WebhookChaos{Drop: 0.3, Duplicate: 0.2, Reorder: 0.5}))
	if err != nil {
		return err
	}
	defer fake.Close()
	client, err := fake.Client()
	if err != nil {
		return err
	}
	table := &roster{jobs: map[int64]map[int64]string{}}
	f, err := feed.New(client, fake.Private.SecretKey, table.apply, feed.WithStore(store),
		feed.WithSyncInterval(time.Second), feed.WithPoll(100*time.Millisecond))
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	receiver := &http.Server{Handler: f, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = receiver.Serve(ln) }()
	defer receiver.Close()
	if err := fake.AddWebhookReceiver("http://" + ln.Addr().String() + "/webhooks"); err != nil {
		return err
	}
	runCtx, stopRun := context.WithCancel(ctx)
	ran := make(chan error, 1)
	go func() { ran <- f.Run(runCtx) }()
	defer func() { stopRun(); <-ran }()
	fmt.Fprintf(out, "Fake API at %s, store %s; deliveries: 30%% dropped, 20%% twice, the rest reordered.\n", fake.URL, *storeSpec)

	if err := drive(ctx, fake, client, *jobs); err != nil {
		return err
	}
	if err := fake.WaitWebhooks(ctx); err != nil {
		return err
	}
	want, err := truth(ctx, client)
	if err != nil {
		return err
	}
	// The webhooks that came are handled; the sync finds what was dropped.
	wait, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for table.String() != want.String() {
		select {
		case <-wait.Done():
			return fmt.Errorf("the table did not catch up in two minutes:\n%swant:\n%s", table, want)
		case <-tick.C:
		}
	}
	s := f.Stats()
	attempts := fake.WebhookAttempts()
	dropped := 0
	for _, a := range attempts {
		if !a.OK() {
			dropped++
		}
	}
	fmt.Fprintf(out, "Who works where:\n%s", table)
	fmt.Fprintf(out, "%d deliveries (%d lost), %d copies ingested, %d changes handled, %d syncs.\n",
		len(attempts), dropped, s.Copies, s.Handled, s.Syncs)
	fmt.Fprintln(out, "The table matches the API.")
	return nil
}

// drive puts Workers on new Job Requests and moves their Jobs through
// random lives.
func drive(ctx context.Context, fake *workforcetest.Server, c *workforce.Client, n int) error {
	workers := fake.Seed().WorkerIDs
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	var ids []int64
	for len(ids) < n {
		jr, _, err := c.JobRequests.Create(ctx, &workforce.JobRequestParams{
			RequestName: "Warehouse shift", Zip: "90012", City: "Los Angeles", Address: "1 Main St",
			Slots: len(workers), Category: "General Labor", DescriptionTasks: "Move boxes", State: workforce.JobRequestPosted,
			StartTime: workforce.NewWallClock(fake.Now().Year()+1, time.January, 5, 9, 0), Duration: 240, Wage: workforce.NewDecimal(18.5)})
		if err != nil {
			return err
		}
		for _, w := range workers {
			if len(ids) < n {
				id, err := fake.AcceptJobRequest(jr.ID, w)
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
		}
	}
	lives := [][]func(int64) error{
		{fake.StartJob, fake.CompleteJob, fake.ApproveJob},
		{fake.StartJob},
		{fake.NoShowJob},
		{fake.WithdrawJob},
		{func(id int64) error { _, _, err := c.Jobs.Cancel(ctx, id, workforce.CancelDecidedToCancel); return err }},
		{},
	}
	for _, id := range ids {
		for _, move := range lives[rng.IntN(len(lives))] {
			fake.Advance(time.Millisecond)
			if err := move(id); err != nil {
				return err
			}
		}
	}
	return nil
}

// truth answers the roster the API's Jobs give.
func truth(ctx context.Context, c *workforce.Client) (*roster, error) {
	r := &roster{jobs: map[int64]map[int64]string{}}
	for j, err := range c.Jobs.All(ctx, nil) {
		if err != nil {
			return nil, err
		}
		worker := j.WorkerID
		if worker == 0 && j.Worker != nil {
			worker = j.Worker.ID
		}
		if !open(string(j.State)) {
			continue
		}
		if r.jobs[worker] == nil {
			r.jobs[worker] = map[int64]string{}
		}
		r.jobs[worker][j.ID] = string(j.State)
	}
	if len(r.jobs) == 0 {
		return nil, errors.New("no Worker holds a Job: nothing to check")
	}
	return r, nil
}
