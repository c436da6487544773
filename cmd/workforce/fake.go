package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"time"

	"github.com/spf13/cobra"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func (e *env) fakeCommand() *cobra.Command {
	var (
		addr      string
		drive     bool
		every     time.Duration
		receivers []string
	)
	cmd := &cobra.Command{
		Use:   "fake",
		Short: "Run the in-memory fake of the API on loopback",
		Long: `fake serves the in-memory fake of Workforce Marketplace API v2 (package workforcetest, as the
workforce-fake program does) on a loopback address until Ctrl-C, and prints its base URL and
its keys as lines to paste in another terminal. The keys are the fake's own made-up test keys,
random at each start: they open nothing but this fake, which is why they, and only they, are
printed. With them, workforce listen in another terminal forwards the fake's changes to a
receiver: a complete loop on one machine.

With --drive, it moves Jobs through their lives, one step every --every: Job Requests posted,
Jobs assigned (filled), started, paused, completed, approved, withdrawn, cancelled, no-show,
and Job Requests cancelled, so that a receiver sees every kind of change. Each step is printed.

The fake's control API (/_fake/…) is served too; workforce-fake -h describes it.`,
		Example: `  workforce fake --drive --every 2s`,
		Args:    usageArgs(cobra.NoArgs),
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			if every <= 0 {
				return usagef("--every must be above 0")
			}
			if err := checkFakeAddrs(addr, receivers); err != nil {
				return err
			}
			opts := []workforcetest.Option{workforcetest.WithAddr(addr), workforcetest.WithTickingClock()}
			for _, u := range receivers {
				opts = append(opts, workforcetest.WithWebhookReceiver(u))
			}
			srv, err := workforcetest.Start(opts...)
			if err != nil {
				return err
			}
			defer srv.Close()
			out := cmd.OutOrStdout()
			ready := srv.Ready()
			fmt.Fprintf(out, `The fake Workforce API is serving at %s (Ctrl-C stops it).
Its keys below are the fake's own made-up test keys, printed because they open nothing but this
fake; workforce prints no other key. In another terminal:

  export %s=%s
  export %s=%s
  export %s=%s
  workforce listen --forward-to http://localhost:8080/webhooks

`, ready.BaseURL, workforce.EnvTestBaseURL, ready.BaseURL, envAPIKey, ready.Private.APIKey, envSecretKey, ready.Private.SecretKey)
			if !drive {
				<-cmd.Context().Done()
				return nil
			}
			c, err := srv.Client()
			if err != nil {
				return err
			}
			d := &driver{srv: srv, c: c, seed: srv.Seed(), out: out}
			d.run(cmd.Context(), every)
			return nil
		}),
	}
	fs := cmd.Flags()
	fs.StringVar(&addr, "addr", "127.0.0.1:0", "listen `address`; the host must be a loopback address")
	fs.BoolVar(&drive, "drive", false, "move Jobs and Job Requests through their lives")
	fs.DurationVar(&every, "every", 2*time.Second, "with --drive, one step every `duration`")
	fs.StringArrayVar(&receivers, "webhook-url", nil, "also deliver the fake's own webhooks to `URL` (loopback); may be repeated")
	return cmd
}

// A step is one move of the drive; it answers what it did.
type step func(ctx context.Context) (string, error)

// driver moves records of the fake through their lives.
type driver struct {
	srv   *workforcetest.Server
	c     *workforce.Client
	seed  workforcetest.Seed
	out   io.Writer
	n     int
	steps []step
}

// run makes one step every interval until ctx ends. A step that fails is printed, and the
// rest of its story dropped.
func (d *driver) run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if len(d.steps) == 0 {
			d.steps = d.story()
		}
		s := d.steps[0]
		d.steps = d.steps[1:]
		what, err := s(ctx)
		now := time.Now().UTC().Format(time.RFC3339)
		if ctx.Err() != nil {
			return // stopped: a step cut short by the stop is no failure
		}
		if err != nil {
			fmt.Fprintf(d.out, "%s  drive: %s failed: %s\n", now, what, oneLine(err.Error()))
			d.steps = nil
			continue
		}
		fmt.Fprintf(d.out, "%s  drive: %s\n", now, what)
	}
}

// story answers the steps of the next life, in turn: a W2 Job that goes all the way (with a
// pause), a Job withdrawn and its Job Request cancelled, a Job cancelled in progress, a no-show.
func (d *driver) story() []step {
	k := d.n
	d.n++
	workers := d.seed.WorkerIDs[1:] // W2-onboarded, free on the Private Pool
	worker := workers[k%len(workers)]
	start := d.srv.Now().Add(time.Duration(48+24*k) * time.Hour).Truncate(time.Hour)
	var jr, job int64
	post := func(w2 bool) step {
		return func(ctx context.Context) (string, error) {
			p := &workforce.JobRequestParams{RequestName: fmt.Sprintf("Driven shift %d", k+1), Zip: "60607",
				City: "Chicago", Address: "1200 W Fulton St", Slots: 1, Description: "A shift the drive made.",
				Category: "Warehouse", State: workforce.JobRequestPosted, StartTime: workforce.WallClockOf(start),
				Duration: 480, EmployerID: d.seed.EmployerID, Wage: workforce.NewDecimal(20)}
			if w2 {
				p.Wage = workforce.Decimal{}
				p.Classification, p.W2HourlyRate = workforce.ClassificationW2, workforce.NewDecimal(22.5)
			}
			r, _, err := d.c.JobRequests.Create(ctx, p)
			if err != nil {
				return "posting a Job Request", err
			}
			jr = r.ID
			return fmt.Sprintf("Job Request %d posted", jr), nil
		}
	}
	assign := func(ctx context.Context) (string, error) {
		j, _, err := d.c.Jobs.Assign(ctx, &workforce.JobCreate{WorkerID: worker, JobRequestID: jr})
		if err != nil {
			return fmt.Sprintf("assigning Worker %d to Job Request %d", worker, jr), err
		}
		job = j.ID
		return fmt.Sprintf("Job %d: Worker %d assigned to Job Request %d (filled)", job, worker, jr), nil
	}
	move := func(what string, fn func(int64) error) step {
		return func(context.Context) (string, error) {
			return fmt.Sprintf("Job %d %s", job, what), fn(job)
		}
	}
	switch k % 4 {
	case 0:
		return []step{post(true), assign, move("started", d.srv.StartJob), move("paused", d.srv.PauseJob),
			move("resumed", d.srv.StartJob), move("completed", d.srv.CompleteJob), move("approved", d.srv.ApproveJob)}
	case 1:
		return []step{post(false), assign, move("withdrawn by its Worker", d.srv.WithdrawJob),
			func(context.Context) (string, error) {
				return fmt.Sprintf("Job Request %d cancelled", jr), d.srv.CancelJobRequest(jr)
			}}
	case 2:
		return []step{post(false), assign, move("started", d.srv.StartJob),
			func(ctx context.Context) (string, error) {
				_, _, err := d.c.Jobs.Cancel(ctx, job, workforce.CancelAdminCancelled)
				return fmt.Sprintf("Job %d cancelled", job), err
			}}
	default:
		return []step{post(false), assign, move("marked no-show", d.srv.NoShowJob)}
	}
}

// checkFakeAddrs refuses, as usage errors, a listen address or a webhook receiver that is not
// on loopback: the fake has no security, and its keys are printed.
func checkFakeAddrs(addr string, receivers []string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || !isLoopback(host) {
		return usagef("--addr %q: want a loopback address, such as 127.0.0.1:0", addr)
	}
	for _, r := range receivers {
		u, err := url.Parse(r)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !isLoopback(u.Hostname()) {
			return usagef("--webhook-url %q: want an http or https URL on loopback", printableURL(r))
		}
	}
	return nil
}

// isLoopback tells whether host is localhost or a loopback IP address.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
