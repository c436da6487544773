package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// syncBuffer is an output the command's goroutines may write at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// result is what a command wrote and its exit status.
type result struct {
	stdout, stderr string
	code           int
}

// runCLI runs the command line args with the environment env, in process.
func runCLI(ctx context.Context, env map[string]string, args ...string) result {
	var out, errOut syncBuffer
	code := run(ctx, args, func(k string) string { return env[k] }, &out, &errOut)
	return result{out.String(), errOut.String(), code}
}

// fakeEnv is the environment that points the command at srv with its Private Pool keys.
func fakeEnv(srv *workforcetest.Server) map[string]string {
	r := srv.Ready()
	return map[string]string{envAPIKey: r.Private.APIKey, envSecretKey: r.Private.SecretKey,
		"WORKFORCE_TEST_BASE_URL": r.BaseURL}
}

// noSecrets fails t if any output of r holds a value of env that is a key.
func noSecrets(t *testing.T, r result, env map[string]string) {
	t.Helper()
	for _, k := range []string{envAPIKey, envSecretKey} {
		if v := env[k]; v != "" && (strings.Contains(r.stdout, v) || strings.Contains(r.stderr, v)) {
			t.Errorf("the output holds $%s", k)
		}
	}
}
