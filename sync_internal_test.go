package workforce

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestSplitOfASpanNarrowerThanItsPartsMakesProgress splits a span of 20ns,
// with a nanosecond precision and a full page, in more parts than it has
// nanoseconds: no part may be the whole span again (width/n = 0 once made
// the last part the span itself, so splitting never ended).
func TestSplitOfASpanNarrowerThanItsPartsMakesProgress(t *testing.T) {
	t.Parallel()
	base := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	sp := span{after: base, before: base.Add(20 * time.Nanosecond)}
	list := func(ctx context.Context, after, before time.Time, page int) ([]*fakeRec, *Response, error) {
		items := make([]*fakeRec, 50)
		for i := range items {
			items[i] = &fakeRec{id: int64(1000 - i), at: before.Add(-time.Duration(i%20+1) * time.Nanosecond)}
		}
		return items, &Response{NextPage: 2}, nil
	}
	r := fetchSpan(context.Background(), sp, &syncBounds{precision: time.Nanosecond, margin: time.Nanosecond, floor: sp.before}, list)
	t.Logf("%d parts", len(r.split))
	for i, s := range r.split {
		if s.after.Equal(sp.after) && s.before.Equal(sp.before) {
			t.Fatalf("part %d of %d is the whole span [%v, %v): the split makes no progress", i, len(r.split), s.after, s.before)
		}
	}
}

type fakeRec struct {
	id int64
	at time.Time
}

func (r *fakeRec) listID() int64      { return r.id }
func (r *fakeRec) updated() time.Time { return r.at }

// TestSplitOfAWideSpanLeavesNoGap splits a span of seven years in many
// parts: their boundaries must not overflow time.Duration, leaving no gap
// and no empty part.
func TestSplitOfAWideSpanLeavesNoGap(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	sp := span{after: now.Add(-7 * 365 * 24 * time.Hour), before: now}
	list := func(ctx context.Context, after, before time.Time, page int) ([]*fakeRec, *Response, error) {
		items := make([]*fakeRec, 50)
		for i := range items { // 50 newest, a day apart: the span looks dense
			items[i] = &fakeRec{id: int64(100000 - i), at: now.Add(-time.Duration(i) * 25 * time.Hour)}
		}
		return items, &Response{NextPage: 2}, nil
	}
	r := fetchSpan(context.Background(), sp, &syncBounds{precision: time.Second, margin: time.Second, floor: sp.before}, list)
	t.Logf("%d parts", len(r.split))
	prevTo := sp.after
	for i, s := range r.split {
		if s.after.After(prevTo) || !s.before.After(s.after) {
			t.Errorf("part %d [%s, %s) leaves a gap after %s or is empty", i, s.after, s.before, prevTo)
		}
		prevTo = s.before
	}
	if prevTo.Before(sp.before) {
		t.Errorf("the parts end at %s, before the span's end %s", prevTo, sp.before)
	}
}

// shiftingList is a list of IDs, newest first, 50 a page, from which each
// request after the first few removes the newest record (a record leaving
// the span) or adds one newer than all (a record entering it), so that
// pages read in flight shift under the reads.
type shiftingList struct {
	mu       sync.Mutex
	ids      []int64 // descending
	requests int
	calm     int // requests answered before the changes begin
	grows    bool
	next     int64
}

func (l *shiftingList) get(ctx context.Context, page int) ([]*fakeRec, *Response, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests++
	if l.requests > l.calm {
		if l.grows {
			l.ids = append([]int64{l.next}, l.ids...)
			l.next++
		} else if len(l.ids) > 0 {
			l.ids = l.ids[1:]
		}
	}
	from := min((page-1)*50, len(l.ids))
	to := min(from+50, len(l.ids))
	out := make([]*fakeRec, 0, to-from)
	for _, id := range l.ids[from:to] {
		out = append(out, &fakeRec{id: id})
	}
	resp := &Response{}
	if len(out) == 50 {
		resp.NextPage = page + 1
	}
	return out, resp, nil
}

// TestBracketNoticesASpanThatChanged reads spans that change during the
// read (records leaving a span below the floor, entering the open top),
// with a count that fills its last page and one that does not: bracket
// must answer false (read it again) or every record that was there from
// the first request to the last. Without the check of the second read of
// the end, the pages read in flight skip records.
func TestBracketNoticesASpanThatChanged(t *testing.T) {
	t.Parallel()
	for _, n := range []int{500, 520} {
		for _, grows := range []bool{false, true} {
			for _, calm := range []int{0, 3, 8, 1000} {
				l := &shiftingList{calm: calm, grows: grows, next: int64(n + 1)}
				for id := int64(n); id >= 1; id-- {
					l.ids = append(l.ids, id)
				}
				b := &syncBounds{precision: time.Second, margin: time.Second, pages: maxSpanPages}
				items, ok, _, err := bracket(context.Background(), span{}, grows, b, l.get, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				got := map[int64]bool{}
				for _, it := range items {
					got[it.id] = true
				}
				for _, id := range l.ids {
					if ok && id <= int64(n) && !got[id] {
						t.Errorf("%d records, grows %v, changes after %d requests: record %d skipped, and the bracket held", n, grows, calm, id)
					}
				}
				if calm == 1000 {
					if !ok || len(items) != n {
						t.Errorf("%d records, grows %v, no change: ok %v, %d records", n, grows, ok, len(items))
					}
					if pages := (n + 49) / 50; l.requests > pages+4 {
						t.Errorf("%d records, grows %v, no change: %d requests for %d pages", n, grows, l.requests, pages)
					}
				}
			}
		}
	}
}
