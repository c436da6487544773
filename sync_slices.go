package workforce

import (
	"context"
	"fmt"
	"math"
	"time"
)

// fetchSpan reads the first page of sp. When the page is not full, that is
// all of sp. When it is, sp is split in parts (see split), each
// overlapping the next by the precision; an open span keeps its open part
// and gives up a closed one as wide as the distance from it to the top. A
// span too narrow to split is walked page by page (walk).
func fetchSpan[T synced](ctx context.Context, sp span, b *syncBounds, list sliceLister[T]) sliceResult[T] {
	items, resp, err := list(ctx, sp.after, sp.before, 1)
	if err != nil {
		return sliceResult[T]{err: err}
	}
	if err := inBounds(items, sp, b.margin); err != nil {
		return sliceResult[T]{err: err}
	}
	if resp == nil || resp.NextPage == 0 {
		return sliceResult[T]{items: items}
	}
	if sp.after.IsZero() {
		width := max(twice(sp.width), twice(sp.before.Sub(oldest(items, sp.before))), 4*b.precision)
		cut := sp.before.Add(-width)
		return sliceResult[T]{items: items, split: []span{
			{after: cut, before: sp.before},
			{before: cut.Add(b.precision), width: width},
		}}
	}
	if sp.after.Before(b.floor.Add(-b.precision)) && sp.before.After(b.floor) && sp.before.Sub(b.floor) <= 4*b.precision {
		// A span reaching just past floor: cut it there, so that the part
		// below, which records cannot enter, is not walked as if they could.
		return sliceResult[T]{items: items, split: []span{
			{after: sp.after, before: b.floor},
			{after: b.floor.Add(-b.precision), before: sp.before},
		}}
	}
	if sp.before.Sub(sp.after) <= 4*b.precision {
		return walk(ctx, sp, items, b, list)
	}
	return sliceResult[T]{items: items, split: split(sp, items, b.precision)}
}

// split cuts sp, whose first page, items, was full, in parts: in two at
// the oldest update of the page when the page's updates lie within one
// part's width of the top (a pile of records changed at once, whose
// density says nothing of the rest), so that the pile and the rest are
// each measured by a page of their own; else in as many parts as the page
// suggests (see parts).
func split[T synced](sp span, items []T, precision time.Duration) []span {
	width := sp.before.Sub(sp.after)
	first := oldest(items, time.Time{})
	if cut := first.Add(-twice(precision)); !first.IsZero() && cut.After(sp.after) && first.Add(-precision).Before(sp.before) &&
		sp.before.Sub(first) < width/maxParts {
		// Cut two precisions below the pile, so that the part below it (which
		// overlaps the next by a precision) holds none of it however the
		// server rounds or bounds the cut: the pile is read once.
		return []span{{after: sp.after, before: cut.Add(precision)}, {after: cut, before: sp.before}}
	}
	n := parts(items, width)
	// The i-th boundary, width×i/n exactly, without the product: it
	// cannot overflow however wide the span, nor collapse when the span is
	// narrower in nanoseconds than its parts.
	step, rest := width/time.Duration(n), width%time.Duration(n)
	at := func(i int) time.Time {
		return sp.after.Add(step*time.Duration(i) + rest*time.Duration(i)/time.Duration(n))
	}
	out := make([]span, 0, n)
	for i := range n {
		to := sp.before
		if i < n-1 {
			to = at(i + 1).Add(precision)
		}
		out = append(out, span{after: at(i), before: to})
	}
	return out
}

// inBounds reports ErrServerFilter when an item's update lies outside sp,
// widened by margin on each side.
func inBounds[T synced](items []T, sp span, margin time.Duration) error {
	for _, it := range items {
		u := it.updated()
		if u.IsZero() {
			continue
		}
		if (!sp.after.IsZero() && u.Before(sp.after.Add(-margin))) || (!sp.before.IsZero() && u.After(sp.before.Add(margin))) {
			return fmt.Errorf("%w: record %d updated at %s, asked for %s to %s", ErrServerFilter, it.listID(),
				u.Format(time.RFC3339Nano), sp.after.Format(time.RFC3339Nano), sp.before.Format(time.RFC3339Nano))
		}
	}
	return nil
}

// walk reads every page of sp, a span too narrow to split whose first
// page, first, was full. Below floor records can only leave sp: it is
// walked forward, then backward (walkBack). Above, records may also enter
// it until the server's clock passes its top: then it is walked back too;
// before, it is walked forward until two walks agree (walkStable), and
// when they keep disagreeing it is left to the next sync (deferred), its
// records yielded meanwhile.
func walk[T synced](ctx context.Context, sp span, first []T, b *syncBounds, list sliceLister[T]) sliceResult[T] {
	if !sp.before.After(b.floor) {
		all, err := walkBack(ctx, sp, first, b.margin, list)
		return sliceResult[T]{items: all, err: err}
	}
	now, _, err := b.clock(ctx)
	if err != nil {
		return sliceResult[T]{err: err}
	}
	if now.After(sp.before.Add(b.margin)) { // nothing can enter it any more
		all, err := walkBack(ctx, sp, first, b.margin, list)
		return sliceResult[T]{items: all, err: err}
	}
	all, stable, err := walkStable(ctx, sp, first, b.margin, list)
	r := sliceResult[T]{items: all, err: err}
	if err == nil && !stable {
		r.deferred = &sp
	}
	return r
}

// maxSpanPages bounds the pages of one span too narrow to split (records
// sharing a few precisions), and so the memory a sync holds: past it the
// sync stops with an error rather than read a server that never ends.
const maxSpanPages = 4000

// forward reads the pages of sp after its first, first, up to the last,
// and returns them with first, and the last page's number. It stops with
// ErrPageRepeated when a page repeats the one before, and with an error
// past maxSpanPages.
func forward[T synced](ctx context.Context, sp span, first []T, margin time.Duration, list sliceLister[T]) ([]T, int, error) {
	all, prev := append([]T(nil), first...), first
	for page := 2; ; page++ {
		if page > maxSpanPages {
			return nil, 0, fmt.Errorf("workforce: sync: more than %d pages of records from %s to %s", maxSpanPages,
				sp.after.Format(time.RFC3339Nano), sp.before.Format(time.RFC3339Nano))
		}
		items, resp, err := list(ctx, sp.after, sp.before, page)
		if err != nil {
			return nil, 0, err
		}
		if err := inBounds(items, sp, margin); err != nil {
			return nil, 0, err
		}
		if len(items) > 0 && sameIDs(prev, items) {
			return nil, 0, fmt.Errorf("%w: page %d of records from %s to %s", ErrPageRepeated, page,
				sp.after.Format(time.RFC3339Nano), sp.before.Format(time.RFC3339Nano))
		}
		all, prev = append(all, items...), items
		if resp == nil || resp.NextPage == 0 {
			return all, page, nil
		}
	}
}

// sameIDs tells whether a and b hold the same IDs in the same order.
func sameIDs[T synced](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].listID() != b[i].listID() {
			return false
		}
	}
	return true
}

// twice returns 2d, or the longest Duration when that would overflow.
func twice(d time.Duration) time.Duration {
	if d > math.MaxInt64/2 {
		return math.MaxInt64
	}
	return 2 * d
}

// Splitting a span whose first page came back full: each part should hold
// about perPart records, so that it answers in one page despite the
// unevenness of real data, and no span is split in more than maxParts.
const (
	perPart  = 40
	maxParts = 64
)

// parts returns how many slices (at least 2) to split a span of width
// into, whose first page, items (newest first), was full: by the spread of
// the page's updates when they cover less than half the span, else by
// their IDs; the square root when more than maxParts are needed
// (docs/SYNC.md).
func parts[T synced](items []T, width time.Duration) int {
	n := float64(len(items))
	estimate := n
	first, last := oldest(items, time.Time{}), time.Time{}
	for _, it := range items {
		if u := it.updated(); u.After(last) {
			last = u
		}
	}
	spread := last.Sub(first)
	if !first.IsZero() && spread > 0 {
		estimate = max(estimate, n*float64(width)/float64(spread))
	}
	if first.IsZero() || spread > width/2 {
		if top, bottom := items[0].listID(), items[len(items)-1].listID(); top > bottom && bottom > 0 {
			estimate = max(estimate, n*float64(top)/float64(top-bottom+1))
		}
	}
	needed := math.Ceil(estimate / perPart)
	if needed > maxParts {
		needed = min(math.Ceil(math.Sqrt(needed)), maxParts)
	}
	return int(max(needed, 2))
}

// oldest returns the earliest update among items, or fallback when there
// is none (or fallback is earlier).
func oldest[T synced](items []T, fallback time.Time) time.Time {
	out := fallback
	for _, it := range items {
		if u := it.updated(); !u.IsZero() && (out.IsZero() || u.Before(out)) {
			out = u
		}
	}
	return out
}

// walkBack reads every page of sp, a span that records can leave but not
// enter while the sync runs, forward from its first page (read already) to
// find its last page, then again from that page back to the first, and
// returns all it read: the backward pass sees every record that stayed
// (docs/SYNC.md).
func walkBack[T synced](ctx context.Context, sp span, first []T, margin time.Duration, list sliceLister[T]) ([]T, error) {
	all, last, err := forward(ctx, sp, first, margin, list)
	if err != nil {
		return nil, err
	}
	for page := last; page >= 1; page-- {
		items, _, err := list(ctx, sp.after, sp.before, page)
		if err != nil {
			return nil, err
		}
		if err := inBounds(items, sp, margin); err != nil {
			return nil, err
		}
		all = append(all, items...)
	}
	return all, nil
}

// subset tells whether every ID of a is in b.
func subset[T synced](a, b []T) bool {
	in := make(map[int64]bool, len(b))
	for _, it := range b {
		in[it.listID()] = true
	}
	for _, it := range a {
		if !in[it.listID()] {
			return false
		}
	}
	return true
}

// maxWalks bounds the walks of a span at the top before it is left to the
// next sync.
const maxWalks = 3

// walkStable walks every page of sp (the first walk from its first page,
// first, read already), again, until a walk sees every record the walk
// before it saw, and returns the union of what the walks saw and true:
// then the first walk skipped nothing that stayed (docs/SYNC.md). After
// maxWalks walks that never agree it returns the union and false.
func walkStable[T synced](ctx context.Context, sp span, first []T, margin time.Duration, list sliceLister[T]) ([]T, bool, error) {
	var union, prev []T
	for range maxWalks {
		var (
			ids []T
			err error
		)
		if prev == nil {
			ids, _, err = forward(ctx, sp, first, margin, list)
		} else {
			var page1 []T
			var resp *Response
			page1, resp, err = list(ctx, sp.after, sp.before, 1)
			if err == nil {
				err = inBounds(page1, sp, margin)
			}
			if err == nil && resp != nil && resp.NextPage != 0 {
				ids, _, err = forward(ctx, sp, page1, margin, list)
			} else {
				ids = page1
			}
		}
		if err != nil {
			return nil, false, err
		}
		union = append(union, ids...)
		if prev != nil && subset(prev, ids) {
			return union, true, nil
		}
		prev = ids
	}
	return union, false, nil
}
