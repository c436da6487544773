package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/openapi"
	"github.com/workforce-marketplace/workforce-go/webhook"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// noEnv is an empty environment.
func noEnv(string) string { return "" }

// start runs the binary's run with args and the environment env until the test ends, and returns
// its ready line.
func start(t *testing.T, args []string, env map[string]string) workforcetest.Ready {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	out, write := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, args, func(name string) string { return env[name] }, write, io.Discard)
		_ = write.Close()
		done <- err
	}()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	line, err := bufio.NewReader(out).ReadBytes('\n')
	require.NoError(t, err)
	var ready workforcetest.Ready
	require.NoError(t, json.Unmarshal(line, &ready), string(line))
	return ready
}

// authenticates tells whether keys authenticate at the fake at base.
func authenticates(t *testing.T, base string, keys workforcetest.KeyPair) bool {
	t.Helper()
	resp, err := http.PostForm(base+"/api_v2/authenticate", url.Values{"api_key": {keys.APIKey}, "secret_key": {keys.SecretKey}})
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	return resp.StatusCode == http.StatusOK
}

// TestRunServesUntilCancelled starts the binary's run: it announces the fake, serves the API and
// the control API, and returns once its context ends, closing the server.
func TestRunServesUntilCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out, write := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, []string{"-addr", "127.0.0.1:0"}, noEnv, write, io.Discard)
		_ = write.Close()
		done <- err
	}()

	line, err := bufio.NewReader(out).ReadBytes('\n')
	require.NoError(t, err)
	var got struct {
		BaseURL string                     `json:"base_url"`
		Private map[string]string          `json:"private"`
		Public  map[string]string          `json:"public"`
		Seed    map[string]json.RawMessage `json:"seed"`
	}
	require.NoError(t, json.Unmarshal(line, &got), string(line))
	assert.True(t, strings.HasPrefix(got.BaseURL, "http://127.0.0.1:"), got.BaseURL)
	assert.True(t, strings.HasPrefix(got.Private["api_key"], "pk_test_"))
	assert.True(t, strings.HasPrefix(got.Public["secret_key"], "sk_test_"))
	assert.Contains(t, got.Seed, "worker_ids")

	assert.True(t, authenticates(t, got.BaseURL, workforcetest.KeyPair{APIKey: got.Private["api_key"], SecretKey: got.Private["secret_key"]}))
	resp, err := http.Post(got.BaseURL+"/_fake/clock/advance?seconds=60", "", nil)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the control API is served")

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after the context ended")
	}
	_, err = http.Get(got.BaseURL + "/api_v2/info")
	assert.Error(t, err, "the server is closed")
}

// TestRunRefusesBadFlagsAndDocumentsTheControlAPI gives the binary flags it must refuse, before
// announcing anything, and checks that -h documents the control API.
func TestRunRefusesBadFlagsAndDocumentsTheControlAPI(t *testing.T) {
	t.Parallel()
	for name, args := range map[string][]string{
		"non-loopback":            {"-addr", "0.0.0.0:0"},
		"all hosts":               {"-addr", ":8080"},
		"unknown flag":            {"-port", "1"},
		"arguments":               {"serve"},
		"remote webhook receiver": {"-webhook-url", "http://192.0.2.7/hooks"},
		"negative latency":        {"-latency", "-1s"},
		"negative jobs":           {"-jobs", "-1"},
		"latency not a duration":  {"-latency", "50"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(t.Context(), args, noEnv, &stdout, &stderr)
		assert.Error(t, err, name)
		assert.Empty(t, stdout.String(), name)
	}
	var stderr bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-h"}, noEnv, io.Discard, &stderr))
	assert.Contains(t, stderr.String(), "-addr")
	for _, endpoint := range []string{"/_fake/job_requests/{id}/apply", "/_fake/job_requests/{id}/post",
		"/_fake/job_requests/{id}/cancel", "/_fake/workers/{id}/badges?badge_id=N", "/_fake/jobs/{id}/", "no_show", "/_fake/clock/advance",
		"/_fake/faults", "delay_ms", "/_fake/requests", "/_fake/seed", "/_fake/webhooks?url=U", "/_fake/webhooks/attempts",
		"/_fake/webhooks/wait", "-webhook-url", "/_fake/latency?ms=N", "-latency", "-jobs"} {
		assert.Contains(t, stderr.String(), endpoint, "-h documents the control API")
	}
}

// TestWebhooksFromTheBinary starts the binary's run with -webhook-url, drives a Job through the
// control API, refuses the first delivery, and sees it again after the clock moves 61 seconds.
func TestWebhooksFromTheBinary(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var got []string // "state status"
	var secret string
	refused := false
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if webhook.Verify(body, r.Header.Get(webhook.Header), secret) != nil {
			w.WriteHeader(http.StatusUnauthorized)
			got = append(got, "unverified")
			return
		}
		ev, err := webhook.Parse(body)
		require.NoError(t, err)
		status := http.StatusOK
		if !refused && ev.Kind == webhook.KindJob {
			refused, status = true, http.StatusServiceUnavailable
		}
		got = append(got, fmt.Sprintf("%s %s %d", ev.Key, ev.State, status))
		w.WriteHeader(status)
	}))
	defer receiver.Close()

	ready := start(t, []string{"-webhook-url", receiver.URL + "/hooks"}, nil)
	mu.Lock()
	secret = ready.Private.SecretKey
	mu.Unlock()

	post := func(path string) map[string]any {
		resp, err := http.Post(ready.BaseURL+path, "", nil)
		require.NoError(t, err)
		defer resp.Body.Close()
		var m map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
		require.Equal(t, http.StatusOK, resp.StatusCode, "%s: %v", path, m)
		return m
	}
	job := post(fmt.Sprintf("/_fake/job_requests/%d/accept?worker_id=%d", ready.Seed.JobRequest1099ID, ready.Seed.WorkerIDs[1]))
	post(fmt.Sprintf("/_fake/jobs/%v/start", job["job_id"]))
	post("/_fake/webhooks/wait")
	mu.Lock()
	assert.Contains(t, got, "job filled 503", "the first delivery refused")
	assert.Contains(t, got, "job in_progress 200")
	assert.NotContains(t, got, "unverified")
	n := len(got)
	mu.Unlock()

	post("/_fake/clock/advance?seconds=61")
	post("/_fake/webhooks/wait")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, n+1, len(got), "one retry: %v", got)
	assert.Equal(t, "job filled 200", got[len(got)-1], "the refused delivery came again")
}

// TestRunAllowsRemoteWhenAsked listens on every address with -allow-remote.
func TestRunAllowsRemoteWhenAsked(t *testing.T) {
	t.Parallel()
	ready := start(t, []string{"-addr", "0.0.0.0:0", "-allow-remote"}, nil)
	assert.True(t, strings.HasPrefix(ready.BaseURL, "http://0.0.0.0:") || strings.HasPrefix(ready.BaseURL, "http://[::]:"), ready.BaseURL)
	assert.True(t, strings.HasPrefix(ready.Private.APIKey, "pk_test_"))
	assert.NotEmpty(t, ready.Seed.WorkerIDs)
}

// TestRunLatencyAndJobs starts the binary with -latency and -jobs: every API request waits, and
// the Jobs are there.
func TestRunLatencyAndJobs(t *testing.T) {
	t.Parallel()
	got := start(t, []string{"-latency", "30ms", "-jobs", "120"}, nil)
	begin := time.Now()
	resp, err := http.PostForm(got.BaseURL+"/api_v2/authenticate", url.Values{
		"api_key": {got.Private.APIKey}, "secret_key": {got.Private.SecretKey},
	})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(begin), 30*time.Millisecond, "every API request waits")
	var auth struct{ Token string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&auth))
	require.NoError(t, resp.Body.Close())

	resp, err = http.Get(got.BaseURL + "/api_v2/jobs?per=50&page=3&token=" + auth.Token)
	require.NoError(t, err)
	var page struct{ Jobs []json.RawMessage }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&page))
	require.NoError(t, resp.Body.Close())
	assert.Len(t, page.Jobs, 21, "120 Jobs and the seeded one")

	resp, err = http.Get(got.BaseURL + "/_fake/latency")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.JSONEq(t, `{"latency_ms": 30}`, string(body))
}

// TestRunTakesKeysFromTheEnvironment starts the binary with fixed keys in the environment, and
// with flags that override them.
func TestRunTakesKeysFromTheEnvironment(t *testing.T) {
	t.Parallel()
	env := map[string]string{
		"WORKFORCE_FAKE_API_KEY":           "pk_test_compose",
		"WORKFORCE_FAKE_SECRET_KEY":        "sk_test_compose",
		"WORKFORCE_FAKE_PUBLIC_API_KEY":    "pk_test_compose_public",
		"WORKFORCE_FAKE_PUBLIC_SECRET_KEY": "sk_test_compose_public",
	}
	ready := start(t, nil, env)
	assert.Equal(t, workforcetest.KeyPair{APIKey: "pk_test_compose", SecretKey: "sk_test_compose"}, ready.Private)
	assert.Equal(t, workforcetest.KeyPair{APIKey: "pk_test_compose_public", SecretKey: "sk_test_compose_public"}, ready.Public)
	assert.True(t, authenticates(t, ready.BaseURL, ready.Private))
	assert.True(t, authenticates(t, ready.BaseURL, ready.Public))

	ready = start(t, []string{"-api-key", "pk_test_flag", "-secret-key", "sk_test_flag"}, env)
	assert.Equal(t, workforcetest.KeyPair{APIKey: "pk_test_flag", SecretKey: "sk_test_flag"}, ready.Private, "a flag wins over its variable")
	assert.True(t, authenticates(t, ready.BaseURL, ready.Private))
	assert.Equal(t, "pk_test_compose_public", ready.Public.APIKey)

	ready = start(t, nil, map[string]string{"WORKFORCE_FAKE_API_KEY": "pk_test_only", "WORKFORCE_FAKE_SECRET_KEY": "sk_test_only"})
	assert.Equal(t, "pk_test_only", ready.Private.APIKey)
	assert.Regexp(t, `^pk_test_[0-9a-f]{32}$`, ready.Public.APIKey, "the Public Pool's stay random")
}

// TestRunRefusesKeysThatAreNotTestKeys gives the binary live and malformed keys: it refuses them
// before it announces anything, without quoting them, and -h shows no key from the environment.
func TestRunRefusesKeysThatAreNotTestKeys(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		args []string
		env  map[string]string
	}{
		"live secret key from the environment": {nil, map[string]string{"WORKFORCE_FAKE_API_KEY": "pk_live_HIDDEN", "WORKFORCE_FAKE_SECRET_KEY": "sk_live_HIDDEN"}},
		"live key by flag":                     {[]string{"-public-api-key", "pk_live_HIDDEN", "-public-secret-key", "sk_test_HIDDEN"}, nil},
		"malformed":                            {[]string{"-api-key", "pk_test_HIDDEN!", "-secret-key", "sk_test_HIDDEN"}, nil},
		"half a pair":                          {nil, map[string]string{"WORKFORCE_FAKE_SECRET_KEY": "sk_test_HIDDEN"}},
	} {
		var stdout, stderr bytes.Buffer
		err := run(t.Context(), tc.args, func(v string) string { return tc.env[v] }, &stdout, &stderr)
		if assert.Error(t, err, name) {
			assert.NotContains(t, err.Error(), "HIDDEN", name)
		}
		assert.Empty(t, stdout.String(), name)
	}
	var stderr bytes.Buffer
	env := map[string]string{"WORKFORCE_FAKE_SECRET_KEY": "sk_test_HIDDEN"}
	require.NoError(t, run(t.Context(), []string{"-h"}, func(v string) string { return env[v] }, io.Discard, &stderr))
	assert.NotContains(t, stderr.String(), "HIDDEN", "-h shows no key")
	assert.Contains(t, stderr.String(), "WORKFORCE_FAKE_SECRET_KEY")
}

// TestRunPrintsTheOpenAPIDocument checks that -openapi prints the document the fake serves, and
// starts nothing.
func TestRunPrintsTheOpenAPIDocument(t *testing.T) {
	t.Parallel()
	var stdout bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-openapi"}, noEnv, &stdout, io.Discard))
	assert.Equal(t, string(openapi.YAML()), stdout.String())
	assert.Error(t, run(t.Context(), []string{"-openapi", "serve"}, noEnv, io.Discard, io.Discard))

	ready := start(t, nil, nil)
	resp, err := http.Get(ready.BaseURL + "/_fake/openapi.yaml")
	require.NoError(t, err)
	defer resp.Body.Close()
	served, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "application/yaml", resp.Header.Get("Content-Type"))
	assert.Equal(t, stdout.String(), string(served))
}
