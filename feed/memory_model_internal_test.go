package feed

import (
	"context"
	"math/rand"
	"sort"
	"testing"
	"time"
)

// refItem is a change in the model.
type refItem struct {
	seq           int64
	order         int64
	ready, leased time.Time
	token         string
	attempt       int
}

// refStore is the model: queues, and a scan of their heads.
type refStore struct {
	queues map[Resource][]*refItem
	order  int64
}

func (s *refStore) claim(now time.Time, n int) []Claim {
	type h struct {
		r  Resource
		it *refItem
	}
	var hs []h
	for r, q := range s.queues {
		it := q[0]
		if !it.ready.After(now) && !it.leased.After(now) {
			hs = append(hs, h{r, it})
		}
	}
	sort.Slice(hs, func(i, k int) bool { return hs[i].it.order < hs[k].it.order })
	var out []Claim
	for _, x := range hs {
		if len(out) == n {
			break
		}
		out = append(out, Claim{Resource: x.r, Seq: x.it.seq, Attempt: x.it.attempt + 1})
	}
	return out
}

// TestMemoryStoreAgainstAModel runs random Updates, Claims, Acks, Extends
// and Releases, on a clock of its own, on a MemoryStore and on a plain
// model of what it must do (the scan the heaps replaced), and checks after
// every step that both claim the same and that the heaps hold every queue's
// head once, in order (written for outside attack 9).
func TestMemoryStoreAgainstAModel(t *testing.T) {
	t.Parallel()
	for seed := int64(0); seed < 300; seed++ {
		rng := rand.New(rand.NewSource(seed))
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		now := base
		m := NewMemoryStore()
		m.now = func() time.Time { return now }
		ref := &refStore{queues: map[Resource][]*refItem{}}
		var claims []Claim
		seqs := map[Resource]int64{}
		ctx := context.Background()
		for step := 0; step < 400; step++ {
			switch op := rng.Intn(7); op {
			case 0: // update
				r := Resource{Kind: KindJob, ID: int64(rng.Intn(6))}
				k := rng.Intn(3)
				var qs []Queued
				for range k {
					seqs[r]++
					qs = append(qs, Queued{Seq: seqs[r]})
					ref.order++
					ref.queues[r] = append(ref.queues[r], &refItem{seq: seqs[r], order: ref.order})
				}
				if err := m.Update(ctx, r, func([]byte) ([]byte, []Queued, error) { return nil, qs, nil }); err != nil {
					t.Fatal(err)
				}
			case 1: // claim
				n := rng.Intn(4)
				lease := time.Duration(rng.Intn(5)) * time.Second
				want := ref.claim(now, n)
				got, err := m.Claim(ctx, n, lease)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("seed %d step %d: claim got %d want %d", seed, step, len(got), len(want))
				}
				for i := range got {
					if got[i].Resource != want[i].Resource || got[i].Seq != want[i].Seq || got[i].Attempt != want[i].Attempt {
						t.Fatalf("seed %d step %d: claim %d got %+v want %+v", seed, step, i, got[i], want[i])
					}
					it := ref.queues[got[i].Resource][0]
					it.token, it.leased, it.attempt = got[i].Token, now.Add(lease), it.attempt+1
					claims = append(claims, got[i])
				}
			case 2, 3, 4: // ack / extend / release a random claim ever made
				if len(claims) == 0 {
					continue
				}
				c := claims[rng.Intn(len(claims))]
				q := ref.queues[c.Resource]
				held := len(q) > 0 && q[0].seq == c.Seq && q[0].token == c.Token
				var err error
				switch op {
				case 2:
					err = m.Ack(ctx, c)
					if held {
						if len(q) == 1 {
							delete(ref.queues, c.Resource)
						} else {
							ref.queues[c.Resource] = q[1:]
						}
					}
				case 3:
					lease := time.Duration(rng.Intn(5)-1) * time.Second
					err = m.Extend(ctx, c, lease)
					if held {
						q[0].leased = now.Add(lease)
					}
				case 4:
					at := now.Add(time.Duration(rng.Intn(7)-3) * time.Second)
					err = m.Release(ctx, c, at)
					if held {
						q[0].token, q[0].leased, q[0].ready = "", time.Time{}, at
					}
				}
				if (err == nil) != held {
					t.Fatalf("seed %d step %d op %d: err %v held %v", seed, step, op, err, held)
				}
			case 5, 6:
				now = now.Add(time.Duration(rng.Intn(1500)) * time.Millisecond)
			}
			checkHeaps(t, m, seed, step)
		}
	}
}

// checkHeaps fails t unless m's heaps hold each queue's head once, in heap order.
func checkHeaps(t *testing.T, m *MemoryStore, seed int64, step int) {
	seen := 0
	for _, h := range []*memHeap{&m.ready, &m.waiting} {
		for i, it := range h.items {
			if it.in != h || it.index != i {
				t.Fatalf("seed %d step %d: item at %d has in/index wrong", seed, step, i)
			}
			if i > 0 && h.Less(i, (i-1)/2) {
				t.Fatalf("seed %d step %d: heap order broken at %d", seed, step, i)
			}
			if q := m.queues[it.r]; len(q) == 0 || q[0] != it {
				t.Fatalf("seed %d step %d: heap holds a non-head", seed, step)
			}
			seen++
		}
	}
	if seen != len(m.queues) {
		t.Fatalf("seed %d step %d: %d heads in heaps, %d queues", seed, step, seen, len(m.queues))
	}
}
