package workforce

import (
	"context"
	"errors"
	"fmt"
	"math"
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
// tolerates change (docs/SYNC.md); so does a span of more than
// maxSpanPages pages wider than four margins, which slices can split.
//
// With a nil sink, bracket answers the records it read. Else it hands
// each page to sink as it comes (page 0 with the bracket's end, once it is
// known), and answers none; from, when not nil, resumes a bracket of a
// shrinking span that stopped.
func bracket[T synced](ctx context.Context, sp span, grows bool, margin time.Duration, get pageGetter[T],
	from *bracketStart, sink func(page int, items []T, end *bracketStart)) ([]T, bool, error) {
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
		items, full, err := readPage(ctx, sp, 1, nil, margin, get)
		if err != nil {
			return nil, false, err
		}
		if !full { // one page, read at once: exact
			pages = make([][]T, 2)
			emit(1, items)
			return collect(pages), true, nil
		}
		first = items
		e, endItems, err := lastPage(ctx, sp, first, margin, get)
		if errors.Is(err, errTooManyPages) && (sp.after.IsZero() || sp.before.IsZero() || sp.before.Sub(sp.after) > 4*margin) {
			return nil, false, nil // wide enough for slices to split it (fetchSpan)
		}
		if err != nil {
			return nil, false, err
		}
		end, m = e, len(endItems)
		if sink != nil {
			sink(0, nil, &bracketStart{end: end, m: m})
		}
		pages = make([][]T, end+1)
		if m > 0 {
			emit(end, endItems)
			done[end] = true
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
			again, more, err := readPage(ctx, sp, end, first, margin, get)
			return err == nil && !more && len(again) == m, err
		}
	case grows:
		// Page end was empty: read end-1 now, full (the count is at least
		// end-1 pages), and end again at the close, empty (at most).
		items, more, err := readPage(ctx, sp, end-1, first, margin, get)
		if err != nil || !more {
			return nil, false, err
		}
		emit(end-1, items)
		done[end-1], last = true, end-1
		check = func() (bool, error) {
			again, _, err := readPage(ctx, sp, end, first, margin, get)
			return err == nil && len(again) == 0, err
		}
	default:
		// Page end was empty (the count is at most end-1 pages): read end-1
		// at the close, full (at least).
		last = end - 1
		done[end-1] = true
		check = func() (bool, error) {
			items, more, err := readPage(ctx, sp, end-1, first, margin, get)
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
	if err := readPages(ctx, sp, todo, first, margin, get, emit); err != nil {
		return nil, false, err
	}
	ok, err := check()
	if err != nil {
		return nil, false, err
	}
	if sink == nil {
		for p := 2; p <= last; p++ {
			if len(pages[p]) > 0 && sameIDs(pages[p-1], pages[p]) {
				return nil, false, fmt.Errorf("%w: page %d of records from %s to %s", ErrPageRepeated, p,
					sp.after.Format(time.RFC3339Nano), sp.before.Format(time.RFC3339Nano))
			}
		}
	}
	return collect(pages), ok, nil
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
// handing each to emit, one at a time.
func readPages[T synced](ctx context.Context, sp span, pages []int, first []T, margin time.Duration, get pageGetter[T], emit func(int, []T)) error {
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
			items, _, err := readPage(ctx, sp, p, first, margin, get)
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
			emit(p, items)
		}()
	}
	wg.Wait()
	return failed
}

// errTooManyPages is lastPage's error for a span of more than
// maxSpanPages pages; bracket leaves such a span to slices when it is wide
// enough to split.
var errTooManyPages = errors.New("workforce: sync")

// lastPage finds the first page of sp (whose first page, first, was full)
// that is not full: it starts from an estimate of the span's pages
// (estimatePages), steps on (1, 2, 4… pages) while pages come back full and
// halves the gap to the first empty one, one read at a time. It answers the page and its
// records, none when it was empty; the page before it was full when read.
func lastPage[T synced](ctx context.Context, sp span, first []T, margin time.Duration, get pageGetter[T]) (int, []T, error) {
	full, empty := 1, 0 // the highest page known full, the lowest known empty
	for p, step := estimatePages(first), 1; ; {
		if p > maxSpanPages {
			return 0, nil, fmt.Errorf("%w: more than %d pages of records from %s to %s", errTooManyPages, maxSpanPages,
				sp.after.Format(time.RFC3339Nano), sp.before.Format(time.RFC3339Nano))
		}
		items, more, err := readPage(ctx, sp, p, first, margin, get)
		switch {
		case err != nil:
			return 0, nil, err
		case more:
			full = p
		case len(items) > 0:
			return p, items, nil
		default:
			empty = p
		}
		switch {
		case empty == full+1:
			return empty, nil, nil
		case empty == 0: // past the estimate: one page on, then twice the step
			p, step = full+step, 2*step
		default:
			p = full + (empty-full)/2
		}
	}
}

// estimatePages estimates the pages of a span from its first page, first
// (full, newest ID first), by its IDs: as many records as the page's
// density of IDs implies below its top ID. At least 2.
func estimatePages[T synced](first []T) int {
	top, bottom := first[0].listID(), first[len(first)-1].listID()
	if top <= bottom || bottom <= 0 {
		return 2
	}
	n := float64(len(first)) * float64(top) / float64(top-bottom+1)
	return int(min(max(math.Ceil(n/float64(len(first))), 2), maxSpanPages))
}
