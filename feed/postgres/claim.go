package postgres

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// token answers a new random claim token.
func token() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Claim implements feed.Store. It hands over first the changes leased to
// this Store at their ingest (see Update), renewing the leases of those
// that waited a quarter of theirs; it asks the database for more only
// when they are too few and the database may have more: when this Store's
// acknowledgments, releases or ingests or the notifications of other
// instances tell of claimable changes, and every 100 ms (leases end and
// retries fall due with time alone). So a Claim may answer fewer changes
// than are ready, for at most 100 ms.
func (s *Store) Claim(ctx context.Context, n int, lease time.Duration) ([]feed.Claim, error) {
	now := time.Now()
	s.mu.Lock()
	s.lease, s.claimed = lease, now
	var fresh, stale []prefetched
	for len(s.local) > 0 && len(fresh)+len(stale) < n {
		p := s.local[0]
		s.local = s.local[1:]
		if now.Sub(p.at) <= lease/4 {
			fresh = append(fresh, p)
		} else {
			stale = append(stale, p)
		}
	}
	if len(s.local) == 0 {
		s.local = nil // let the array go
	}
	local := len(fresh) + len(stale)
	ask := n > local && (s.dirty || now.Sub(s.queried) >= recheck)
	if ask {
		s.dirty, s.queried = false, now
	}
	s.mu.Unlock()
	if len(stale) > 0 {
		renewed, err := s.renew(ctx, stale, lease)
		if err != nil {
			s.mu.Lock()
			s.local = append(stale, s.local...) // their leases end on their own, or the next Claim renews them
			s.mu.Unlock()
			return nil, err
		}
		fresh = append(fresh, renewed...)
	}
	var got []prefetched
	if ask {
		var err error
		if got, err = s.claim(ctx, n-local, lease); err != nil {
			s.mu.Lock()
			s.dirty = true
			s.local = append(fresh, s.local...)
			s.mu.Unlock()
			return nil, err
		}
	}
	got = append(got, fresh...)
	// RETURNING keeps no order, and leases made at ingest come first:
	// oldest first again.
	slices.SortFunc(got, func(a, b prefetched) int { return cmp.Compare(a.n, b.n) })
	out := make([]feed.Claim, len(got))
	s.mu.Lock()
	for i, p := range got {
		out[i] = p.c
		s.claims[claimKey{p.c.Resource, p.c.Seq}] = p.c.Token
	}
	s.idle, s.workers = n-len(out), max(s.workers, n)
	if ask && len(out)-len(fresh) == n-local {
		s.dirty = true // the database may have more
	}
	s.mu.Unlock()
	return out, nil
}

// renew renews the leases of ps for lease, and answers those still held.
func (s *Store) renew(ctx context.Context, ps []prefetched, lease time.Duration) ([]prefetched, error) {
	kinds, ids, seqs, toks := claimArrays(ps)
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue("SET LOCAL synchronous_commit TO OFF")
	b.Queue(`UPDATE workforce_feed_changes c SET lease_until = now() + $5 * interval '1 microsecond'
		FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[]) AS a(kind, id, seq, tok)
		WHERE c.kind = a.kind AND c.id = a.id AND c.seq = a.seq AND c.lease_token = a.tok
		RETURNING c.kind, c.id, c.seq`, kinds, ids, seqs, toks, lease.Microseconds())
	b.Queue("COMMIT")
	held := map[claimKey]bool{}
	err := func() error {
		br := s.pool.SendBatch(ctx, b)
		defer br.Close()
		for range 2 {
			if _, err := br.Exec(); err != nil {
				return err
			}
		}
		rows, err := br.Query()
		if err != nil {
			return err
		}
		for rows.Next() {
			var k claimKey
			var kind string
			if err := rows.Scan(&kind, &k.r.ID, &k.seq); err != nil {
				rows.Close()
				return err
			}
			k.r.Kind = feed.Kind(kind)
			held[k] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		_, err = br.Exec() // COMMIT
		return err
	}()
	if err != nil {
		return nil, fmt.Errorf("postgres: claiming: %w", err)
	}
	out := ps[:0]
	for _, p := range ps {
		if held[claimKey{p.c.Resource, p.c.Seq}] {
			out = append(out, p)
		}
	}
	return out, nil
}

// claim leases up to n claimable changes in the database.
func (s *Store) claim(ctx context.Context, n int, lease time.Duration) ([]prefetched, error) {
	tok := token()
	// The lease is written without waiting for the disk: a claim lost in a
	// crash of the database is only a change claimable again, which the
	// acknowledgment (durable) tells apart.
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue("SET LOCAL synchronous_commit TO OFF")
	b.Queue(`
		WITH ready AS (
			SELECT c.kind, c.id, c.seq FROM workforce_feed_changes c
			WHERE c.ready_at <= now() AND (c.lease_until IS NULL OR c.lease_until < now())
			  AND NOT EXISTS (SELECT 1 FROM workforce_feed_changes p WHERE p.kind = c.kind AND p.id = c.id AND p.seq < c.seq)
			ORDER BY c.n
			LIMIT $1
			FOR UPDATE SKIP LOCKED
		)
		UPDATE workforce_feed_changes c
		SET lease_token = $2, lease_until = now() + $3 * interval '1 microsecond', attempts = c.attempts + 1
		FROM ready WHERE c.kind = ready.kind AND c.id = ready.id AND c.seq = ready.seq
		RETURNING c.kind, c.id, c.seq, c.data, c.attempts, c.n`, n, tok, lease.Microseconds())
	b.Queue("COMMIT")
	br := s.pool.SendBatch(ctx, b)
	defer br.Close()
	for range 2 {
		if _, err := br.Exec(); err != nil {
			return nil, fmt.Errorf("postgres: claiming: %w", err)
		}
	}
	rows, err := br.Query()
	if err != nil {
		return nil, fmt.Errorf("postgres: claiming: %w", err)
	}
	var got []prefetched
	for rows.Next() {
		var p prefetched
		var kind string
		if err := rows.Scan(&kind, &p.c.Resource.ID, &p.c.Seq, &p.c.Data, &p.c.Attempt, &p.n); err != nil {
			rows.Close()
			return nil, fmt.Errorf("postgres: claiming: %w", err)
		}
		p.c.Resource.Kind, p.c.Token = feed.Kind(kind), tok
		got = append(got, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: claiming: %w", err)
	}
	if _, err := br.Exec(); err != nil { // COMMIT
		return nil, fmt.Errorf("postgres: claiming: %w", err)
	}
	return got, nil
}

// lost answers the error of a claim that no longer holds its change.
func lost(c feed.Claim) error {
	return fmt.Errorf("%w: %s %d #%d", feed.ErrLeaseLost, c.Resource.Kind, c.Resource.ID, c.Seq)
}

// forget drops what the Store keeps of c, counts the worker that handled
// it idle again, and tells whether c was acknowledged in a handler's
// transaction.
func (s *Store) forget(c feed.Claim) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.idle = min(s.idle+1, s.workers)
	k := claimKey{c.Resource, c.Seq}
	if s.claims[k] == c.Token {
		delete(s.claims, k)
	}
	acked := s.txAcks[c.Token+k.String()]
	delete(s.txAcks, c.Token+k.String())
	return acked
}

func (k claimKey) String() string { return fmt.Sprintf("/%s/%d/%d", k.r.Kind, k.r.ID, k.seq) }

// Ack implements feed.Store. Acknowledgments that arrive together are
// deleted together, in the writer's next cycle (see Update): in one
// round trip and one commit with the updates of that cycle.
func (s *Store) Ack(ctx context.Context, c feed.Claim) error {
	if s.forget(c) {
		return nil // acknowledged in the handler's transaction
	}
	r := &ackReq{c: c, done: make(chan error, 1)}
	select {
	case s.acks <- r:
	case <-s.stop:
		return errClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.done:
		return err
	case <-s.done: // closed: the writer is gone
		return answered(r.done)
	case <-ctx.Done(): // the batch may still delete it: then it is not handed over again
		return ctx.Err()
	}
}

// Extend implements feed.Store.
func (s *Store) Extend(ctx context.Context, c feed.Claim, lease time.Duration) error {
	tag, err := s.pool.Exec(ctx, `UPDATE workforce_feed_changes SET lease_until = now() + $5 * interval '1 microsecond'
		WHERE kind = $1 AND id = $2 AND seq = $3 AND lease_token = $4`,
		string(c.Resource.Kind), c.Resource.ID, c.Seq, c.Token, lease.Microseconds())
	switch {
	case err != nil:
		return fmt.Errorf("postgres: renewing a lease: %w", err)
	case tag.RowsAffected() != 1:
		s.mu.Lock()
		k := c.Token + claimKey{c.Resource, c.Seq}.String()
		acked := s.txAcks[k] || s.inTx[k]
		s.mu.Unlock()
		if acked {
			// The handler's transaction acknowledged it meanwhile, or is
			// ending: committed, it did; rolled back, the row was there.
			return nil
		}
		return lost(c)
	}
	return nil
}

// Release implements feed.Store.
func (s *Store) Release(ctx context.Context, c feed.Claim, retryAt time.Time) error {
	s.forget(c)
	tag, err := s.pool.Exec(ctx, `UPDATE workforce_feed_changes
		SET lease_token = NULL, lease_until = NULL, ready_at = now() + $5 * interval '1 microsecond'
		WHERE kind = $1 AND id = $2 AND seq = $3 AND lease_token = $4`,
		string(c.Resource.Kind), c.Resource.ID, c.Seq, c.Token, max(time.Until(retryAt), 0).Microseconds())
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
