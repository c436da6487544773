package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/workforce-marketplace/workforce-go/feed/postgres"
)

// dsnVar names the database the tests use; CI sets it.
const dsnVar = "WORKFORCE_TEST_POSTGRES"

// database answers a pool on a schema of its own (dropped when the test
// ends), or skips the test when no server is configured or reachable
// (fails it instead under CI, where one must be).
func database(t testing.TB) *pgxpool.Pool {
	t.Helper()
	dsn := os.Getenv(dsnVar)
	skip := func(format string, args ...any) {
		t.Helper()
		if os.Getenv("CI") != "" {
			t.Fatalf(format, args...)
		}
		t.Skipf(format, args...)
	}
	if dsn == "" {
		skip("no PostgreSQL: set %s (e.g. postgres://user:password@127.0.0.1:5432/db) to run this test", dsnVar)
	}
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, dsn)
	if err != nil {
		skip("no PostgreSQL reachable at %s: %v", dsnVar, err)
	}
	defer admin.Close(ctx)
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "feedtest_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	cfg.MaxConns = 32
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		pool.Close()
		if c, err := pgx.Connect(ctx, dsn); err == nil {
			_, _ = c.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
			c.Close(ctx)
		}
	})
	return pool
}

// store answers a Store on a pool of its own on the test's schema.
func store(t testing.TB, pool *pgxpool.Pool) *postgres.Store {
	t.Helper()
	s, err := postgres.New(context.Background(), pool)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}
