package postgres_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
	"github.com/workforce-marketplace/workforce-go/feed/postgres"
)

// chaosJobs is 500, or what WORKFORCE_CHAOS_JOBS says.
func chaosJobs() int {
	var n int
	if _, err := fmt.Sscan(os.Getenv("WORKFORCE_CHAOS_JOBS"), &n); err != nil || n < 1 {
		return 500
	}
	return n
}

// checkChaos asserts a chaos run found nothing wrong.
func checkChaos(t *testing.T, res feedtest.Result) {
	t.Helper()
	t.Logf("%+v", res)
	assert.True(t, res.Killed)
	assert.Zero(t, res.Lost)
	assert.Zero(t, res.Repeated)
	assert.Zero(t, res.OutOfOrder)
	assert.Zero(t, res.Invented)
	assert.Zero(t, res.JobRequestErrors)
	assert.Equal(t, res.Transitions, res.Handled)
}

// The chaos proof: three instances on one database, each with its own
// connections, behind one webhook URL; one is killed mid-handler (its
// store answers nothing more: no acknowledgment, release or renewal), and
// its claim goes to another after the lease.
func TestChaosThreeInstances(t *testing.T) {
	t.Parallel()
	db := database(t)
	res := feedtest.RunChaos(t, feedtest.Chaos{Jobs: chaosJobs(), Instances: 3, Kill: true,
		Open: func(tb testing.TB, _ int) (feed.Store, func()) { return store(tb, db), func() {} }})
	checkChaos(t, res)
}

// The same with TxHandler: each change's effect is a row written in the
// transaction of its acknowledgment, and the table holds each transition
// exactly once.
func TestChaosThreeInstancesTx(t *testing.T) {
	t.Parallel()
	db := database(t)
	ctx := context.Background()
	_, err := db.Exec(ctx, `CREATE TABLE effects (n bigserial, kind text, id bigint, seq bigint, transition_id bigint, UNIQUE (kind, id, seq))`)
	require.NoError(t, err)
	res := feedtest.RunChaos(t, feedtest.Chaos{Jobs: chaosJobs() / 2, Instances: 3, Kill: true,
		Open: func(tb testing.TB, _ int) (feed.Store, func()) { return store(tb, db), func() {} },
		Wrap: func(_ int, s feed.Store, h feed.Handler) feed.Handler {
			return s.(*postgres.Store).TxHandler(func(ctx context.Context, tx pgx.Tx, c *feed.Change) error {
				if _, err := tx.Exec(ctx, "INSERT INTO effects (kind, id, seq, transition_id) VALUES ($1, $2, $3, $4)",
					string(c.Kind), c.ResourceID, c.Seq, c.TransitionID); err != nil {
					return err
				}
				return h(ctx, c)
			})
		}})
	checkChaos(t, res)
	var rows, jobRows int
	require.NoError(t, db.QueryRow(ctx, "SELECT count(*), count(*) FILTER (WHERE kind = 'job') FROM effects").Scan(&rows, &jobRows))
	assert.Equal(t, res.Transitions, jobRows, "one effect a transition")
	assert.Equal(t, res.Transitions+res.JobRequestChanges, rows)
}
