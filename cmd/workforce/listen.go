package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/sqlite"
	"github.com/workforce-marketplace/workforce-go/webhook"
)

// markFrom is the store's mark under which --from-now keeps its start, by the API's clock.
const markFrom = "workforce-cli-listen-from"

// listener forwards the feed's changes to a receiver.
type listener struct {
	to        string
	secretKey string
	kinds     map[feed.Kind]bool
	from      time.Time // changes before it are not delivered (--from-now)
	printJSON bool
	timeout   time.Duration
	// fromNowFlag is --from-now: with no start in the store, start now.
	fromNowFlag bool
	http        *http.Client

	mu                 sync.Mutex // serializes the output
	out                io.Writer
	delivered, skipped atomic.Int64
	inFlight           atomic.Int64 // deliveries under way
	lastUpdated        sync.Map     // Job id -> the updated_at its last delivery carried (time.Time)
}

func (e *env) listenCommand() *cobra.Command {
	var (
		l                  = &listener{}
		interval, retry    time.Duration
		state, resource    string
		fromNow, printJSON bool
	)
	cmd := &cobra.Command{
		Use:   "listen --forward-to URL",
		Short: "Forward the account's Job and Job Request changes to a webhook receiver",
		Long: `listen follows the account's Jobs and Job Requests through the change feed, syncing from the API
every --interval, and delivers each change to --forward-to as the platform delivers webhooks:
the body {"job": {...}} or {"job_request": {...}}, the record as the API answers it after the
change, signed in X-Service-Webhook-Token with the secret key. A delivery without a 2xx answer
is tried again with a growing wait; the changes of one resource are delivered one at a time,
in order. One line is printed per delivery: time, resource, id, from → to, the receiver's
status, latency.

A Job whose sync copy is already past a change (two moves between syncs) is delivered as it
stood at that change, rebuilt from the later copy (marked "rebuilt" on its line and in the
X-Workforce-Cli-Rebuilt header): the copy's keys and bytes, with state and transitions as at the
change, times surely after it null, and updated_at the transition's second (the API stamps
transitions to the second) in the copy's own form. Two changes of one second may then carry one
updated_at: each delivery of a Job names its transition in the X-Workforce-Cli-Transition header,
by which a receiver can tell them apart.

A Job Request carries no history: it is delivered in the states seen at each sync, and states
it passed through between two syncs are not seen (posted → filled → posted → cancelled may
arrive as posted → cancelled). A shorter --interval misses fewer, for more requests to the API.

Without --state, what was delivered is kept in memory: a restart delivers the whole history
again (or, with --from-now, only what happens after the restart). With --state FILE (SQLite),
a restart resumes where the last run stopped; a delivery the receiver acknowledged is not
repeated after a clean stop (Ctrl-C). After a crash, the deliveries in flight are repeated:
the receiver should, as for the platform's webhooks, store by id and updated_at. A state file
belongs to the base URL and API key of its first run (it keeps the URL and a fingerprint of the
key, never the key): a run against another API or with another key is refused.`,
		Example: `  workforce listen --forward-to http://localhost:8080/webhooks
  workforce listen --forward-to http://localhost:8080/webhooks --state listen.db --from-now --resource jobs`,
		Args: usageArgs(cobra.NoArgs),
		RunE: runE(func(cmd *cobra.Command, _ []string) error {
			if err := l.configure(resource, interval, retry); err != nil {
				return err
			}
			if err := checkStatePath(state); err != nil {
				return err
			}
			l.fromNowFlag, l.printJSON, l.out = fromNow, printJSON, cmd.OutOrStdout()
			return e.listen(cmd.Context(), l, state, interval, retry)
		}),
	}
	fs := cmd.Flags()
	fs.StringVar(&l.to, "forward-to", "", "deliver each change to `URL` (http or https)")
	fs.DurationVar(&interval, "interval", 5*time.Second, "sync from the API every `duration`")
	fs.StringVar(&state, "state", "", "keep what was delivered in the SQLite `file`, to resume there after a restart")
	fs.BoolVar(&fromNow, "from-now", false, "deliver only the changes made from now on, by the API's clock (kept in --state)")
	fs.StringVar(&resource, "resource", "", "deliver only the changes of `kind`: jobs or job_requests (default both)")
	fs.BoolVar(&printJSON, "print-json", false, "print each delivery's body after its line")
	fs.DurationVar(&retry, "retry-wait", time.Second, "wait `duration` before the first retry of a failed delivery; doubles up to a minute")
	fs.DurationVar(&l.timeout, "timeout", 30*time.Second, "give up a delivery attempt after `duration`")
	return cmd
}

// configure checks the flags.
func (l *listener) configure(resource string, interval, retry time.Duration) error {
	u, err := url.Parse(l.to)
	switch {
	case l.to == "":
		return usagef("--forward-to is required")
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "":
		return usagef("--forward-to %q: want an http or https URL", printableURL(l.to))
	case interval <= 0 || retry <= 0 || l.timeout <= 0:
		return usagef("--interval, --retry-wait and --timeout must be above 0")
	}
	switch resource {
	case "":
		l.kinds = map[feed.Kind]bool{feed.KindJob: true, feed.KindJobRequest: true}
	case "jobs", "job":
		l.kinds = map[feed.Kind]bool{feed.KindJob: true}
	case "job_requests", "job-requests", "job_request":
		l.kinds = map[feed.Kind]bool{feed.KindJobRequest: true}
	default:
		return usagef("--resource %q: want jobs or job_requests", resource)
	}
	l.http = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return nil
}

// listen runs the feed until ctx ends.
func (e *env) listen(ctx context.Context, l *listener, state string, interval, retry time.Duration) error {
	c, secretKey, err := e.client()
	if err != nil {
		return err
	}
	l.secretKey = secretKey
	var store feed.Store = feed.NewMemoryStore()
	where, bind := "in memory", func() error { return nil }
	if state != "" {
		s, err := sqlite.Open(ctx, state)
		if err != nil {
			return stateError(err, state)
		}
		defer s.Close()
		apiKey, _, _ := e.keys() // read already by client
		base, _ := e.baseURL(apiKey)
		if bind, err = bindState(ctx, s.DB(), state, base, apiKey); err != nil {
			return stateError(err, state)
		}
		store, where = s, state
	}
	// One call first, so that wrong keys or an unreachable API end the command at once,
	// rather than being logged at every sync.
	if _, _, err := c.Jobs.List(ctx, &workforce.JobListOptions{ListOptions: workforce.ListOptions{Per: 1}}); err != nil {
		return err
	}
	if err := bind(); err != nil {
		return err
	}
	if l.from, err = from(ctx, c, store, l.fromNowFlag); err != nil {
		return err
	}
	logger := slog.New(quietHandler{slog.NewTextHandler(e.stderr, nil)})
	f, err := feed.New(c, "", l.handle, feed.WithStore(store), feed.WithSyncInterval(interval),
		feed.WithRetry(retry, max(retry, time.Minute)), feed.WithPoll(min(max(retry, 10*time.Millisecond), time.Second)),
		feed.WithLogger(logger))
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "Forwarding changes to %s, syncing every %s (state %s). Ctrl-C stops.\n", printableURL(l.to), interval, where)
	if !l.from.IsZero() {
		fmt.Fprintf(e.stderr, "Changes made before %s (the API's clock) are not delivered.\n", l.from.UTC().Format(time.RFC3339))
	}
	stopping := context.AfterFunc(ctx, func() {
		if l.inFlight.Load() > 0 {
			fmt.Fprintln(e.stderr, "Stopping: waiting for the delivery in flight (Ctrl-C again to quit now).")
		}
	})
	defer stopping()
	err = f.Run(ctx)
	fmt.Fprintf(e.stderr, "Stopped: %d delivered, %d not delivered (before the start, or of another resource).\n",
		l.delivered.Load(), l.skipped.Load())
	return err
}

// from answers the time before which changes are skipped: the one the store keeps, else with
// fromNow the API's clock now, stored.
func from(ctx context.Context, c *workforce.Client, store feed.Store, fromNow bool) (time.Time, error) {
	t, err := store.Mark(ctx, markFrom)
	if err != nil || !t.IsZero() || !fromNow {
		return t, err
	}
	info, _, err := c.Info.Get(ctx)
	if err != nil {
		return time.Time{}, errorf(err, "reading the API's clock")
	}
	// Transitions are stamped to the second: one of the start's second is delivered.
	t = info.UTCTimeNow.Truncate(time.Second)
	if err := store.SetMark(ctx, markFrom, t); err != nil {
		return time.Time{}, err
	}
	return t, nil
}

// handle delivers one change; an error leaves it to be tried again.
func (l *listener) handle(ctx context.Context, c *feed.Change) error {
	if c.Err != nil {
		l.println(fmt.Sprintf("%s  %s %d: change %d cannot be read from the state file, skipped: %v",
			time.Now().UTC().Format(time.RFC3339), c.Kind, c.ResourceID, c.Seq, c.Err))
		l.skipped.Add(1)
		return nil
	}
	if !l.kinds[c.Kind] || c.At.Before(l.from) {
		l.skipped.Add(1)
		return nil
	}
	var floor time.Time
	if v, ok := l.lastUpdated.Load(c.ResourceID); ok && c.Kind == feed.KindJob {
		floor = v.(time.Time)
	}
	b, rebuilt, err := bodyAfter(c, floor)
	if err != nil {
		l.println(fmt.Sprintf("%s  %s %d %s → %s: cannot be delivered, skipped: %v",
			time.Now().UTC().Format(time.RFC3339), c.Kind, c.ResourceID, c.From, c.To, err))
		l.skipped.Add(1)
		return nil
	}
	start := time.Now()
	l.inFlight.Add(1)
	status, err := l.post(ctx, c, b, rebuilt)
	l.inFlight.Add(-1)
	ok := err == nil && status >= 200 && status < 300
	text := fmt.Sprint(status)
	if err != nil {
		text = "error: " + printableError(err, l.to)
	}
	line := deliveryLine(start, c, text, time.Since(start), rebuilt, !ok)
	if l.printJSON {
		line += "\n" + string(b)
	}
	l.println(line)
	if !ok {
		return fmt.Errorf("delivery of %s %d change %d: %s", c.Kind, c.ResourceID, c.Seq, text)
	}
	l.delivered.Add(1)
	if c.Kind == feed.KindJob {
		var sent struct {
			Job struct {
				UpdatedAt workforce.Time `json:"updated_at"`
			} `json:"job"`
		}
		if json.Unmarshal(b, &sent) == nil && !sent.Job.UpdatedAt.IsZero() {
			l.lastUpdated.Store(c.ResourceID, sent.Job.UpdatedAt.Time)
		}
	}
	return nil
}

// post sends one delivery and answers the receiver's status.
func (l *listener) post(ctx context.Context, c *feed.Change, body []byte, rebuilt bool) (int, error) {
	// Not cancelled by Ctrl-C: a delivery under way finishes, so that one the receiver
	// acknowledges is acknowledged in the feed too, and not repeated after a restart.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.to, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "workforce-cli")
	req.Header.Set("X-Service-Webhook-Token", webhook.Sign(body, l.secretKey))
	if c.TransitionID != 0 {
		req.Header.Set("X-Workforce-Cli-Transition", strconv.FormatInt(c.TransitionID, 10))
	}
	if rebuilt {
		req.Header.Set("X-Workforce-Cli-Rebuilt", "true")
	}
	resp, err := l.http.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}

func (l *listener) println(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintln(l.out, s)
}

// quietHandler drops the feed's log records of failed deliveries, which handle prints already.
type quietHandler struct{ slog.Handler }

func (h quietHandler) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == "feed: the handler failed" {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}
