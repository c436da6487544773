package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunServesUntilCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out, write := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, []string{"-addr", "127.0.0.1:0"}, write, io.Discard)
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

	resp, err := http.PostForm(got.BaseURL+"/api_v2/authenticate", url.Values{
		"api_key": {got.Private["api_key"]}, "secret_key": {got.Private["secret_key"]},
	})
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	resp, err = http.Post(got.BaseURL+"/_fake/clock/advance?seconds=60", "", nil)
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

func TestRunRefuses(t *testing.T) {
	t.Parallel()
	for name, args := range map[string][]string{
		"non-loopback": {"-addr", "0.0.0.0:0"},
		"all hosts":    {"-addr", ":8080"},
		"unknown flag": {"-port", "1"},
		"arguments":    {"serve"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(t.Context(), args, &stdout, &stderr)
		assert.Error(t, err, name)
		assert.Empty(t, stdout.String(), name)
	}
	var stderr bytes.Buffer
	require.NoError(t, run(t.Context(), []string{"-h"}, io.Discard, &stderr))
	assert.Contains(t, stderr.String(), "-addr")
	for _, endpoint := range []string{"/_fake/job_requests/{id}/apply", "/_fake/jobs/{id}/", "no_show", "/_fake/clock/advance",
		"/_fake/faults", "delay_ms", "/_fake/requests", "/_fake/seed"} {
		assert.Contains(t, stderr.String(), endpoint, "-h documents the control API")
	}
}
