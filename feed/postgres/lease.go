package postgres

import (
	"context"
	"time"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// prefetched is a change leased to this Store when it was queued.
type prefetched struct {
	c    feed.Claim
	n    int64     // its place in the order changes were queued in
	at   time.Time // not later than the start of its lease
	kept time.Time // when the write that leased it here committed
}

// reserve answers the lease of the Feed claiming from this Store, and how
// many changes an ingest may lease to it (reserved until unreserve or
// prefetch), when its last Claim was recent (a third of its lease): as
// many as make those leased here and not yet handed over (in writes under
// way too) one Claim's worth (the most changes a Claim asked for: the
// Feed's workers) beyond its idle workers. So the Feed's next Claim finds
// a change waiting for every worker free by then; and a Feed whose
// handlers are all busy holds at most one Claim's worth of changes that
// another instance could take, for about hold (see returnStale).
func (s *Store) reserve() (time.Duration, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lease <= 0 || time.Since(s.claimed) > s.lease/3 {
		return s.lease, 0
	}
	idle := max(s.workers-len(s.claims), 0)
	n := max(idle+s.workers-len(s.local)-s.reserved, 0)
	s.reserved += n
	return s.lease, n
}

// unreserve gives back n leases reserve granted.
func (s *Store) unreserve(n int) {
	s.mu.Lock()
	s.reserved -= n
	s.mu.Unlock()
}

// prefetch keeps the changes an ingest leased to this Store for the next
// Claim, and gives back the reserve of heads leases.
func (s *Store) prefetch(ps []prefetched, heads int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reserved -= heads
	now := time.Now()
	for _, p := range ps {
		p.kept = now
		s.local = append(s.local, p)
	}
	s.armGiveBack()
}

// armGiveBack has returnStale run after hold when local holds changes and
// no run is due. The caller holds s.mu.
func (s *Store) armGiveBack() {
	if len(s.local) > 0 && s.giveBack == nil {
		s.giveBack = time.AfterFunc(s.hold, s.returnStale)
	}
}

// returnStale ends the leases of the changes leased to this Store at
// their ingest that no Claim took within hold (its Feed's workers are all
// busy), so that every instance may claim them, and announces them.
func (s *Store) returnStale() {
	s.giving.Lock()
	defer s.giving.Unlock()
	s.mu.Lock()
	s.giveBack = nil
	select {
	case <-s.stop: // Close returns them all
		s.mu.Unlock()
		return
	default:
	}
	now := time.Now()
	var stale, keep []prefetched
	next := time.Duration(-1)
	for _, p := range s.local {
		if wait := p.kept.Add(s.hold).Sub(now); wait > 0 {
			keep = append(keep, p)
			if next < 0 || wait < next {
				next = wait
			}
		} else {
			stale = append(stale, p)
		}
	}
	s.local = keep
	if next >= 0 {
		s.giveBack = time.AfterFunc(next, s.returnStale)
	}
	s.mu.Unlock()
	if len(stale) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.unlease(ctx, stale); err != nil {
		// Maybe still leased here, maybe given back all the same (the error
		// came after the commit: every instance may claim them): kept to be
		// given back again, or renewed by the next Claim before it hands
		// them over (as if old), which keeps those still leased here.
		for i := range stale {
			stale[i].at = time.Time{}
		}
		s.mu.Lock()
		s.local = append(stale, s.local...)
		s.armGiveBack()
		s.mu.Unlock()
		return
	}
	s.changed()
}

// unlease ends the leases of ps, made at their ingest and never handed
// over: their changes may be claimed at once, and their claim does not
// count as an attempt.
func (s *Store) unlease(ctx context.Context, ps []prefetched) error {
	kinds, ids, seqs, toks := claimArrays(ps)
	_, err := s.pool.Exec(ctx, `UPDATE workforce_feed_changes c
		SET lease_token = NULL, lease_until = NULL, attempts = c.attempts - 1
		FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[]) AS a(kind, id, seq, tok)
		WHERE c.kind = a.kind AND c.id = a.id AND c.seq = a.seq AND c.lease_token = a.tok`, kinds, ids, seqs, toks)
	return err
}

// claimArrays answers the keys and tokens of ps as arrays, for unnest.
func claimArrays(ps []prefetched) (kinds []string, ids, seqs []int64, toks []string) {
	for _, p := range ps {
		kinds, ids, seqs, toks = append(kinds, string(p.c.Resource.Kind)), append(ids, p.c.Resource.ID), append(seqs, p.c.Seq), append(toks, p.c.Token)
	}
	return kinds, ids, seqs, toks
}
