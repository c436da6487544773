package postgres_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
	"github.com/workforce-marketplace/workforce-go/feed/postgres"
)

// BenchmarkLatency measures webhook to handler on one instance, 1,000
// deliveries at 100 a second:
// WORKFORCE_TEST_POSTGRES=… go test -run '^$' -bench . -benchtime 1x ./feed/postgres/
func BenchmarkLatency(b *testing.B) {
	for range b.N {
		r := feedtest.Latency(b, store(b, database(b)), 1000, 100)
		b.ReportMetric(float64(r.P50.Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(r.P99.Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(r.Max.Microseconds())/1000, "max-ms")
		b.ReportMetric(float64(r.IngestP99.Microseconds())/1000, "answer-p99-ms")
	}
}

// BenchmarkThroughput measures the changes a feed hands over per second
// (ingested, claimed, handled, acknowledged) beside the plain inserts per
// second of the same rows into a table of the same database, one statement
// each, from as many goroutines: 8, 16 and 32. ratio is the feed's best
// rate over the inserts' best: a plain insert is fastest from a few
// goroutines (the machine is busy), a feed from many (it writes what
// arrives together in one statement and one commit). It also reports the
// ingests written on a guessed state (see Store.Update), and how many of
// those guesses were wrong.
func BenchmarkThroughput(b *testing.B) {
	const n = 5000
	for range b.N {
		var best, bestBase float64
		var guessed, wrong int64
		for _, conc := range []int{8, 16, 32} {
			s := store(b, database(b))
			rate := feedtest.Throughput(b, s, n, conc)
			g, w := postgres.GuessStats(s)
			guessed, wrong = guessed+g, wrong+w
			db := database(b)
			ctx := context.Background()
			if _, err := db.Exec(ctx, "CREATE TABLE raw (kind text, id bigint, seq bigint, data bytea, PRIMARY KEY (kind, id, seq))"); err != nil {
				b.Fatal(err)
			}
			base := feedtest.RawInserts(b, n, conc, func(ctx context.Context, i int64, row []byte) error {
				_, err := db.Exec(ctx, "INSERT INTO raw VALUES ('job', $1, 1, $2)", i, row)
				return err
			})
			b.ReportMetric(rate, fmt.Sprintf("changes/s@%d", conc))
			b.ReportMetric(base, fmt.Sprintf("raw-inserts/s@%d", conc))
			best, bestBase = max(best, rate), max(bestBase, base)
		}
		b.ReportMetric(best/bestBase, "ratio")
		b.ReportMetric(float64(guessed), "guessed")
		b.ReportMetric(float64(wrong), "wrong-guesses")
	}
}

// BenchmarkChaos runs the chaos proof (three instances, one killed) and
// reports its figures.
func BenchmarkChaos(b *testing.B) {
	for range b.N {
		db := database(b)
		r := feedtest.RunChaos(b, feedtest.Chaos{Jobs: 500, Instances: 3, Kill: true,
			Open: func(tb testing.TB, _ int) (feed.Store, func()) { return store(tb, db), func() {} }})
		b.Logf("%+v", r)
		b.ReportMetric(float64(r.Transitions), "transitions")
		b.ReportMetric(float64(r.Lost), "lost")
		b.ReportMetric(float64(r.Repeated), "repeated")
		b.ReportMetric(float64(r.OutOfOrder), "out-of-order")
		b.ReportMetric(r.Elapsed.Seconds(), "run-s")
	}
}
