package feed

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
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
	heads   []memHead               // the first change of each queue, oldest first
	marks   map[string]time.Time
	order   int64 // numbers changes in the order they were queued
	tokens  int64
	now     func() time.Time
}

// memHead is the first change of a resource's queue.
type memHead struct {
	r  Resource
	it *memItem
}

// memItem is a queued change and its claim.
type memItem struct {
	Queued
	order   int64
	ready   time.Time // not claimed before
	leased  time.Time // leased until
	token   string
	attempt int
}

// NewMemoryStore answers an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{records: map[Resource][]byte{}, queues: map[Resource][]*memItem{},
		marks: map[string]time.Time{}, now: time.Now}
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
		q = append(q, &memItem{Queued: Queued{Seq: c.Seq, Data: bytes.Clone(c.Data)}, order: m.order})
	}
	if len(q) > 0 {
		if len(m.queues[r]) == 0 {
			m.heads = append(m.heads, memHead{r, q[0]}) // the newest: last
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
	out := make([]Claim, 0, n)
	for _, h := range m.heads {
		if len(out) == n {
			break
		}
		if it := h.it; !it.ready.After(now) && !it.leased.After(now) {
			m.tokens++
			it.token, it.leased = strconv.FormatInt(m.tokens, 10), now.Add(lease)
			it.attempt++
			out = append(out, Claim{Resource: h.r, Seq: it.Seq, Data: bytes.Clone(it.Data), Attempt: it.attempt, Token: it.token})
		}
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
	i, _ := slices.BinarySearchFunc(m.heads, q[0].order, func(h memHead, order int64) int { return cmp.Compare(h.it.order, order) })
	m.heads = slices.Delete(m.heads, i, i+1)
	if len(q) == 1 {
		delete(m.queues, c.Resource)
		return nil
	}
	q[0] = nil
	q = q[1:]
	m.queues[c.Resource] = q
	next := memHead{c.Resource, q[0]}
	i, _ = slices.BinarySearchFunc(m.heads, next.it.order, func(h memHead, order int64) int { return cmp.Compare(h.it.order, order) })
	m.heads = slices.Insert(m.heads, i, next)
	return nil
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
