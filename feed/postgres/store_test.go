package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
)

func TestStore(t *testing.T) {
	t.Parallel()
	feedtest.TestStore(t, func(t *testing.T) feed.Store { return store(t, database(t)) })
}

// queue answers an Update function that queues one change (Seq 1) of a
// resource that had none.
func queue(data string) func([]byte) ([]byte, []feed.Queued, error) {
	return func([]byte) ([]byte, []feed.Queued, error) {
		return []byte("r"), []feed.Queued{{Seq: 1, Data: []byte(data)}}, nil
	}
}

// A change queued while this Store's Feed has idle workers is leased to it
// in the ingest's transaction: the next Claim hands it over (with its
// data, as a first attempt), and no other instance takes it meanwhile.
// Closed before that Claim, the Store gives it back to every instance at
// once, not after the lease.
func TestLeasedAtIngest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	a, b := store(t, db), store(t, db)
	r := feed.Resource{Kind: feed.KindJob, ID: 1}
	got, err := a.Claim(ctx, 4, time.Hour) // a's Feed has 4 idle workers
	require.NoError(t, err)
	require.Empty(t, got)
	require.NoError(t, a.Update(ctx, r, queue("one")))
	got, err = b.Claim(ctx, 4, time.Hour)
	require.NoError(t, err)
	assert.Empty(t, got, "leased to a at its ingest")
	got, err = a.Claim(ctx, 4, time.Hour)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, "one", string(got[0].Data))
	assert.Equal(t, 1, got[0].Attempt)
	require.NoError(t, a.Ack(ctx, got[0]))

	r2 := feed.Resource{Kind: feed.KindJob, ID: 2}
	require.NoError(t, a.Update(ctx, r2, queue("two")))
	a.Close()
	got, err = store(t, db).Claim(ctx, 4, time.Hour)
	require.NoError(t, err)
	require.Len(t, got, 1, "given back when a closed")
	assert.Equal(t, r2, got[0].Resource)
	assert.Equal(t, 1, got[0].Attempt)
}
