package workforce_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
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
type listServer struct {
	*httptest.Server
	n, failPage        int
	latency            time.Duration
	jitter             bool
	requests, inFlight atomic.Int64
	maxInFlight        atomic.Int64
	cancelled          atomic.Int64
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
	s.requests.Add(1)
	now := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
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

// BenchmarkWalk walks 10,000 Jobs served at 20 ms per request, page by
// page and with the default window:
//
//	go test -run '^$' -bench BenchmarkWalk -benchtime 3x .
func BenchmarkWalk(b *testing.B) {
	for _, window := range []int{1, 2, workforce.DefaultPageWindow, 8} {
		b.Run(fmt.Sprintf("window=%d", window), func(b *testing.B) {
			s := newListServer(b, 10000, 20*time.Millisecond)
			c := s.client(b, workforce.WithPageWindow(window))
			for b.Loop() {
				n := 0
				for _, err := range c.Jobs.All(context.Background(), nil) {
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != 10000 {
					b.Fatalf("%d Jobs", n)
				}
			}
		})
	}
}
