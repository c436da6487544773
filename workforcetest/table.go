package workforcetest

import (
	"slices"
	"time"
)

// stored is what every record has: its id, its timestamps and its version.
type stored struct {
	id                   int64
	createdAt, updatedAt time.Time
	// ver is the version the last commit that changed the record gave it (see store.version):
	// cached JSON that shows the record is valid only at that version.
	ver uint64
}

// table holds the records of one kind by id. Ids only increase, so an insert appends and the
// records are also kept in id order, the order every list walks (newest first).
//
// Only the store's own files reach a table's records by pointer (TestRecordsAreReachedThrough
// ViewsAndTransactions): a view hands out copies, a transaction hands out pointers it commits.
type table[T any] struct {
	rows  []*T    // by id - first; nil for an id removed
	order []*T    // the records, oldest (lowest id) first
	ids   []int64 // their ids, in the same order
	first int64   // the first id given
	meta  func(*T) *stored
	clone func(*T) *T // a copy that shares nothing the record can change through
	// filed, when set, files a record again after a commit changed it (before is nil for a new
	// one): the indexes of the table.
	filed func(before, after *T)
}

// newTable makes an empty table whose first id is first. clone is nil for records without
// slices or maps, whose plain copy shares nothing.
func newTable[T any](first int64, meta func(*T) *stored, clone func(*T) *T) table[T] {
	if clone == nil {
		clone = func(v *T) *T { c := *v; return &c }
	}
	return table[T]{first: first, meta: meta, clone: clone}
}

// next returns the id the next insert gives.
func (t *table[T]) next() int64 { return t.first + int64(len(t.rows)) }

// insert stores v under a new id, which it sets and returns.
func (t *table[T]) insert(v *T) int64 {
	id := t.next()
	t.meta(v).id = id
	t.rows = append(t.rows, v)
	t.order = append(t.order, v)
	t.ids = append(t.ids, id)
	return id
}

// at returns the record with id, or nil.
func (t *table[T]) at(id int64) *T {
	if id < t.first || id-t.first >= int64(len(t.rows)) {
		return nil
	}
	return t.rows[id-t.first]
}

// remove forgets the record with id, if any.
func (t *table[T]) remove(id int64) {
	if t.at(id) == nil {
		return
	}
	t.rows[id-t.first] = nil
	if i, ok := slices.BinarySearch(t.ids, id); ok {
		t.ids = slices.Delete(t.ids, i, i+1)
		t.order = slices.Delete(t.order, i, i+1)
	}
}
