package workforce_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// listServer serves GET /api_v2/jobs over n Jobs (ids n down to 1) in pages
// of per, each answer after latency (plus a jitter that varies by page, so
// that pages in flight come back out of order), and counts requests, those
// in flight at once, and those cancelled by the client.
//
// A server with refuseAbove set answers 429 at once, with Retry-After 1, to
// a request that finds that many in flight already, as a rate limiter
// would; refused counts them. empty counts the pages past the end.
type listServer struct {
	*httptest.Server
	n, failPage        int
	latency            time.Duration
	jitter             bool
	refuseAbove        int64
	requests, inFlight atomic.Int64
	maxInFlight        atomic.Int64
	cancelled          atomic.Int64
	refused, empty     atomic.Int64
	// storm, when set, answers 429 to every request it is asked about.
	storm func(request int64) bool
}

func newListServer(t testing.TB, n int, latency time.Duration) *listServer {
	s := &listServer{n: n, latency: latency}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

func (s *listServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/api_v2/authenticate" {
		fmt.Fprintf(w, `{"token": "tok-1", "expires_at": %q}`, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
		return
	}
	request := s.requests.Add(1)
	now := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	if (s.refuseAbove > 0 && now > s.refuseAbove) || (s.storm != nil && s.storm(request)) {
		s.refused.Add(1)
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"error": "too many requests"}`)
		return
	}
	for {
		m := s.maxInFlight.Load()
		if now <= m || s.maxInFlight.CompareAndSwap(m, now) {
			break
		}
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	per, _ := strconv.Atoi(r.URL.Query().Get("per"))
	jitter := time.Duration(0)
	if s.jitter {
		jitter = time.Duration(page%3) * s.latency / 4
	}
	select {
	case <-time.After(s.latency + jitter):
	case <-r.Context().Done():
		s.cancelled.Add(1)
		return
	}
	if page == s.failPage {
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"error": "boom"}`)
		return
	}
	if (page-1)*per >= s.n {
		s.empty.Add(1)
	}
	var b strings.Builder
	b.WriteString(`{"jobs": [`)
	for i := 0; i < per; i++ {
		id := s.n - (page-1)*per - i
		if id < 1 {
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id": %d, "state": "filled"}`, id)
	}
	b.WriteString(`]}`)
	fmt.Fprint(w, b.String())
}

func (s *listServer) client(t testing.TB, opts ...workforce.Option) *workforce.Client {
	c, err := workforce.New(testAPIKey, testSecretKey, append([]workforce.Option{workforce.WithBaseURL(s.URL),
		workforce.WithRetry(0, 0, 0)}, opts...)...)
	require.NoError(t, err)
	return c
}

func TestAllKeepsOrderWithPagesInFlight(t *testing.T) {
	t.Parallel()
	for _, window := range []int{1, 2, 4, 8} {
		t.Run(fmt.Sprint(window), func(t *testing.T) {
			t.Parallel()
			s := newListServer(t, 1234, 2*time.Millisecond)
			s.jitter = true
			c := s.client(t, workforce.WithPageWindow(window))
			want := int64(1234)
			for job, err := range c.Jobs.All(context.Background(), nil) {
				require.NoError(t, err)
				require.Equal(t, want, job.ID, "in order, none skipped or repeated")
				want--
			}
			assert.Zero(t, want, "every Job")
			assert.LessOrEqual(t, s.maxInFlight.Load(), int64(window), "never more than the window in flight")
			if window > 2 {
				assert.Greater(t, s.maxInFlight.Load(), int64(1), "pages were fetched concurrently")
			}
			assert.LessOrEqual(t, s.requests.Load(), int64(25+window), "25 pages, and at most window past the end")
		})
	}
}

func TestAllKeepsOrderWhileTheWindowAdapts(t *testing.T) {
	t.Parallel()
	s := newListServer(t, 2345, 2*time.Millisecond)
	s.jitter = true
	s.refuseAbove = 3 // refusals close the window, good answers open it
	c := s.client(t, workforce.WithRetry(50, 0, time.Second), workforce.WithRetryAfterUnit(time.Microsecond))
	want := int64(2345)
	for job, err := range c.Jobs.All(context.Background(), nil) {
		require.NoError(t, err)
		require.Equal(t, want, job.ID, "in order, none skipped or repeated")
		want--
	}
	assert.Zero(t, want, "every Job")
	assert.Less(t, workforce.PageWindowForTest(c), 8.0, "the window stays near what the server sustains")
	assert.LessOrEqual(t, s.maxInFlight.Load(), int64(workforce.DefaultPageWindow))
	assert.Zero(t, workforce.PagesInFlightForTest(c), "every place given back")
}

func TestAllRefusalsCloseTheWindow(t *testing.T) {
	t.Parallel()
	s := newListServer(t, 5000, time.Millisecond)
	c := s.client(t, workforce.WithRetry(50, 0, time.Second), workforce.WithRetryAfterUnit(time.Microsecond))
	workforce.IgnoreLatencyForTest(c)
	var mu sync.Mutex
	var windows []float64 // the client's window at each refused request
	s.storm = func(request int64) bool {
		if request <= 30 || request > 60 { // requests 31 to 60 refused
			return false
		}
		mu.Lock()
		defer mu.Unlock()
		windows = append(windows, workforce.PageWindowForTest(c))
		return true
	}
	n := 0
	for _, err := range c.Jobs.All(context.Background(), nil) {
		require.NoError(t, err)
		n++
	}
	require.Equal(t, 5000, n)
	require.Len(t, windows, 30)
	first, least := windows[0], slices.Min(windows)
	// Without refusals the window only opens; by how much it closes is
	// TestLimiterClosesOncePerRoundOnRefusal's.
	assert.Less(t, least, first, "the storm closed the window")
}

func TestAllBreakInTheFirstPageCostsOneRequestMore(t *testing.T) {
	t.Parallel()
	s := newListServer(t, 500, time.Millisecond)
	c := s.client(t, workforce.WithPageWindow(8))
	n := 0
	for _, err := range c.Jobs.All(context.Background(), nil) {
		require.NoError(t, err)
		if n++; n == 3 {
			break
		}
	}
	assert.LessOrEqual(t, s.requests.Load(), int64(2))
}

// TestAllBreakCancelsWhatIsInFlight is not parallel: it looks at every
// goroutine's stack.
func TestAllBreakCancelsWhatIsInFlight(t *testing.T) {
	s := newListServer(t, 5000, 400*time.Millisecond)
	c := s.client(t, workforce.WithPageWindow(8))
	n := 0
	var broke time.Time
	for _, err := range c.Jobs.All(context.Background(), nil) {
		require.NoError(t, err)
		if n++; n == 60 { // in page 2, with pages 3 and 4 in flight
			broke = time.Now()
			break
		}
	}
	assert.Less(t, time.Since(broke), 200*time.Millisecond, "the loop ended without waiting out the pages in flight")
	assert.LessOrEqual(t, s.requests.Load(), int64(4))
	assert.Eventually(t, func() bool { return s.inFlight.Load() == 0 }, 5*time.Second, 5*time.Millisecond)
	assert.NotContains(t, stacks(), "(*JobsService).List(", "no page request of the pager outlives the loop")
}

// TestAllBreakWithPagesQueuedLeavesNothing breaks a walk while pages wait
// for a place in the window. It is not parallel: it looks at every
// goroutine's stack.
func TestAllBreakWithPagesQueuedLeavesNothing(t *testing.T) {
	s := newListServer(t, 20000, 5*time.Millisecond)
	s.refuseAbove = 2 // the window closes to a few pages; the walk asks for up to 32
	c := s.client(t, workforce.WithRetry(50, 0, time.Second), workforce.WithRetryAfterUnit(time.Microsecond))
	n := 0
	for _, err := range c.Jobs.All(context.Background(), nil) {
		require.NoError(t, err)
		if n++; n == 1000 {
			break
		}
	}
	assert.Zero(t, workforce.PagesInFlightForTest(c), "every place given back or never taken")
	st := stacks()
	assert.NotContains(t, st, "(*slot).wait", "no page waits for a place once the loop is over")
	assert.NotContains(t, st, "workforce.all[", "no goroutine of the walk outlives the loop")
	assert.NotContains(t, st, "(*JobsService).List(", "no page request of the pager outlives the loop")
}

// stacks answers the stacks of every goroutine.
func stacks() string {
	buf := make([]byte, 1<<20)
	return string(buf[:runtime.Stack(buf, true)])
}

func TestAllErrorMidWalk(t *testing.T) {
	t.Parallel()
	s := newListServer(t, 1000, time.Millisecond)
	s.failPage = 4
	c := s.client(t, workforce.WithPageWindow(8))
	var ids []int64
	var errs []error
	for job, err := range c.Jobs.All(context.Background(), nil) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ids = append(ids, job.ID)
	}
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], workforce.ErrServer)
	assert.Len(t, ids, 150, "pages 1 to 3, then the error, nothing after")
	assert.Equal(t, int64(1000), ids[0])
	assert.Equal(t, int64(851), ids[149])
}

func TestAllWithNilContext(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var ctx context.Context
	for _, err := range c.Jobs.All(ctx, nil) {
		assert.ErrorIs(t, err, workforce.ErrInvalidArgument)
	}
	_, _, err := c.Jobs.Get(ctx, 1)
	assert.True(t, errors.Is(err, workforce.ErrInvalidArgument), "%v", err)
	assert.Zero(t, m.GetTotalCallCount())
}

func TestPageWindowMustBePositive(t *testing.T) {
	t.Parallel()
	_, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(mockBase), workforce.WithPageWindow(0))
	assert.ErrorIs(t, err, workforce.ErrConfig)
}

// BenchmarkWalk walks 10,000 Jobs served at 20 ms per request: with the
// default window, with windows bounded at 1, 16, 32 and 64 pages, and with
// plain code that keeps 16 pages in flight (the baseline). It reports the
// requests of a walk and those that asked for a page past the end:
//
//	go test -run '^$' -bench 'BenchmarkWalk$' -benchtime 20x .
func BenchmarkWalk(b *testing.B) {
	const jobs, latency = 10000, 20 * time.Millisecond
	b.Run("plain16", func(b *testing.B) {
		s := newListServer(b, jobs, latency)
		for b.Loop() {
			if n := plainWalk(b, s.URL, 16); n != jobs {
				b.Fatalf("%d Jobs", n)
			}
		}
		s.report(b)
	})
	for _, window := range []int{0, 1, 16, 32, 64} {
		name := fmt.Sprintf("window=%d", window)
		opts := []workforce.Option{workforce.WithPageWindow(window)}
		if window == 0 {
			name, opts = fmt.Sprintf("default=%d", workforce.DefaultPageWindow), nil
		}
		b.Run(name, func(b *testing.B) {
			s := newListServer(b, jobs, latency)
			c := s.client(b, opts...)
			for b.Loop() {
				walkAll(b, c, jobs)
			}
			s.report(b)
		})
	}
}

// BenchmarkWalkRefused walks 10,000 Jobs at 20 ms per request from a
// server that answers 429 (Retry-After: one round trip) to a request that
// finds 8 in flight, with the default window; it reports the share of
// requests refused, for a new client (first walk) and over the walks that
// follow with the same client:
//
//	go test -run '^$' -bench 'BenchmarkWalkRefused' -benchtime 20x .
func BenchmarkWalkRefused(b *testing.B) {
	const jobs, latency = 10000, 20 * time.Millisecond
	b.Run("new-client", func(b *testing.B) {
		s := newListServer(b, jobs, latency)
		s.refuseAbove = 8
		for b.Loop() {
			c := s.client(b, workforce.WithRetry(10, 0, time.Second), workforce.WithRetryAfterUnit(latency))
			walkAll(b, c, jobs)
		}
		s.report(b)
	})
	b.Run("same-client", func(b *testing.B) {
		s := newListServer(b, jobs, latency)
		s.refuseAbove = 8
		c := s.client(b, workforce.WithRetry(10, 0, time.Second), workforce.WithRetryAfterUnit(latency))
		for b.Loop() {
			walkAll(b, c, jobs)
		}
		s.report(b)
	})
}

// walkAll ranges over every Job of c's list, which must hold n.
func walkAll(b *testing.B, c *workforce.Client, n int) {
	got := 0
	for _, err := range c.Jobs.All(context.Background(), nil) {
		if err != nil {
			b.Fatal(err)
		}
		got++
	}
	if got != n {
		b.Fatalf("%d Jobs", got)
	}
}

// report adds the server's requests per walk, and those past the end and
// refused, to the benchmark's figures.
func (s *listServer) report(b *testing.B) {
	walks := float64(b.N)
	b.ReportMetric(float64(s.requests.Load())/walks, "req/op")
	b.ReportMetric(float64(s.empty.Load())/walks, "past-end/op")
	if s.refuseAbove > 0 {
		b.ReportMetric(100*float64(s.refused.Load())/float64(s.requests.Load()), "%refused")
	}
}

// plainWalk is the baseline a careful engineer would write: workers
// goroutines take page numbers in turn and fetch them with net/http,
// json.Unmarshal each page, drain and close the body, and stop at the first
// page that is not full. It answers how many Jobs it read.
func plainWalk(b *testing.B, base string, workers int) int {
	var next, total atomic.Int64
	var done atomic.Bool
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !done.Load() {
				page := next.Add(1)
				resp, err := http.Get(fmt.Sprintf("%s/api_v2/jobs?page=%d&per=50", base, page))
				if err != nil {
					b.Error(err)
					return
				}
				body, err := io.ReadAll(resp.Body)
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				var p struct{ Jobs []workforce.Job }
				if err == nil {
					err = json.Unmarshal(body, &p)
				}
				if err != nil {
					b.Error(err)
					return
				}
				total.Add(int64(len(p.Jobs)))
				if len(p.Jobs) < 50 {
					done.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	return int(total.Load())
}

// A page the server refuses gives back its place and waits for one in the
// window the refusal closed before it is sent again: the window bounds the
// retries too. Holding their places, refused pages were sent again at once
// as often as the window had been wide, and a walk against a server
// refusing above two in flight ran out of its 50 retries (146 refusals for
// 5,000 Jobs; 12 now).
func TestAllRefusedPagesWaitForTheClosedWindow(t *testing.T) {
	t.Parallel()
	s := newListServer(t, 20000, 5*time.Millisecond)
	s.refuseAbove = 2
	c := s.client(t, workforce.WithRetry(50, 0, time.Second), workforce.WithRetryAfterUnit(time.Microsecond))
	n := 0
	for _, err := range c.Jobs.All(context.Background(), nil) {
		require.NoError(t, err)
		if n++; n == 5000 {
			break
		}
	}
	assert.Less(t, s.refused.Load(), s.requests.Load()/4, "refused %d of %d requests", s.refused.Load(), s.requests.Load())
	assert.Zero(t, workforce.PagesInFlightForTest(c), "every place given back")
}
