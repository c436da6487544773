package workforce

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

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
