package workforce

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"time"
)

// SyncOptions tunes an incremental sync (JobsService.Sync). The zero value
// is ready to use.
type SyncOptions struct {
	// LookBack widens the window back in time before the watermark, for
	// servers whose writes become visible after the time they are stamped
	// with. Records in the margin are yielded again; zero adds none.
	LookBack time.Duration
	// Precision is the coarsest precision of the server's timestamps and
	// time filters: every boundary of the window and of its slices
	// overlaps by it. Zero means one second.
	Precision time.Duration
	// Concurrency is how many requests are in flight at most; zero means
	// four times the client's page window.
	Concurrency int
}

// ErrSyncUnstable is yielded by a sync when more than a page of records
// share one timestamp and keep changing while they are read, so that no
// two walks of them agree.
var ErrSyncUnstable = errors.New("workforce: records sharing one timestamp kept changing during the sync")

func (o *SyncOptions) check() error {
	switch {
	case o.LookBack < 0:
		return &ArgumentError{Name: "LookBack", Reason: "must not be negative"}
	case o.Precision < 0:
		return &ArgumentError{Name: "Precision", Reason: "must not be negative"}
	case o.Concurrency < 0:
		return &ArgumentError{Name: "Concurrency", Reason: "must not be negative"}
	}
	return nil
}

// A synced resource has an ID and the time of its last change.
type synced interface {
	listed
	updated() time.Time
}

// sliceLister fetches one page of the records changed in [after, before)
// (the bounds as the server reads them, which may include before or
// exclude after: callers overlap). A zero after is open.
type sliceLister[T synced] func(ctx context.Context, after, before time.Time, page int) ([]T, *Response, error)

// span is a slice of the window: [after, before), after zero when open. An
// open span remembers the width of the closed part it last gave up, so
// that the next one is at least twice as wide.
type span struct {
	after, before time.Time
	width         time.Duration
}

// sliceResult is what a worker found in a span: its records, and the spans
// it must be split into when a page could not hold them.
type sliceResult[T any] struct {
	items []T
	split []span
	err   error
}

// syncAll runs an incremental sync; see JobsService.Sync for the argument
// why it skips nothing.
func syncAll[T synced](ctx context.Context, c *Client, watermark *time.Time, opts *SyncOptions, list sliceLister[T]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		o := SyncOptions{}
		if opts != nil {
			o = *opts
		}
		switch {
		case ctx == nil:
			yield(zero, errNilContext())
			return
		case watermark == nil:
			yield(zero, &ArgumentError{Name: "watermark", Reason: "must not be nil"})
			return
		}
		if err := o.check(); err != nil {
			yield(zero, err)
			return
		}
		if o.Precision == 0 {
			o.Precision = time.Second
		}
		if o.Concurrency == 0 {
			o.Concurrency = 4 * c.window
		}
		info, _, err := c.Info.Get(ctx)
		if err == nil && info.UTCTimeNow.IsZero() {
			err = errors.New("workforce: sync: the server's /info holds no utc_time_now")
		}
		if err != nil {
			yield(zero, err)
			return
		}
		upper := info.UTCTimeNow.Time // frozen: a record that changes from now on leaves the window
		var lower time.Time
		if !watermark.IsZero() {
			lower = watermark.Add(-o.LookBack - o.Precision)
		}

		ctx, cancel := context.WithCancel(ctx)
		results := make(chan sliceResult[T])
		sem := make(chan struct{}, o.Concurrency)
		pending := 0
		defer func() { // cancel what is in flight and wait for it
			cancel()
			for ; pending > 0; pending-- {
				<-results
			}
		}()
		start := func(sp span) {
			pending++
			go func() {
				select {
				case sem <- struct{}{}:
				case <-ctx.Done():
					results <- sliceResult[T]{err: ctx.Err()}
					return
				}
				r := fetchSpan(ctx, sp, o.Precision, list)
				<-sem
				results <- r
			}()
		}
		start(span{after: lower, before: upper})
		seen := make(map[int64]bool)
		for pending > 0 {
			r := <-results
			pending--
			if r.err != nil {
				yield(zero, r.err)
				return
			}
			for _, sp := range r.split {
				start(sp)
			}
			for _, item := range r.items {
				if id := item.listID(); !seen[id] {
					seen[id] = true
					if !yield(item, nil) {
						return
					}
				}
			}
		}
		*watermark = upper
	}
}

// fetchSpan reads the first page of sp. When the page is not full, that is
// all of sp. When it is, sp is split in parts (see parts), each
// overlapping the next by precision; an open span keeps its open part and gives up a closed
// one as wide as the distance from it to the top. A span too narrow to split
// is walked page by page until two walks agree.
func fetchSpan[T synced](ctx context.Context, sp span, precision time.Duration, list sliceLister[T]) sliceResult[T] {
	items, resp, err := list(ctx, sp.after, sp.before, 1)
	if err != nil {
		return sliceResult[T]{err: err}
	}
	if resp == nil || resp.NextPage == 0 {
		return sliceResult[T]{items: items}
	}
	if sp.after.IsZero() {
		width := max(2*sp.width, 2*sp.before.Sub(oldest(items, sp.before)), 4*precision)
		cut := sp.before.Add(-width)
		return sliceResult[T]{items: items, split: []span{
			{after: cut, before: sp.before},
			{before: cut.Add(precision), width: width},
		}}
	}
	width := sp.before.Sub(sp.after)
	if width <= 4*precision {
		all, err := walkStable(ctx, sp, list)
		return sliceResult[T]{items: append(items, all...), err: err}
	}
	n := parts(items, width)
	split := make([]span, 0, n)
	for i := range n {
		from := sp.after.Add(width * time.Duration(i) / time.Duration(n))
		to := sp.after.Add(width * time.Duration(i+1) / time.Duration(n))
		if i < n-1 {
			to = to.Add(precision)
		}
		split = append(split, span{after: from, before: to})
	}
	return sliceResult[T]{items: items, split: split}
}

// parts answers how many slices to split a span of width into, whose first
// page, items, was full: the records are assumed spread as evenly as the
// page's own updates are, so that each slice holds about 30. It is at
// least 4 and at most 16, which bounds the requests wasted on empty slices
// when the changes are not spread evenly.
func parts[T synced](items []T, width time.Duration) int {
	first, last := oldest(items, time.Time{}), time.Time{}
	for _, it := range items {
		if u := it.updated(); u.After(last) {
			last = u
		}
	}
	spread := last.Sub(first)
	if first.IsZero() || spread <= 0 {
		return 4
	}
	estimate := float64(len(items)) * float64(width) / float64(spread)
	return int(min(max(estimate/30, 4), 16))
}

// oldest answers the earliest update among items, or fallback when there
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

// maxWalks bounds the walks of a span too narrow to split.
const maxWalks = 10

// walkStable walks every page of sp, again and again, until two walks in a
// row answer the same records, and answers the union of what they saw. The
// window only loses records while a sync runs (a record that changes gets a
// time past its top), and a walk during which none left sees every record
// that stayed; two equal walks show that none left during the second.
func walkStable[T synced](ctx context.Context, sp span, list sliceLister[T]) ([]T, error) {
	var union []T
	var prev []int64
	for range maxWalks {
		var ids []int64
		for page := 1; ; page++ {
			items, resp, err := list(ctx, sp.after, sp.before, page)
			if err != nil {
				return nil, err
			}
			union = append(union, items...)
			for _, it := range items {
				ids = append(ids, it.listID())
			}
			if resp == nil || resp.NextPage == 0 {
				break
			}
		}
		if prev != nil && slices.Equal(prev, ids) {
			return union, nil
		}
		prev = ids
	}
	return nil, fmt.Errorf("%w: %s to %s", ErrSyncUnstable, sp.after.Format(time.RFC3339Nano), sp.before.Format(time.RFC3339Nano))
}
