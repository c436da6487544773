package main

import (
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/webhook"
)

// TestFakeAndListenMakeALoop runs workforce fake --drive and workforce listen as two terminals
// would: the receiver sees every kind of Job change.
func TestFakeAndListenMakeALoop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var fakeOut, fakeErr syncBuffer
	fakeDone := make(chan int, 1)
	go func() {
		fakeDone <- run(ctx, []string{"fake", "--drive", "--every", "5ms"}, func(string) string { return "" }, &fakeOut, &fakeErr)
	}()
	exports := regexp.MustCompile(`(?m)^  export (\w+)=(\S+)$`)
	deadline := time.Now().Add(10 * time.Second)
	for len(exports.FindAllString(fakeOut.String(), -1)) < 3 {
		require.True(t, time.Now().Before(deadline), fakeOut.String()+fakeErr.String())
		time.Sleep(5 * time.Millisecond)
	}
	env := map[string]string{}
	for _, m := range exports.FindAllStringSubmatch(fakeOut.String(), -1) {
		env[m[1]] = m[2]
	}
	assert.Contains(t, fakeOut.String(), "made-up test keys")
	require.True(t, strings.HasPrefix(env[envSecretKey], "sk_test_"))

	rc := &receiver{t: t, secretKey: env[envSecretKey]}
	hook := httptest.NewServer(rc)
	defer hook.Close()
	stop := startListen(env, "--forward-to", hook.URL, "--interval", "20ms", "--retry-wait", "5ms")
	want := []string{"filled", "in_progress", "paused", "completed", "approved", "withdrawn", "cancelled", "no_show"}
	rc.waitFor(t, "every kind of Job change", func(got []delivery) bool {
		seen := map[string]bool{}
		for _, d := range got {
			if d.kind == webhook.KindJob {
				seen[d.state] = true
			}
		}
		for _, s := range want {
			if !seen[s] {
				return false
			}
		}
		return true
	})
	r := stop()
	require.Equal(t, exitOK, r.code, r.stderr)
	noSecrets(t, r, env)
	cancel()
	require.Equal(t, exitOK, <-fakeDone, fakeErr.String())
	assert.Contains(t, fakeOut.String(), "drive: Job ")
	assert.NotContains(t, fakeOut.String(), "failed", "every step of the drive worked")
}
