package workforce

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// busy reserves n places of l, more than its window holds: those not
// granted wait in its queue, so that the window is in use.
func busy(l *limiter, n int) []*slot {
	var all []*slot
	for range n {
		all = append(all, l.reserve())
	}
	return all
}

func TestLimiterOpensOnlyWhileInUse(t *testing.T) {
	t.Parallel()
	l := newLimiter(32)
	require.Equal(t, 4.0, l.size())
	sent := time.Now()
	l.observe(sent, 20*time.Millisecond, http.StatusOK)
	assert.Equal(t, 4.0, l.size(), "an answer while the window is not full opens it no further")

	busy(l, 64)
	for i := range 4 { // slow start: half a place more per good answer
		l.observe(sent, 20*time.Millisecond, http.StatusOK)
		assert.Equal(t, 4+float64(i+1)/2, l.size())
	}
	for range 100 {
		l.observe(sent, 20*time.Millisecond, http.StatusOK)
	}
	assert.Equal(t, 32.0, l.size(), "up to its bound, and no further")
	l.mu.Lock()
	defer l.mu.Unlock()
	assert.Equal(t, 32, l.inFlight, "as many places granted")
}

func TestLimiterClosesOncePerRoundOnRefusal(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		l := newLimiter(32)
		busy(l, 64)
		before := time.Now()
		for range 56 { // from 4 to 32, half a place per answer
			l.observe(before, 20*time.Millisecond, http.StatusOK)
		}
		require.Equal(t, 32.0, l.size())
		for range 20 { // a storm of refusals to requests sent under the old window
			l.observe(before, time.Millisecond, status)
		}
		assert.Equal(t, 16.0, l.size(), "halved once for the requests sent before: %d", status)
		after := time.Now().Add(time.Hour) // sent once the window closed and what was in flight came back
		l.observe(after, time.Millisecond, status)
		assert.Equal(t, 8.0, l.size(), "halved again for one sent after: %d", status)
		for range 10 {
			l.observe(after.Add(time.Hour), time.Millisecond, status)
		}
		assert.Equal(t, 1.0, l.size(), "never below one: %d", status)
	}
}

func TestLimiterGrowsByOnePerRoundAfterClosing(t *testing.T) {
	t.Parallel()
	l := newLimiter(32)
	busy(l, 64)
	sent := time.Now()
	l.observe(sent, time.Millisecond, http.StatusTooManyRequests) // at 4, refused: 2
	require.Equal(t, 2.0, l.size())
	late := sent.Add(time.Hour)
	for range 2 { // a round trip of 2 answers: one more
		l.observe(late, 20*time.Millisecond, http.StatusOK)
	}
	assert.InDelta(t, 2.9, l.size(), 0.1)
	for range 3 {
		l.observe(late, 20*time.Millisecond, http.StatusOK)
	}
	assert.InDelta(t, 3.4, l.size(), 0.05, "within one of where the server refused (4): four times slower")
}

func TestLimiterClosesOnRisingLatency(t *testing.T) {
	t.Parallel()
	l := newLimiter(32)
	busy(l, 64)
	sent := time.Now()
	for range 56 { // from 4 to 32, half a place per answer
		l.observe(sent, 20*time.Millisecond, http.StatusOK)
	}
	require.Equal(t, 32.0, l.size())
	for range 10 {
		l.observe(sent, 30*time.Millisecond, http.StatusOK) // 1.5×: not risen
	}
	assert.Equal(t, 32.0, l.size())
	for range 20 {
		l.observe(sent, 80*time.Millisecond, http.StatusOK)
	}
	assert.Equal(t, 16.0, l.size(), "closed once: 4× the least round trip")
	l.observe(sent, time.Second, http.StatusNotFound)
	l.observe(sent, time.Second, 0)
	l.observe(sent, time.Second, http.StatusInternalServerError)
	assert.Equal(t, 16.0, l.size(), "answers that say nothing of the load")
}

func TestLimiterGrantsInOrderAndGivesBackWhatIsCancelled(t *testing.T) {
	t.Parallel()
	l := newLimiter(2)
	held := busy(l, 2)
	ctx, cancel := context.WithCancel(context.Background())
	a, b, c := l.reserve(), l.reserve(), l.reserve()
	cancel()
	assert.ErrorIs(t, b.wait(ctx), context.Canceled, "a wait ends with its context")
	held[0].release()
	require.NoError(t, a.wait(context.Background()), "the first reserved goes first")
	select {
	case <-c.ready:
		t.Fatal("no place for the third yet")
	default:
	}
	held[1].release()
	require.NoError(t, c.wait(context.Background()), "the cancelled one gave its turn away")
	a.release()
	c.release()
	s, err := l.acquire(context.Background())
	require.NoError(t, err)
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	_, err = l.acquire(ctx) // granted at once, yet given back for the context ended
	if err == nil {
		t.Log("granted before the context was seen")
	}
	s.release()
	l.mu.Lock()
	defer l.mu.Unlock()
	assert.LessOrEqual(t, l.inFlight, 1)
	assert.Empty(t, l.queue)
}

// page fetches, through gauged, a page of n records answered after rtt.
func page(l *limiter, sent time.Time, rtt time.Duration, n int) {
	_, _, _ = gauged(context.Background(), l, func(ctx context.Context) ([]int, *Response, error) {
		*ctx.Value(gaugeKey{}).(*gauge) = gauge{sent: sent, rtt: rtt, ok: true}
		return make([]int, n), &Response{}, nil
	})
}

func TestLimiterIgnoresTheLatencyOfShortPages(t *testing.T) {
	t.Parallel()
	l := newLimiter(32)
	busy(l, 64)
	sent := time.Now()
	for range 56 { // full pages in 20 ms: from 4 to 32
		page(l, sent, 20*time.Millisecond, MaxPerPage)
	}
	require.Equal(t, 32.0, l.size())
	for _, n := range []int{0, 0, 1, MaxPerPage/2 - 1} { // the end of a list, and past it, answered at once
		page(l, sent, 0, n)
	}
	for range 20 {
		page(l, sent, 20*time.Millisecond, MaxPerPage)
	}
	assert.Equal(t, 32.0, l.size(), "full pages as slow as ever: no rise in latency")
	for range 20 {
		page(l, sent, 50*time.Millisecond, MaxPerPage/2)
	}
	assert.Less(t, l.size(), 32.0, "a page of half the records or more tells the latency")
}

// Short pages open the window as other good answers do, though they tell
// no latency: a sync read in short slices reopens it after a refusal.
func TestLimiterReopensOnShortPages(t *testing.T) {
	t.Parallel()
	l := newLimiter(32)
	busy(l, 64)
	sent := time.Now()
	l.observe(sent, time.Millisecond, http.StatusTooManyRequests) // at 4, refused: 2
	require.Equal(t, 2.0, l.size())
	late := sent.Add(time.Hour)
	for range 40 {
		page(l, late, time.Millisecond, 10)
	}
	assert.Greater(t, l.size(), 6.0, "opened by short pages")
}
