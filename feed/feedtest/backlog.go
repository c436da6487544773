package feedtest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/workforce-marketplace/workforce-go/feed"
)

// testBacklog checks a BacklogReader (TestStore's subtest; s is skipped
// when it is none): what waits, the oldest, and what is held, as changes
// are queued, claimed, acknowledged, released and left to expire.
func testBacklog(t *testing.T, s feed.Store, queue func(*testing.T, feed.Store, feed.Resource, int),
	claim func(*testing.T, feed.Store, int, time.Duration) []feed.Claim) {
	ctx := context.Background()
	job := func(id int64) feed.Resource { return feed.Resource{Kind: feed.KindJob, ID: id} }
	r, ok := s.(feed.BacklogReader)
	if !ok {
		t.Skipf("%T is no feed.BacklogReader", s)
	}
	read := func() feed.StoreBacklog {
		t.Helper()
		b, err := r.Backlog(ctx)
		if err != nil {
			t.Fatalf("Backlog: %v", err)
		}
		return b
	}
	backlog := func(want int64, oldest string, attempt int, held int64) {
		t.Helper()
		b := read()
		var got string
		if b.Oldest != nil {
			got = string(b.Oldest.Data)
			if want := fmt.Sprintf("%s %d #%d", b.Oldest.Resource.Kind, b.Oldest.Resource.ID, b.Oldest.Seq); got != want {
				t.Errorf("the oldest change is %s with the data of %q", want, got)
			}
			if b.Oldest.Attempt != attempt {
				t.Errorf("the oldest change was claimed %d times, want %d", b.Oldest.Attempt, attempt)
			}
		}
		var n int64
		for name, k := range b.Held {
			if name == "" || k <= 0 {
				t.Errorf("held: %q holds %d", name, k)
			}
			n += k
		}
		if b.Waiting != want || got != oldest || n != held || held > 0 && len(b.Held) != 1 {
			t.Fatalf("backlog: %d waiting, the oldest %q, held %v; want %d, %q, %d by one instance", b.Waiting, got, b.Held, want, oldest, held)
		}
	}
	backlog(0, "", 0, 0)
	queue(t, s, job(1), 2)
	queue(t, s, job(2), 1)
	backlog(3, "job 1 #1", 0, 0)
	cs := claim(t, s, 1, time.Hour)
	if len(cs) != 1 {
		t.Fatalf("claimed %d", len(cs))
	}
	backlog(3, "job 1 #1", 1, 1)
	if err := s.Ack(ctx, cs[0]); err != nil {
		t.Fatal(err)
	}
	backlog(2, "job 1 #2", 0, 0)
	// A lease released, and one expired, hold nothing.
	cs = claim(t, s, 2, time.Millisecond)
	if len(cs) != 2 {
		t.Fatalf("claimed %d, want 2", len(cs))
	}
	if err := s.Release(ctx, cs[1], time.Now()); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); len(read().Held) > 0; {
		if time.Now().After(deadline) {
			t.Fatalf("a lease of a millisecond still held after 30 s: %v", read().Held)
		}
		time.Sleep(time.Millisecond)
	}
	backlog(2, "job 1 #2", 1, 0)
}
