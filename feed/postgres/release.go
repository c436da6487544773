package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// Release implements feed.Store.
func (s *Store) Release(ctx context.Context, c feed.Claim, retryAt time.Time) error {
	if s.forget(c) {
		// Handled in the handler's transaction, which committed: whatever
		// failed after it, the change is not handed over again.
		if err := s.ack(ctx, c); err != nil && !errors.Is(err, feed.ErrLeaseLost) {
			return err
		}
		return nil
	}
	// A change a TxHandler's transaction marked handled is never put back: that transaction
	// committed, though its caller may have seen an error (a context ended during COMMIT, a
	// connection reset). The change is acknowledged instead.
	tag, err := s.pool.Exec(ctx, `UPDATE workforce_feed_changes
		SET lease_token = NULL, lease_until = NULL, ready_at = now() + $5 * interval '1 microsecond'
		WHERE kind = $1 AND id = $2 AND seq = $3 AND lease_token = $4 AND ready_at <> 'infinity'`,
		string(c.Resource.Kind), c.Resource.ID, c.Seq, c.Token, max(time.Until(retryAt), 0).Microseconds())
	if err == nil && tag.RowsAffected() == 0 {
		tag, err = s.pool.Exec(ctx, `DELETE FROM workforce_feed_changes
			WHERE kind = $1 AND id = $2 AND seq = $3 AND lease_token = $4 AND ready_at = 'infinity'`,
			string(c.Resource.Kind), c.Resource.ID, c.Seq, c.Token)
		if err == nil && tag.RowsAffected() == 1 {
			s.mu.Lock()
			s.dirty = true // the resource's next change is claimable
			s.mu.Unlock()
			return nil
		}
	}
	switch {
	case err != nil:
		return fmt.Errorf("postgres: releasing: %w", err)
	case tag.RowsAffected() != 1:
		return lost(c)
	}
	s.mu.Lock()
	s.dirty = true // it may be due already
	s.mu.Unlock()
	return nil
}
