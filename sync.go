package workforce

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
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

	spanPages int // the most pages one bracket reads; zero: maxSpanPages (tests lower it)
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
// left as it was. A Settle's *UnsettledError matches it when the server's
// clock is more than MaxClockSkew from the client's: no verdict is drawn.
var ErrServerClock = errors.New("workforce: the server's clock is too far from the client's or from the watermark")

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
	// Of the bracket of a part below the floor (part: its index + 1): a page
	// handed on as it comes (partial; page 0 with end), and the end of that
	// bracket (read: it held; fell: it did not, and the part is read again
	// by slices; cut: the part is read as these parts instead).
	partial    bool
	part, page int
	end        *bracketStart
	read, fell bool
	cut        []span
}

// syncBounds is what a worker needs to know of the sync: the precision of
// the server's timestamps and filters (the overlap of every boundary), that
// precision widened to the coarseness of the server's clock (margin),
// floor, below which no record can enter the window while the sync runs,
// and clock, which reads the server's clock again.
type syncBounds struct {
	precision, margin time.Duration
	pages             int // the most pages a bracket reads (maxSpanPages)
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
		list := func(ctx context.Context, after, before time.Time, page int) ([]T, *Response, error) {
			return gauged(ctx, c.limiter, func(ctx context.Context) ([]T, *Response, error) {
				return list(ctx, after, before, page)
			})
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
		b := &syncBounds{precision: o.Precision, margin: margin, pages: cmp.Or(o.spanPages, maxSpanPages), floor: floor, clock: c.serverTime}

		// Below floor records can only leave; above it, open at the top,
		// they can only enter. The parts below the floor: this sync's, or
		// those of the sync it resumes, whose floor no record has crossed
		// downward since.
		prog := SyncState{kind: kind, from: *watermark, lower: lower, floor: floor}
		if resumed != nil && !resumed.floor.After(floor) { // else the clock went back: start over
			prog = resumed.clone()
		} else if lower.IsZero() || lower.Before(floor.Add(-o.Precision)) {
			prog.parts = []part{{after: lower, before: floor}}
		}
		finished := false
		defer func() {
			if o.Progress == nil {
				return
			}
			if finished {
				*o.Progress = SyncState{}
			} else {
				*o.Progress = prog.clone()
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
				r := fetchSpan(place.hold(ctx), sp, b, list)
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
				return list(place.hold(ctx), sp.after, sp.before, page)
			}
		}
		// Each part of the window is read once, pages in flight, between two
		// reads of its end (bracket); a part that changed meanwhile is read
		// again by slices (fetchSpan): the top up to upper. Part is 0 for
		// the top, else the index of the part below the floor, plus one.
		startBracket := func(sp span, part int, from *bracketStart) {
			pending++
			var sink func(int, []T, *bracketStart)
			if part > 0 { // below the floor: its progress is kept, its pages handed on as they come
				sink = func(page int, items []T, end *bracketStart) {
					results <- sliceResult[T]{partial: true, part: part, page: page, items: items, end: end}
				}
			}
			go func() {
				items, ok, parts, err := bracket(ctx, sp, part == 0, b, getter(sp), from, sink)
				r := sliceResult[T]{items: items, err: err, part: part, cut: parts}
				if err == nil && !ok && parts == nil {
					r.split = []span{sp}
					if part == 0 {
						r.split[0].before = upper
					}
				}
				r.read, r.fell = err == nil && ok, err == nil && !ok && parts == nil
				results <- r
			}()
		}
		startPart := func(i int) {
			p := &prog.parts[i]
			sp := span{after: p.after, before: p.before}
			var from *bracketStart
			if p.end > 0 {
				from = &bracketStart{end: p.end, m: p.m, done: map[int]bool{}}
				for _, page := range p.pages {
					from.done[page] = true
				}
			}
			startBracket(sp, i+1, from)
		}
		// The parts below the floor are read one at a time, so that a sync
		// holds at most one part's pages ahead of its caller (a part is
		// at most b.pages), however many the window is cut in.
		var waiting []int // parts not started, in order
		running := false
		startNext := func() {
			if !running && len(waiting) > 0 {
				running = true
				startPart(waiting[0])
				waiting = waiting[1:]
			}
		}
		for i := range prog.parts {
			waiting = append(waiting, i)
		}
		startNext()
		top := prog.floor.Add(-o.Precision)
		if !prog.lower.IsZero() && !prog.lower.Before(top) {
			top = prog.lower
		}
		startBracket(span{after: top}, 0, nil)
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
			if r.part > 0 {
				waiting = append(waiting, prog.record(r.part-1, r.end, r.read, r.fell, r.cut)...)
				if !r.partial {
					running = false
				}
				startNext()
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
			if r.partial && r.page > 0 { // every record of the page yielded
				prog.pageRead(r.part-1, r.page)
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
