package workforce

import (
	"context"
	"testing"
	"time"
)

type fakeRec struct {
	id int64
	at time.Time
}

func (r *fakeRec) listID() int64      { return r.id }
func (r *fakeRec) updated() time.Time { return r.at }

// parts' boundaries overflow time.Duration for a wide span split in many parts.
func TestReviewSplitOverflow(t *testing.T) {
	now := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	sp := span{after: now.Add(-7 * 365 * 24 * time.Hour), before: now}
	list := func(ctx context.Context, after, before time.Time, page int) ([]*fakeRec, *Response, error) {
		items := make([]*fakeRec, 50)
		for i := range items { // 50 newest, a day apart: the span looks dense
			items[i] = &fakeRec{id: int64(100000 - i), at: now.Add(-time.Duration(i) * 25 * time.Hour)}
		}
		return items, &Response{NextPage: 2}, nil
	}
	r := fetchSpan(context.Background(), sp, time.Second, sp.before, list)
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
