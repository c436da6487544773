package workforce

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"
)

// pageGetter reads one page of a span, holding a slot of the sync's
// concurrency for the request only.
type pageGetter[T synced] func(ctx context.Context, page int) ([]T, *Response, error)

// readPage reads page p of sp with get and checks it: ErrServerFilter for a
// record outside sp, ErrPageRepeated for a page (past the first) with the
// same records as first. It answers the records and whether the page was
// full (the server has a page after it).
func readPage[T synced](ctx context.Context, sp span, p int, first []T, margin time.Duration, get pageGetter[T]) ([]T, bool, error) {
	items, resp, err := get(ctx, p)
	if err != nil {
		return nil, false, err
	}
	if err := inBounds(items, sp, margin); err != nil {
		return nil, false, err
	}
	if p > 1 && len(items) > 0 && sameIDs(first, items) {
		return nil, false, fmt.Errorf("%w: page %d of records from %s to %s", ErrPageRepeated, p,
			sp.after.Format(time.RFC3339Nano), sp.before.Format(time.RFC3339Nano))
	}
	return items, resp != nil && resp.NextPage > p, nil
}

// bracketStart is where a bracket begins: its end (the first page not
// full, see bracket) and the records that page held when first read, and
// the pages already read and yielded. A bracket resumed from it is sound
// when the span did not change since that first read, which its closing
// check proves as it does for a bracket run at once.
type bracketStart struct {
	end, m int
	done   map[int]bool
}

// bracket reads every page of sp, a span whose records can only leave it
// (a part of the window below the floor) or only enter it (the window's
// top, open above) while the sync runs, once each, with pages in flight:
// it finds the span's last page (lastPage), reads the pages before it,
// and reads that page (or its neighbour) again last. When the count of
// records the two reads of the end imply is the same, the span did not
// change in between, and every page read in between was exact; else
// bracket answers false, and the span must be read by a design that
// tolerates change (docs/SYNC.md). A span of more than b.pages pages is
// not read: a part below the floor answers the two parts to read instead
// (cut); the top, or a part too narrow to cut, answers false.
//
// With a nil sink, bracket answers the records it read. Else it hands
// each page to sink as it comes (page 0 with the bracket's end, once it is
// known), and answers none; from, when not nil, resumes a bracket of a
// shrinking span that stopped.
func bracket[T synced](ctx context.Context, sp span, grows bool, b *syncBounds, get pageGetter[T],
	from *bracketStart, sink func(page int, items []T, end *bracketStart)) ([]T, bool, []span, error) {
	var pages [][]T
	emit := func(p int, items []T) {
		if sink != nil {
			sink(p, items, nil)
		} else {
			pages[p] = items
		}
	}
	var first []T
	end, m, done := 0, 0, map[int]bool{}
	if from != nil {
		end, m = from.end, from.m
		for p := range from.done {
			done[p] = true
		}
	} else {
		items, full, err := readPage(ctx, sp, 1, nil, b.margin, get)
		if err != nil {
			return nil, false, nil, err
		}
		if !full { // one page, read at once: exact
			pages = make([][]T, 2)
			emit(1, items)
			return collect(pages), true, nil, nil
		}
		first = items
		e, endItems, before, err := lastPage(ctx, sp, first, b, get)
		if errors.Is(err, errTooManyPages) {
			if grows {
				return nil, false, nil, nil // left to slices, which split it
			}
			return nil, false, cut(sp, first, before, b), nil
		}
		if err != nil {
			return nil, false, nil, err
		}
		end, m = e, len(endItems)
		if sink != nil {
			sink(0, nil, &bracketStart{end: end, m: m})
		}
		pages = make([][]T, end+1)
		if m > 0 {
			emit(end, endItems)
			done[end] = true
		} else if grows {
			// Page end was empty, and the page before it full when lastPage
			// read it, before every page read below: the count was at least
			// end-1 pages then, and is at most that at the close, when page
			// end is read empty again. So that read was exact.
			emit(end-1, before)
			done[end-1] = true
		}
	}
	if pages == nil {
		pages = make([][]T, end+1)
	}
	// The pages read in flight between the two ends, and the check.
	last := end // the last page holding records
	var check func() (bool, error)
	switch {
	case m > 0:
		// Page end held 0 < m < a page: the count is exact at both reads.
		check = func() (bool, error) {
			again, more, err := readPage(ctx, sp, end, first, b.margin, get)
			return err == nil && !more && len(again) == m, err
		}
	case grows:
		// Page end was empty, and end-1 full before (at least end-1 pages):
		// read end again at the close, empty (at most).
		last = end - 1
		check = func() (bool, error) {
			again, _, err := readPage(ctx, sp, end, first, b.margin, get)
			return err == nil && len(again) == 0, err
		}
	default:
		// Page end was empty (the count is at most end-1 pages): read end-1
		// at the close, full (at least).
		last = end - 1
		done[end-1] = true
		check = func() (bool, error) {
			items, more, err := readPage(ctx, sp, end-1, first, b.margin, get)
			if err != nil || !more {
				return false, err
			}
			emit(end-1, items)
			return true, nil
		}
	}
	var todo []int
	for p := 1; p <= last; p++ {
		if !done[p] {
			todo = append(todo, p)
		}
	}
	if err := readPages(ctx, sp, todo, first, b.margin, get, func(p int, items []T, _ bool) { emit(p, items) }); err != nil {
		return nil, false, nil, err
	}
	ok, err := check()
	if err != nil {
		return nil, false, nil, err
	}
	if sink == nil {
		for p := 2; p <= last; p++ {
			if len(pages[p]) > 0 && sameIDs(pages[p-1], pages[p]) {
				return nil, false, nil, fmt.Errorf("%w: page %d of records from %s to %s", ErrPageRepeated, p,
					sp.after.Format(time.RFC3339Nano), sp.before.Format(time.RFC3339Nano))
			}
		}
	}
	return collect(pages), ok, nil, nil
}

// collect joins pages.
func collect[T any](pages [][]T) []T {
	var all []T
	for _, p := range pages {
		all = append(all, p...)
	}
	return all
}

// readPages reads pages of sp in flight (as many as get's slots allow),
// handing each to emit, one at a time, with whether it was full.
func readPages[T synced](ctx context.Context, sp span, pages []int, first []T, margin time.Duration, get pageGetter[T], emit func(int, []T, bool)) error {
	if len(pages) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error
	for _, p := range pages {
		wg.Add(1)
		go func() {
			defer wg.Done()
			items, full, err := readPage(ctx, sp, p, first, margin, get)
			mu.Lock()
			defer mu.Unlock()
			if failed != nil {
				return
			}
			if err != nil {
				failed = err
				cancel(err)
				return
			}
			emit(p, items, full)
		}()
	}
	wg.Wait()
	return failed
}

// errTooManyPages is lastPage's error for a span of more than a bracket's
// pages: a part below the floor is cut (cut), the top left to slices.
var errTooManyPages = errors.New("workforce: sync")

// lastPage finds the first page of sp (whose first page, first, was full)
// that is not full: it reads the page the IDs of first suggest
// (estimatePages) and the pages on either side of it, at once; then, when
// none of them is that page, it steps on (1, 2, 4… pages) while pages come
// back full and halves the gap to the first empty one, one read at a time.
// It answers the page and its records (none when it was empty), and the
// records of the highest page it read full: when the page it answers is
// empty, the page before it. Past b.pages pages it answers
// errTooManyPages, with the records of the highest page it read full.
func lastPage[T synced](ctx context.Context, sp span, first []T, b *syncBounds, get pageGetter[T]) (int, []T, []T, error) {
	full, empty := 1, 0 // the highest page known full, the lowest known empty
	fullItems := first
	guess := estimatePages(sp, first, b.pages)
	probes := []int{guess - 1, guess, guess + 1}
	for step := 1; ; {
		probes = slices.DeleteFunc(probes, func(p int) bool { return p <= full || (empty > 0 && p >= empty) || p > b.pages })
		if len(probes) == 0 { // full is page b.pages
			return 0, nil, fullItems, fmt.Errorf("%w: more than %d pages of records from %s to %s", errTooManyPages, b.pages,
				sp.after.Format(time.RFC3339Nano), sp.before.Format(time.RFC3339Nano))
		}
		read := make(map[int][]T, len(probes))
		more := make(map[int]bool, len(probes))
		err := readPages(ctx, sp, probes, first, b.margin, get, func(p int, items []T, full bool) { read[p], more[p] = items, full })
		if err != nil {
			return 0, nil, nil, err
		}
		for _, p := range probes { // ascending
			switch {
			case more[p]:
				full, fullItems = p, read[p]
			case len(read[p]) > 0:
				return p, read[p], fullItems, nil
			case empty == 0 || p < empty:
				empty = p
			}
		}
		if empty <= full { // the span changed between two reads: search on
			empty = 0
		}
		switch {
		case empty == full+1:
			return empty, nil, fullItems, nil
		case empty == 0: // past the estimate: one page on, then twice the step
			probes, step = []int{full + step}, 2*step
		default:
			probes = []int{full + (empty-full)/2}
		}
	}
}

// estimatePages estimates the first page not full of sp from its first
// page, first (full, newest ID first), by its IDs: as many records as the
// page's density of IDs implies below its top ID. When the page's updates
// lie within half the time from sp's bottom to the newest of them (IDs
// growing with time: the page holds the newest records), by their density
// in time too, whichever is fewer: a part cut from the window holds IDs
// that do not start at 1. At least 2, at most most.
func estimatePages[T synced](sp span, first []T, most int) int {
	per := float64(len(first))
	n := 2 * per
	if top, bottom := first[0].listID(), first[len(first)-1].listID(); top > bottom && bottom > 0 {
		n = per * float64(top) / float64(top-bottom+1)
	}
	if old, young := oldest(first, time.Time{}), newest(first); !sp.after.IsZero() && young.After(old) && young.Sub(old) < young.Sub(sp.after)/2 {
		n = min(n, 1+(per-1)*float64(young.Sub(sp.after))/float64(young.Sub(old)))
	}
	return int(min(max(math.Floor(n/per)+1, 2), float64(most)))
}

// newest returns the latest update among items (zero when there is none).
func newest[T synced](items []T) time.Time {
	var out time.Time
	for _, it := range items {
		if u := it.updated(); u.After(out) {
			out = u
		}
	}
	return out
}

// cut splits sp, a part below the floor of more pages than a bracket
// reads, in two parts overlapping by a precision, by the updates of
// sample: its first page, first, and deep, a page past the first b.pages
// pages. When IDs grow with time (every update of first is newer than
// every update of deep), the upper part is cut to hold most of the records
// newer than deep's, three quarters of the way from first's oldest update
// down to deep's newest: about b.pages×3/4 pages. Else the pages are
// samples of its times, and it is cut at their median: each part holds
// about half. The cut is two precisions below that time, so that records
// sharing it (a pile) fall in the upper part only. When no sampled update cuts sp inside, sp is cut at its
// middle; a part within four margins is not cut: it is an error, records
// sharing a few precisions being too many to read.
func cut[T synced](sp span, first, deep []T, b *syncBounds) []span {
	inside := func(x time.Time) bool {
		return (sp.after.IsZero() || x.After(sp.after)) && x.Add(b.precision).Before(sp.before)
	}
	var at time.Time
	if old, young := oldest(first, time.Time{}), newest(deep); !young.IsZero() && old.After(young) {
		at = young.Add(old.Sub(young) / 4)
	} else if times := updates(append(slices.Clone(first), deep...)); len(times) > 0 {
		at = times[len(times)/2]
	}
	x := at.Add(-twice(b.precision))
	if !inside(x) && !sp.after.IsZero() {
		x = sp.after.Add(sp.before.Sub(sp.after) / 2)
	}
	if !inside(x) || (!sp.after.IsZero() && sp.before.Sub(sp.after) <= 4*b.margin) {
		return nil
	}
	return []span{{after: sp.after, before: x.Add(b.precision)}, {after: x, before: sp.before}}
}

// updates answers the updates of items, ascending, leaving out the zero
// ones.
func updates[T synced](items []T) []time.Time {
	var out []time.Time
	for _, it := range items {
		if u := it.updated(); !u.IsZero() {
			out = append(out, u)
		}
	}
	slices.SortFunc(out, time.Time.Compare)
	return out
}
