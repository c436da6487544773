package postgres

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// held is a claim this Store handed over: its token, and when its lease
// ends unless renewed (by Extend).
type held struct {
	tok   string
	until time.Time
}

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
			// Kept: the next Claim renews them, or they are given back.
			s.local = append(append(stale, fresh...), s.local...)
			s.armGiveBack()
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
			s.armGiveBack()
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
	for k, h := range s.claims {
		if h.until.Before(now) { // its handler let it go without a word: a failed renewal, say
			delete(s.claims, k)
		}
	}
	for i, p := range got {
		out[i] = p.c
		s.claims[claimKey{p.c.Resource, p.c.Seq}] = held{p.c.Token, now.Add(lease)}
	}
	s.workers = max(s.workers, n)
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
	tok := s.leaseToken()
	// The lease is written without waiting for the disk: a claim lost in a
	// crash of the database is only a change claimable again, which the
	// acknowledgment (durable) tells apart.
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	// Its one plan (genericPlans) expects some rows ready: without hash
	// and merge joins, it finds each by its key, not by reading the
	// queue whole.
	b.Queue(genericPlans + `, set_config('enable_hashjoin', 'off', true), set_config('enable_mergejoin', 'off', true),
		set_config('synchronous_commit', 'off', true)`)
	// Changes a TxHandler handled whose instance never acknowledged them
	// (it died, or lost its lease): handled once, never handed over again.
	b.Queue(`DELETE FROM workforce_feed_changes WHERE ready_at = 'infinity' AND (lease_until IS NULL OR lease_until < now())`)
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
	for range 3 {
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

// forget drops what the Store keeps of c (its worker is idle again), and
// tells whether c was acknowledged in a handler's transaction.
func (s *Store) forget(c feed.Claim) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := claimKey{c.Resource, c.Seq}
	if s.claims[k].tok == c.Token {
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
		// Handled in the handler's transaction: its row, kept so that the
		// resource's next change waits for the handler's return, goes now.
		// Gone already (its lease ended and a Claim deleted it), it was
		// handled all the same.
		if err := s.ack(ctx, c); err != nil && !errors.Is(err, feed.ErrLeaseLost) {
			return err
		}
		return nil
	}
	return s.ack(ctx, c)
}

// ack has the writer delete c's change if c's claim still holds it.
func (s *Store) ack(ctx context.Context, c feed.Claim) error {
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
	if err != nil {
		return fmt.Errorf("postgres: renewing a lease: %w", err)
	}
	k := claimKey{c.Resource, c.Seq}
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.claims[k]
	mine := ok && h.tok == c.Token
	if tag.RowsAffected() == 1 {
		if mine || !ok { // renewed: held again, if its entry was swept
			s.claims[k] = held{c.Token, time.Now().Add(lease)}
		}
		return nil
	}
	if s.txAcks[c.Token+k.String()] || s.inTx[c.Token+k.String()] {
		// The handler's transaction acknowledged it meanwhile, or is
		// ending: committed, it did; rolled back, the row was there.
		return nil
	}
	if mine {
		delete(s.claims, k) // its handler is told to stop
	}
	return lost(c)
}

// queueAcks queues on b the statement that deletes the changes acks
// acknowledge, each if its claim still holds it. One statement for all:
// a statement each cost more in its own execution than in the deletes.
// Each row answers whether a later change of the resource is queued, and
// the version of its resource when no other change is.
func queueAcks(b *pgx.Batch, acks []*ackReq) {
	kinds, ids, seqs, toks := make([]string, len(acks)), make([]int64, len(acks)), make([]int64, len(acks)), make([]string, len(acks))
	for i, a := range acks {
		kinds[i], ids[i], seqs[i], toks[i] = string(a.c.Resource.Kind), a.c.Resource.ID, a.c.Seq, a.c.Token
	}
	b.Queue(`DELETE FROM workforce_feed_changes c
		USING unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[]) AS a(kind, id, seq, tok)
		WHERE c.kind = a.kind AND c.id = a.id AND c.seq = a.seq AND c.lease_token = a.tok
		RETURNING c.kind, c.id, c.seq, a.tok,
			EXISTS (SELECT 1 FROM workforce_feed_changes x WHERE x.kind = c.kind AND x.id = c.id AND x.seq > c.seq),
			(SELECT r.version FROM workforce_feed_resources r WHERE r.kind = c.kind AND r.id = c.id
				AND NOT EXISTS (SELECT 1 FROM workforce_feed_changes x WHERE x.kind = c.kind AND x.id = c.id AND x.seq <> c.seq))`,
		kinds, ids, seqs, toks)
}

// ackResults reads what queueAcks' statement answered: which of acks
// deleted their change (the others' claims no longer held it), the
// version at which each resource had no change left (nil: it had), and
// whether any resource has a later change queued.
func ackResults(br pgx.BatchResults, acks []*ackReq, deleted []bool, idle []*int64) (more bool, err error) {
	type key struct {
		claimKey
		tok string
	}
	at := make(map[key]int, len(acks))
	for i, a := range acks {
		at[key{claimKey{a.c.Resource, a.c.Seq}, a.c.Token}] = i
	}
	rows, err := br.Query()
	if err != nil {
		return false, err
	}
	defer rows.Close()
	for rows.Next() {
		var k key
		var kind string
		var next bool
		var version *int64
		if err := rows.Scan(&kind, &k.r.ID, &k.seq, &k.tok, &next, &version); err != nil {
			return false, err
		}
		k.r.Kind = feed.Kind(kind)
		if i, ok := at[k]; ok {
			deleted[i], idle[i], more = true, version, more || next
		}
	}
	return more, rows.Err()
}
