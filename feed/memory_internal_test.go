package feed

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// queueN queues one change for each of n resources of m.
func queueN(tb testing.TB, m *MemoryStore, from, n int) {
	tb.Helper()
	for i := range n {
		r := Resource{Kind: KindJob, ID: int64(from + i)}
		err := m.Update(context.Background(), r, func([]byte) ([]byte, []Queued, error) {
			return []byte("r"), []Queued{{Seq: 1, Data: []byte("c")}}, nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// A claim whose lease ran out, its change back among the ready ones but
// not claimed again, is still its holder's: Ack, Extend and Release find
// it wherever it waits, and the claims that follow see each change once.
func TestMemoryStoreExpiredClaimNotTakenAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Unix(1e9, 0)
	m := NewMemoryStore()
	m.now = func() time.Time { return now }
	queueN(t, m, 1, 3)
	cs, err := m.Claim(ctx, 3, time.Second)
	if err != nil || len(cs) != 3 {
		t.Fatalf("claimed %d, %v", len(cs), err)
	}
	now = now.Add(time.Minute) // every lease ran out
	if got, _ := m.Claim(ctx, 0, time.Second); len(got) != 0 {
		t.Fatalf("claimed %d with n = 0", len(got))
	}
	if err := m.Extend(ctx, cs[0], time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := m.Release(ctx, cs[1], now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := m.Ack(ctx, cs[2]); err != nil {
		t.Fatal(err)
	}
	if got, _ := m.Claim(ctx, 10, time.Second); len(got) != 0 {
		t.Fatalf("claimed %+v: extended, held back or acknowledged", got)
	}
	now = now.Add(2 * time.Hour)
	got, _ := m.Claim(ctx, 10, time.Second)
	if len(got) != 2 || got[0].Resource.ID != 1 || got[1].Resource.ID != 2 {
		t.Fatalf("claimed %+v, want jobs 1 and 2, oldest first", got)
	}
}

// BenchmarkMemoryStoreClaimAck claims and acknowledges one change at a
// time with a backlog of n resources, half of them held back (released
// with a retry an hour ahead, as in a downstream outage): each should cost
// the same at any backlog.
func BenchmarkMemoryStoreClaimAck(b *testing.B) {
	for _, n := range []int{10_000, 40_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			ctx := context.Background()
			m := NewMemoryStore()
			queueN(b, m, 1, n)
			held, err := m.Claim(ctx, n/2, time.Minute)
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range held {
				if err := m.Release(ctx, c, time.Now().Add(time.Hour)); err != nil {
					b.Fatal(err)
				}
			}
			next := n + 1
			for b.Loop() {
				cs, err := m.Claim(ctx, 1, time.Minute)
				if err != nil || len(cs) != 1 {
					b.Fatalf("claimed %d, %v", len(cs), err)
				}
				if err := m.Ack(ctx, cs[0]); err != nil {
					b.Fatal(err)
				}
				queueN(b, m, next, 1) // the backlog stays as it was
				next++
			}
		})
	}
}
