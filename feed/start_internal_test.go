package feed

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// The start is when Run began, by the API's clock, even when that clock is
// read later: here GET /info fails until five seconds (of the fake's clock
// and the Feed's alike) after a change was made, and the change, made
// after Run began, is handed over. Taken when the clock was read at last,
// the start fell after the change, and the change was lost.
func TestStartFromNowIsWhenRunBegan(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fake := workforcetest.NewServer(t, workforcetest.WithTickingClock())
	c, err := fake.Client()
	require.NoError(t, err)
	seed := fake.Seed()
	fake.InjectFault(workforcetest.Fault{Method: http.MethodGet, Path: "/api_v2/info", Status: http.StatusServiceUnavailable, Times: 1000})
	handed := make(chan *Change, 10)
	f, err := New(c, fake.Private.SecretKey, func(_ context.Context, ch *Change) error { handed <- ch; return nil },
		WithStartFromNow(), WithSyncInterval(-1), WithPoll(20*time.Millisecond))
	require.NoError(t, err)
	var passed atomic.Int64 // time the test makes pass on the Feed's clock, as on the fake's
	f.now = func() time.Time { return time.Now().Add(time.Duration(passed.Load())) }
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	defer func() { cancel(); <-done }()

	j, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID})
	require.NoError(t, err)
	require.Error(t, f.IngestJob(ctx, j), "no start yet: the API's clock cannot be read")
	fake.Advance(5 * time.Second)
	passed.Store(int64(5 * time.Second))
	fake.ClearFaults()
	require.NoError(t, f.IngestJob(ctx, j))
	select {
	case ch := <-handed:
		require.Equal(t, j.ID, ch.ResourceID)
		require.Equal(t, "filled", string(ch.To))
	case <-time.After(10 * time.Second):
		t.Fatal("the change made after Run began was not handed over")
	}
}
