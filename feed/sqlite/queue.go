package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// Update implements feed.Store.
func (s *Store) Update(ctx context.Context, r feed.Resource, fn func([]byte) ([]byte, []feed.Queued, error)) error {
	return s.exec(ctx, func(tx *sql.Tx) error {
		var rec []byte
		err := tx.QueryRow("SELECT record FROM feed_resources WHERE kind = ? AND id = ?", string(r.Kind), r.ID).Scan(&rec)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		next, queue, err := fn(rec)
		if err != nil {
			return err
		}
		if next != nil {
			if _, err := tx.Exec("INSERT INTO feed_resources (kind, id, record) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET record = excluded.record",
				string(r.Kind), r.ID, next); err != nil {
				return err
			}
		}
		for _, q := range queue {
			if _, err := tx.Exec("INSERT INTO feed_changes (kind, id, seq, data) VALUES (?, ?, ?, ?)", string(r.Kind), r.ID, q.Seq, q.Data); err != nil {
				return err
			}
		}
		return nil
	}, nil)
}

// Claim implements feed.Store. It reads the file and leases in memory.
func (s *Store) Claim(ctx context.Context, n int, leaseFor time.Duration) ([]feed.Claim, error) {
	now := time.Now()
	s.mu.Lock()
	held := 0
	for _, l := range s.claims {
		if l.until.After(now) || l.acked || l.acking {
			held++
		}
	}
	s.mu.Unlock()
	rows, err := s.db.QueryContext(ctx, `
		SELECT c.kind, c.id, c.seq, c.data, c.attempts FROM feed_changes c
		WHERE c.ready_at <= ? AND c.seq = (SELECT min(p.seq) FROM feed_changes p WHERE p.kind = c.kind AND p.id = c.id)
		ORDER BY c.n LIMIT ?`, now.UnixNano(), n+held)
	if err != nil {
		return nil, fmt.Errorf("sqlite: claiming: %w", err)
	}
	defer rows.Close()
	var out []feed.Claim
	s.mu.Lock()
	defer s.mu.Unlock()
	for rows.Next() && len(out) < n {
		var c feed.Claim
		var kind string
		var attempts int
		if err := rows.Scan(&kind, &c.Resource.ID, &c.Seq, &c.Data, &attempts); err != nil {
			return nil, fmt.Errorf("sqlite: claiming: %w", err)
		}
		c.Resource.Kind = feed.Kind(kind)
		l := s.claims[c.Resource]
		switch {
		case l != nil && (l.acked || l.acking):
			// Acknowledged in a handler's transaction whose handler has
			// not returned (no Ack yet), or its delete is in a write under
			// way (committed, the file shows the next change as the head
			// before the lease is forgotten): the resource's next change
			// waits for it, so that the handler's work after its
			// transaction is in order too.
			continue
		case l != nil && l.seq == c.Seq && l.until.After(now):
			continue // leased, or acknowledged in a transaction not yet forgotten
		case l == nil || l.seq != c.Seq:
			l = &lease{seq: c.Seq}
			s.claims[c.Resource] = l
		}
		s.tokens++
		l.token, l.until = strconv.FormatInt(s.tokens, 10), now.Add(leaseFor)
		l.attempt++
		c.Attempt, c.Token = attempts+l.attempt, l.token
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: claiming: %w", err)
	}
	return out, nil
}

// holds answers c's lease when c still holds it. The caller holds s.mu.
func (s *Store) holds(c feed.Claim) (*lease, error) {
	l := s.claims[c.Resource]
	if l == nil || l.seq != c.Seq || l.token != c.Token {
		return nil, fmt.Errorf("%w: %s %d #%d", feed.ErrLeaseLost, c.Resource.Kind, c.Resource.ID, c.Seq)
	}
	return l, nil
}

// Ack implements feed.Store.
func (s *Store) Ack(ctx context.Context, c feed.Claim) error {
	s.mu.Lock()
	if s.txAcks[c.Token] {
		// Acknowledged in the handler's transaction: its lease may be
		// gone already, the resource's next change claimed.
		delete(s.txAcks, c.Token)
		if l := s.claims[c.Resource]; l != nil && l.token == c.Token {
			delete(s.claims, c.Resource)
		}
		s.mu.Unlock()
		return nil
	}
	_, err := s.holds(c)
	s.mu.Unlock()
	if err != nil {
		return err
	}
	// The lease is checked again in the write, and held until it ends: a
	// lease that ran out while the Ack waited for the writer may have gone
	// to another claim, whose change this Ack must not delete.
	return s.exec(ctx, func(tx *sql.Tx) error {
		if err := s.startAcking(c); err != nil {
			return err
		}
		return deleteChange(tx, c)
	}, func(err error) { s.endAcking(c, err == nil) })
}

// startAcking marks c's lease as being acknowledged (no Claim takes its
// change meanwhile), or answers ErrLeaseLost when c no longer holds it.
func (s *Store) startAcking(c feed.Claim) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, err := s.holds(c)
	if err == nil {
		l.acking = true
	}
	return err
}

// endAcking ends what startAcking began: the lease is forgotten when the
// acknowledgment committed, claimable again otherwise.
func (s *Store) endAcking(c feed.Claim, committed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.claims[c.Resource]; l != nil && l.token == c.Token {
		if committed {
			delete(s.claims, c.Resource)
		} else {
			l.acking = false
		}
	}
}

// Extend implements feed.Store.
func (s *Store) Extend(ctx context.Context, c feed.Claim, leaseFor time.Duration) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	l, err := s.holds(c)
	if err == nil {
		l.until = time.Now().Add(leaseFor)
	}
	return err
}

// Release implements feed.Store.
func (s *Store) Release(ctx context.Context, c feed.Claim, retryAt time.Time) error {
	s.mu.Lock()
	if s.txAcks[c.Token] {
		// Acknowledged in the handler's transaction, which committed:
		// whatever failed after it, the change is not handed over again.
		s.mu.Unlock()
		return s.Ack(ctx, c)
	}
	l, err := s.holds(c)
	if err == nil {
		l.token = "" // no other call of this claim may act now
	}
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return s.exec(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec("UPDATE feed_changes SET attempts = attempts + ?, ready_at = ? WHERE kind = ? AND id = ? AND seq = ?",
			l.attempt, retryAt.UnixNano(), string(c.Resource.Kind), c.Resource.ID, c.Seq)
		return err
	}, func(err error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.claims[c.Resource] == l {
			if err == nil {
				delete(s.claims, c.Resource) // its attempts are in the file now
			} else {
				l.until = time.Time{} // claimable again at once
			}
		}
	})
}
