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
func CallStarted(err error) (time.Time, bool) { return callStarted(err) }
