package postgres

import (
	"slices"
	"sync"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// known is what a Store last wrote or read of the resources it updated,
// so that the next update of one is written at once on that state,
// without a read first: a cycle instead of two (see Store.cycle). A guess
// is only ever a state the resource had: a version and the record
// committed with it, as read or written. A guess no longer current loses
// its write (the version is checked, or the row's absence) and is read
// again, at the cost of a cycle; nothing is written on it.
//
// pending, whether a change of the resource may be queued unacknowledged,
// decides whether the first change an update queues is leased to this
// Store at its ingest: it must never be when an earlier change waits. It
// is kept conservative. A change is only ever queued with a write of its
// resource's row, which bumps the version (or creates the row, with its
// changes, in one transaction), and rows are never deleted, so within one
// version changes only go: a pending seen false stays false while the
// version lasts, and a resource with no row has no change. A cached
// state that a write queued changes on is pending until this Store's
// acknowledgment finds no other change at that same version.
type known struct {
	mu     sync.Mutex
	states map[feed.Resource]*resourceState // nil: seen, to read
	bytes  int                              // of the records kept
	absent int                              // the score of guesses that a resource never seen has no row
	// What became of guesses, for tests.
	guessed, wrong int64
}

// The bounds of known: past either, it forgets everything and starts
// again (each resource's next update then guesses there is no row, and,
// when there is one, is read).
const (
	maxKnown      = 16384
	maxKnownBytes = 8 << 20
)

// The score of guesses of 'no row': an update of a resource never seen
// guesses there is none while the score is not negative. A right guess
// (or a read of such a resource that found no row) adds absentRight, a
// wrong one takes absentWrong, within ±absentBound: guesses stop when
// more than one in five are wrong, as after a restart on existing
// resources, or where other instances create most of them.
const (
	absentRight = 1
	absentWrong = 4
	absentBound = 32
)

// guess answers the state to write r's next update on, if k has one: a
// copy of the one kept, or no row for a resource never seen while such
// guesses mostly come right.
func (k *known) guess(r feed.Resource) (*resourceState, bool) {
	st, seen := k.states[r]
	switch {
	case st != nil:
		k.guessed++
		return &resourceState{version: st.version, record: slices.Clone(st.record), pending: st.pending, guess: true}, true
	case !seen && k.absent >= 0:
		k.guessed++
		return &resourceState{version: -1, guess: true}, true
	}
	return nil, false
}

// learn keeps st as r's state, unless k knows a later version: a read or
// a committed write. Of two sights of one version, a pending false holds
// (changes only go within a version).
func (k *known) learn(r feed.Resource, st *resourceState, read bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	old, seen := k.states[r]
	if read && !seen {
		k.score(st.version < 0)
	}
	switch {
	case old != nil && old.version > st.version:
		return
	case old != nil && old.version == st.version:
		old.pending = old.pending && st.pending
		return
	}
	k.put(r, &resourceState{version: st.version, record: slices.Clone(st.record), pending: st.pending})
}

// put keeps st as r's state (nil: to read), forgetting everything first
// when k is full.
func (k *known) put(r feed.Resource, st *resourceState) {
	if old := k.states[r]; old != nil {
		k.bytes -= len(old.record)
	}
	if k.states == nil || len(k.states) >= maxKnown || k.bytes >= maxKnownBytes {
		k.states, k.bytes = map[feed.Resource]*resourceState{}, 0
	}
	k.states[r] = st
	if st != nil {
		k.bytes += len(st.record)
	}
}

// forget has r's next update read first.
func (k *known) forget(r feed.Resource) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.put(r, nil)
}

// lost records that a write on a guessed state lost, and has r read.
func (k *known) lost(r feed.Resource, st *resourceState) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.wrong++
	if st.version < 0 {
		k.score(false)
	}
	k.put(r, nil)
}

// score counts a guess of 'no row' right or wrong.
func (k *known) score(right bool) {
	if right {
		k.absent = min(k.absent+absentRight, absentBound)
	} else {
		k.absent = max(k.absent-absentWrong, -absentBound)
	}
}

// idle records that r had no change queued at version (an acknowledgment
// found none left).
func (k *known) idle(r feed.Resource, version int64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if st := k.states[r]; st != nil && st.version == version {
		st.pending = false
	}
}

// guess moves to ready the updates of unread that need no read: those of
// a resource ready has updates of (they follow them, on the record they
// leave), and those whose state s.known guesses (unless they were made
// on a guess already that did not hold). It answers ready, and the
// updates left to read, each in arrival order; the later updates of a
// resource left to read are read too.
func (s *Store) guess(ready, unread []*updateReq) (nextReady, toRead []*updateReq) {
	in := make(map[feed.Resource]bool, len(ready)+len(unread))
	for _, r := range ready {
		in[r.r] = true
	}
	read := map[feed.Resource]bool{}
	s.known.mu.Lock()
	defer s.known.mu.Unlock()
	for _, r := range unread {
		if !read[r.r] && !r.read {
			if in[r.r] {
				ready = append(ready, r)
				continue
			}
			if st, ok := s.known.guess(r.r); ok {
				r.state, in[r.r] = st, true
				ready = append(ready, r)
				continue
			}
		}
		read[r.r] = true
		toRead = append(toRead, r)
	}
	return ready, toRead
}
