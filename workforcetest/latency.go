package workforcetest

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// WithLatency makes every API request wait d (real time) before it is answered, as a distant
// server would; see Server.SetLatency.
func WithLatency(d time.Duration) Option { return func(c *config) { c.latency = d } }

// SetLatency makes every later API request (not the control API) wait d, real time, before it is
// answered, besides a Delay fault's wait; 0 or less turns the latency off. A request whose context
// ends during the wait gets no answer. Keep d under the write timeout, a minute.
func (s *Server) SetLatency(d time.Duration) { s.latency.Store(int64(max(d, 0))) }

// Latency returns the latency every API request waits (see SetLatency).
func (s *Server) Latency() time.Duration { return time.Duration(s.latency.Load()) }

// wait waits out the latency before r is answered, and tells whether the request is still to be
// answered (false: the connection was closed instead).
func (s *Server) wait(w http.ResponseWriter, r *http.Request) bool {
	d := s.Latency()
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-r.Context().Done():
		drop(w)
		return false
	case <-timer.C:
		return true
	}
}

// controlLatency serves GET /_fake/latency, answering {"latency_ms": N}.
func (s *Server) controlLatency(*call) (any, error) {
	return map[string]int64{"latency_ms": s.Latency().Milliseconds()}, nil
}

// controlSetLatency serves POST /_fake/latency?ms=N: SetLatency with N milliseconds (a whole
// number ≥ 0), answering as GET /_fake/latency.
func (s *Server) controlSetLatency(c *call) (any, error) {
	text, _ := c.p.str("ms")
	ms, err := strconv.ParseInt(strings.TrimSpace(text), 10, 32)
	if err != nil || ms < 0 {
		return nil, invalid("ms", "must be a whole number of milliseconds, 0 or more")
	}
	s.SetLatency(time.Duration(ms) * time.Millisecond)
	return s.controlLatency(c)
}
