package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
	"github.com/workforce-marketplace/workforce-go/feed/sqlite"
)

// BenchmarkLatency measures webhook to handler on one instance, 1,000
// deliveries at 100 a second, with every commit on disk (sync=full) and
// with WithSyncNormal: go test -run '^$' -bench . -benchtime 1x ./feed/sqlite/
func BenchmarkLatency(b *testing.B) {
	for _, mode := range []struct {
		name string
		opts []sqlite.Option
	}{{"sync=full", nil}, {"sync=normal", []sqlite.Option{sqlite.WithSyncNormal()}}} {
		b.Run(mode.name, func(b *testing.B) {
			for range b.N {
				s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "feed.db"), mode.opts...)
				if err != nil {
					b.Fatal(err)
				}
				r := feedtest.Latency(b, s, 1000, 100)
				s.Close()
				b.ReportMetric(float64(r.P50.Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(r.P99.Microseconds())/1000, "p99-ms")
				b.ReportMetric(float64(r.Max.Microseconds())/1000, "max-ms")
				b.ReportMetric(float64(r.IngestP99.Microseconds())/1000, "answer-p99-ms")
			}
		})
	}
}

// BenchmarkThroughput measures the changes a feed hands over per second
// (ingested, claimed, handled, acknowledged) beside the plain inserts per
// second of the same rows into a table of a file opened as the store
// opens its own, from as many goroutines.
func BenchmarkThroughput(b *testing.B) {
	const n, conc = 5000, 8
	for range b.N {
		s := open(b, filepath.Join(b.TempDir(), "feed.db"))
		rate := feedtest.Throughput(b, s, n, conc)
		s.Close()

		raw := open(b, filepath.Join(b.TempDir(), "raw.db")) // the same file settings
		db := raw.DB()
		if _, err := db.Exec("CREATE TABLE raw (kind TEXT, id INTEGER, seq INTEGER, data BLOB, PRIMARY KEY (kind, id, seq))"); err != nil {
			b.Fatal(err)
		}
		base := feedtest.RawInserts(b, n, conc, func(ctx context.Context, i int64, row []byte) error {
			_, err := db.ExecContext(ctx, "INSERT INTO raw VALUES ('job', ?, 1, ?)", i, row)
			return err
		})
		raw.Close()
		b.ReportMetric(rate, "changes/s")
		b.ReportMetric(base, "raw-inserts/s")
		b.ReportMetric(rate/base, "ratio")
	}
}

// BenchmarkChaos runs the chaos proof across a restart and reports its
// figures.
func BenchmarkChaos(b *testing.B) {
	for range b.N {
		path := filepath.Join(b.TempDir(), "feed.db")
		r := feedtest.RunChaos(b, feedtest.Chaos{Jobs: 500, Kill: true, Restart: true,
			Open: func(tb testing.TB, _ int) (feed.Store, func()) {
				s := open(tb, path)
				return s, func() { s.Close() }
			}})
		b.Logf("%+v", r)
		b.ReportMetric(float64(r.Transitions), "transitions")
		b.ReportMetric(float64(r.Lost), "lost")
		b.ReportMetric(float64(r.Repeated), "repeated")
		b.ReportMetric(float64(r.OutOfOrder), "out-of-order")
		b.ReportMetric(r.Elapsed.Seconds(), "run-s")
	}
}
