// Command workforce brings the Workforce Marketplace API v2 to a terminal: it forwards the
// account's Job and Job Request changes to a local webhook receiver (workforce listen), runs the
// in-memory fake of the API (workforce fake), reads records (workforce jobs list, …) and prints
// the API's OpenAPI document (workforce openapi).
//
// It reads its keys and base URL as the SDK does: WORKFORCE_API_KEY, WORKFORCE_SECRET_KEY,
// WORKFORCE_TEST_BASE_URL (test keys) or WORKFORCE_BASE_URL, or the flags --api-key,
// --secret-key-file and --base-url. It never prints a key, a token or a secret; the one
// exception is workforce fake, which prints the fake's own made-up test keys.
//
// Exit status: 0 on success, 1 when the API or the network failed, 2 for a usage error.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second Ctrl-C kills at once, while deliveries under way finish
	}()
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// The exit statuses.
const (
	exitOK    = 0
	exitError = 1 // the API, the network or the receiver failed
	exitUsage = 2 // the command line is wrong
)

// usageError marks an error of the command line: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// usagef makes a usageError.
func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// runError marks an error met while running a command: exit status 1.
type runError struct{ err error }

func (e runError) Error() string { return e.err.Error() }
func (e runError) Unwrap() error { return e.err }

// env is what the commands share: the environment and the outputs.
type env struct {
	getenv         func(string) string
	stdout, stderr io.Writer
	conn           connFlags
}

// run runs the command line args with getenv reading the environment, and answers the exit
// status. Errors are written to stderr as one line.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	e := &env{getenv: getenv, stdout: stdout, stderr: stderr}
	root := e.rootCommand()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "workforce: ") {
		msg = "workforce: " + msg
	}
	if errors.As(err, new(usageError)) || !errors.As(err, new(runError)) {
		fmt.Fprintln(stderr, oneLine(msg)+" (see workforce --help)")
		return exitUsage
	}
	fmt.Fprintln(stderr, oneLine(msg))
	return exitError
}

// oneLine replaces line breaks and other control characters, so that an error is one line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// rootCommand builds the command tree.
func (e *env) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "workforce",
		Short: "The Workforce Marketplace API v2 from a terminal",
		Long: `workforce forwards the account's Job and Job Request changes to a local webhook receiver
(listen), runs the in-memory fake of the API (fake), reads records (jobs, job-requests, users,
customers, badges, messages) and prints the API's OpenAPI document (openapi).

Keys and base URL come from WORKFORCE_API_KEY, WORKFORCE_SECRET_KEY and WORKFORCE_TEST_BASE_URL
(test keys) or WORKFORCE_BASE_URL, as the SDK reads them, or from the flags. No key, token or
secret is ever printed.

Exit status: 0 on success, 1 when the API, the network or the receiver failed, 2 for a usage error.`,
		SilenceUsage:      true,
		SilenceErrors:     true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
		Args:              usageArgs(cobra.NoArgs),
		RunE:              showHelp,
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	e.conn.register(root)
	root.AddCommand(e.listenCommand(), e.fakeCommand(), e.openapiCommand())
	for _, r := range resources {
		root.AddCommand(e.resourceCommand(r))
	}
	return root
}

// usageArgs marks the errors of an argument check as usage errors.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageError{err}
		}
		return nil
	}
}

// runE wraps a command's function so that its errors exit with status 1, unless marked as
// usage errors.
func runE(fn func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		err := fn(cmd, args)
		if err == nil || errors.As(err, new(usageError)) {
			return err
		}
		return runError{err}
	}
}

// showHelp is the function of the commands that only group others: it prints their help.
func showHelp(cmd *cobra.Command, _ []string) error { return cmd.Help() }
