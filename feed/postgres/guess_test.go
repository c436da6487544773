package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/postgres"
)

// count is an Update function that counts: the record is the number of
// updates made, and each queues a change whose Seq is that number.
func count(rec []byte) ([]byte, []feed.Queued, error) {
	var n int64
	if len(rec) > 0 {
		if _, err := fmt.Sscan(string(rec), &n); err != nil {
			return nil, nil, err
		}
	}
	return []byte(fmt.Sprint(n + 1)), []feed.Queued{{Seq: n + 1, Data: []byte(fmt.Sprint(n + 1))}}, nil
}

// record answers the record stored of job id.
func record(t *testing.T, db *pgxpool.Pool, id int64) string {
	t.Helper()
	var rec []byte
	require.NoError(t, db.QueryRow(context.Background(), "SELECT record FROM workforce_feed_resources WHERE kind = 'job' AND id = $1", id).Scan(&rec))
	return string(rec)
}

// leased tells whether change seq of job id is leased.
func leased(t *testing.T, db *pgxpool.Pool, id, seq int64) bool {
	t.Helper()
	var ok bool
	require.NoError(t, db.QueryRow(context.Background(),
		"SELECT lease_token IS NOT NULL FROM workforce_feed_changes WHERE kind = 'job' AND id = $1 AND seq = $2", id, seq).Scan(&ok))
	return ok
}

func job(id int64) feed.Resource { return feed.Resource{Kind: feed.KindJob, ID: id} }

// A Store started on a database that has records (a restart) makes its
// first updates on them, not on the 'no row' it guesses.
func TestRestartSeesStoredRecords(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	a := store(t, db)
	for id := range int64(5) {
		require.NoError(t, a.Update(ctx, job(id+1), count))
	}
	a.Close()
	b := store(t, db)
	for id := range int64(5) {
		require.NoError(t, b.Update(ctx, job(id+1), count))
	}
	for id := range int64(5) {
		assert.Equal(t, "2", record(t, db, id+1))
		var seqs []int64
		rows, err := db.Query(ctx, "SELECT seq FROM workforce_feed_changes WHERE kind = 'job' AND id = $1 ORDER BY seq", id+1)
		require.NoError(t, err)
		for rows.Next() {
			var seq int64
			require.NoError(t, rows.Scan(&seq))
			seqs = append(seqs, seq)
		}
		require.NoError(t, rows.Err())
		assert.Equal(t, []int64{1, 2}, seqs)
	}
	guessed, wrong := postgres.GuessStats(b)
	assert.Positive(t, wrong, "the first guess, 'no row', was wrong (guessed %d)", guessed)
}

// An fn that fails on a guessed state is not answered: it runs again on
// the stored record. One that changes nothing on a guess is answered only
// if the guess was the stored state.
func TestGuessesAreCheckedWithFn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	a, b := store(t, db), store(t, db)
	appendTo := func(suffix string, fail func(rec []byte) bool) func([]byte) ([]byte, []feed.Queued, error) {
		return func(rec []byte) ([]byte, []feed.Queued, error) {
			if fail(rec) {
				return nil, nil, errors.New("not this record")
			}
			return append(append([]byte{}, rec...), suffix...), nil, nil
		}
	}
	never := func([]byte) bool { return false }
	require.NoError(t, a.Update(ctx, job(1), appendTo("x", never)))
	// b never saw job 1: it guesses there is no record, on which fn fails.
	require.NoError(t, b.Update(ctx, job(1), appendTo("y", func(rec []byte) bool { return rec == nil })))
	assert.Equal(t, "xy", record(t, db, 1))
	// b keeps "xy"; a writes "xyz": b's guess is stale, and fn fails on it.
	require.NoError(t, a.Update(ctx, job(1), appendTo("z", never)))
	require.NoError(t, b.Update(ctx, job(1), appendTo("!", func(rec []byte) bool { return string(rec) != "xyz" })))
	assert.Equal(t, "xyz!", record(t, db, 1))
	// An fn that fails on the stored record too fails.
	err := b.Update(ctx, job(1), appendTo("?", func([]byte) bool { return true }))
	require.Error(t, err)
	assert.Equal(t, "xyz!", record(t, db, 1))
	// b keeps "xyz!"; a writes "xyz!a". On b's stale guess fn changes
	// nothing: the update is made on the stored record.
	require.NoError(t, a.Update(ctx, job(1), appendTo("a", never)))
	require.NoError(t, b.Update(ctx, job(1), func(rec []byte) ([]byte, []feed.Queued, error) {
		if string(rec) == "xyz!" {
			return nil, nil, nil
		}
		return append(append([]byte{}, rec...), 'b'), nil, nil
	}))
	assert.Equal(t, "xyz!ab", record(t, db, 1))
	guessed, wrong := postgres.GuessStats(b)
	assert.GreaterOrEqual(t, guessed, int64(4), "every update of b made on a guess first")
	assert.Positive(t, wrong)
}

// A change is never leased at its ingest while an earlier change of its
// resource is queued: not when the Store itself queued that change (its
// cached state says so), nor when another instance did after the state
// the Store cached (the guess loses, and the read says so). Once this
// Store's acknowledgment leaves no change, the next is leased again.
func TestNoLeaseAtIngestBehindAQueuedChange(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := database(t)
	a, b := store(t, db), store(t, db)
	// Not given back after 100 ms: a give-back under way when a Claim asks
	// the database hides the change from it (a loaded machine took that
	// long between an Update and the Claim, and the test failed).
	postgres.Hold(a, time.Hour)
	postgres.Hold(b, time.Hour)
	claim := func(s *postgres.Store, want int64) feed.Claim {
		t.Helper()
		got, err := s.Claim(ctx, 4, time.Hour)
		require.NoError(t, err)
		require.Len(t, got, 1)
		require.Equal(t, want, got[0].Seq)
		return got[0]
	}
	got, err := a.Claim(ctx, 4, time.Hour) // a's Feed has 4 idle workers
	require.NoError(t, err)
	require.Empty(t, got)
	require.NoError(t, a.Update(ctx, job(1), count))
	assert.True(t, leased(t, db, 1, 1), "#1 leased at its ingest")
	require.NoError(t, a.Update(ctx, job(1), count))
	assert.False(t, leased(t, db, 1, 2), "#2 leased at its ingest behind #1")
	require.NoError(t, a.Ack(ctx, claim(a, 1)))
	require.NoError(t, a.Update(ctx, job(1), count))
	assert.False(t, leased(t, db, 1, 3), "#3 leased at its ingest behind #2")
	require.NoError(t, a.Ack(ctx, claim(a, 2)))
	require.NoError(t, a.Ack(ctx, claim(a, 3)))
	require.NoError(t, a.Update(ctx, job(1), count))
	assert.True(t, leased(t, db, 1, 4), "#4 leased at its ingest: nothing queued")
	require.NoError(t, a.Ack(ctx, claim(a, 4)))

	// b keeps job 1 with nothing queued; a queues #5 and holds it.
	got, err = b.Claim(ctx, 4, time.Hour) // b's Feed has 4 idle workers
	require.NoError(t, err)
	require.Empty(t, got)
	require.NoError(t, b.Update(ctx, job(1), count))
	assert.True(t, leased(t, db, 1, 5), "#5 leased at its ingest")
	require.NoError(t, b.Ack(ctx, claim(b, 5)))
	require.NoError(t, a.Update(ctx, job(1), count))
	assert.True(t, leased(t, db, 1, 6), "#6 leased to a at its ingest")
	require.NoError(t, b.Update(ctx, job(1), count))
	assert.False(t, leased(t, db, 1, 7), "#7 leased to b at its ingest behind a's #6")
	require.NoError(t, a.Ack(ctx, claim(a, 6)))
	require.NoError(t, b.Ack(ctx, claim(b, 7)))
	assert.Equal(t, "7", record(t, db, 1))
}
