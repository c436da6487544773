package workforcetest

import "time"

// WithTimeouts sets the server's read and write timeouts (30 s and 1 min by default), for tests
// that cannot wait that long.
func WithTimeouts(read, write time.Duration) Option {
	return func(c *config) { c.readTimeout, c.writeTimeout = read, write }
}
