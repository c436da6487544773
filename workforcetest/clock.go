package workforcetest

import (
	"sync"
	"time"
)

// clock is the fake's notion of now. It stands still unless moved by Advance or SetTime, or,
// when ticking, also follows the wall clock.
type clock struct {
	mu      sync.Mutex
	base    time.Time // the fake time at the wall-clock instant since
	since   time.Time // wall-clock instant base refers to (used only when ticking)
	ticking bool
}

// newClock starts a clock at start.
func newClock(start time.Time, ticking bool) *clock {
	return &clock{base: start, since: time.Now(), ticking: ticking}
}

// now returns the current fake time.
func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ticking {
		return c.base.Add(time.Since(c.since))
	}
	return c.base
}

// advance moves the clock by d (which may be negative).
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base = c.base.Add(d)
}

// set moves the clock to t.
func (c *clock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base, c.since = t, time.Now()
}

// Now returns the fake clock's current time. Records, tokens and the request log use this clock.
func (s *Server) Now() time.Time { return s.clock.now() }

// Advance moves the fake clock forward by d (backward for a negative d). Tokens expire, and
// time_to_start and hours_worked change, by this clock only. The start times it reaches take
// effect at once (Job Requests become unfilled, pending Jobs rejected), with their webhooks;
// webhook retries that fall due are sent.
func (s *Server) Advance(d time.Duration) {
	s.clock.advance(d)
	_ = s.st.write(nil) // the cut-offs the clock reached, and their webhooks
	s.hooks.dueRetries()
}

// SetTime moves the fake clock to t. The start times it reaches take effect at once, as with
// Advance; webhook retries that fall due are sent.
func (s *Server) SetTime(t time.Time) {
	s.clock.set(t)
	_ = s.st.write(nil) // the cut-offs the clock reached, and their webhooks
	s.hooks.dueRetries()
}
