// Command workforce-fake runs the in-memory fake of Workforce Marketplace API v2 (package
// workforcetest) as a standalone server on a loopback address, for tests written in any
// language and for trying an application by hand.
//
// Usage:
//
//	workforce-fake -openapi    (prints the API's OpenAPI 3.1 document, the one GET /_fake/openapi.yaml serves)
//	workforce-fake [-addr 127.0.0.1:0] [-allow-remote] [-latency 0s] [-jobs 0] [-webhook-url URL]...
//	               [-api-key pk_test_… -secret-key sk_test_…] [-public-api-key … -public-secret-key …]
//
// The first line it writes to standard output is one JSON object (workforcetest.Ready) with the
// base URL, both key pairs and the ids of the seeded records:
//
//	{"base_url": "http://127.0.0.1:43123", "private": {"api_key": "pk_test_…", "secret_key": "sk_test_…"},
//	 "public": {"api_key": "…", "secret_key": "…"}, "seed": {"customer_id": 11, …}}
//
// The key pairs are random, unless fixed by the flags or by the environment variables
// WORKFORCE_FAKE_API_KEY and WORKFORCE_FAKE_SECRET_KEY (the Private Pool's) and
// WORKFORCE_FAKE_PUBLIC_API_KEY and WORKFORCE_FAKE_PUBLIC_SECRET_KEY (the Public Pool's), so that a
// receiver started beside it can be configured beforehand; a flag wins over its variable. They
// must be test keys (pk_test_… and sk_test_…); a live-looking or malformed key is refused.
//
// It then serves until SIGINT or SIGTERM and exits 0. Its clock follows the wall clock. Errors
// go to standard error with exit status 1; a listen address that is not a loopback address is
// refused unless -allow-remote is given (for a container whose port is published to the host's
// loopback).
//
// Tests drive it through the control API under /_fake/ (workforcetest.ControlAPI, which
// workforce-fake -h prints): Job and Job Request moves outside the API, Badges granted to
// Workers, the clock, injected faults, the request log, webhooks and the seed.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/workforce-marketplace/workforce-go/openapi"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "workforce-fake:", err)
		os.Exit(1)
	}
}

// usage is the -h text, before the flags; %s is the control API.
const usage = `Usage: workforce-fake -openapi
       workforce-fake [-addr 127.0.0.1:0] [-allow-remote] [-latency 0s] [-jobs 0] [-webhook-url URL]...
       [-api-key pk_test_… -secret-key sk_test_…] [-public-api-key pk_test_… -public-secret-key sk_test_…]

Serves the in-memory fake of Workforce Marketplace API v2 under <base_url>/api_v2. The first line
on standard output is JSON: {"base_url", "private", "public", "seed"}. The key pairs are random
unless fixed by the flags below or by WORKFORCE_FAKE_API_KEY, WORKFORCE_FAKE_SECRET_KEY (the Private
Pool's), WORKFORCE_FAKE_PUBLIC_API_KEY and WORKFORCE_FAKE_PUBLIC_SECRET_KEY; test keys only.

Control API: no token, JSON answers, errors {"error": "..."} with 404, 405, 413 or 422, never recorded
or faulted.
%s
Webhooks: every state change of a Job or a Job Request is POSTed to each receiver, signed in
X-Service-Webhook-Token with the secret key of the pair that owns it; a delivery without a 2xx is
tried again 60, 120 and 240 seconds later on the fake's clock (see /_fake/clock/advance).

Flags:
`

// keyFlags are the flags that fix the keys, each with the environment variable it overrides.
var keyFlags = []struct{ flag, variable, usage string }{
	{"api-key", "WORKFORCE_FAKE_API_KEY", "the Private Pool's API `key`, pk_test_…"},
	{"secret-key", "WORKFORCE_FAKE_SECRET_KEY", "the Private Pool's secret `key`, sk_test_…"},
	{"public-api-key", "WORKFORCE_FAKE_PUBLIC_API_KEY", "the Public Pool's API `key`, pk_test_…"},
	{"public-secret-key", "WORKFORCE_FAKE_PUBLIC_SECRET_KEY", "the Public Pool's secret `key`, sk_test_…"},
}

// run parses args, with getenv reading the environment, starts the fake, announces it on stdout
// and serves until ctx ends. Usage goes to stderr.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("workforce-fake", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() {
		fmt.Fprintf(stderr, usage, "  "+strings.ReplaceAll(strings.TrimSuffix(workforcetest.ControlAPI, "\n"), "\n", "\n  ")+"\n")
		flags.PrintDefaults()
	}
	addr := flags.String("addr", "127.0.0.1:0", "listen `address`; the host must be a loopback address unless -allow-remote")
	remote := flags.Bool("allow-remote", false, "allow an -addr that is not loopback, such as 0.0.0.0:8080 in a container;\nanyone who reaches it can drive the fake, keys included")
	latency := flags.Duration("latency", 0, "wait `duration` (e.g. 50ms) before answering every API request")
	printOpenAPI := flags.Bool("openapi", false, "print the API's OpenAPI 3.1 document (YAML) on standard output and exit")
	jobs := flags.Int("jobs", 0, "add `n` Jobs to the seeded records, spread over the last 90 days (for load tests)")
	keys := map[string]*string{}
	for _, k := range keyFlags {
		keys[k.flag] = flags.String(k.flag, "", "fix "+k.usage+" (else $"+k.variable+"; else random)")
	}
	var receivers []string
	flags.Func("webhook-url", "deliver webhooks to `URL` (http or https on a loopback host); may be repeated", func(u string) error {
		receivers = append(receivers, u)
		return nil
	})
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if *printOpenAPI {
		if flags.NArg() > 0 {
			return fmt.Errorf("unexpected arguments: %q", flags.Args())
		}
		_, err := stdout.Write(openapi.YAML())
		return err
	}
	for _, k := range keyFlags {
		if *keys[k.flag] == "" {
			*keys[k.flag] = getenv(k.variable)
		}
	}
	if flags.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", flags.Args())
	}
	if *latency < 0 || *jobs < 0 {
		return errors.New("-latency and -jobs must not be negative")
	}
	opts := []workforcetest.Option{workforcetest.WithAddr(*addr), workforcetest.WithTickingClock(),
		workforcetest.WithLatency(*latency)}
	if *remote {
		opts = append(opts, workforcetest.WithRemoteAccess())
	}
	if private := (workforcetest.KeyPair{APIKey: *keys["api-key"], SecretKey: *keys["secret-key"]}); private != (workforcetest.KeyPair{}) {
		opts = append(opts, workforcetest.WithKeys(private))
	}
	if public := (workforcetest.KeyPair{APIKey: *keys["public-api-key"], SecretKey: *keys["public-secret-key"]}); public != (workforcetest.KeyPair{}) {
		opts = append(opts, workforcetest.WithPublicKeys(public))
	}
	for _, u := range receivers {
		opts = append(opts, workforcetest.WithWebhookReceiver(u))
	}
	srv, err := workforcetest.Start(opts...)
	if err != nil {
		return err
	}
	defer srv.Close()
	srv.SeedJobs(*jobs)
	if err := json.NewEncoder(stdout).Encode(srv.Ready()); err != nil {
		return fmt.Errorf("writing the ready line: %w", err)
	}
	<-ctx.Done()
	return nil
}
