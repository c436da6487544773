// Command workforce-fake runs the in-memory fake of Workforce Marketplace API v2 (package
// workforcetest) as a standalone server on a loopback address, for tests written in any
// language and for trying an application by hand.
//
// Usage:
//
//	workforce-fake [-addr 127.0.0.1:0]
//
// The first line it writes to standard output is one JSON object with the base URL, both key
// pairs and the ids of the seeded records:
//
//	{"base_url": "http://127.0.0.1:43123", "private": {"api_key": "pk_test_…", "secret_key": "sk_test_…"},
//	 "public": {"api_key": "…", "secret_key": "…"}, "seed": {"customer_id": 11, …}}
//
// It then serves until SIGINT or SIGTERM and exits 0. Its clock follows the wall clock. Errors
// go to standard error with exit status 1; a listen address that is not a loopback address is
// refused.
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
	"syscall"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "workforce-fake:", err)
		os.Exit(1)
	}
}

// ready is the first line written to stdout.
type ready struct {
	BaseURL string                `json:"base_url"`
	Private workforcetest.KeyPair `json:"private"`
	Public  workforcetest.KeyPair `json:"public"`
	Seed    workforcetest.Seed    `json:"seed"`
}

// run parses args, starts the fake, announces it on stdout and serves until ctx ends. Usage
// goes to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("workforce-fake", flag.ContinueOnError)
	flags.SetOutput(stderr)
	addr := flags.String("addr", "127.0.0.1:0", "listen `address`; the host must be a loopback address")
	if err := flags.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if flags.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %q", flags.Args())
	}
	srv, err := workforcetest.Start(workforcetest.WithAddr(*addr), workforcetest.WithTickingClock())
	if err != nil {
		return err
	}
	defer srv.Close()
	line := ready{BaseURL: srv.URL, Private: srv.Private, Public: srv.Public, Seed: srv.Seed()}
	if err := json.NewEncoder(stdout).Encode(line); err != nil {
		return fmt.Errorf("writing the ready line: %w", err)
	}
	<-ctx.Done()
	return nil
}
