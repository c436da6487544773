// Package feedtest checks implementations of feed.Store, and proves a
// feed right under chaos: webhooks dropped, repeated and reordered, feed
// instances killed mid-handler, against the in-memory fake API.
package feedtest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// TestStore runs the contract of feed.Store against stores that open
// answers, each empty and of its own (open is called once per subtest;
// the stores of one subtest share nothing with another's). It runs its
// subtests in parallel.
func TestStore(t *testing.T, open func(t *testing.T) feed.Store) {
	t.Helper()
	ctx := context.Background()
	job := func(id int64) feed.Resource { return feed.Resource{Kind: feed.KindJob, ID: id} }
	queue := func(t *testing.T, s feed.Store, r feed.Resource, n int) {
		t.Helper()
		err := s.Update(ctx, r, func(rec []byte) ([]byte, []feed.Queued, error) {
			var last int64
			if len(rec) > 0 {
				if _, err := fmt.Sscanf(string(rec), "%d", &last); err != nil {
					return nil, nil, err
				}
			}
			var q []feed.Queued
			for i := range n {
				q = append(q, feed.Queued{Seq: last + int64(i) + 1, Data: []byte(fmt.Sprintf("%s %d #%d", r.Kind, r.ID, last+int64(i)+1))})
			}
			return []byte(fmt.Sprint(last + int64(n))), q, nil
		})
		if err != nil {
			t.Fatalf("Update: %v", err)
		}
	}
	claim := func(t *testing.T, s feed.Store, n int, lease time.Duration) []feed.Claim {
		t.Helper()
		cs, err := s.Claim(ctx, n, lease)
		if err != nil {
			t.Fatalf("Claim: %v", err)
		}
		return cs
	}

	t.Run("UpdateKeepsTheRecordAndQueues", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		var seen [][]byte
		for range 3 {
			err := s.Update(ctx, job(1), func(rec []byte) ([]byte, []feed.Queued, error) {
				seen = append(seen, rec)
				return []byte(fmt.Sprintf("v%d", len(seen))), nil, nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if len(seen[0]) != 0 || string(seen[1]) != "v1" || string(seen[2]) != "v2" {
			t.Fatalf("records read: %q", seen)
		}
		boom := errors.New("boom")
		err := s.Update(ctx, job(1), func([]byte) ([]byte, []feed.Queued, error) {
			return []byte("lost"), []feed.Queued{{Seq: 1, Data: []byte("x")}}, boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("a failing fn: Update answered %v", err)
		}
		_ = s.Update(ctx, job(1), func(rec []byte) ([]byte, []feed.Queued, error) {
			if string(rec) != "v3" {
				t.Errorf("after a failed fn the record is %q, want v3", rec)
			}
			return nil, nil, nil // nil keeps it
		})
		_ = s.Update(ctx, job(1), func(rec []byte) ([]byte, []feed.Queued, error) {
			if string(rec) != "v3" {
				t.Errorf("a nil record replaced %q", rec)
			}
			return nil, nil, nil
		})
		if cs := claim(t, s, 10, time.Minute); len(cs) != 0 {
			t.Fatalf("claimed %d changes that were never queued", len(cs))
		}
	})

	t.Run("OnlyTheFirstChangeOfAResourceIsClaimed", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		queue(t, s, job(1), 3)
		queue(t, s, job(2), 1)
		queue(t, s, feed.Resource{Kind: feed.KindJobRequest, ID: 1}, 1)
		cs := claim(t, s, 10, time.Minute)
		if len(cs) != 3 {
			t.Fatalf("claimed %d, want the first change of each of 3 resources", len(cs))
		}
		for _, c := range cs {
			if c.Seq != 1 || c.Attempt != 1 || c.Token == "" {
				t.Fatalf("claimed %+v", c)
			}
			if want := fmt.Sprintf("%s %d #1", c.Resource.Kind, c.Resource.ID); string(c.Data) != want {
				t.Fatalf("data %q, want %q", c.Data, want)
			}
		}
		if more := claim(t, s, 10, time.Minute); len(more) != 0 {
			t.Fatalf("claimed %d more while the first changes are leased", len(more))
		}
		for seq := int64(1); seq <= 3; seq++ {
			var c feed.Claim
			if seq == 1 {
				for _, x := range cs {
					if x.Resource == job(1) {
						c = x
					}
				}
			} else {
				next := claim(t, s, 10, time.Minute)
				if len(next) != 1 || next[0].Resource != job(1) || next[0].Seq != seq {
					t.Fatalf("after acknowledging #%d, claimed %+v", seq-1, next)
				}
				c = next[0]
			}
			if err := s.Ack(ctx, c); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("ClaimsAreOldestFirstAndBounded", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		for id := int64(10); id > 0; id-- {
			queue(t, s, job(id), 1)
		}
		cs := claim(t, s, 4, time.Minute)
		if len(cs) != 4 {
			t.Fatalf("claimed %d of 4", len(cs))
		}
		for i, c := range cs {
			if c.Resource.ID != int64(10-i) {
				t.Fatalf("claim %d is of job %d, want %d (oldest first)", i, c.Resource.ID, 10-i)
			}
		}
	})

	t.Run("ALeaseExpiresAndTheOldClaimLosesIt", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		queue(t, s, job(1), 2)
		first := claim(t, s, 1, time.Millisecond)
		if len(first) != 1 {
			t.Fatal("nothing claimed")
		}
		var second []feed.Claim
		deadline := time.Now().Add(30 * time.Second)
		for len(second) == 0 && time.Now().Before(deadline) {
			second = claim(t, s, 1, time.Minute)
		}
		if len(second) != 1 || second[0].Seq != 1 || second[0].Attempt != 2 || second[0].Token == first[0].Token {
			t.Fatalf("after the lease expired, claimed %+v (first %+v)", second, first[0])
		}
		for name, op := range map[string]func(feed.Claim) error{
			"Ack":     func(c feed.Claim) error { return s.Ack(ctx, c) },
			"Extend":  func(c feed.Claim) error { return s.Extend(ctx, c, time.Minute) },
			"Release": func(c feed.Claim) error { return s.Release(ctx, c, time.Now()) },
		} {
			if err := op(first[0]); !errors.Is(err, feed.ErrLeaseLost) {
				t.Fatalf("%s of the expired claim answered %v, want ErrLeaseLost", name, err)
			}
		}
		if err := s.Extend(ctx, second[0], time.Minute); err != nil {
			t.Fatal(err)
		}
		if err := s.Ack(ctx, second[0]); err != nil {
			t.Fatal(err)
		}
		if err := s.Ack(ctx, second[0]); !errors.Is(err, feed.ErrLeaseLost) {
			t.Fatalf("a second Ack answered %v, want ErrLeaseLost", err)
		}
		if next := claim(t, s, 1, time.Minute); len(next) != 1 || next[0].Seq != 2 {
			t.Fatalf("claimed %+v, want #2", next)
		}
	})

	t.Run("ReleaseHoldsTheChangeBack", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		queue(t, s, job(1), 2)
		c := claim(t, s, 1, time.Minute)[0]
		if err := s.Release(ctx, c, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if cs := claim(t, s, 10, time.Minute); len(cs) != 0 {
			t.Fatalf("claimed %+v while held back", cs)
		}
		if err := s.Ack(ctx, c); !errors.Is(err, feed.ErrLeaseLost) {
			t.Fatalf("Ack of a released claim answered %v", err)
		}
		queue(t, s, job(2), 1)
		c2 := claim(t, s, 1, time.Minute)[0]
		if err := s.Release(ctx, c2, time.Now().Add(-time.Second)); err != nil {
			t.Fatal(err)
		}
		again := claim(t, s, 10, time.Minute)
		if len(again) != 1 || again[0].Resource != job(2) || again[0].Attempt != 2 {
			t.Fatalf("after a release due now, claimed %+v", again)
		}
	})

	t.Run("BacklogTellsWaitingOldestAndHeld", func(t *testing.T) {
		t.Parallel()
		testBacklog(t, open(t), queue, claim)
	})

	t.Run("MarksOnlyMoveForward", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		if m, err := s.Mark(ctx, "a"); err != nil || !m.IsZero() {
			t.Fatalf("an unset mark: %v, %v", m, err)
		}
		t1 := time.Date(2026, 3, 1, 9, 0, 0, 123456000, time.UTC)
		for _, at := range []time.Time{t1, t1.Add(-time.Hour)} {
			if err := s.SetMark(ctx, "a", at); err != nil {
				t.Fatal(err)
			}
		}
		if m, err := s.Mark(ctx, "a"); err != nil || !m.Equal(t1) {
			t.Fatalf("mark %v, %v; want %v", m, err, t1)
		}
		if m, _ := s.Mark(ctx, "b"); !m.IsZero() {
			t.Fatalf("marks are not kept apart: %v", m)
		}
	})

	t.Run("ConcurrentUpdatesOfOneResourceAreSerialized", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 10 {
					queue(t, s, job(1), 1)
				}
			}()
		}
		wg.Wait()
		for seq := int64(1); seq <= 80; seq++ {
			cs := claim(t, s, 10, time.Minute)
			if len(cs) != 1 || cs[0].Seq != seq {
				t.Fatalf("claim %d: %+v", seq, cs)
			}
			if err := s.Ack(ctx, cs[0]); err != nil {
				t.Fatal(err)
			}
		}
	})

	t.Run("ConcurrentClaimersNeverShareAChange", func(t *testing.T) {
		t.Parallel()
		s := open(t)
		const resources, per = 20, 5
		for id := int64(1); id <= resources; id++ {
			queue(t, s, job(id), per)
		}
		var mu sync.Mutex
		next := map[int64]int64{}
		busy := map[int64]bool{}
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				idle := 0
				for idle < 200 {
					cs, err := s.Claim(ctx, 3, time.Minute)
					if err != nil {
						errs <- err
						return
					}
					if len(cs) == 0 {
						mu.Lock()
						done := len(next) == resources && all(next, per)
						mu.Unlock()
						if done {
							return
						}
						idle++
						runtime.Gosched()
						continue
					}
					idle = 0
					for _, c := range cs {
						mu.Lock()
						if busy[c.Resource.ID] || c.Seq != next[c.Resource.ID]+1 {
							mu.Unlock()
							errs <- fmt.Errorf("claimed job %d #%d while busy=%v, last handled #%d", c.Resource.ID, c.Seq, busy[c.Resource.ID], next[c.Resource.ID])
							return
						}
						busy[c.Resource.ID] = true
						mu.Unlock()
						mu.Lock()
						busy[c.Resource.ID] = false
						next[c.Resource.ID] = c.Seq
						mu.Unlock()
						if err := s.Ack(ctx, c); err != nil {
							errs <- err
							return
						}
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if !all(next, per) || len(next) != resources {
			t.Fatalf("handled %v", next)
		}
	})
}

func all(next map[int64]int64, per int64) bool {
	for _, n := range next {
		if n != per {
			return false
		}
	}
	return true
}
