package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func TestQuickstartAgainstEmbeddedFake(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(string) string { return "" }))
	assert.Contains(t, out.String(), "Created Job")
	assert.Contains(t, out.String(), "Cancelled Job")
	assert.Contains(t, out.String(), "403")
}

func TestQuickstartAgainstAServer(t *testing.T) {
	t.Parallel()
	srv := workforcetest.NewServer(t)
	env := map[string]string{
		"WORKFORCE_API_KEY":    srv.Public.APIKey,
		"WORKFORCE_SECRET_KEY": srv.Public.SecretKey,
		"WORKFORCE_BASE_URL":   srv.URL,
	}
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, func(k string) string { return env[k] }))
	assert.Contains(t, out.String(), "read-only")
	assert.Contains(t, out.String(), "Listed")
	for _, r := range srv.Requests() {
		if r.Path != "/api_v2/authenticate" {
			assert.Equal(t, "GET", r.Method, "the tour against a real server only reads: %s", r.Path)
		}
	}
}

func TestQuickstartRefusesPartialEnvironment(t *testing.T) {
	t.Parallel()
	err := run(context.Background(), &bytes.Buffer{}, func(k string) string {
		if k == "WORKFORCE_API_KEY" {
			return "pk_test_only"
		}
		return ""
	})
	require.Error(t, err)
}
