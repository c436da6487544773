package feed_test

import (
	"testing"

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
