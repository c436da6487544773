package workforce

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"net/http"
	"slices"
	"sync"
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
	// Progress, when not nil, keeps the progress of a sync that does not
	// finish (an error, a break), and is resumed from by the next sync
	// given it and the same watermark, which skips what it covers; a sync
	// that finishes sets it to the zero state. A state of another resource
	// or watermark stops the sync with ErrSyncState (docs/SYNC.md).
	Progress *SyncState
}

// ErrSyncUnstable is yielded by a sync when more than a page of records
// within a few precisions of the top of its window kept changing while
// they were read and the server's clock stood still the whole time: with
// a clock that does not move, no read of them can be known complete.
// Against a server whose clock moves, a sync always finishes.
var ErrSyncUnstable = errors.New("workforce: sync: records at the top of the window kept changing while the server's clock stood still")

// ErrServerClock is yielded by a sync, before any request for records,
// when the server's clock is more than MaxClockSkew ahead of the client's,
// or before the watermark by more than MaxClockSkew: a watermark set from
// such a clock would make the next sync skip records. The watermark is
// left as it was.
var ErrServerClock = errors.New("workforce: sync: the server's clock is too far from the client's or from the watermark")

// MaxClockSkew is how far the server's clock may be ahead of the client's,
// or behind the watermark, before a sync refuses to trust it
// (ErrServerClock).
const MaxClockSkew = 24 * time.Hour

// ErrServerFilter is yielded by a sync when the server answers records
// outside the updated_after/updated_before bounds asked for, as a server
// that ignores them would: the sync stops rather than split forever.
var ErrServerFilter = errors.New("workforce: sync: the server answered records outside the asked updated_after/updated_before")

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

// sliceResult is what a worker found in a span: its records, the spans it
// must be split into when a page could not hold them, and whether the span
// was left to the next sync (deferred) because records kept entering it.
type sliceResult[T any] struct {
	items    []T
	split    []span
	deferred *span
	err      error
	// A page of the bracket below the floor, handed on as it comes
	// (partial; page 0 with end), and the end of that bracket (below: it
	// held; fell: it did not, and the part is read again by slices).
	partial     bool
	page        int
	end         *bracketStart
	below, fell bool
}

// syncBounds is what a worker needs to know of the sync: the precision of
// the server's timestamps and filters (the overlap of every boundary), that
// precision widened to the coarseness of the server's clock (margin),
// floor, below which no record can enter the window while the sync runs,
// and clock, which reads the server's clock again.
type syncBounds struct {
	precision, margin time.Duration
	floor             time.Time
	clock             func(context.Context) (time.Time, time.Duration, error)
}

// slots bounds how many requests a sync keeps in flight: acquire waits for
// a free slot (false when ctx ends first), release gives it back. It is
// the one place a sync's concurrency is decided.
type slots chan struct{}

func newSlots(c *Client, n int) slots {
	if n == 0 {
		n = c.window
	}
	return make(slots, n)
}

func (s slots) acquire(ctx context.Context) bool {
	select {
	case s <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

func (s slots) release() { <-s }

// syncAll runs an incremental sync; docs/SYNC.md argues why it skips
// nothing.
func syncAll[T synced](ctx context.Context, c *Client, kind string, watermark *time.Time, opts *SyncOptions, list sliceLister[T]) iter.Seq2[T, error] {
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
		var resumed *SyncState
		if o.Progress != nil && !o.Progress.IsZero() {
			if st := o.Progress; st.kind != kind || !st.from.Equal(*watermark) {
				yield(zero, fmt.Errorf("%w: a state of a sync of %s from %s, for a sync of %s from %s", ErrSyncState,
					st.kind, st.from.Format(time.RFC3339Nano), kind, watermark.Format(time.RFC3339Nano)))
				return
			}
			resumed = o.Progress
		}
		if o.Precision == 0 {
			o.Precision = time.Second
		}
		now, coarse, err := c.serverTime(ctx)
		if err != nil {
			yield(zero, err)
			return
		}
		if err := checkClock(now, time.Now(), *watermark); err != nil {
			yield(zero, err)
			return
		}
		margin := max(o.Precision, coarse) // a clock told in whole seconds
		// The top is frozen: a record that changes from now on gets a later
		// time and leaves the window. It is the server's time plus the
		// margin, since that time may be cut to whole seconds: a record
		// changed just before the sync began is stamped up to a second
		// after the time it says.
		upper := now.Add(margin)
		var lower time.Time
		if !watermark.IsZero() {
			// Two margins back: the watermark is the last sync's top, a
			// margin past its utc_time_now, and a record changed during that
			// sync may be stamped with that very time, which an exclusive
			// updated_after must still take in.
			back := o.LookBack + twice(margin)
			if back < o.LookBack { // overflowed: as far back as a Duration goes
				back = math.MaxInt64
			}
			lower = watermark.Add(-back)
		}

		// At and below floor no record can enter the window while the sync
		// runs: one that changes gets a time past its start (less the
		// precision, for stamps cut coarser than the clock; less LookBack,
		// for writes that show late); floor is a precision below that, so
		// that a span ending at floor holds none whether the server's
		// updated_before is inclusive or not.
		floor := upper.Add(-twice(margin) - o.Precision)
		if o.LookBack > 0 {
			floor = floor.Add(-o.LookBack)
		}
		b := &syncBounds{precision: o.Precision, margin: margin, floor: floor, clock: c.serverTime}

		// The part below the floor: this sync's, or that of the sync it
		// resumes, whose floor no record has crossed downward since.
		prog := SyncState{kind: kind, from: *watermark, lower: lower, floor: floor}
		var resume *bracketStart
		if resumed != nil && !resumed.floor.After(floor) { // else the clock went back: start over
			prog = *resumed
			prog.pages = slices.Clone(resumed.pages)
			if prog.end > 0 {
				resume = &bracketStart{end: prog.end, m: prog.m, done: map[int]bool{}}
				for _, p := range prog.pages {
					resume.done[p] = true
				}
			}
		}
		finished := false
		defer func() {
			if o.Progress == nil {
				return
			}
			if finished {
				*o.Progress = SyncState{}
			} else {
				*o.Progress = prog
			}
		}()

		ctx, cancel := context.WithCancelCause(c.limiter.watch(ctx))
		results := make(chan sliceResult[T])
		sem := newSlots(c, o.Concurrency)
		pending := 0
		defer func() { // cancel what is in flight and wait for it
			cancel(errIterationOver)
			for pending > 0 {
				if r := <-results; !r.partial {
					pending--
				}
			}
		}()
		start := func(sp span) {
			pending++
			go func() {
				if !sem.acquire(ctx) {
					results <- sliceResult[T]{err: ctx.Err()}
					return
				}
				place, err := c.limiter.acquire(ctx) // as many in flight as the server sustains
				if err != nil {
					sem.release()
					results <- sliceResult[T]{err: err}
					return
				}
				r := fetchSpan(ctx, sp, b, list)
				place.release()
				sem.release()
				results <- r
			}()
		}
		// A request of a bracket (below) takes a slot for itself only.
		getter := func(sp span) pageGetter[T] {
			return func(ctx context.Context, page int) ([]T, *Response, error) {
				if !sem.acquire(ctx) {
					return nil, nil, ctx.Err()
				}
				defer sem.release()
				place, err := c.limiter.acquire(ctx)
				if err != nil {
					return nil, nil, err
				}
				defer place.release()
				return list(ctx, sp.after, sp.before, page)
			}
		}
		// Each part of the window is read once, pages in flight, between two
		// reads of its end (bracket); a part that changed meanwhile is read
		// again by slices (fetchSpan).
		startBracket := func(sp span, grows bool, from *bracketStart, fallback span) {
			pending++
			var sink func(int, []T, *bracketStart)
			if !grows { // its progress is kept: its pages are handed on as they come
				sink = func(page int, items []T, end *bracketStart) {
					results <- sliceResult[T]{partial: true, page: page, items: items, end: end}
				}
			}
			go func() {
				items, ok, err := bracket(ctx, sp, grows, margin, getter(sp), from, sink)
				r := sliceResult[T]{items: items, err: err}
				if err == nil && !ok {
					r.split = []span{fallback}
				}
				r.below, r.fell = err == nil && !grows && ok, err == nil && !grows && !ok
				results <- r
			}()
		}
		// Below floor records can only leave; above it, open at the top,
		// they can only enter.
		top := prog.floor.Add(-o.Precision)
		switch {
		case !prog.lower.IsZero() && !prog.lower.Before(top):
			top = prog.lower
		case !prog.below:
			below := span{after: prog.lower, before: prog.floor}
			startBracket(below, false, resume, below)
		}
		startBracket(span{after: top}, true, nil, span{after: top, before: upper})
		seen := make(map[int64]bool)
		next := upper
		deferred := false
		for pending > 0 {
			r := <-results
			if !r.partial {
				pending--
			}
			if r.err != nil {
				yield(zero, r.err)
				return
			}
			switch {
			case r.end != nil:
				prog.end, prog.m, prog.pages = r.end.end, r.end.m, nil
			case r.below:
				prog.below = true
			case r.fell: // read again by slices, whose progress is not kept
				prog.end, prog.m, prog.pages = 0, 0, nil
			}
			for _, sp := range r.split {
				start(sp)
			}
			if r.deferred != nil {
				deferred = true
				if r.deferred.after.Before(next) {
					next = r.deferred.after
				}
			}
			for _, item := range r.items {
				if id := item.listID(); !seen[id] {
					seen[id] = true
					if !yield(item, nil) {
						return
					}
				}
			}
			if r.partial && r.page > 0 && prog.end > 0 { // every record of the page yielded
				if at, found := slices.BinarySearch(prog.pages, r.page); !found {
					prog.pages = slices.Insert(prog.pages, at, r.page)
				}
			}
		}
		if deferred && !next.After(*watermark) {
			// Nothing was gained: unless the server's clock moves, no sync
			// ever will be.
			if later, _, err := c.serverTime(ctx); err == nil && !later.After(now) {
				yield(zero, fmt.Errorf("%w: records from %s to %s, at %s", ErrSyncUnstable,
					next.Format(time.RFC3339Nano), upper.Format(time.RFC3339Nano), now.Format(time.RFC3339Nano)))
				return
			}
		}
		finished = true
		if next.After(*watermark) || watermark.IsZero() {
			*watermark = next
		}
	}
}

// checkClock refuses a server clock, now, more than MaxClockSkew ahead of
// the client's, local, or behind a (non-zero) watermark.
func checkClock(now, local, watermark time.Time) error {
	if now.After(local.Add(MaxClockSkew)) {
		return fmt.Errorf("%w: the server says %s, the client %s", ErrServerClock, now.Format(time.RFC3339), local.UTC().Format(time.RFC3339))
	}
	if !watermark.IsZero() && now.Before(watermark.Add(-MaxClockSkew)) {
		return fmt.Errorf("%w: the server says %s, before the watermark %s", ErrServerClock, now.Format(time.RFC3339), watermark.Format(time.RFC3339))
	}
	return nil
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
// tolerates change (docs/SYNC.md).
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

// lastPage finds the first page of sp (whose first page, first, was full)
// that is not full: it starts from an estimate of the span's pages
// (estimatePages), steps on (1, 2, 4… pages) while pages come back full and
// halves the gap to the first empty one, one read at a time. It answers the page and its
// records, none when it was empty; the page before it was full when read.
func lastPage[T synced](ctx context.Context, sp span, first []T, margin time.Duration, get pageGetter[T]) (int, []T, error) {
	full, empty := 1, 0 // the highest page known full, the lowest known empty
	for p, step := estimatePages(first), 1; ; {
		if p > maxSpanPages {
			return 0, nil, fmt.Errorf("workforce: sync: more than %d pages of records from %s to %s", maxSpanPages,
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
