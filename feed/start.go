package feed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/workforce-marketplace/workforce-go"
)

// markStart is the mark under which WithStartFromNow keeps its start.
const markStart = "start"

// start answers the time before which changes are not handed over: the
// zero time, or with WithStartFromNow the start kept in the store. When
// there is none, the start is the instant Run began (or the first ingest
// or sync before it: see useStart) by the API's clock: the API's time now
// (apiNow), less its precision, less the time passed since that instant,
// so that an API clock read late (it failed, and is read again) still
// dates the start when the Feed began.
func (f *Feed) start(ctx context.Context) (time.Time, error) {
	if !f.fromNow {
		return time.Time{}, nil
	}
	f.startMu.Lock()
	defer f.startMu.Unlock()
	if !f.startedAt.IsZero() {
		return f.startedAt, nil
	}
	if f.firstUse.IsZero() {
		f.firstUse = f.now()
	}
	t, err := f.store.Mark(ctx, markStart)
	if err == nil && t.IsZero() {
		var now time.Time
		var precision time.Duration
		if now, precision, err = f.apiNow(ctx); err == nil {
			began := now.Add(-precision).Add(-max(f.now().Sub(f.firstUse), 0))
			if err = f.store.SetMark(ctx, markStart, began); err == nil {
				t, err = f.store.Mark(ctx, markStart) // a Feed sharing the store may have stored its own
			}
		}
	}
	if err != nil {
		return time.Time{}, fmt.Errorf("feed: reading the start: %w", err)
	}
	f.startedAt = t
	return t, nil
}

// useStart notes that the Feed begins now: the instant a start taken
// later stands for (see start).
func (f *Feed) useStart() {
	f.startMu.Lock()
	defer f.startMu.Unlock()
	if f.firstUse.IsZero() {
		f.firstUse = f.now()
	}
}

// apiNow answers the API's clock, which stamps the changes the start is
// compared with, and how finely it told it: GET /info's utc_time_now, or
// the Date header of its answer when it tells none. A time with no
// fraction may have been rounded, not cut: its precision (a second) is
// taken off the start, which hands over a change of the second before
// rather than lose one. A Feed without a client has only its own clock.
func (f *Feed) apiNow(ctx context.Context) (time.Time, time.Duration, error) {
	if f.client == nil {
		return f.now().UTC(), 0, nil
	}
	info, resp, err := f.client.Info.Get(ctx)
	if err == nil && !info.UTCTimeNow.IsZero() {
		if info.UTCTimeNow.Nanosecond() == 0 {
			return info.UTCTimeNow.UTC(), time.Second, nil
		}
		return info.UTCTimeNow.UTC(), time.Millisecond, nil
	}
	var apiErr *workforce.APIError
	if err == nil || errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusNotFound {
		if resp != nil && resp.Response != nil {
			if date, perr := http.ParseTime(resp.Header.Get("Date")); perr == nil {
				return date.UTC(), time.Second, nil
			}
		}
		err = errors.New("the API tells its time neither in /info's utc_time_now nor in a Date header")
	}
	return time.Time{}, 0, fmt.Errorf("reading the API's clock: %w", err)
}

// takeStart takes the start at once when Run begins, reading the API's
// clock again (after 1 s, doubling up to 30 s) until it answers or ctx
// ends, so that the start is stored for every instance and restart
// before a webhook or a sync needs it.
func (f *Feed) takeStart(ctx context.Context) {
	wait := time.Second
	for {
		_, err := f.start(ctx)
		if err == nil || ctx.Err() != nil {
			return
		}
		f.log(ctx, "feed: taking the start (WithStartFromNow)", slog.String("error", err.Error()))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		wait = min(2*wait, 30*time.Second)
	}
}
