package feed

import (
	"bytes"
	"container/heap"
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// MemoryStore keeps a feed's state in memory: for tests, and for a process
// that may lose what it had not handled when it stops (the sync finds the
// changes again from the start, then, and hands them over again). The zero
// value is not ready: use NewMemoryStore. It is safe for concurrent use by
// the Feeds of one process.
type MemoryStore struct {
	mu      sync.Mutex
	records map[Resource][]byte
	queues  map[Resource][]*memItem // unacknowledged changes by Seq
	// The first change of each queue is in one of two heaps: ready (not
	// leased, not backing off), oldest first, or waiting, by the time it
	// may be claimed again; so a claim and an acknowledgment cost O(log n)
	// with any backlog.
	ready, waiting memHeap
	marks          map[string]time.Time
	order          int64 // numbers changes in the order they were queued
	tokens         int64
	now            func() time.Time
}

// memItem is a queued change and its claim.
type memItem struct {
	Queued
	r       Resource
	order   int64
	ready   time.Time // not claimed before
	leased  time.Time // leased until
	token   string
	attempt int
	in      *memHeap // the heap it is in, when the first of its queue
	index   int      // its place there
}

// due is when it may be claimed.
func (it *memItem) due() time.Time {
	if it.leased.After(it.ready) {
		return it.leased
	}
	return it.ready
}

// memHeap is a heap of queue heads (container/heap), by order when byDue
// is false, else by due time, then order.
type memHeap struct {
	items []*memItem
	byDue bool
}

func (h *memHeap) Len() int { return len(h.items) }

func (h *memHeap) Less(i, k int) bool {
	a, b := h.items[i], h.items[k]
	if h.byDue {
		if c := a.due().Compare(b.due()); c != 0 {
			return c < 0
		}
	}
	return a.order < b.order
}

func (h *memHeap) Swap(i, k int) {
	h.items[i], h.items[k] = h.items[k], h.items[i]
	h.items[i].index, h.items[k].index = i, k
}

func (h *memHeap) Push(x any) {
	it := x.(*memItem)
	it.in, it.index = h, len(h.items)
	h.items = append(h.items, it)
}

func (h *memHeap) Pop() any {
	n := len(h.items) - 1
	it := h.items[n]
	h.items[n] = nil
	h.items = h.items[:n]
	it.in = nil
	return it
}

// NewMemoryStore answers an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{records: map[Resource][]byte{}, queues: map[Resource][]*memItem{},
		waiting: memHeap{byDue: true}, marks: map[string]time.Time{}, now: time.Now}
}

// Update implements Store.
func (m *MemoryStore) Update(ctx context.Context, r Resource, fn func([]byte) ([]byte, []Queued, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old := m.records[r]
	next, queue, err := fn(bytes.Clone(old))
	if err != nil {
		return err
	}
	q := m.queues[r]
	for _, c := range queue {
		m.order++
		q = append(q, &memItem{Queued: Queued{Seq: c.Seq, Data: bytes.Clone(c.Data)}, r: r, order: m.order})
	}
	if len(q) > 0 {
		if len(m.queues[r]) == 0 {
			heap.Push(&m.ready, q[0])
		}
		m.queues[r] = q
	}
	if next != nil {
		m.records[r] = bytes.Clone(next)
	}
	return nil
}

// Claim implements Store.
func (m *MemoryStore) Claim(ctx context.Context, n int, lease time.Duration) ([]Claim, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for m.waiting.Len() > 0 && !m.waiting.items[0].due().After(now) {
		heap.Push(&m.ready, heap.Pop(&m.waiting))
	}
	out := make([]Claim, 0, min(n, m.ready.Len()))
	for len(out) < n && m.ready.Len() > 0 {
		it := heap.Pop(&m.ready).(*memItem)
		m.tokens++
		it.token, it.leased = strconv.FormatInt(m.tokens, 10), now.Add(lease)
		it.attempt++
		heap.Push(&m.waiting, it)
		out = append(out, Claim{Resource: it.r, Seq: it.Seq, Data: bytes.Clone(it.Data), Attempt: it.attempt, Token: it.token})
	}
	return out, nil
}

// held answers the head of c's resource when c still holds its claim. The
// caller holds m.mu.
func (m *MemoryStore) held(c Claim) (*memItem, error) {
	q := m.queues[c.Resource]
	if len(q) == 0 || q[0].Seq != c.Seq || q[0].token != c.Token {
		return nil, fmt.Errorf("%w: %s %d #%d", ErrLeaseLost, c.Resource.Kind, c.Resource.ID, c.Seq)
	}
	return q[0], nil
}

// Ack implements Store.
func (m *MemoryStore) Ack(ctx context.Context, c Claim) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, err := m.held(c); err != nil {
		return err
	}
	q := m.queues[c.Resource]
	heap.Remove(q[0].in, q[0].index) // waiting, or ready again once its lease ran out
	if len(q) == 1 {
		delete(m.queues, c.Resource)
		return nil
	}
	q[0] = nil
	q = q[1:]
	m.queues[c.Resource] = q
	heap.Push(&m.ready, q[0])
	return nil
}

// wait puts the head it in the waiting heap, wherever it was, by its due
// time (a Claim moves it to ready once due). The caller holds m.mu.
func (m *MemoryStore) wait(it *memItem) {
	heap.Remove(it.in, it.index)
	heap.Push(&m.waiting, it)
}

// Extend implements Store.
func (m *MemoryStore) Extend(ctx context.Context, c Claim, lease time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	it, err := m.held(c)
	if err == nil {
		it.leased = m.now().Add(lease)
		m.wait(it)
	}
	return err
}

// Release implements Store.
func (m *MemoryStore) Release(ctx context.Context, c Claim, retryAt time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	it, err := m.held(c)
	if err == nil {
		it.token, it.leased, it.ready = "", time.Time{}, retryAt
		m.wait(it)
	}
	return err
}

// Mark implements Store.
func (m *MemoryStore) Mark(ctx context.Context, name string) (time.Time, error) {
	if err := ctx.Err(); err != nil {
		return time.Time{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.marks[name], nil
}

// SetMark implements Store.
func (m *MemoryStore) SetMark(ctx context.Context, name string, t time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if t.After(m.marks[name]) {
		m.marks[name] = t
	}
	return nil
}

// Backlog implements BacklogReader. It reads every queue: O(resources
// with changes queued).
func (m *MemoryStore) Backlog(ctx context.Context) (StoreBacklog, error) {
	if err := ctx.Err(); err != nil {
		return StoreBacklog{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var b StoreBacklog
	var oldest *memItem
	held := int64(0)
	now := m.now()
	for _, q := range m.queues {
		b.Waiting += int64(len(q))
		if oldest == nil || q[0].order < oldest.order {
			oldest = q[0]
		}
		if q[0].token != "" && q[0].leased.After(now) {
			held++
		}
	}
	if oldest != nil {
		b.Oldest = &Claim{Resource: oldest.r, Seq: oldest.Seq, Data: bytes.Clone(oldest.Data), Attempt: oldest.attempt}
	}
	if held > 0 {
		b.Held = map[string]int64{processName(): held}
	}
	return b, nil
}
