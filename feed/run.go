package feed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// ErrRunning is answered by Run when the Feed is already running.
var ErrRunning = errors.New("feed: Run was called on a running Feed")

// Run hands changes to the handler, and syncs on the interval set by
// WithSyncInterval (the first time at once), until ctx ends; then it
// waits for the handlers it started (their ctx ends too) to return and
// their changes to be acknowledged or released, and answers nil, or
// ErrRunning when the Feed was running already. A sync or a claim that
// fails is logged and tried again at the next interval or poll, since the
// store or the API may come back.
func (f *Feed) Run(ctx context.Context) error {
	if !f.running.CompareAndSwap(false, true) {
		return ErrRunning
	}
	defer f.running.Store(false)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	if f.fromNow {
		f.useStart()
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.takeStart(ctx)
		}()
	}
	if w, ok := f.store.(Waker); ok {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.Wake(ctx, f.wake); err != nil && ctx.Err() == nil {
				f.log(ctx, "feed: the store's wakeups stopped", slog.String("error", err.Error()))
			}
		}()
	}
	if f.client != nil && f.syncEvery >= 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.syncLoop(ctx)
		}()
	}
	f.dispatch(ctx)
	cancel()
	wg.Wait()
	return nil
}

// syncLoop syncs at once, then every syncEvery, until ctx ends.
func (f *Feed) syncLoop(ctx context.Context) {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := f.Sync(ctx); err != nil && !errors.Is(err, ErrSyncBusy) && ctx.Err() == nil {
			f.log(ctx, "feed: sync failed", slog.String("error", err.Error()))
		}
		t.Reset(f.syncEvery)
	}
}

// dispatch claims ready changes while workers are free and hands each to a
// goroutine, until ctx ends; then it waits for them.
func (f *Feed) dispatch(ctx context.Context) {
	// A handler's slot is freed when it returns: its acknowledgment is
	// made meanwhile (at most workers of them wait at once), and the
	// resource's next change is claimable only once it is stored anyway.
	// No send to freed or acked may block: once ctx ends, nothing reads
	// them, and Run waits for the goroutines that send. freed holds one
	// token per handler in flight, so it is never full; acked is a wakeup
	// that coalesces (acknowledgments outnumber the reads when claims are
	// slow, and a backlog of them once hung every shutdown behind it).
	freed := make(chan struct{}, f.workers) // a handler returned
	acked := make(chan struct{}, 1)         // acknowledgments were stored
	acking := make(chan struct{}, f.workers)
	inflight := 0
	poll := time.NewTicker(f.poll)
	defer poll.Stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	claim := true
	for {
		if free := f.workers - inflight; claim && free > 0 {
			claimed := time.Now()
			claims, err := f.store.Claim(ctx, free, f.lease)
			if err != nil && ctx.Err() == nil {
				f.log(ctx, "feed: claiming changes failed", slog.String("error", err.Error()))
			}
			for _, c := range claims {
				inflight++
				wg.Add(1)
				go func() {
					defer wg.Done()
					// Deferred, so that a handler ending its goroutine
					// (runtime.Goexit: t.FailNow) frees its slots too.
					defer func() {
						<-acking
						select {
						case acked <- struct{}{}:
						default: // one wakeup is waiting already
						}
					}()
					f.handle(ctx, c, claimed, func() {
						acking <- struct{}{}
						freed <- struct{}{}
					})
				}()
			}
			if len(claims) == free {
				continue // there may be more
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-freed:
			inflight--
			// Claim when half the workers are free (one claim for several
			// changes, under load), or all are.
			claim = f.workers-inflight >= (f.workers+1)/2 || inflight == 0
		case <-acked:
			// The resource's next change may be ready now.
			claim = f.workers-inflight >= (f.workers+1)/2 || inflight == 0
		case <-f.wakeup:
			claim = true
		case <-poll.C:
			claim = true
		}
	}
}

// handle decodes a change claimed at claimed, calls the handler while
// renewing the lease, calls returned, and acknowledges or releases the
// change.
func (f *Feed) handle(ctx context.Context, c Claim, claimed time.Time, returned func()) {
	once := sync.OnceFunc(returned)
	defer once()
	ch := decodeChange(c)
	if ch.Err != nil {
		// Handed over all the same, marked: the handler sees it and
		// decides, rather than the resource waiting behind it forever.
		f.stats.corrupt.Add(1)
		f.log(ctx, "feed: a stored change cannot be decoded", changeAttrs(c, ch.Err)...)
	}
	if time.Since(claimed) > f.lease/3 {
		// Slow to start (a busy machine): make sure the lease is still this
		// claim's before handing the change over.
		if err := f.store.Extend(ctx, c, f.lease); err != nil {
			if errors.Is(err, ErrLeaseLost) {
				f.stats.leaseLost.Add(1)
			}
			f.log(ctx, "feed: renewing a lease failed", changeAttrs(c, err)...)
			return
		}
		claimed = time.Now()
	}
	// The outcome is recorded even when ctx ended, within a bound of its
	// own, from the handler's return.
	exited := true
	defer func() {
		if exited { // the handler called runtime.Goexit: a failure
			octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), f.lease)
			defer cancel()
			f.release(ctx, octx, c, errGoexit)
		}
	}()
	lost, err := f.call(ctx, c, ch, claimed)
	exited = false
	once()
	if lost {
		return // counted and logged by call; the change is another claim's now
	}
	octx, cancel := context.WithTimeout(context.WithoutCancel(ctx), f.lease)
	defer cancel()
	if err == nil {
		err = f.store.Ack(octx, c)
		if err == nil {
			f.stats.handled.Add(1)
			return
		}
		if errors.Is(err, ErrLeaseLost) {
			f.stats.leaseLost.Add(1)
		}
		f.log(ctx, "feed: acknowledging a change failed", changeAttrs(c, err)...)
		return // it is handed over again: at least once
	}
	f.release(ctx, octx, c, err)
}

// errGoexit is the failure of a handler that called runtime.Goexit.
var errGoexit = errors.New("feed: the handler called runtime.Goexit (t.FailNow, say) instead of returning")

// release counts and logs the handler's failure err, and releases c (with
// octx) to be handed over again after a backoff.
func (f *Feed) release(ctx, octx context.Context, c Claim, err error) {
	f.stats.failed.Add(1)
	f.log(ctx, "feed: the handler failed", changeAttrs(c, err)...)
	if err := f.store.Release(octx, c, f.now().Add(f.backoff(c.Attempt))); err != nil {
		if errors.Is(err, ErrLeaseLost) {
			f.stats.leaseLost.Add(1)
		}
		f.log(ctx, "feed: releasing a change failed", changeAttrs(c, err)...)
	}
}

// call runs the handler, renewing c's lease (last renewed at renewed)
// every third of it until it returns, even once ctx ended; a panic is an
// error. When a renewal answers ErrLeaseLost, the handler's context is
// cancelled with that error as its cause, and call answers lost.
func (f *Feed) call(ctx context.Context, c Claim, ch *Change, renewed time.Time) (lost bool, err error) {
	hctx, cancelHandler := context.WithCancelCause(ctx)
	defer cancelHandler(nil)
	stop := make(chan struct{})
	gone := false // set by the renewals, read once they stopped
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTimer(time.Until(renewed.Add(f.lease / 3)))
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				// Renewed until the handler returns, even after ctx ended
				// (a shutdown waits for it): another Feed must not take the
				// change meanwhile. Each renewal is bounded by the lease.
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), f.lease)
				err := f.store.Extend(rctx, c, f.lease)
				cancel()
				if err != nil {
					f.log(ctx, "feed: renewing a lease failed", changeAttrs(c, err)...)
				}
				if errors.Is(err, ErrLeaseLost) {
					// Another claim holds the change: the handler is told
					// to stop, and nothing more is renewed.
					f.stats.leaseLost.Add(1)
					gone = true
					cancelHandler(err)
					return
				}
				t.Reset(f.lease / 3)
			}
		}
	}()
	defer func() {
		close(stop)
		wg.Wait()
		lost = gone
		if p := recover(); p != nil {
			err = fmt.Errorf("feed: the handler panicked: %v", p)
		}
	}()
	return false, f.handler(hctx, ch)
}

// backoff answers the wait before the next attempt after attempt failed.
func (f *Feed) backoff(attempt int) time.Duration {
	d := f.retryMin
	for i := 1; i < attempt && d < f.retryMax; i++ {
		d *= 2
	}
	return min(d, f.retryMax)
}

func changeAttrs(c Claim, err error) []slog.Attr {
	return []slog.Attr{slog.String("kind", string(c.Resource.Kind)), slog.Int64("id", c.Resource.ID),
		slog.Int64("seq", c.Seq), slog.Int("attempt", c.Attempt), slog.String("error", err.Error())}
}
