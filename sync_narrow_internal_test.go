package workforce

import (
	"context"
	"testing"
	"time"
)

// A nanosecond precision and a full page in a span narrower than the number of parts:
// step = width/n = 0, so the last part is the whole span again: splitting never ends.
func TestR2SplitNarrowSpanRepeatsItself(t *testing.T) {
	base := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	sp := span{after: base, before: base.Add(20 * time.Nanosecond)}
	list := func(ctx context.Context, after, before time.Time, page int) ([]*fakeRec, *Response, error) {
		items := make([]*fakeRec, 50)
		for i := range items {
			items[i] = &fakeRec{id: int64(1000 - i), at: before.Add(-time.Duration(i%20+1) * time.Nanosecond)}
		}
		return items, &Response{NextPage: 2}, nil
	}
	r := fetchSpan(context.Background(), sp, time.Nanosecond, sp.before, list)
	t.Logf("%d parts", len(r.split))
	for i, s := range r.split {
		if s.after.Equal(sp.after) && s.before.Equal(sp.before) {
			t.Fatalf("part %d of %d is the whole span [%v, %v): the split makes no progress", i, len(r.split), s.after, s.before)
		}
	}
}
