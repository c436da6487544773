package feed_test

import (
	"testing"

	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
)

// BenchmarkLatency measures webhook to handler on one instance with the
// MemoryStore, 1,000 deliveries at 100 a second:
// go test -run '^$' -bench Latency -benchtime 1x ./feed/
func BenchmarkLatency(b *testing.B) {
	for range b.N {
		r := feedtest.Latency(b, feed.NewMemoryStore(), 1000, 100)
		b.ReportMetric(float64(r.P50.Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(r.P99.Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(r.Max.Microseconds())/1000, "max-ms")
		b.ReportMetric(float64(r.IngestP99.Microseconds())/1000, "answer-p99-ms")
	}
}

// BenchmarkThroughput measures the changes handled per second with the
// MemoryStore.
func BenchmarkThroughput(b *testing.B) {
	for range b.N {
		b.ReportMetric(feedtest.Throughput(b, feed.NewMemoryStore(), 5000, 8), "changes/s")
	}
}

// BenchmarkChaos runs the chaos proof and reports its figures.
func BenchmarkChaos(b *testing.B) {
	for range b.N {
		store := feed.NewMemoryStore()
		r := feedtest.RunChaos(b, feedtest.Chaos{Jobs: 500, Instances: 3, Kill: true,
			Open: func(testing.TB, int) (feed.Store, func()) { return store, func() {} }})
		reportChaos(b, r)
	}
}

func reportChaos(b *testing.B, r feedtest.Result) {
	b.Logf("%+v", r)
	b.ReportMetric(float64(r.Transitions), "transitions")
	b.ReportMetric(float64(r.Lost), "lost")
	b.ReportMetric(float64(r.Repeated), "repeated")
	b.ReportMetric(float64(r.OutOfOrder), "out-of-order")
	b.ReportMetric(float64(r.Dropped), "dropped-deliveries")
	b.ReportMetric(r.Elapsed.Seconds(), "run-s")
}
