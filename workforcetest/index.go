package workforcetest

import (
	"slices"
	"sync"
	"time"
)

// index files the records of a table by keys and by updated_at, so that a list finds the
// records its filters select, and a record the records related to it, without walking the
// table. Its keys are the keys of the list's filters (see filter), which therefore select the
// same records through the index as through their test, and a few more. The store files a
// record again at every commit that changes it (table.filed).
type index[T any] struct {
	keys    map[string]func(*T) string   // by name
	sets    map[string]map[string]*idSet // by name, then by key
	updated func(*T) time.Time           // nil: no order by time
	times   timeIndex
	meta    func(*T) *stored
}

// newIndex makes an index by the keys of filters, by the extra keys, and by updated_at when a
// filter selects by it.
func newIndex[T any](meta func(*T) *stored, filters []filter[T], extra map[string]func(*T) string) *index[T] {
	ix := &index[T]{keys: map[string]func(*T) string{}, sets: map[string]map[string]*idSet{}, meta: meta}
	for _, f := range filters {
		switch {
		case f.key != nil:
			ix.keys[f.names[0]] = f.key
		case f.time != nil:
			ix.updated = f.time
		}
	}
	for name, key := range extra {
		ix.keys[name] = key
	}
	for name := range ix.keys {
		ix.sets[name] = map[string]*idSet{}
	}
	return ix
}

// file files after, which was before (nil for a new record), again.
func (ix *index[T]) file(before, after *T) {
	id := ix.meta(after).id
	for name, key := range ix.keys {
		k := key(after)
		if before != nil {
			old := key(before)
			if old == k {
				continue
			}
			ix.sets[name][old].remove(id)
		}
		set := ix.sets[name][k]
		if set == nil {
			set = &idSet{}
			ix.sets[name][k] = set
		}
		set.add(id)
	}
	if ix.updated == nil {
		return
	}
	at := ix.updated(after)
	if before != nil {
		old := ix.updated(before)
		if old.Equal(at) {
			return
		}
		ix.times.drop(old, id)
	}
	ix.times.add(at, id)
}

// set returns the ids filed under key by the key name (nil when none).
func (ix *index[T]) set(name, key string) *idSet { return ix.sets[name][key] }

// timeIndex orders ids by a time, for the ranges of updated_after and updated_before. A record
// filed again leaves its old entry dead until the index is tidied.
type timeIndex struct {
	entries []timeEntry // sorted by (at, id) up to sorted; appended after
	sorted  int
	dead    int

	// ranges keeps the sets between returned since the index last changed, by range: a sync
	// reads every page of one range, and building a range's set costs its length. Readers share
	// it under mu; a change (under the store's write lock) forgets it.
	mu     sync.Mutex
	ranges map[rangeKey]*idSet
}

// rangeKey is a range of between, its bounds in UTC without a monotonic reading, to compare.
type rangeKey struct{ after, before time.Time }

// maxRanges bounds the ranges a timeIndex keeps.
const maxRanges = 256

// timeEntry is one id at one time.
type timeEntry struct {
	at   time.Time
	id   int64
	dead bool // the id was filed again since
}

// compare orders timeEntries by time, then id.
func (a timeEntry) compare(b timeEntry) int {
	if c := a.at.Compare(b.at); c != 0 {
		return c
	}
	switch {
	case a.id < b.id:
		return -1
	case a.id > b.id:
		return 1
	}
	return 0
}

// add files id at t.
func (x *timeIndex) add(t time.Time, id int64) {
	x.ranges = nil
	x.entries = append(x.entries, timeEntry{at: t, id: id})
}

// drop marks the live entry of id at t dead (dead ones of the same id and time may stand beside it).
func (x *timeIndex) drop(t time.Time, id int64) {
	x.ranges = nil
	e := timeEntry{at: t, id: id}
	mark := func(i int) bool {
		if x.entries[i].compare(e) != 0 || x.entries[i].dead {
			return false
		}
		x.entries[i].dead = true
		x.dead++
		return true
	}
	i, _ := slices.BinarySearchFunc(x.entries[:x.sorted], e, timeEntry.compare)
	for ; i < x.sorted && x.entries[i].compare(e) == 0; i++ {
		if mark(i) {
			return
		}
	}
	for i := x.sorted; i < len(x.entries); i++ {
		if mark(i) {
			return
		}
	}
}

// tidy sorts the entries added since the last tidy and forgets the dead ones once they are
// many. The store calls it at the end of every commit, under its write lock.
func (x *timeIndex) tidy() {
	tail := x.entries[x.sorted:]
	inOrder := slices.IsSortedFunc(tail, timeEntry.compare) &&
		(x.sorted == 0 || len(tail) == 0 || x.entries[x.sorted-1].compare(tail[0]) <= 0)
	if inOrder && 2*x.dead <= len(x.entries) {
		x.sorted = len(x.entries)
		return
	}
	x.entries = slices.DeleteFunc(x.entries, func(e timeEntry) bool { return e.dead })
	slices.SortFunc(x.entries, timeEntry.compare)
	x.sorted, x.dead = len(x.entries), 0
}

// between returns the ids filed at a time in [after, before); a zero bound is open. The index
// must be tidy. The set is shared: callers only read it.
func (x *timeIndex) between(after, before time.Time) *idSet {
	key := rangeKey{after.UTC(), before.UTC()}
	x.mu.Lock()
	kept := x.ranges[key]
	x.mu.Unlock()
	if kept != nil {
		return kept
	}
	out := x.build(after, before)
	x.mu.Lock()
	if x.ranges == nil || len(x.ranges) >= maxRanges {
		x.ranges = map[rangeKey]*idSet{}
	}
	x.ranges[key] = out
	x.mu.Unlock()
	return out
}

// build returns a new set of the ids filed at a time in [after, before).
func (x *timeIndex) build(after, before time.Time) *idSet {
	lo, hi := 0, x.sorted
	if !after.IsZero() {
		lo, _ = slices.BinarySearchFunc(x.entries[:x.sorted], timeEntry{at: after}, timeEntry.compare)
	}
	if !before.IsZero() {
		hi, _ = slices.BinarySearchFunc(x.entries[:x.sorted], timeEntry{at: before}, timeEntry.compare)
	}
	out := &idSet{}
	for _, e := range x.entries[lo:max(lo, hi)] {
		if !e.dead {
			out.add(e.id)
		}
	}
	return out
}
