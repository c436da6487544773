package workforce

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"time"
)

// limiter paces the requests of a client's iterators (the walks of All and
// the syncs): a window of requests in flight that opens while answers come
// back fast and well and closes at once when the server refuses (429, 503)
// or its latency rises: additive increase, multiplicative decrease. The
// window starts at limiterStart, grows by half per round trip until the
// first closing (each good answer adds half a place), then grows by one per round trip
// (each adds 1/window), four times slower within one of the size at which
// the server last refused; it never leaves [1, bound]. docs/PACING.md argues
// for the constants.
//
// A request takes a place with acquire (or reserve and then wait, to keep
// places in the order reserved), and gives it back with release. The calls
// made with a context from watch report each attempt's answer to observe.
// One limiter serves all the iterators of a client, so that walks run side
// by side share what the server sustains.
type limiter struct {
	mu       sync.Mutex
	bound    int     // the most in flight: WithPageWindow
	window   float64 // how many may be in flight now, in [1, bound]
	ssthresh float64 // the window's size after its last closing; bound before any
	refused  float64 // the window's size when the server last refused; 0 before any
	inFlight int
	queue    []*slot // waiting for a place, in the order reserved
	// cut is a round trip after the window last closed: the answers to
	// requests sent before were sent under the old window, or while the
	// requests sent under it were still being answered (a refused request
	// sent again, say), and close it no further.
	cut time.Time

	// Latency: the least of the good answers' round trips over the last
	// epoch or two (minRTT, lastMin), and the smoothed round trip of those
	// sent since the last closing (srtt, over fresh answers).
	minRTT, lastMin time.Duration
	epoch           int
	srtt            time.Duration
	fresh           int
	slack           time.Duration // limiterSlack; tests that look at refusals alone raise it
}

// The limiter's constants, argued for in docs/PACING.md.
const (
	limiterStart     = 4                    // the window of a new client
	limiterBackOff   = 0.5                  // a closing multiplies the window by it
	limiterSlowStart = 0.5                  // before the first closing, each good answer adds this
	limiterEpoch     = 256                  // good answers over which the least round trip is kept
	limiterFresh     = 4                    // answers since the last closing before latency may close it again
	limiterSlack     = 5 * time.Millisecond // latency rises when srtt > 2×minRTT + slack
	// within one of the size at which the server last refused, the
	// window grows this many times slower
	limiterNearRefused = 4
)

func newLimiter(bound int) *limiter {
	w := float64(min(limiterStart, bound))
	return &limiter{bound: bound, window: w, ssthresh: float64(bound), slack: limiterSlack}
}

// A slot is a place in a limiter's window, reserved and then waited for.
type slot struct {
	l       *limiter
	ready   chan struct{} // closed once the place is granted
	granted bool          // under l.mu
}

// reserve queues a request for a place in the window: places are granted in
// the order reserved.
func (l *limiter) reserve() *slot {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := &slot{l: l, ready: make(chan struct{})}
	l.queue = append(l.queue, s)
	l.grant()
	return s
}

// acquire waits for a place in the window, or for ctx to end (then the
// error is ctx's and no place is held). The caller gives the place back
// with release.
func (l *limiter) acquire(ctx context.Context) (*slot, error) {
	s := l.reserve()
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// wait waits until s is granted a place, or ctx ends: then s gives up its
// place, granted or not, and wait returns ctx's error.
func (s *slot) wait(ctx context.Context) error {
	select {
	case <-s.ready:
		return nil
	case <-ctx.Done():
	}
	l := s.l
	l.mu.Lock()
	defer l.mu.Unlock()
	if s.granted {
		l.inFlight--
		l.grant()
	} else {
		for i, q := range l.queue {
			if q == s {
				l.queue = append(l.queue[:i], l.queue[i+1:]...)
				break
			}
		}
	}
	return ctx.Err()
}

// rejoin gives back the place s holds, of a request the server refused
// (429, 503), and waits for one again ahead of the requests queued: the
// window the refusal closed then bounds that request's next attempt too,
// where holding its place through its retries kept as many in flight as
// before the closing, the refused ones sent again at once. When ctx ends
// first, s holds a place all the same (past the window, for the moment the
// caller takes to give it back with release) and rejoin returns ctx's
// error.
func (s *slot) rejoin(ctx context.Context) error {
	l := s.l
	l.mu.Lock()
	l.inFlight--
	s.ready, s.granted = make(chan struct{}), false
	l.queue = append([]*slot{s}, l.queue...)
	l.grant()
	ready := s.ready
	l.mu.Unlock()
	select {
	case <-ready:
		return nil
	case <-ctx.Done():
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if !s.granted {
		l.queue = slices.DeleteFunc(l.queue, func(q *slot) bool { return q == s })
		s.granted = true
		l.inFlight++
	}
	return ctx.Err()
}

// placeKey holds, in a context, the place in a limiter's window that its
// call holds (a page of a walk, a slice of a sync).
type placeKey struct{}

// hold returns ctx, whose calls hold s: a refused attempt gives it back
// and waits for it again before the next (see rejoin).
func (s *slot) hold(ctx context.Context) context.Context {
	return context.WithValue(ctx, placeKey{}, s)
}

// release gives back the place s was granted.
func (s *slot) release() {
	l := s.l
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inFlight--
	l.grant()
}

// grant hands free places to the requests queued, in order; l.mu is held.
func (l *limiter) grant() {
	for len(l.queue) > 0 && l.inFlight < int(l.window) {
		s := l.queue[0]
		l.queue[0] = nil
		l.queue = l.queue[1:]
		l.inFlight++
		s.granted = true
		close(s.ready)
	}
}

// observe folds in the answer of one attempt, sent at sent and answered
// after rtt with status (0 when it failed without an answer): a 429 or 503
// closes the window, as does a latency that has risen; another good answer
// opens it, while the window is in use. Other answers say nothing of the
// server's load.
func (l *limiter) observe(sent time.Time, rtt time.Duration, status int) {
	l.answered(sent, rtt, status, true)
}

// answered is observe, where a good answer that is no sample (a short
// page, see gauged) may open the window but tells no latency.
func (l *limiter) answered(sent time.Time, rtt time.Duration, status int, sample bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
		if sent.After(l.cut) {
			l.refused = l.window
		}
		l.close(sent)
		return
	}
	if status < 200 || status > 299 {
		return
	}
	if !sample {
		if l.minRTT == 0 || rtt <= 2*l.base()+l.slack { // slower than a full page was: no sign either
			l.open()
		}
		return
	}
	if l.epoch++; l.epoch > limiterEpoch {
		l.lastMin, l.minRTT, l.epoch = l.minRTT, 0, 1
	}
	if l.minRTT == 0 || rtt < l.minRTT {
		l.minRTT = rtt
	}
	slow := 2*l.base() + l.slack
	if sent.After(l.cut) {
		if l.fresh++; l.fresh == 1 {
			l.srtt = rtt
		} else {
			l.srtt += (rtt - l.srtt) / 8
		}
		if l.fresh >= limiterFresh && l.srtt > slow {
			l.close(sent)
			return
		}
	}
	if rtt > slow {
		return // slow: no sign that a wider window would do
	}
	l.open()
}

// open widens the window after a good answer, while it is in use; l.mu is
// held.
func (l *limiter) open() {
	if len(l.queue) == 0 && l.inFlight < int(l.window) {
		return // not in use: no sign that a wider one would do
	}
	switch {
	case l.window < l.ssthresh:
		l.window += limiterSlowStart
	case l.window > l.refused-1 && l.window < l.refused+1:
		l.window += 1 / (limiterNearRefused * l.window) // slowly past where the server refused
	default:
		l.window += 1 / l.window
	}
	l.window = min(l.window, float64(l.bound))
	l.grant()
}

// close closes the window once for the requests sent up to a round trip
// from now, unless the request sent at sent was sent before the last
// closing's cut; l.mu is held.
func (l *limiter) close(sent time.Time) {
	if !sent.After(l.cut) {
		return
	}
	l.cut = time.Now().Add(l.base())
	l.window = max(l.window*limiterBackOff, 1)
	l.ssthresh = l.window
	l.fresh, l.srtt = 0, 0
}

// base is the least round trip of the last good answers, 0 before any;
// l.mu is held.
func (l *limiter) base() time.Duration {
	if l.lastMin > 0 && l.lastMin < l.minRTT {
		return l.lastMin
	}
	return l.minRTT
}

// size reports the window's size now, for tests.
func (l *limiter) size() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.window
}

// A gauge holds the good answer to a paced page until the page's records
// are counted: only a page of at least half of MaxPerPage records tells
// the server's latency. A server answers the empty pages past the end of a
// list, and the short one at its end, faster than full ones; taken as the
// least round trip, they would make every full page read as a risen
// latency and close the window to 1.
type gauge struct {
	sent time.Time
	rtt  time.Duration
	ok   bool // an attempt was answered 2xx
}

// gaugeKey holds, in a context, the gauge of the page its call fetches.
type gaugeKey struct{}

// gauged fetches one page with fetch and reports its good answer to l: as
// a sample of the server's latency if the page holds enough records, else
// only as a good answer, which opens the window as any does (a sync read
// in short slices would otherwise never reopen it after a refusal).
// Refusals are reported as they come, by each attempt.
func gauged[T any](ctx context.Context, l *limiter, fetch func(context.Context) ([]T, *Response, error)) ([]T, *Response, error) {
	g := new(gauge)
	items, resp, err := fetch(context.WithValue(ctx, gaugeKey{}, g))
	if err == nil && g.ok {
		l.answered(g.sent, g.rtt, http.StatusOK, len(items) >= MaxPerPage/2)
	}
	return items, resp, err
}

// limiterKey holds, in a context, the limiter its calls report to.
type limiterKey struct{}

// watch returns ctx, whose calls report each attempt to l.
func (l *limiter) watch(ctx context.Context) context.Context {
	return context.WithValue(ctx, limiterKey{}, l)
}

// limiterOf returns the limiter the calls made in ctx report to, or nil.
func limiterOf(ctx context.Context) *limiter {
	l, _ := ctx.Value(limiterKey{}).(*limiter)
	return l
}
