package workforcetest

import "slices"

// table stores the records of one kind under increasing ids. Besides the map by id it keeps
// the records in id order (ids only increase, so an insert appends), so that a list walks from
// the newest and stops once its page is full instead of sorting the whole table.
type table[T any] struct {
	rows  map[int64]*T
	order []*T    // the records, oldest (lowest id) first
	ids   []int64 // their ids, in the same order
	last  int64   // the last id given
}

// newTable makes an empty table whose first id is first.
func newTable[T any](first int64) table[T] {
	return table[T]{rows: map[int64]*T{}, last: first - 1}
}

// insert stores v under a new id and answers the id.
func (t *table[T]) insert(v *T) int64 {
	t.last++
	t.rows[t.last] = v
	t.order = append(t.order, v)
	t.ids = append(t.ids, t.last)
	return t.last
}

// remove forgets the record with id, if any.
func (t *table[T]) remove(id int64) {
	if _, ok := t.rows[id]; !ok {
		return
	}
	delete(t.rows, id)
	if i, ok := slices.BinarySearch(t.ids, id); ok {
		t.ids = slices.Delete(t.ids, i, i+1)
		t.order = slices.Delete(t.order, i, i+1)
	}
}

// desc answers a copy of the records newest first (id descending), the order of every list.
func (t *table[T]) desc() []*T {
	out := slices.Clone(t.order)
	slices.Reverse(out)
	return out
}
