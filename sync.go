package workforce

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"net/http"
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
	// the client's page window (WithPageWindow). Within it, the client
	// keeps as many in flight as the server sustains.
	Concurrency int
}

// ErrSyncUnstable is yielded by a sync when more than a page of records
// share one timestamp at the top of its window (where records may also
// enter) and keep changing while they are read, so that no two walks of
// them agree.
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

// syncAll runs an incremental sync; docs/SYNC.md argues why it skips
// nothing.
func syncAll[T synced](ctx context.Context, c *Client, watermark *time.Time, opts *SyncOptions, list sliceLister[T]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		o := SyncOptions{}
		if opts != nil {
			o = *opts
		}
		switch err := c.ready(); {
		case err != nil:
			yield(zero, err)
			return
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
			o.Concurrency = c.window
		}
		now, coarse, err := c.serverTime(ctx)
		if err != nil {
			yield(zero, err)
			return
		}
		o.Precision = max(o.Precision, coarse) // a clock told in whole seconds
		// The top is frozen: a record that changes from now on gets a later
		// time and leaves the window. It is the server's time plus the
		// precision, since that time may be cut to whole seconds: a record
		// changed just before the sync began is stamped up to a precision
		// after the time it says.
		upper := now.Add(o.Precision)
		var lower time.Time
		if !watermark.IsZero() {
			// Two precisions back: the watermark is the last sync's top, a
			// precision past its utc_time_now, and a record changed during
			// that sync may be stamped with that very time, which an
			// exclusive updated_after must still take in.
			back := o.LookBack + twice(o.Precision)
			if back < o.LookBack { // overflowed: as far back as a Duration goes
				back = math.MaxInt64
			}
			lower = watermark.Add(-back)
		}

		// Below floor no record can enter the window while the sync runs: one
		// that changes gets a time past its start (less a precision, for
		// stamps cut coarser than the clock; less LookBack, for writes that
		// show late).
		floor := upper.Add(-twice(o.Precision))
		if o.LookBack > 0 {
			floor = floor.Add(-o.LookBack)
		}

		ctx, cancel := context.WithCancelCause(c.limiter.watch(ctx))
		results := make(chan sliceResult[T])
		sem := make(chan struct{}, o.Concurrency)
		pending := 0
		defer func() { // cancel what is in flight and wait for it
			cancel(errIterationOver)
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
				place, err := c.limiter.acquire(ctx) // as many in flight as the server sustains
				if err != nil {
					<-sem
					results <- sliceResult[T]{err: err}
					return
				}
				r := fetchSpan(ctx, sp, o.Precision, floor, list)
				place.release()
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

// serverTime returns the server's clock and how coarse it may be: GET
// /info's utc_time_now (a second when it has no fraction, which may mean
// it was cut to the second; else 0, as precise as the server's
// timestamps), or, from a server whose /info answers no such time (or no
// /info at all), the Date header of that answer, to the second.
func (c *Client) serverTime(ctx context.Context) (time.Time, time.Duration, error) {
	info, resp, err := c.Info.Get(ctx)
	if err == nil && !info.UTCTimeNow.IsZero() {
		if info.UTCTimeNow.Nanosecond() == 0 { // perhaps cut to the second
			return info.UTCTimeNow.Time, time.Second, nil
		}
		return info.UTCTimeNow.Time, 0, nil
	}
	var apiErr *APIError
	if err == nil || (errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusNotFound) {
		if resp != nil && resp.Response != nil {
			if date, perr := http.ParseTime(resp.Header.Get("Date")); perr == nil {
				return date.UTC(), time.Second, nil
			}
		}
		err = errors.New("workforce: sync: the server tells its time neither in /info's utc_time_now nor in a Date header")
	}
	return time.Time{}, 0, err
}

// fetchSpan reads the first page of sp. When the page is not full, that is
// all of sp. When it is, sp is split in parts (see parts), each
// overlapping the next by precision; an open span keeps its open part and gives up a closed
// one as wide as the distance from it to the top. A span too narrow to split
// is walked page by page until two walks agree.
func fetchSpan[T synced](ctx context.Context, sp span, precision time.Duration, floor time.Time, list sliceLister[T]) sliceResult[T] {
	items, resp, err := list(ctx, sp.after, sp.before, 1)
	if err != nil {
		return sliceResult[T]{err: err}
	}
	if resp == nil || resp.NextPage == 0 {
		return sliceResult[T]{items: items}
	}
	if sp.after.IsZero() {
		width := max(twice(sp.width), twice(sp.before.Sub(oldest(items, sp.before))), 4*precision)
		cut := sp.before.Add(-width)
		return sliceResult[T]{items: items, split: []span{
			{after: cut, before: sp.before},
			{before: cut.Add(precision), width: width},
		}}
	}
	width := sp.before.Sub(sp.after)
	if width <= 4*precision {
		var all []T
		var err error
		if sp.before.After(floor) {
			all, err = walkStable(ctx, sp, list) // records may enter it: walk until stable
		} else {
			all, err = walkBack(ctx, sp, list) // records can only leave it
		}
		return sliceResult[T]{items: append(items, all...), err: err}
	}
	n := parts(items, width)
	// The i-th boundary, width×i/n exactly, without the product: it
	// cannot overflow however wide the span, nor collapse when the span is
	// narrower in nanoseconds than its parts.
	step, rest := width/time.Duration(n), width%time.Duration(n)
	at := func(i int) time.Time {
		return sp.after.Add(step*time.Duration(i) + rest*time.Duration(i)/time.Duration(n))
	}
	split := make([]span, 0, n)
	for i := range n {
		to := sp.before
		if i < n-1 {
			to = at(i + 1).Add(precision)
		}
		split = append(split, span{after: at(i), before: to})
	}
	return sliceResult[T]{items: items, split: split}
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
// enter while the sync runs, forward to find its last page, then again from
// that page back to the first, and returns all it read: the backward pass
// sees every record that stayed (docs/SYNC.md).
func walkBack[T synced](ctx context.Context, sp span, list sliceLister[T]) ([]T, error) {
	var all []T
	last := 1
	for page := 1; ; page++ {
		items, resp, err := list(ctx, sp.after, sp.before, page)
		if err != nil {
			return nil, err
		}
		all, last = append(all, items...), page
		if resp == nil || resp.NextPage == 0 {
			break
		}
	}
	for page := last; page >= 1; page-- {
		items, _, err := list(ctx, sp.after, sp.before, page)
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
	}
	return all, nil
}

// subset tells whether every ID of a is in b.
func subset(a, b []int64) bool {
	in := make(map[int64]bool, len(b))
	for _, id := range b {
		in[id] = true
	}
	for _, id := range a {
		if !in[id] {
			return false
		}
	}
	return true
}

// maxWalks bounds the walks of a span too narrow to split.
const maxWalks = 10

// walkStable walks every page of sp, again and again, until a walk sees
// every record the walk before it saw, and returns the union of what the
// walks saw: then the first walk skipped nothing that stayed
// (docs/SYNC.md).
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
		if prev != nil && subset(prev, ids) {
			return union, nil
		}
		prev = ids
	}
	return nil, fmt.Errorf("%w: %s to %s", ErrSyncUnstable, sp.after.Format(time.RFC3339Nano), sp.before.Format(time.RFC3339Nano))
}
