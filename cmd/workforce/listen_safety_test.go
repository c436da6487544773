package main

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
