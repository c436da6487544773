package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/feed/sqlite"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// closedPort answers a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// waitOutput waits until out holds s.
func waitOutput(t *testing.T, out *syncBuffer, s string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), s) {
		require.True(t, time.Now().Before(deadline), "waiting for %q in %s", s, out.String())
		time.Sleep(5 * time.Millisecond)
	}
}

func TestListenPrintsNoSecretOfTheReceiversURL(t *testing.T) {
	srv := workforcetest.NewServer(t)
	env := fakeEnv(srv)
	c, err := srv.Client()
	require.NoError(t, err)
	d := &driver{srv: srv, c: c, seed: srv.Seed(), out: io.Discard}
	for _, s := range d.story()[:2] {
		_, err := s(context.Background())
		require.NoError(t, err)
	}
	to := "http://alice:hunter2pass@" + closedPort(t) + "/hook?token=s3cr3tq&x=y#frag"

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"listen", "--forward-to", to, "--interval", "50ms", "--retry-wait", "5ms"},
			func(k string) string { return env[k] }, &out, &errOut)
	}()
	waitOutput(t, &out, "will retry")
	cancel()
	r := result{code: <-done, stdout: out.String(), stderr: errOut.String()}
	assert.Equal(t, exitOK, r.code, r.stderr)
	for _, secret := range []string{"hunter2pass", "s3cr3tq", "alice", "frag"} {
		assert.NotContains(t, r.stdout+r.stderr, secret)
	}
	assert.Contains(t, r.stderr, "/hook?token=…")
	noSecrets(t, r, env)

	bad := runCLI(context.Background(), env, "listen", "--forward-to", "ftp://bob:pw9secret@h/x?k=v9secret")
	assert.Equal(t, exitUsage, bad.code)
	assert.NotContains(t, bad.stdout+bad.stderr, "9secret")
}

// listenUntilStarted runs listen with args until it prints its start, then stops it as Ctrl-C
// does; a run that ends first answers as it ended.
func listenUntilStarted(t *testing.T, env map[string]string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"listen"}, args...), func(k string) string { return env[k] }, &out, &errOut)
	}()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case code := <-done:
			return result{out.String(), errOut.String(), code}
		case <-deadline:
			t.Fatalf("listen did not start: %s", errOut.String())
		case <-time.After(5 * time.Millisecond):
		}
		if strings.Contains(errOut.String(), "Ctrl-C stops") {
			cancel()
			return result{out.String(), errOut.String(), <-done}
		}
	}
}

func TestListenStateBelongsToOneAPIAndKey(t *testing.T) {
	a, b := workforcetest.NewServer(t), workforcetest.NewServer(t)
	envA, envB := fakeEnv(a), fakeEnv(b)
	state := filepath.Join(t.TempDir(), "listen.db")
	args := []string{"--forward-to", "http://127.0.0.1:9/hook", "--interval", "1h", "--state", state}

	r := listenUntilStarted(t, envA, args...)
	require.Equal(t, exitOK, r.code, r.stderr)
	r = listenUntilStarted(t, envA, args...) // the same API and key again
	require.Equal(t, exitOK, r.code, r.stderr)

	r = listenUntilStarted(t, envB, args...) // another API (a restarted fake)
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, state)
	assert.Contains(t, r.stderr, a.Ready().BaseURL)
	noSecrets(t, r, envB)

	other := map[string]string{envAPIKey: envB[envAPIKey], envSecretKey: envB[envSecretKey],
		"WORKFORCE_TEST_BASE_URL": envA["WORKFORCE_TEST_BASE_URL"]}
	r = listenUntilStarted(t, other, args...) // the same API, another key
	assert.Equal(t, exitUsage, r.code, r.stderr)
	assert.Contains(t, r.stderr, "another API key")
	noSecrets(t, r, other)
	noSecrets(t, r, envA)
}

func TestListenHelpTellsWhatIsNotSeen(t *testing.T) {
	t.Parallel()
	r := runCLI(context.Background(), nil, "listen", "--help")
	require.Equal(t, exitOK, r.code, r.stderr)
	help := strings.Join(strings.Fields(r.stdout), " ")
	assert.Contains(t, help, "states it passed through between two syncs are not seen")
	assert.Contains(t, help, "A shorter --interval misses fewer")
	assert.Contains(t, help, "X-Workforce-Cli-Transition")
	assert.Contains(t, help, "never the key")
}

func TestListenSaysItWaitsForTheDeliveryInFlight(t *testing.T) {
	srv := workforcetest.NewServer(t)
	env := fakeEnv(srv)
	arrived, release := make(chan struct{}, 100), make(chan struct{})
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-release
		w.WriteHeader(http.StatusNoContent)
	}))
	defer hook.Close()
	defer close(release)
	c, err := srv.Client()
	require.NoError(t, err)
	d := &driver{srv: srv, c: c, seed: srv.Seed(), out: io.Discard}
	_, err = d.story()[0](context.Background())
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"listen", "--forward-to", hook.URL, "--interval", "1h"},
			func(k string) string { return env[k] }, &out, &errOut)
	}()
	<-arrived
	cancel()
	waitOutput(t, &errOut, "Stopping: waiting for the delivery in flight (Ctrl-C again to quit now).")
	release <- struct{}{}
	assert.Equal(t, exitOK, <-done, errOut.String())
}

func TestListenStateInUseIsOneClearLine(t *testing.T) {
	srv := workforcetest.NewServer(t)
	env := fakeEnv(srv)
	state := filepath.Join(t.TempDir(), "listen.db")
	held, err := sqlite.Open(context.Background(), state) // another listen's
	require.NoError(t, err)
	defer held.Close()
	r := runCLI(context.Background(), env, "listen", "--forward-to", "http://127.0.0.1:9/hook", "--state", state)
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, "workforce: "+state+" is in use by another workforce listen\n", r.stderr)
}
