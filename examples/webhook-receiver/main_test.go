package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/webhook"
)

func TestDemoAgainstEmbeddedFake(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), nil, &out, func(string) string { return "" }))
	for _, want := range []string{"verified: job", "is now approved", "deliveries verified", "forged delivery was refused with 401"} {
		assert.Contains(t, out.String(), want)
	}
}

func TestServeVerifiesWithTheKeyFromTheEnvironment(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	const key = "sk_test_receiverexample0000"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var out bytes.Buffer // written only by run, which serializes its writes; read after it returned
	go func() {
		done <- run(ctx, []string{"-addr", addr}, &out, func(k string) string {
			if k == "WORKFORCE_SECRET_KEY" {
				return key
			}
			return ""
		})
	}()
	body := `{"job_request": {"id": 501, "state": "posted"}}`
	var status int
	require.Eventually(t, func() bool {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/", strings.NewReader(body))
		req.Header.Set(webhook.Header, webhook.Sign([]byte(body), key))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		status = resp.StatusCode
		return true
	}, 5*time.Second, 20*time.Millisecond)
	assert.Equal(t, http.StatusNoContent, status)
	cancel()
	require.NoError(t, <-done)
	assert.Contains(t, out.String(), "verified: job_request 501 is now posted")
}

// TestServerHasTimeouts checks that the receiver's server bounds every
// phase of a request, and that a key New would refuse stops it at once.
func TestServerHasTimeouts(t *testing.T) {
	t.Parallel()
	srv := newServer("127.0.0.1:0", http.NotFoundHandler())
	for name, d := range map[string]time.Duration{"ReadHeaderTimeout": srv.ReadHeaderTimeout, "ReadTimeout": srv.ReadTimeout,
		"WriteTimeout": srv.WriteTimeout, "IdleTimeout": srv.IdleTimeout} {
		assert.Positive(t, d, name)
	}
	err := run(context.Background(), nil, io.Discard, func(k string) string {
		if k == "WORKFORCE_SECRET_KEY" {
			return "sk_test_receiverexample0000\n" // read from a file, line break and all
		}
		return ""
	})
	assert.ErrorIs(t, err, workforce.ErrConfig)
}
