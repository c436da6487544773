package workforce

import (
	"context"
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
