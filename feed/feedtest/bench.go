package feedtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/webhook"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// benchSecret signs the deliveries of Latency: a made-up test key.
const benchSecret = "sk_test_feedbench0000000000000000"

// Copies answers n webhook bodies, {"job": {...}}, each a Job of its own
// (ids from first) with one transition, shaped as the fake renders a Job
// (its Worker and Employer embedded: about 3 KB).
func Copies(tb testing.TB, first int64, n int) [][]byte {
	tb.Helper()
	fake := workforcetest.NewServer(tb)
	c, err := fake.Client()
	if err != nil {
		tb.Fatal(err)
	}
	seed := fake.Seed()
	j, _, err := c.Jobs.Create(context.Background(), &workforce.JobCreate{WorkerID: seed.WorkerIDs[1], JobRequestID: seed.JobRequest1099ID})
	if err != nil {
		tb.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(j.Raw, &doc); err != nil {
		tb.Fatal(err)
	}
	ts := doc["transitions"].([]any)
	t0 := ts[0].(map[string]any)
	out := make([][]byte, n)
	for i := range n {
		id := first + int64(i)
		doc["id"] = id
		t0["id"], t0["job_id"] = id, id
		b, err := json.Marshal(map[string]any{"job": doc})
		if err != nil {
			tb.Fatal(err)
		}
		out[i] = b
	}
	return out
}

// LatencyResult is what Latency measured: from the start of a delivery's
// POST to the start of the handler's call for its change.
type LatencyResult struct {
	N             int
	P50, P99, Max time.Duration
	// IngestP50 and IngestP99 are those of the POSTs' answers: the durable
	// ingest, before the 204.
	IngestP50, IngestP99 time.Duration
}

func (r LatencyResult) String() string {
	return fmt.Sprintf("%d deliveries: p50 %v, p99 %v, max %v (answered: p50 %v, p99 %v)", r.N, r.P50, r.P99, r.Max, r.IngestP50, r.IngestP99)
}

// Latency runs one feed on s behind a loopback HTTP server, posts n
// signed deliveries at a steady rate a second (each in its own request,
// as the platform's senders do), and measures each change's time from the
// start of its POST to the start of the handler's call.
func Latency(tb testing.TB, s feed.Store, n int, rate float64) LatencyResult {
	tb.Helper()
	bodies := Copies(tb, 1_000_000, n)
	var mu sync.Mutex
	sent := make(map[int64]time.Time, n)
	lat := make([]time.Duration, 0, n)
	answered := make([]time.Duration, 0, n)
	all := make(chan struct{})
	f, err := feed.New(nil, benchSecret, func(_ context.Context, c *feed.Change) error {
		now := time.Now()
		mu.Lock()
		defer mu.Unlock()
		lat = append(lat, now.Sub(sent[c.ResourceID]))
		if len(lat) == n {
			close(all)
		}
		return nil
	}, feed.WithStore(s), feed.WithWorkers(8), feed.WithPoll(time.Second))
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(f)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	defer func() { cancel(); <-done }()

	var wg sync.WaitGroup
	errs := make(chan error, n)
	tick := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer tick.Stop()
	for i := range n {
		<-tick.C
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(bodies[i]))
			req.Header.Set(webhook.Header, webhook.Sign(bodies[i], benchSecret))
			start := time.Now()
			mu.Lock()
			sent[1_000_000+int64(i)] = start
			mu.Unlock()
			resp, err := srv.Client().Do(req)
			mu.Lock()
			answered = append(answered, time.Since(start))
			mu.Unlock()
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode != http.StatusNoContent {
					err = fmt.Errorf("a delivery got %d", resp.StatusCode)
				}
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		tb.Fatal(err)
	}
	select {
	case <-all:
	case <-time.After(5 * time.Minute):
		tb.Fatal("feedtest: the handler did not see every change in five minutes")
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(lat)
	slices.Sort(answered)
	return LatencyResult{N: n, P50: lat[n/2], P99: lat[(n*99)/100], Max: lat[n-1],
		IngestP50: answered[n/2], IngestP99: answered[(n*99)/100]}
}

// Throughput runs one feed on s and ingests n copies (Copies: one change
// each) from concurrency goroutines at once, and answers the changes
// acknowledged per second, from the first ingest to the last
// acknowledgment.
func Throughput(tb testing.TB, s feed.Store, n, concurrency int) float64 {
	tb.Helper()
	jobs := make([]*workforce.Job, n)
	for i, b := range Copies(tb, 2_000_000, n) {
		ev, err := webhook.Parse(b)
		if err != nil {
			tb.Fatal(err)
		}
		jobs[i] = ev.Job
	}
	f, err := feed.New(nil, benchSecret, func(context.Context, *feed.Change) error { return nil },
		feed.WithStore(s), feed.WithWorkers(concurrency), feed.WithPoll(time.Second))
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.Run(ctx) }()
	defer func() { cancel(); <-done }()
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				if err := f.IngestJob(ctx, jobs[i]); err != nil {
					tb.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	deadline := time.After(5 * time.Minute)
	for f.Stats().Handled < int64(n) {
		select {
		case <-tick.C:
		case <-deadline:
			tb.Fatalf("feedtest: %d of %d changes handled after five minutes", f.Stats().Handled, n)
		}
	}
	return float64(n) / time.Since(start).Seconds()
}

// RawInserts runs insert for each of the rows a Throughput of n would
// store (a copy's document each), from concurrency goroutines at once,
// and answers the rows inserted per second: the baseline of a store's
// plain insert rate.
func RawInserts(tb testing.TB, n, concurrency int, insert func(ctx context.Context, i int64, row []byte) error) float64 {
	tb.Helper()
	rows := Copies(tb, 3_000_000, n)
	ctx := context.Background()
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
				if err := insert(ctx, 3_000_000+i, rows[i]); err != nil {
					tb.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return float64(n) / time.Since(start).Seconds()
}
