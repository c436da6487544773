package workforce

import (
	"testing"
	"time"
)

// A machine suspended between the call and its settle: the monotonic
// clock stood still, the wall clock counted the suspension; the settle
// takes the longer, so its floor is never later than the truth.
func TestSettleElapsedCountsASuspend(t *testing.T) {
	t.Parallel()
	if got := elapsed(2*time.Second, time.Hour); got != time.Hour {
		t.Errorf("suspended an hour: elapsed %v, want 1h", got)
	}
	if got := elapsed(2*time.Second, -time.Hour); got != 2*time.Second {
		t.Errorf("wall clock stepped back: elapsed %v, want 2s", got)
	}
	start := time.Now()
	if got := elapsedSince(start, start.Add(time.Minute)); got != time.Minute {
		t.Errorf("elapsedSince = %v, want 1m", got)
	}
}
