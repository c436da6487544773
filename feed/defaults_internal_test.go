package feed

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The defaults the options document: a change whose every delivery was
// dropped waits a minute for the sync, not five.
func TestDefaults(t *testing.T) {
	t.Parallel()
	f, err := New(nil, "", func(context.Context, *Change) error { return nil })
	require.NoError(t, err)
	assert.Equal(t, time.Minute, f.syncEvery, "WithSyncInterval")
	assert.Equal(t, time.Minute, f.lease, "WithLease")
	assert.Equal(t, time.Second, f.poll, "WithPoll")
	assert.Equal(t, 4, f.workers, "WithWorkers")
}
