package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// callTx calls a TxHandler's fn; a panic is its error (the write's
// savepoint rolls back, and the feed hands the change over again), since
// fn runs on the writer's goroutine, where the feed's recover is not.
func callTx(ctx context.Context, tx *sql.Tx, c *feed.Change, fn func(context.Context, *sql.Tx, *feed.Change) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("sqlite: the handler panicked: %v", p)
		}
	}()
	return fn(ctx, tx, c)
}

// deleteChange removes an acknowledged change.
func deleteChange(tx *sql.Tx, c feed.Claim) error {
	res, err := tx.Exec("DELETE FROM feed_changes WHERE kind = ? AND id = ? AND seq = ?", string(c.Resource.Kind), c.Resource.ID, c.Seq)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return fmt.Errorf("%w: %s %d #%d is not queued", feed.ErrLeaseLost, c.Resource.Kind, c.Resource.ID, c.Seq)
	}
	return nil
}

// TxHandler answers a feed.Handler that calls fn inside the transaction
// that records the change's acknowledgment: fn's writes to the file and
// the acknowledgment commit together, or neither does, so that the effect
// of each change is made exactly once however the process fails. fn must
// neither commit nor roll back tx; returning an error rolls back its
// writes and leaves the change unacknowledged. fn runs in the store's one
// writer: other writes wait for it, so it must be quick, and it reads and
// writes through tx only: DB() inside fn waits for the connection tx
// holds, for ever. The resource's next change is claimed only once the
// Feed's handler (this one, or one that calls it and works on after it)
// has returned, so that work after the transaction is in order per
// resource too.
func (s *Store) TxHandler(fn func(ctx context.Context, tx *sql.Tx, c *feed.Change) error) feed.Handler {
	return func(ctx context.Context, c *feed.Change) error {
		r := feed.Resource{Kind: c.Kind, ID: c.ResourceID}
		s.mu.Lock()
		l := s.claims[r]
		var claim feed.Claim
		if l != nil && l.seq == c.Seq {
			claim = feed.Claim{Resource: r, Seq: c.Seq, Token: l.token}
		}
		s.mu.Unlock()
		if claim.Token == "" {
			return fmt.Errorf("%w: %s %d #%d is not claimed by this store", feed.ErrLeaseLost, c.Kind, c.ResourceID, c.Seq)
		}
		return s.exec(ctx, func(tx *sql.Tx) error {
			if err := s.startAcking(claim); err != nil {
				return err
			}
			if err := deleteChange(tx, claim); err != nil {
				return err
			}
			return callTx(ctx, tx, c, fn)
		}, func(err error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if l := s.claims[r]; l != nil && l.token == claim.Token {
				l.acking = false
				l.acked = err == nil
			}
			if err == nil {
				s.txAcks[claim.Token] = true
			}
		})
	}
}
