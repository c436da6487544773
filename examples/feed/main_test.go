package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMemory(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), nil, &out))
	assert.Contains(t, out.String(), "The table matches the API.")
}

func TestSQLite(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-store", "sqlite:" + filepath.Join(t.TempDir(), "feed.db"), "-jobs", "30"}, &out))
	assert.Contains(t, out.String(), "The table matches the API.")
}

func TestPostgres(t *testing.T) {
	t.Parallel()
	dsn := os.Getenv("WORKFORCE_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("WORKFORCE_TEST_POSTGRES is not set under CI")
		}
		t.Skip("no PostgreSQL: set WORKFORCE_TEST_POSTGRES to run this test")
	}
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"-store", "postgres:" + dsn, "-jobs", "30"}, &out))
	assert.Contains(t, out.String(), "The table matches the API.")
}

func TestBadStore(t *testing.T) {
	t.Parallel()
	assert.ErrorContains(t, run(context.Background(), []string{"-store", "redis:x"}, &bytes.Buffer{}), "want memory")
}
