package main

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// keyFingerprint answers a mark of apiKey that does not tell it: the first 8 hex digits of its
// SHA-256.
func keyFingerprint(apiKey string) string {
	sum := sha256.Sum256([]byte(apiKey))
	return hex.EncodeToString(sum[:4])
}

// bindState ties the state file at path (its database db) to the API at base and the account of
// apiKey: a run with another base URL or key than the file's is refused with a usage error,
// since the file's record of what was delivered belongs to another feed. A file not yet tied
// is tied by bind, to call once the key has worked (the URL printable, the key as its
// fingerprint only).
func bindState(ctx context.Context, db *sql.DB, path, base, apiKey string) (bind func() error, err error) {
	base = printableURL(strings.TrimRight(base, "/"))
	fp := keyFingerprint(apiKey)
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS workforce_cli_identity (
		one INTEGER PRIMARY KEY CHECK (one = 1), base_url TEXT NOT NULL, key_fingerprint TEXT NOT NULL)`); err != nil {
		return nil, errorf(err, "--state %s", path)
	}
	var wantBase, wantFP string
	err = db.QueryRowContext(ctx, "SELECT base_url, key_fingerprint FROM workforce_cli_identity WHERE one = 1").
		Scan(&wantBase, &wantFP)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return func() error {
			_, err := db.ExecContext(ctx, "INSERT INTO workforce_cli_identity (one, base_url, key_fingerprint) VALUES (1, ?, ?)", base, fp)
			if err != nil {
				return errorf(err, "--state %s", path)
			}
			return nil
		}, nil
	case err != nil:
		return nil, errorf(err, "--state %s", path)
	case wantBase != base:
		return nil, usagef("--state %s belongs to the API at %s, not %s: use another state file", path, wantBase, base)
	case wantFP != fp:
		return nil, usagef("--state %s belongs to another API key (fingerprint %s) at %s: use another state file", path, wantFP, wantBase)
	}
	return func() error { return nil }, nil
}

// checkStatePath refuses, as a usage error, a --state file whose directory does not exist.
func checkStatePath(path string) error {
	if path == "" {
		return nil
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return usagef("--state %s: the directory %s does not exist", path, filepath.Dir(path))
	}
	return nil
}

// stateError answers err met opening the state file at path: one clear line when another
// process holds the file's lock, else err with the file named.
func stateError(err error, path string) error {
	var u usageError
	switch msg := err.Error(); {
	case errors.As(err, &u):
		return err
	case strings.Contains(msg, "database is locked") || strings.Contains(msg, "SQLITE_BUSY"):
		return fmt.Errorf("%s is in use by another workforce listen", path)
	}
	return errorf(err, "opening --state %s", path)
}
