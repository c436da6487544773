package main

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/openapi"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// secretEnv holds keys that must never be printed.
var secretEnv = map[string]string{envAPIKey: "pk_test_neverprintedpublic0001", envSecretKey: "sk_test_neverprintedsecret0001",
	"WORKFORCE_TEST_BASE_URL": "http://127.0.0.1:1"}

// commandPaths answers every command's path below the root, the root included.
func commandPaths(c *cobra.Command, prefix []string) [][]string {
	paths := [][]string{prefix}
	for _, sub := range c.Commands() {
		if !sub.Hidden && sub.Name() != "help" {
			paths = append(paths, commandPaths(sub, append(append([]string{}, prefix...), sub.Name()))...)
		}
	}
	return paths
}

func TestHelpOfEveryCommand(t *testing.T) {
	t.Parallel()
	paths := commandPaths((&env{}).rootCommand(), nil)
	require.Greater(t, len(paths), 15)
	for _, p := range paths {
		r := runCLI(context.Background(), secretEnv, append(p, "--help")...)
		assert.Equal(t, exitOK, r.code, "%v: %s", p, r.stderr)
		assert.Contains(t, r.stdout, "Usage:", p)
		noSecrets(t, r, secretEnv)
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"bogus"}, {"jobs", "bogus"}, {"jobs", "list", "--bogus"}, {"jobs", "get"}, {"jobs", "get", "abc"}, {"jobs", "get", "0"},
		{"jobs", "list", "--updated-after", "yesterday"}, {"users", "list", "-o", "yaml"},
		{"listen"}, {"listen", "--forward-to", "ftp://127.0.0.1/x"},
		{"listen", "--forward-to", "http://127.0.0.1/x", "--resource", "users"},
		{"listen", "--forward-to", "http://127.0.0.1/x", "--interval", "0s"}, {"fake", "--every", "0s"},
		{"openapi", "extra"}, {"fake", "--addr", "0.0.0.0:0"}, {"fake", "--webhook-url", "http://example.com/x"},
		{"listen", "--forward-to", "http://127.0.0.1/x", "--state", "/no-such-directory-of-workforce/listen.db"},
	} {
		r := runCLI(context.Background(), secretEnv, args...)
		assert.Equal(t, exitUsage, r.code, "%v", args)
		assert.Equal(t, 1, strings.Count(r.stderr, "\n"), "%v: one line: %q", args, r.stderr)
		assert.True(t, strings.HasPrefix(r.stderr, "workforce: "), r.stderr)
		noSecrets(t, r, secretEnv)
	}
	r := runCLI(context.Background(), map[string]string{}, "jobs", "list")
	assert.Equal(t, exitUsage, r.code)
	assert.Contains(t, r.stderr, "no API key")
}

func TestOpenAPIPrintsTheContract(t *testing.T) {
	t.Parallel()
	r := runCLI(context.Background(), nil, "openapi")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, string(openapi.YAML()), r.stdout)
}

func TestReadEveryResource(t *testing.T) {
	t.Parallel()
	srv := workforcetest.NewServer(t)
	srv.SeedJobs(120) // three pages
	env := fakeEnv(srv)
	ctx := context.Background()
	c, err := srv.Client()
	require.NoError(t, err)
	var want int
	for _, err := range c.Jobs.All(ctx, nil) {
		require.NoError(t, err)
		want++
	}
	r := runCLI(ctx, env, "jobs", "list", "-o", "json")
	require.Equal(t, exitOK, r.code, r.stderr)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	assert.Len(t, lines, want)
	seen := map[int64]bool{}
	for _, l := range lines {
		var j workforce.Job
		require.NoError(t, json.Unmarshal([]byte(l), &j), l)
		assert.False(t, seen[j.ID], "Job %d twice", j.ID)
		seen[j.ID] = true
	}
	r = runCLI(ctx, env, "jobs", "list", "--limit", "7", "-o", "json")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, 7, strings.Count(r.stdout, "\n"))
	r = runCLI(ctx, env, "jobs", "list", "--state", "approved", "--updated-after", "2000-01-01", "-o", "json")
	require.Equal(t, exitOK, r.code, r.stderr)
	for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		assert.Contains(t, l, `"state":"approved"`)
	}

	for _, res := range resources {
		r := runCLI(ctx, env, res.name, "list", "-o", "json")
		require.Equal(t, exitOK, r.code, "%s: %s", res.name, r.stderr)
		noSecrets(t, r, env)
		table := runCLI(ctx, env, res.name, "list")
		require.Equal(t, exitOK, table.code, table.stderr)
		assert.True(t, strings.HasPrefix(table.stdout, "ID "), "%s: %s", res.name, table.stdout)
		if r.stdout == "" {
			continue
		}
		first := strings.SplitN(r.stdout, "\n", 2)[0]
		var rec struct{ ID int64 }
		require.NoError(t, json.Unmarshal([]byte(first), &rec))
		got := runCLI(ctx, env, res.name, "get", strconv.FormatInt(rec.ID, 10), "-o", "json")
		require.Equal(t, exitOK, got.code, got.stderr)
		// The record shown by get as the list showed it: a list's User carries more keys
		// than a shown one (CONTRACT §10.1), so each key get shows is compared.
		var listed, shown map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(first), &listed))
		require.NoError(t, json.Unmarshal([]byte(got.stdout), &shown))
		for k, v := range shown {
			assert.JSONEq(t, string(listed[k]), string(v), "%s: %s", res.name, k)
		}
		got = runCLI(ctx, env, res.name, "get", strconv.FormatInt(rec.ID, 10))
		require.Equal(t, exitOK, got.code, got.stderr)
		assert.Equal(t, 2, strings.Count(got.stdout, "\n"), "%s: a header and a row: %s", res.name, got.stdout)
	}
}

func TestAPIErrorsExitOneWithTheRequestID(t *testing.T) {
	t.Parallel()
	srv := workforcetest.NewServer(t)
	env := fakeEnv(srv)
	r := runCLI(context.Background(), env, "jobs", "get", "987654")
	assert.Equal(t, exitError, r.code)
	assert.Equal(t, 1, strings.Count(r.stderr, "\n"), r.stderr)
	assert.Contains(t, r.stderr, "404")
	assert.Contains(t, r.stderr, "(request ")
	noSecrets(t, r, env)

	wrong := fakeEnv(srv)
	wrong[envSecretKey] = "sk_test_wrongwrongwrongwrong0001"
	r = runCLI(context.Background(), wrong, "customers", "list")
	assert.Equal(t, exitError, r.code)
	assert.Contains(t, r.stderr, "401")
	assert.Empty(t, r.stdout, "no table header before the error")
	noSecrets(t, r, wrong)
}
