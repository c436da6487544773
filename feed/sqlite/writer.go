package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
)

// write is a unit of work for the writer: run inside its transaction.
type write struct {
	run func(tx *sql.Tx) error
	// after, when set, is called once with the write's outcome (nil when
	// it committed), whether or not its caller still waits for it.
	after func(err error)
	state atomic.Int32 // queued, then started (by the writer) or dropped (by exec)
	done  chan error
}

// The states of a write.
const (
	queued int32 = iota
	started
	dropped
)

// finish answers w's outcome.
func (w *write) finish(err error) {
	if w.after != nil {
		w.after(err)
	}
	w.done <- err
}

// maxBatch bounds the writes one transaction of the writer holds.
const maxBatch = 256

var errClosed = errors.New("sqlite: the store is closed")

// exec runs fn in the writer's next transaction and answers when that
// transaction committed (or fn failed: its writes are rolled back alone),
// then calls after (when not nil) with the outcome. When ctx ends first,
// exec answers at once: a write not started yet is dropped (never made),
// and one under way commits or not with its transaction, all of it or
// none; after learns which.
func (s *Store) exec(ctx context.Context, fn func(tx *sql.Tx) error, after func(error)) error {
	w := &write{run: fn, after: after, done: make(chan error, 1)}
	select {
	case s.writes <- w:
	case <-s.stop:
		w.finish(errClosed)
		return errClosed
	case <-ctx.Done():
		err := fmt.Errorf("sqlite: the write was not made: %w", ctx.Err())
		w.finish(err)
		return err
	}
	select {
	case err := <-w.done:
		return err
	case <-ctx.Done():
		if w.state.CompareAndSwap(queued, dropped) {
			err := fmt.Errorf("sqlite: the write was not made: %w", ctx.Err())
			w.finish(err)
			return err
		}
		select {
		case err := <-w.done:
			return err
		default:
			return fmt.Errorf("sqlite: stopped waiting for a write under way, which may still commit: %w", ctx.Err())
		}
	case <-s.done:
		if w.state.CompareAndSwap(queued, dropped) {
			w.finish(errClosed)
			return errClosed
		}
		return <-w.done // the writer answers every write it started
	}
}

// writer commits the waiting writes in batches until the store closes.
func (s *Store) writer() {
	defer close(s.done)
	for {
		var batch []*write
		select {
		case w := <-s.writes:
			batch = append(batch, w)
		case <-s.stop:
			return
		}
	more:
		for len(batch) < maxBatch {
			select {
			case w := <-s.writes:
				batch = append(batch, w)
			default:
				break more
			}
		}
		s.commit(batch)
	}
}

// commit runs a batch in one transaction, each write under a savepoint of
// its own so that one that fails leaves the others. A write dropped by its
// caller before its turn is skipped.
func (s *Store) commit(batch []*write) {
	errs := make([]error, len(batch))
	err := func() error {
		tx, err := s.db.Begin()
		if err != nil {
			return err
		}
		defer tx.Rollback()
		for i, w := range batch {
			if !w.state.CompareAndSwap(queued, started) {
				batch[i] = nil // dropped: exec answered it
				continue
			}
			if _, err := tx.Exec("SAVEPOINT w"); err != nil {
				return err
			}
			if errs[i] = w.run(tx); errs[i] != nil {
				if _, err := tx.Exec("ROLLBACK TO w"); err != nil {
					return err
				}
			}
			if _, err := tx.Exec("RELEASE w"); err != nil {
				return err
			}
		}
		return tx.Commit()
	}()
	for i, w := range batch {
		if w == nil {
			continue
		}
		if !w.state.CompareAndSwap(queued, started) && w.state.Load() != started {
			continue // dropped after the transaction failed before its turn
		}
		if err != nil {
			errs[i] = fmt.Errorf("sqlite: the transaction failed: %w", err)
		}
		w.finish(errs[i])
	}
}
