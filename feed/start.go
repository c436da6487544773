package feed

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/workforce-marketplace/workforce-go"
)

// markStart is the mark under which WithStartFromNow keeps its start.
const markStart = "start"

// start answers the time before which changes are not handed over: the
// zero time, or with WithStartFromNow the start kept in the store (stored
// now when there is none, by the API's clock: see apiNow).
func (f *Feed) start(ctx context.Context) (time.Time, error) {
	if !f.fromNow {
		return time.Time{}, nil
	}
	f.startMu.Lock()
	defer f.startMu.Unlock()
	if !f.startedAt.IsZero() {
		return f.startedAt, nil
	}
	t, err := f.store.Mark(ctx, markStart)
	if err == nil && t.IsZero() {
		var now time.Time
		if now, err = f.apiNow(ctx); err == nil {
			if err = f.store.SetMark(ctx, markStart, now); err == nil {
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

// apiNow answers the API's clock, which stamps the changes the start is
// compared with: GET /info's utc_time_now, or the Date header of its
// answer when it tells none (both may be cut to the second: a start a
// little early hands over the changes of its second, as beforeStart
// does). A Feed without a client has only its own clock.
func (f *Feed) apiNow(ctx context.Context) (time.Time, error) {
	if f.client == nil {
		return f.now().UTC(), nil
	}
	info, resp, err := f.client.Info.Get(ctx)
	if err == nil && !info.UTCTimeNow.IsZero() {
		return info.UTCTimeNow.UTC(), nil
	}
	var apiErr *workforce.APIError
	if err == nil || errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusNotFound {
		if resp != nil && resp.Response != nil {
			if date, perr := http.ParseTime(resp.Header.Get("Date")); perr == nil {
				return date.UTC(), nil
			}
		}
		err = errors.New("the API tells its time neither in /info's utc_time_now nor in a Date header")
	}
	return time.Time{}, fmt.Errorf("reading the API's clock: %w", err)
}
