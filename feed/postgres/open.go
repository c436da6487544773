package postgres

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// MinConns is the connections a Store's pool needs beside one for each of
// its Feed's workers: its writer, claims, notifier and Wake's listener
// hold up to this many at once, and a TxHandler holds one for the whole of
// its fn, so that a pool of fewer than MinConns plus the workers lets busy
// handlers stall every ingest.
const MinConns = 16

// DefaultWorkers is the workers Open sizes its pool for when WithWorkers
// does not say: the Feed's default (see feed.WithWorkers).
const DefaultWorkers = 4

// An Option configures Open.
type Option func(*options)

type options struct {
	schema    string
	schemaSet bool
	size      int
	workers   int
}

// WithSchema keeps the Store's tables in the schema name (created when
// missing), instead of the first schema of the connection's search_path:
// Stores of different schemas share no change, record, mark or sync lock,
// so that several feeds (an application's environments, say) may share
// one database. (Their NOTIFY channel is the database's: a Store's
// ingests wake the Feeds of other schemas too, for a claim that finds
// nothing.) The connections' search_path is that schema alone, for
// TxHandler's fn too.
func WithSchema(name string) Option {
	return func(o *options) { o.schema, o.schemaSet = name, true }
}

// WithPoolSize makes Open's pool hold up to n connections (n above 0),
// whatever the DSN and WithWorkers say. Fewer than MinConns plus the Feed's workers
// lets busy handlers stall every ingest.
func WithPoolSize(n int) Option { return func(o *options) { o.size = n } }

// WithWorkers sizes Open's pool for a Feed of n workers (feed.WithWorkers):
// MinConns plus n connections, unless WithPoolSize or the DSN's
// pool_max_conns says otherwise. DefaultWorkers by default.
func WithWorkers(n int) Option { return func(o *options) { o.workers = n } }

// Open connects to the database dsn names (a URL or key=value string, as
// pgx reads it) and answers a Store on it, creating its tables when
// missing. Its pool holds up to MinConns plus DefaultWorkers connections:
// set the Feed's workers with WithWorkers, or the size with WithPoolSize
// (a DSN's pool_max_conns is obeyed too, unless WithPoolSize is given).
// Close closes the connections.
func Open(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	o := options{workers: DefaultWorkers}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	switch {
	case o.size < 0:
		return nil, fmt.Errorf("postgres: a pool of %d connections", o.size)
	case o.workers < 1:
		return nil, fmt.Errorf("postgres: workers must be at least 1, got %d", o.workers)
	case o.schemaSet && o.schema == "":
		return nil, errors.New("postgres: an empty schema name")
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	switch {
	case o.size > 0:
		cfg.MaxConns = int32(min(o.size, math.MaxInt32))
	case !strings.Contains(dsn, "pool_max_conns"):
		cfg.MaxConns = int32(min(MinConns+o.workers, math.MaxInt32))
	}
	if o.schema != "" {
		if err := createSchema(ctx, cfg.ConnConfig, o.schema); err != nil {
			return nil, err
		}
		cfg.ConnConfig.RuntimeParams["search_path"] = pgx.Identifier{o.schema}.Sanitize()
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	s, err := New(ctx, pool)
	if err != nil {
		pool.Close()
		return nil, err
	}
	s.own = true
	return s, nil
}

// createSchema creates the schema name when missing, on a connection of
// its own. A schema there already needs no right to create one, and one
// that another instance created meanwhile is no error.
func createSchema(ctx context.Context, cfg *pgx.ConnConfig, name string) error {
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	exists := func() (ok bool, err error) {
		err = conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)", name).Scan(&ok)
		return ok, err
	}
	ok, err := exists()
	if err == nil && !ok {
		if _, err = conn.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{name}.Sanitize()); err != nil {
			if again, aerr := exists(); aerr == nil && again {
				err = nil // created by another instance starting at once
			}
		}
	}
	if err != nil {
		return fmt.Errorf("postgres: creating the schema %s: %w", pgx.Identifier{name}.Sanitize(), err)
	}
	return nil
}
