package workforce_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workforce-marketplace/workforce-go"
)

// syncServer serves many Jobs by updated_at windows at a fixed latency, as
// fast as a server can: Jobs are indexed by updated_at, and each answers
// its prerendered JSON. Its clock is the wall clock plus skew, so that a
// benchmark can let time pass.
type syncServer struct {
	*httptest.Server
	latency  time.Duration
	requests atomic.Int64
	// The round trips a sync's requests take one after another: a request
	// sent once one of depth d has answered is of depth d+1 (requests of
	// an earlier round, reset, are not counted).
	depthMu      sync.Mutex
	depth, round int

	mu      sync.RWMutex
	skew    time.Duration
	updated map[int64]time.Time // by id
	byTime  []int64             // ids ordered by updated_at, then id
	windows sync.Map            // window's query → its ids newest first; emptied by reindex
}

// newSyncServer serves n Jobs whose updates are spread over the year before
// now.
func newSyncServer(tb testing.TB, n int, latency time.Duration) *syncServer {
	updated := make(map[int64]time.Time, n)
	now := time.Now().UTC().Truncate(time.Millisecond)
	rng := rand.New(rand.NewPCG(1, 2))
	for id := int64(1); id <= int64(n); id++ {
		updated[id] = now.Add(-time.Duration(rng.Int64N(int64(365 * 24 * time.Hour)))).Truncate(time.Millisecond)
	}
	return newSyncServerOf(tb, updated, latency)
}

// newSyncServerOf serves the Jobs of updated (updated_at by ID).
func newSyncServerOf(tb testing.TB, updated map[int64]time.Time, latency time.Duration) *syncServer {
	s := &syncServer{latency: latency, updated: updated}
	s.reindex()
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(s.Close)
	return s
}

func (s *syncServer) now() time.Time { return time.Now().UTC().Add(s.skew).Truncate(time.Millisecond) }

// reindex orders byTime; the caller holds mu for writing, or owns s.
func (s *syncServer) reindex() {
	s.windows.Clear()
	s.byTime = s.byTime[:0]
	for id := range s.updated {
		s.byTime = append(s.byTime, id)
	}
	sort.Slice(s.byTime, func(i, k int) bool {
		a, c := s.updated[s.byTime[i]], s.updated[s.byTime[k]]
		if !a.Equal(c) {
			return a.Before(c)
		}
		return s.byTime[i] < s.byTime[k]
	})
}

// advance lets d pass on the server's clock, changing ids at times spread
// over it.
func (s *syncServer) advance(d time.Duration, ids []int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	from := s.now()
	s.skew += d
	for i, id := range ids {
		s.updated[id] = from.Add(d * time.Duration(i+1) / time.Duration(len(ids)+1)).Truncate(time.Millisecond)
	}
	s.reindex()
}

func (s *syncServer) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/api_v2/authenticate":
		fmt.Fprintf(w, `{"token": "tok-1", "expires_at": %q}`, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
		return
	case "/api_v2/info":
		s.mu.RLock()
		fmt.Fprintf(w, `{"utc_time_now": %q, "environment": "test"}`, s.now().Format(time.RFC3339))
		s.mu.RUnlock()
		return
	}
	s.requests.Add(1)
	s.depthMu.Lock()
	d, round := s.depth+1, s.round
	s.depthMu.Unlock()
	time.Sleep(s.latency)
	defer func() {
		s.depthMu.Lock()
		if round == s.round {
			s.depth = max(s.depth, d)
		}
		s.depthMu.Unlock()
	}()
	q := r.URL.Query()
	parse := func(name string) time.Time {
		t, _ := time.Parse(time.RFC3339Nano, q.Get(name))
		return t
	}
	after, before := parse("updated_after"), parse("updated_before")
	page, _ := strconv.Atoi(q.Get("page"))
	per, _ := strconv.Atoi(q.Get("per"))
	page, per = max(page, 1), min(max(per, 1), 50)

	s.mu.RLock()
	ids := s.window(q.Get("updated_after")+" "+q.Get("updated_before"), after, before)
	from := min((page-1)*per, len(ids))
	ids = ids[from:min(from+per, len(ids))]
	var b strings.Builder
	b.WriteString(`{"jobs": [`)
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id": %d, "state": "filled", "job_request_id": 9, "worker_id": 7, "adjusted_wage": "18.50", "updated_at": %q}`,
			id, s.updated[id].Format("2006-01-02T15:04:05.000Z07:00"))
	}
	s.mu.RUnlock()
	b.WriteString(`]}`)
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, b.String())
}

// window returns the ids of Jobs updated in [after, before), newest first,
// sorting them once per window so that its pages cost a lookup; the
// caller holds mu for reading.
func (s *syncServer) window(key string, after, before time.Time) []int64 {
	if ids, ok := s.windows.Load(key); ok {
		return ids.([]int64)
	}
	lo := 0
	if !after.IsZero() { // updated_after inclusive
		lo = sort.Search(len(s.byTime), func(i int) bool { return !s.updated[s.byTime[i]].Before(after) })
	}
	hi := len(s.byTime)
	if !before.IsZero() { // updated_before exclusive
		hi = sort.Search(len(s.byTime), func(i int) bool { return !s.updated[s.byTime[i]].Before(before) })
	}
	ids := slices.Clone(s.byTime[lo:max(lo, hi)])
	slices.Sort(ids)
	slices.Reverse(ids) // newest first
	s.windows.Store(key, ids)
	return ids
}

// BenchmarkSync syncs 100,000 Jobs served at 50 ms per request from
// scratch, then 1,000 of them changed over ten minutes since:
//
//	go test -run '^$' -bench BenchmarkSync -benchtime 1x .
func BenchmarkSync(b *testing.B) {
	const n, changes = 100000, 1000
	s := newSyncServer(b, n, 50*time.Millisecond)
	c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(s.URL), workforce.WithRetry(0, 0, 0))
	if err != nil {
		b.Fatal(err)
	}
	run := func(b *testing.B, wm *time.Time, want int) {
		got := map[int64]bool{}
		for job, err := range c.Jobs.Sync(context.Background(), wm, nil) {
			if err != nil {
				b.Fatal(err)
			}
			got[job.ID] = true
		}
		if len(got) < want {
			b.Fatalf("synced %d Jobs, want %d", len(got), want)
		}
	}
	// The link's limit: every page once, 16 at a time, each taking the latency.
	limit := time.Duration(n/workforce.MaxPerPage) * s.latency / 16
	var wm time.Time
	b.Run("full-100000", func(b *testing.B) {
		for b.Loop() {
			wm = time.Time{}
			s.requests.Store(0)
			run(b, &wm, n)
		}
		b.ReportMetric(float64(s.requests.Load()), "requests")
		b.ReportMetric(float64(s.requests.Load())/float64(n/workforce.MaxPerPage), "requests/page")
		b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/limit.Seconds(), "x-limit")
	})
	b.Run("plain-all-100000", func(b *testing.B) { // the baseline: one walk of the list, no sync
		for b.Loop() {
			s.requests.Store(0)
			got := 0
			for _, err := range c.Jobs.All(context.Background(), nil) {
				if err != nil {
					b.Fatal(err)
				}
				got++
			}
			if got != n {
				b.Fatalf("walked %d Jobs, want %d", got, n)
			}
		}
		b.ReportMetric(float64(s.requests.Load()), "requests")
		b.ReportMetric(float64(s.requests.Load())/float64(n/workforce.MaxPerPage), "requests/page")
		b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/limit.Seconds(), "x-limit")
	})
	b.Run("changed-1000", func(b *testing.B) {
		rng := rand.New(rand.NewPCG(3, 4))
		for b.Loop() {
			b.StopTimer()
			ids := make([]int64, changes)
			for i := range ids {
				ids[i] = 1 + rng.Int64N(n)
			}
			s.advance(10*time.Minute, ids)
			mark := wm
			s.requests.Store(0)
			s.depthMu.Lock()
			s.depth, s.round = 0, s.round+1
			s.depthMu.Unlock()
			b.StartTimer()
			run(b, &mark, len(distinct(ids)))
			wm = mark
		}
		b.ReportMetric(float64(s.requests.Load()), "requests")
		b.ReportMetric(float64(s.depth), "round-trips")
	})
}

func distinct(ids []int64) map[int64]bool {
	out := map[int64]bool{}
	for _, id := range ids {
		out[id] = true
	}
	return out
}
