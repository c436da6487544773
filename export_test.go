package workforce

import "time"

// SetClockForTest makes the client judge token expiry by now.
func SetClockForTest(c *Client, now func() time.Time) { c.tokens.SetClock(now) }

// ScaleRetryAfterForTest makes one second of Retry-After last d, so that
// tests honour it without sleeping for real.
func ScaleRetryAfterForTest(c *Client, d time.Duration) { c.policy.Second = d }

// SetMaxBodyForTest lowers the size of the largest answer the client reads.
func SetMaxBodyForTest(c *Client, n int64) { c.maxBody = n }

// SetJitterForTest replaces the random source of the retry backoff: jitter
// returns the wait from 0 to the ceiling it is given.
func SetJitterForTest(c *Client, jitter func(ceiling time.Duration) time.Duration) {
	c.policy.Jitter = jitter
}

// CallStarted exposes callStarted.
func CallStarted(err error) (time.Time, bool) {
	started, _, ok := callStarted(err)
	return started, ok
}

// CallSent exposes when callStarted says the call's last acting attempt was sent.
func CallSent(err error) time.Time {
	_, sent, _ := callStarted(err)
	return sent
}

// PageWindowForTest reports the size of the window of requests the
// client's iterators keep in flight now (see limiter).
func PageWindowForTest(c *Client) float64 { return c.limiter.size() }

// PagesInFlightForTest reports how many places of the window the client's
// iterators hold now.
func PagesInFlightForTest(c *Client) int {
	c.limiter.mu.Lock()
	defer c.limiter.mu.Unlock()
	return c.limiter.inFlight + len(c.limiter.queue)
}

// IgnoreLatencyForTest makes the client's iterators pace their requests
// by refusals alone, for tests of refusals on a machine whose load makes
// latency vary.
func IgnoreLatencyForTest(c *Client) { c.limiter.slack = time.Hour }

// SetSpanPagesForTest lowers the most pages one bracket of a sync with o
// reads, so that a test cuts the window in parts of few records.
func SetSpanPagesForTest(o *SyncOptions, n int) { o.spanPages = n }
