// Command webhook-receiver receives the webhooks of Workforce Marketplace
// API v2 with webhook.Handler: it verifies each delivery's
// X-Service-Webhook-Token and logs the event.
//
// With no environment set it shows the whole flow against the in-memory
// fake API, started in-process: it serves on a loopback port, registers
// itself with the fake, drives a Job through its life, waits for every
// delivery, checks that each one was verified, sends a forged one and
// checks that it is refused, then exits (0 when all went as expected):
//
//	go run ./examples/webhook-receiver
//
// With WORKFORCE_SECRET_KEY set it only serves, verifying with that key,
// until interrupted:
//
//	WORKFORCE_SECRET_KEY=sk_live_… go run ./examples/webhook-receiver -addr :8080
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/webhook"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Getenv)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "webhook-receiver:", err)
		os.Exit(1)
	}
}

// run parses args and either serves with the key from the environment or
// runs the demonstration against the fake, writing what happens to out.
func run(ctx context.Context, args []string, out io.Writer, getenv func(string) string) error {
	flags := flag.NewFlagSet("webhook-receiver", flag.ContinueOnError)
	addr := flags.String("addr", "127.0.0.1:8080", "listen `address` when WORKFORCE_SECRET_KEY is set")
	if err := flags.Parse(args); err != nil {
		return err
	}
	out = &lockedWriter{w: out} // the receiver writes from its own goroutines
	if key := getenv("WORKFORCE_SECRET_KEY"); key != "" {
		return serve(ctx, *addr, key, out)
	}
	return demo(ctx, out)
}

// lockedWriter serializes writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// eventLog is the events a receiver handled, for the demonstration to check.
type eventLog struct {
	mu     sync.Mutex
	events []*webhook.Event
}

// handler is the receiver: it logs each verified event and keeps it in
// log. A secret key that workforce.New would refuse is an error.
func handler(secretKey string, out io.Writer, log *eventLog) (http.Handler, error) {
	logger := slog.New(slog.NewTextHandler(out, nil))
	return webhook.Handler(secretKey, func(ctx context.Context, ev *webhook.Event) error {
		log.mu.Lock()
		defer log.mu.Unlock()
		log.events = append(log.events, ev)
		fmt.Fprintf(out, "  verified: %s %d is now %s\n", ev.Kind, ev.ID, ev.State)
		return nil
	}, webhook.WithLogger(logger))
}

// newServer is the receiver's HTTP server, with timeouts on every phase
// of a request, so that a client that stalls or trickles holds a
// connection for seconds, not for ever. webhook.Handler bounds the read of
// a body itself (10 s by default); ReadTimeout is the server's own bound.
func newServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       15 * time.Second,
		WriteTimeout:      30 * time.Second, // the time fn may take, and the answer
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
}

// serve receives webhooks on addr until ctx ends.
func serve(ctx context.Context, addr, secretKey string, out io.Writer) error {
	h, err := handler(secretKey, out, &eventLog{})
	if err != nil {
		return fmt.Errorf("WORKFORCE_SECRET_KEY: %w", err)
	}
	srv := newServer(addr, h)
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	fmt.Fprintf(out, "Receiving webhooks on %s.\n", addr)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return srv.Shutdown(shutdown)
	}
}

// demo runs the flow against an in-process fake.
func demo(ctx context.Context, out io.Writer) error {
	fake, err := workforcetest.Start()
	if err != nil {
		return fmt.Errorf("starting the fake API: %w", err)
	}
	defer fake.Close()
	fmt.Fprintf(out, "No WORKFORCE_SECRET_KEY: using the in-memory fake API at %s.\n", fake.URL)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	var log eventLog
	h, err := handler(fake.Private.SecretKey, out, &log)
	if err != nil {
		return err
	}
	receiver := newServer("", h)
	go func() { _ = receiver.Serve(ln) }()
	defer receiver.Close()
	url := "http://" + ln.Addr().String() + "/webhooks"
	if err := fake.AddWebhookReceiver(url); err != nil {
		return err
	}
	fmt.Fprintf(out, "Receiving webhooks at %s, verified with the Private Pool secret key.\n", url)

	c, err := fake.Client()
	if err != nil {
		return err
	}
	seed := fake.Seed()
	job, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[0], JobRequestID: seed.JobRequest1099ID})
	if err != nil {
		return fmt.Errorf("creating a Job: %w", err)
	}
	fmt.Fprintf(out, "Created Job %d; the Worker starts and completes it, the Requestor approves it.\n", job.ID)
	for _, move := range []func(int64) error{fake.StartJob, fake.CompleteJob, fake.ApproveJob} {
		if err := move(job.ID); err != nil {
			return err
		}
	}
	wait, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := fake.WaitWebhooks(wait); err != nil {
		return fmt.Errorf("waiting for the deliveries: %w", err)
	}

	var states []string
	log.mu.Lock()
	for _, ev := range log.events {
		if ev.Kind == webhook.KindJob && ev.ID == job.ID {
			states = append(states, ev.State)
		}
	}
	received := len(log.events)
	log.mu.Unlock()
	attempts := fake.WebhookAttempts()
	for _, a := range attempts {
		if !a.OK() {
			return fmt.Errorf("the delivery of %s %d (%s) got %d %s", a.Resource, a.ID, a.State, a.Status, a.Error)
		}
	}
	if want := "filled in_progress completed approved"; strings.Join(states, " ") != want {
		return fmt.Errorf("job %d: received states %q, want %q", job.ID, states, want)
	}
	fmt.Fprintf(out, "All %d deliveries verified and handled (%d of them about Job %d).\n", received, len(states), job.ID)

	forged := `{"job": {"id": 1, "state": "approved"}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(forged))
	if err != nil {
		return err
	}
	req.Header.Set(webhook.Header, webhook.Sign([]byte(forged), "sk_test_not_the_real_secret"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		return fmt.Errorf("a forged delivery got %d, want 401", resp.StatusCode)
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	if len(log.events) != received {
		return errors.New("a forged delivery reached the handler function")
	}
	fmt.Fprintf(out, "A forged delivery was refused with %d, as expected.\n", resp.StatusCode)
	return nil
}
