package feed_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
)

// The chaos proof on the MemoryStore: three instances in one process, one
// killed mid-handler (a store lost with its process is no test of a
// restart: that is the SQLite store's).
func TestChaosMemory(t *testing.T) {
	t.Parallel()
	store := feed.NewMemoryStore()
	res := feedtest.RunChaos(t, feedtest.Chaos{Jobs: 200, Instances: 3, Kill: true,
		Open: func(testing.TB, int) (feed.Store, func()) { return store, func() {} }})
	t.Logf("%+v", res)
	assert.True(t, res.Killed)
	assert.Zero(t, res.Lost)
	assert.Zero(t, res.Repeated)
	assert.Zero(t, res.OutOfOrder)
	assert.Zero(t, res.Invented)
	assert.Zero(t, res.JobRequestErrors)
	assert.Equal(t, res.Transitions, res.Handled)
	assert.Empty(t, res.Problems)
}

// The kill lands mid-handler, never between an earlier change's effect and
// its acknowledgment: the victim's acknowledgments are slowed until its
// next handler has begun (the one the kill may land in), and no change may
// be handed over twice for it. The victim, slowed, wins few of the
// changes the three instances race for: it dies in its fourth handler.
func TestChaosKillAfterPendingAcks(t *testing.T) {
	t.Parallel()
	store := feed.NewMemoryStore()
	slow := &slowAcks{Store: store}
	res := feedtest.RunChaos(t, feedtest.Chaos{Jobs: 60, Instances: 3, Kill: true, KillAfter: 3,
		Open: func(_ testing.TB, i int) (feed.Store, func()) {
			if i == 2 {
				return slow, func() {}
			}
			return store, func() {}
		},
		Wrap: func(i int, _ feed.Store, h feed.Handler) feed.Handler {
			if i != 2 {
				return h
			}
			return func(ctx context.Context, c *feed.Change) error {
				slow.begin()
				return h(ctx, c)
			}
		}})
	t.Logf("%+v", res)
	assert.True(t, res.Killed)
	assert.Zero(t, res.Lost)
	assert.Zero(t, res.Repeated)
	assert.Empty(t, res.Problems)
}

// slowAcks delays each Ack until the next handler has begun, and a little
// more, unless ctx ends first (the instance was killed). It holds no Ack
// for more than a second, a tenth of the victim's lease: an Ack held past
// the lease (no next change came) would see its change handed over again,
// as the feed tells (at least once), and fail the run for nothing.
type slowAcks struct {
	feed.Store
	mu      sync.Mutex
	began   int
	changed chan struct{}
}

func (s *slowAcks) begin() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.began++
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
}

func (s *slowAcks) Ack(ctx context.Context, c feed.Claim) error {
	s.mu.Lock()
	b := s.began
	s.mu.Unlock()
	bound := time.NewTimer(time.Second)
	defer bound.Stop()
wait:
	for {
		s.mu.Lock()
		if s.changed == nil {
			s.changed = make(chan struct{})
		}
		next, ch := s.began > b, s.changed
		s.mu.Unlock()
		if next {
			break
		}
		select {
		case <-ch:
		case <-bound.C:
			break wait
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	// A kill that does not wait for this acknowledgment lands meanwhile.
	select {
	case <-time.After(20 * time.Millisecond):
	case <-ctx.Done():
		return ctx.Err()
	}
	return s.Store.Ack(ctx, c)
}
