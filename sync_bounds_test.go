package workforce_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

type revJob struct {
	ID        int64  `json:"id"`
	State     string `json:"state"`
	UpdatedAt string `json:"updated_at"`
	at        time.Time
}

type revServer struct {
	mu        sync.Mutex
	now       time.Time
	trunc     time.Duration // timestamps and utc_time_now are cut to this
	exclusive bool          // updated_after is exclusive (updated_at > after)
	jobs      map[int64]*revJob
	afterList func(s *revServer)
}

func (s *revServer) stamp() time.Time { return s.now.Truncate(s.trunc) }

func (s *revServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/api_v2/info":
		json.NewEncoder(w).Encode(map[string]any{"utc_time_now": s.stamp().Format(time.RFC3339Nano)})
	case "/api_v2/jobs":
		q := r.URL.Query()
		var after, before time.Time
		if v := q.Get("updated_after"); v != "" {
			after, _ = time.Parse(time.RFC3339Nano, v)
		}
		if v := q.Get("updated_before"); v != "" {
			before, _ = time.Parse(time.RFC3339Nano, v)
		}
		page, _ := strconv.Atoi(q.Get("page"))
		page = max(page, 1)
		var sel []*revJob
		for _, j := range s.jobs {
			if !after.IsZero() && (j.at.Before(after) || (s.exclusive && j.at.Equal(after))) {
				continue
			}
			if !before.IsZero() && !j.at.Before(before) {
				continue
			}
			sel = append(sel, j)
		}
		sort.Slice(sel, func(a, b int) bool { return sel[a].ID > sel[b].ID })
		lo, hi := min((page-1)*50, len(sel)), min(page*50, len(sel))
		out := make([]revJob, 0)
		for _, j := range sel[lo:hi] {
			out = append(out, *j)
		}
		json.NewEncoder(w).Encode(map[string]any{"jobs": out})
		if s.afterList != nil {
			s.afterList(s)
		}
	}
}

func (s *revServer) set(id int64, state string, at time.Time) {
	s.jobs[id] = &revJob{ID: id, State: state, UpdatedAt: at.Format(time.RFC3339Nano), at: at}
}

func revClient(t *testing.T, s *revServer) *workforce.Client {
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c, err := workforce.New("", "", workforce.WithToken("tok"), workforce.WithBaseURL(srv.URL))
	require.NoError(t, err)
	return c
}

// BUG: a sync from a watermark years back skips records: the split
// boundaries overflow time.Duration.
func TestReviewSyncFromYearsAgoSkips(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s := &revServer{now: now, trunc: time.Nanosecond, jobs: map[int64]*revJob{}}
	const n = 2400
	span := 7 * 365 * 24 * time.Hour
	for i := int64(1); i <= n; i++ {
		s.set(i, "filled", now.Add(-span).Add(span/n*time.Duration(i)-time.Minute))
	}
	c := revClient(t, s)
	wm := now.Add(-span - time.Hour)
	got := map[int64]bool{}
	for j, err := range c.Jobs.Sync(context.Background(), &wm, nil) {
		require.NoError(t, err)
		got[j.ID] = true
	}
	require.Len(t, got, n, "every Job changed since the watermark must be yielded")
}

// BUG: with second-truncated timestamps and an exclusive updated_after,
// a change made just after the sync began is neither in this sync nor the next.
func TestReviewSyncWatermarkGapExclusive(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	s := &revServer{now: t0.Add(700 * time.Millisecond), trunc: time.Second, exclusive: true, jobs: map[int64]*revJob{}}
	s.set(1, "filled", t0.Add(-time.Hour))
	s.afterList = func(s *revServer) { // Job 1 changes right after the sync's read of it
		s.now = t0.Add(800 * time.Millisecond)
		s.set(1, "cancelled", s.stamp())
		s.afterList = nil
	}
	c := revClient(t, s)
	wm := t0.Add(-2 * time.Hour)
	var states []string
	for j, err := range c.Jobs.Sync(context.Background(), &wm, nil) {
		require.NoError(t, err)
		states = append(states, string(j.State))
	}
	s.mu.Lock()
	s.now = t0.Add(10 * time.Minute)
	s.mu.Unlock()
	for j, err := range c.Jobs.Sync(context.Background(), &wm, nil) {
		require.NoError(t, err)
		states = append(states, string(j.State))
	}
	t.Logf("states yielded over two syncs: %v (server has cancelled)", states)
	require.Contains(t, states, "cancelled", "the change made during sync 1 must reach sync 2")
}
