package workforce_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sort"
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

// changingStore is a server of Jobs whose updated_at filters have the
// bounds chosen by the test, and whose Jobs may change (or be created)
// while a sync reads them: onList runs before each list answer.
type changingStore struct {
	mu        sync.Mutex
	now       time.Time // the server's clock; updated_at of a change
	updated   map[int64]time.Time
	nextID    int64
	inclusive bool // updated_before inclusive and updated_after exclusive, instead of the other way
	requests  int
	onList    func(s *changingStore) // called with mu held
	onInfo    func(s *changingStore) // called with mu held, instead of moving the clock 300 ms
	failFrom  int                    // from this list request on (when not 0), answer 500, or cut the connection
	cut       bool
}

func newChangingStore(t *testing.T) (*changingStore, *httptest.Server) {
	s := &changingStore{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC), updated: map[int64]time.Time{}, nextID: 1}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	return s, srv
}

// add creates n Jobs changed at at.
func (s *changingStore) add(n int, at time.Time) {
	for range n {
		s.updated[s.nextID] = at
		s.nextID++
	}
}

// touch changes Job id now: its updated_at moves to the server's clock.
func (s *changingStore) touch(id int64) { s.updated[id] = s.now }

func (s *changingStore) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.URL.Path {
	case "/api_v2/authenticate":
		fmt.Fprintf(w, `{"token": "tok-1", "expires_at": %q}`, s.now.Add(24*time.Hour).Format(time.RFC3339))
		return
	case "/api_v2/info":
		if s.onInfo != nil {
			s.onInfo(s)
		} else {
			s.now = s.now.Add(300 * time.Millisecond)
		}
		fmt.Fprintf(w, `{"utc_time_now": %q, "environment": "test"}`, s.now.Truncate(time.Second).Format(time.RFC3339))
		return
	}
	s.requests++
	if s.failFrom > 0 && s.requests >= s.failFrom {
		if s.cut {
			if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"error": "storm"}`)
		return
	}
	if s.onList != nil {
		s.onList(s)
	}
	s.now = s.now.Add(time.Millisecond)
	q := r.URL.Query()
	parse := func(name string) time.Time {
		v, _ := time.Parse(time.RFC3339Nano, q.Get(name))
		return v
	}
	after, before := parse("updated_after"), parse("updated_before")

	page, _ := strconv.Atoi(q.Get("page"))
	per, _ := strconv.Atoi(q.Get("per"))
	var ids []int64
	for id, u := range s.updated {
		u = u.Truncate(time.Millisecond) // the precision the server compares at
		okAfter := after.IsZero() || (s.inclusive && u.After(after)) || (!s.inclusive && !u.Before(after))
		okBefore := before.IsZero() || (s.inclusive && !u.After(before)) || (!s.inclusive && u.Before(before))
		if okAfter && okBefore {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	slices.Reverse(ids)
	from := min((page-1)*per, len(ids))
	ids = ids[from:min(from+per, len(ids))]
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id": %d, "updated_at": %q}`, id, s.updated[id].Format("2006-01-02T15:04:05.000Z07:00"))
	}
	fmt.Fprintf(w, `{%q: [%s]}`, strings.TrimPrefix(r.URL.Path, "/api_v2/"), b.String()) // the same records under any list
}

func (s *changingStore) client(t *testing.T, url string) *workforce.Client {
	c := newKeyed(t, url, workforce.WithRetry(0, 0, 0))
	return c
}

// syncOf runs a sync of resource ("jobs", "job_requests" or "users") from
// *wm with c, yielding each record's ID.
func syncOf(c *workforce.Client, resource string, wm *time.Time, opts *workforce.SyncOptions) iter.Seq2[int64, error] {
	return func(yield func(int64, error) bool) {
		ctx := context.Background()
		switch resource {
		case "jobs":
			for j, err := range c.Jobs.Sync(ctx, wm, opts) {
				id := int64(0)
				if j != nil {
					id = j.ID
				}
				if !yield(id, err) {
					return
				}
			}
		case "job_requests":
			for jr, err := range c.JobRequests.Sync(ctx, wm, opts) {
				if !yield(idOf(jr), err) {
					return
				}
			}
		case "users":
			for u, err := range c.Users.Sync(ctx, wm, opts) {
				if !yield(userID(u), err) {
					return
				}
			}
		}
	}
}

// syncOnce runs a sync from *wm and answers how often each ID was yielded.
func syncOnce(t *testing.T, c *workforce.Client, wm *time.Time, opts *workforce.SyncOptions) map[int64]int {
	t.Helper()
	got := map[int64]int{}
	for job, err := range c.Jobs.Sync(context.Background(), wm, opts) {
		require.NoError(t, err)
		got[job.ID]++
	}
	return got
}

func TestSyncSkipsNothingWhileJobsChange(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		inclusive bool
		parts     int // the most pages of a part (0: the default): a multi-part sync
	}{{false, 0}, {true, 0}, {false, 10}, {true, 10}} {
		inclusive := tc.inclusive
		t.Run(fmt.Sprintf("inclusive upper bound %v, parts of %d pages", inclusive, tc.parts), func(t *testing.T) {
			t.Parallel()
			s, srv := newChangingStore(t)
			s.inclusive = inclusive
			rng := rand.New(rand.NewPCG(1, 2))
			base := s.now.Add(-30 * 24 * time.Hour)
			for range 3000 { // spread over a month, some sharing a millisecond
				s.add(1, base.Add(time.Duration(rng.Int64N(int64(30*24*time.Hour)))).Truncate(time.Second))
			}
			s.add(120, s.now.Add(-time.Hour))   // more than two pages sharing one timestamp
			changed := map[int64]bool{}         // and created
			s.onList = func(s *changingStore) { // while the sync runs, Jobs change and new ones appear
				for range 3 {
					id := rng.Int64N(s.nextID-1) + 1
					s.touch(id)
					changed[id] = true
				}
				changed[s.nextID] = true
				s.add(1, s.now)
			}
			c := s.client(t, srv.URL)
			var wm time.Time
			opts := &workforce.SyncOptions{}
			if tc.parts > 0 {
				workforce.SetSpanPagesForTest(opts, tc.parts)
			}
			first := syncOnce(t, c, &wm, opts)
			require.False(t, wm.IsZero(), "the watermark advanced")

			s.mu.Lock()
			s.onList = nil
			var unchanged int
			for id := range s.updated {
				if changed[id] {
					continue // changed during the sync: the next sync's
				}
				unchanged++
				assert.Equal(t, 1, first[id], "job %d, unchanged during the sync, yielded exactly once", id)
			}
			s.now = s.now.Add(time.Minute)
			s.mu.Unlock()
			assert.Greater(t, unchanged, 1500)
			for id, n := range first {
				assert.Equal(t, 1, n, "job %d yielded once", id)
			}

			// The next sync yields every Job changed since, and few others.
			second := syncOnce(t, c, &wm, opts)
			for id := range changed {
				assert.Equal(t, 1, second[id], "job %d changed during the first sync", id)
			}
			assert.Less(t, len(second), len(changed)+50, "the second sync is incremental")
		})
	}
}

func TestSyncIsIncrementalAndCheap(t *testing.T) {
	t.Parallel()
	s, srv := newChangingStore(t)
	base := s.now.Add(-365 * 24 * time.Hour)
	for i := range 5000 {
		s.add(1, base.Add(time.Duration(i)*time.Hour))
	}
	c := s.client(t, srv.URL)
	var wm time.Time
	all := syncOnce(t, c, &wm, nil)
	assert.Len(t, all, 5000)
	full := s.requests

	s.mu.Lock()
	s.now = s.now.Add(time.Hour)
	for id := int64(1); id <= 300; id++ {
		s.touch(id * 7)
		s.now = s.now.Add(time.Second)
	}
	s.now = s.now.Add(time.Minute)
	s.requests = 0
	s.mu.Unlock()
	changes := syncOnce(t, c, &wm, nil)
	assert.Len(t, changes, 300)
	assert.Less(t, s.requests, 40, "an incremental sync of 300 changes reads few pages")
	t.Logf("full sync of 5000: %d requests; incremental sync of 300: %d", full, s.requests)
}

func TestSyncLeavesTheWatermarkOnBreakAndError(t *testing.T) {
	t.Parallel()
	s, srv := newChangingStore(t)
	s.add(200, s.now.Add(-time.Hour))
	c := s.client(t, srv.URL)
	var wm time.Time
	for range c.Jobs.Sync(context.Background(), &wm, nil) {
		break
	}
	assert.True(t, wm.IsZero(), "a break leaves the watermark")

	srv.Close()
	var errs int
	for _, err := range c.Jobs.Sync(context.Background(), &wm, nil) {
		require.Error(t, err)
		errs++
	}
	assert.Equal(t, 1, errs)
	assert.True(t, wm.IsZero())
}

func TestSyncRefusesBadArguments(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var wm time.Time
	for name, tc := range map[string]struct {
		wm   *time.Time
		opts *workforce.SyncOptions
	}{
		"nil watermark":        {nil, nil},
		"negative look-back":   {&wm, &workforce.SyncOptions{LookBack: -time.Second}},
		"negative precision":   {&wm, &workforce.SyncOptions{Precision: -1}},
		"negative concurrency": {&wm, &workforce.SyncOptions{Concurrency: -1}},
	} {
		for _, err := range c.Jobs.Sync(context.Background(), tc.wm, tc.opts) {
			assert.ErrorIs(t, err, workforce.ErrInvalidArgument, name)
		}
	}
	assert.Zero(t, m.GetTotalCallCount())
}

// A server with no /info: the sync reads the server's clock from the Date
// header instead, and still yields every Job once.
func TestSyncWithoutInfoUsesTheDateHeader(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	var mu sync.Mutex
	updated := map[int64]time.Time{}
	for id := int64(1); id <= 180; id++ {
		updated[id] = now.Add(-time.Duration(id) * time.Minute).Truncate(time.Second)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api_v2/authenticate":
			fmt.Fprintf(w, `{"token": "tok-1", "expires_at": %q}`, time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
			return
		case "/api_v2/info":
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		after, _ := time.Parse(time.RFC3339Nano, q.Get("updated_after"))
		before, _ := time.Parse(time.RFC3339Nano, q.Get("updated_before"))
		page, _ := strconv.Atoi(q.Get("page"))
		var ids []int64
		mu.Lock()
		defer mu.Unlock()
		for id, u := range updated {
			if (after.IsZero() || !u.Before(after)) && (before.IsZero() || u.Before(before)) {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		slices.Reverse(ids)
		from := min((max(page, 1)-1)*50, len(ids))
		ids = ids[from:min(from+50, len(ids))]
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = fmt.Sprintf(`{"id": %d, "updated_at": %q}`, id, updated[id].Format(time.RFC3339Nano))
		}
		fmt.Fprintf(w, `{"jobs": [%s]}`, strings.Join(parts, ","))
	}))
	t.Cleanup(srv.Close)
	c := newKeyed(t, srv.URL, workforce.WithRetry(0, 0, 0))
	var wm time.Time
	got := syncOnce(t, c, &wm, nil)
	assert.Len(t, got, 180)
	assert.WithinDuration(t, now, wm, 5*time.Second, "the watermark is the Date header's time")

	// Jobs changed a moment ago, inside the Date header's second, with a
	// Precision finer than it: the sync widens it to the header's second.
	mu.Lock()
	for id := int64(181); id <= 190; id++ {
		updated[id] = time.Now().UTC().Add(-time.Millisecond)
	}
	mu.Unlock()
	var fine time.Time
	got = syncOnce(t, c, &fine, &workforce.SyncOptions{Precision: time.Millisecond})
	for id := int64(181); id <= 190; id++ {
		assert.Equal(t, 1, got[id], "job %d, changed before the sync began", id)
	}
}

// More than a page of Jobs share one timestamp below the sync's start, and
// they keep changing (leaving that timestamp) on every request: the sync
// still ends, and yields every one that did not change.
func TestSyncSettlesASharedTimestampUnderSteadyChange(t *testing.T) {
	t.Parallel()
	s, srv := newChangingStore(t)
	rng := rand.New(rand.NewPCG(5, 6))
	s.add(400, s.now.Add(-time.Hour)) // ids 1..400, one timestamp, eight pages
	changed := map[int64]bool{}
	s.onList = func(s *changingStore) {
		for range 3 {
			id := 1 + rng.Int64N(400)
			s.touch(id)
			changed[id] = true
		}
	}
	c := s.client(t, srv.URL)
	var wm time.Time
	got := syncOnce(t, c, &wm, nil) // fails the test on ErrSyncUnstable
	s.mu.Lock()
	defer s.mu.Unlock()
	for id := int64(1); id <= 400; id++ {
		if !changed[id] {
			assert.Equal(t, 1, got[id], "job %d did not change", id)
		}
	}
	assert.Greater(t, len(changed), 50, "the cluster kept changing")
}

// The syncs of Job Requests and Users against the fake: everything first,
// then nothing, then exactly what changed.
func TestSyncOfJobRequestsAndUsersOnTheFake(t *testing.T) {
	t.Parallel()
	srv, c := newFake(t)
	ctx := context.Background()
	seed := srv.Seed()

	ids := func(seq func(yield func(int64, error) bool)) map[int64]int {
		got := map[int64]int{}
		for id, err := range seq {
			require.NoError(t, err)
			got[id]++
		}
		return got
	}
	var jrMark, userMark time.Time
	jrSync := func() map[int64]int {
		return ids(func(yield func(int64, error) bool) {
			for jr, err := range c.JobRequests.Sync(ctx, &jrMark, nil) {
				if !yield(idOf(jr), err) {
					return
				}
			}
		})
	}
	userSync := func() map[int64]int {
		return ids(func(yield func(int64, error) bool) {
			for u, err := range c.Users.Sync(ctx, &userMark, nil) {
				if !yield(userID(u), err) {
					return
				}
			}
		})
	}

	var allJRs, allUsers int
	for _, err := range c.JobRequests.All(ctx, nil) {
		require.NoError(t, err)
		allJRs++
	}
	for _, err := range c.Users.All(ctx, nil) {
		require.NoError(t, err)
		allUsers++
	}
	first := jrSync()
	assert.Len(t, first, allJRs)
	for id, n := range first {
		assert.Equal(t, 1, n, "job request %d yielded once", id)
	}
	assert.Len(t, userSync(), allUsers)

	srv.Advance(time.Minute)
	assert.Empty(t, jrSync(), "no change, nothing yielded")
	assert.Empty(t, userSync())

	srv.Advance(time.Minute)
	_, _, err := c.Users.Update(ctx, seed.WorkerIDs[2], &workforce.UserUpdate{City: "Glendale"})
	require.NoError(t, err)
	_, _, err = c.JobRequests.Cancel(ctx, seed.DraftJobRequestID)
	require.NoError(t, err)
	srv.Advance(time.Minute)
	assert.Equal(t, map[int64]int{seed.DraftJobRequestID: 1}, jrSync())
	assert.Equal(t, map[int64]int{seed.WorkerIDs[2]: 1}, userSync())
}

func idOf(jr *workforce.JobRequest) int64 {
	if jr == nil {
		return 0
	}
	return jr.ID
}

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
	_, c := newServer(t, s.ServeHTTP)
	return c
}

// TestSyncFromYearsAgoSkipsNothing syncs from a watermark seven years
// back, over 2,400 Jobs spread across them: every one is yielded (the
// split boundaries once overflowed time.Duration).
func TestSyncFromYearsAgoSkipsNothing(t *testing.T) {
	t.Parallel()
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

// TestChangeDuringASyncReachesTheNextWithAnExclusiveFilter changes a Job
// just after the sync read it, on a server whose timestamps are cut to the
// second and whose updated_after is exclusive: the next sync yields the
// change.
func TestChangeDuringASyncReachesTheNextWithAnExclusiveFilter(t *testing.T) {
	t.Parallel()
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

// TestSyncFinishesUnderSteadyWrites is the hot-set load of issue 15: 1,000
// Jobs, a hot set each changed every 2 s (50 and 200 writes/s), requests
// that take 30 or 80 ms of the server's time, eight syncs back to back
// with the default options. Every sync must complete, yield no Job twice,
// and skip nothing: a Job that did not change during a sync and was
// stamped below its new watermark (and at or above the one before) is
// yielded by it, and a last sync after the writes stop leaves a replica
// equal to the server's.
func TestSyncFinishesUnderSteadyWrites(t *testing.T) {
	t.Parallel()
	for _, rate := range []int{50, 200} {
		for _, latency := range []time.Duration{30 * time.Millisecond, 80 * time.Millisecond} {
			t.Run(fmt.Sprintf("%d writes/s at %v", rate, latency), func(t *testing.T) {
				t.Parallel()
				s, srv := newChangingStore(t)
				rng := rand.New(rand.NewPCG(uint64(rate), uint64(latency)))
				for range 1000 {
					s.add(1, s.now.Add(-time.Duration(rng.Int64N(int64(24*time.Hour)))))
				}
				hot := rate * 2 // each changed every 2 s
				next, due := 0, 0.0
				changed := map[int64]bool{}
				s.onList = func(s *changingStore) {
					// A request takes latency, and they are sent one at a time:
					// the most writes per request.
					step := latency
					s.now = s.now.Add(step)
					for due += float64(rate) * step.Seconds(); due >= 1; due-- {
						id := int64(1 + next*1000/hot) // hot Jobs spread over the ids
						next = (next + 1) % hot
						s.touch(id)
						changed[id] = true
					}
				}
				s.onInfo = s.onList
				c := s.client(t, srv.URL)
				replica := map[int64]time.Time{}
				var wm time.Time
				advanced := 0
				for round := range 8 {
					s.mu.Lock()
					before, start := maps.Clone(s.updated), s.now
					clear(changed)
					s.mu.Unlock()
					prev := wm
					got := map[int64]int{}
					for job, err := range c.Jobs.Sync(context.Background(), &wm, nil) {
						require.NoError(t, err, "sync %d", round)
						got[job.ID]++
						replica[job.ID] = job.UpdatedAt.Time
					}
					// The watermark lags the sync's start by a few seconds at most
					// (the top it left to the next sync), unless it stayed.
					if !wm.Equal(prev) {
						advanced++
						assert.False(t, wm.Before(start.Add(-4*time.Second)), "sync %d: watermark %s, started at %s", round, wm, start)
					}
					s.mu.Lock()
					for id, u := range before {
						if !changed[id] && !u.Before(prev) && u.Before(wm) {
							assert.Equal(t, 1, got[id], "sync %d: job %d, unchanged, stamped %s in [%s, %s)", round, id, u, prev, wm)
						}
					}
					s.mu.Unlock()
					for id, n := range got {
						assert.Equal(t, 1, n, "sync %d yielded job %d once", round, id)
					}
				}
				assert.Positive(t, advanced)
				t.Logf("%d of 8 syncs moved the watermark, %d requests", advanced, s.requests)
				s.mu.Lock()
				s.onList = nil
				s.now = s.now.Add(time.Minute)
				end := s.now
				s.mu.Unlock()
				for job, err := range c.Jobs.Sync(context.Background(), &wm, nil) {
					require.NoError(t, err)
					replica[job.ID] = job.UpdatedAt.Time
				}
				assert.False(t, wm.Before(end), "once writes stop, the watermark reaches the server's time")
				s.mu.Lock()
				defer s.mu.Unlock()
				require.Len(t, replica, len(s.updated))
				for id, u := range s.updated {
					assert.True(t, replica[id].Equal(u.Truncate(time.Millisecond)), "job %d: replica %s, server %s", id, replica[id], u)
				}
			})
		}
	}
}

// A1: a server that ignores page (and the time bounds) answers the same
// 50 Jobs to every request: the sync stops at once with a clear error
// instead of reading forever.
func TestSyncAgainstAServerIgnoringPage(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	for name, at := range map[string]time.Time{
		"records inside every window": now.Add(-time.Hour), // stamps in the window asked for
		"one timestamp":               {},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var requests atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/api_v2/authenticate":
					fmt.Fprintf(w, `{"token": "tok-1", "expires_at": %q}`, now.Add(time.Hour).Format(time.RFC3339))
					return
				case "/api_v2/info":
					fmt.Fprintf(w, `{"utc_time_now": %q}`, now.Format(time.RFC3339))
					return
				}
				requests.Add(1)
				stamp := at
				if stamp.IsZero() { // the middle of the window asked for, so that it looks filtered
					a, _ := time.Parse(time.RFC3339Nano, r.URL.Query().Get("updated_after"))
					bf, _ := time.Parse(time.RFC3339Nano, r.URL.Query().Get("updated_before"))
					if a.IsZero() {
						a = bf.Add(-time.Hour)
					}
					stamp = a.Add(bf.Sub(a) / 2)
				}
				parts := make([]string, 50)
				for i := range parts {
					parts[i] = fmt.Sprintf(`{"id": %d, "updated_at": %q}`, 1000-i, stamp.Format(time.RFC3339Nano))
				}
				fmt.Fprintf(w, `{"jobs": [%s]}`, strings.Join(parts, ","))
			}))
			t.Cleanup(srv.Close)
			c := newKeyed(t, srv.URL, workforce.WithRetry(0, 0, 0))
			var wm time.Time
			var last error
			for _, err := range c.Jobs.Sync(context.Background(), &wm, nil) {
				if err != nil {
					last = err
				}
			}
			require.Error(t, last)
			assert.True(t, errors.Is(last, workforce.ErrPageRepeated) || errors.Is(last, workforce.ErrServerFilter), "%v", last)
			assert.True(t, wm.IsZero(), "the watermark stays")
			assert.Less(t, requests.Load(), int64(2000), "the sync stopped early")
			t.Logf("%d requests: %v", requests.Load(), last)
		})
	}
}

// TestSyncCostOnEveryDistribution counts the requests of a full sync of
// 5,000 Jobs (100 pages) whose updates are spread evenly, piled up at now
// (as SeedJobs and any bulk update leave them), changed in bulk in one
// instant, or spread with IDs that do not grow with time: at most 1.1× the
// pages the data fills, plus 10; and again cut in parts of at most 40
// pages, each read by its own bracket, every Job once.
func TestSyncCostOnEveryDistribution(t *testing.T) {
	t.Parallel()
	const n = 5000
	for name, fill := range map[string]func(s *changingStore, rng *rand.Rand){
		"even": func(s *changingStore, rng *rand.Rand) {
			for i := range n {
				s.add(1, s.now.Add(-time.Duration(n-i)*time.Hour))
			}
		},
		"piled at now": func(s *changingStore, rng *rand.Rand) {
			for i := range n { // half over 90 days, half within the last minute, a tenth at now
				switch {
				case i < n/2:
					s.add(1, s.now.Add(-90*24*time.Hour+time.Duration(i)*90*24*time.Hour/(n/2)))
				case i < n*9/10:
					s.add(1, s.now.Add(-time.Minute+time.Duration(i-n/2)*time.Minute/(n*4/10)).Truncate(time.Millisecond))
				default:
					s.add(1, s.now)
				}
			}
		},
		"bulk change in one instant": func(s *changingStore, rng *rand.Rand) {
			for i := range n {
				s.add(1, s.now.Add(-time.Duration(n-i)*time.Hour))
			}
			at := s.now.Add(-30 * 24 * time.Hour)
			for range 1500 {
				s.updated[1+rng.Int64N(n)] = at
			}
		},
		"ids not growing with time": func(s *changingStore, rng *rand.Rand) {
			for range n {
				s.add(1, s.now.Add(-time.Duration(rng.Int64N(int64(365*24*time.Hour)))).Truncate(time.Millisecond))
			}
		},
	} {
		for _, parts := range []int{0, 40} {
			t.Run(fmt.Sprintf("%s, parts of %d pages", name, parts), func(t *testing.T) {
				t.Parallel()
				s, srv := newChangingStore(t)
				fill(s, rand.New(rand.NewPCG(7, 8)))
				c := s.client(t, srv.URL)
				var wm time.Time
				opts := &workforce.SyncOptions{Precision: time.Millisecond}
				if parts > 0 {
					workforce.SetSpanPagesForTest(opts, parts)
				}
				got := syncOnce(t, c, &wm, opts)
				require.Len(t, got, n)
				for id, k := range got {
					require.Equal(t, 1, k, "job %d yielded once", id)
				}
				pages := (n + workforce.MaxPerPage - 1) / workforce.MaxPerPage
				t.Logf("%s, parts of %d pages: %d requests for %d pages (%.2f×)", name, parts, s.requests, pages, float64(s.requests)/float64(pages))
				if parts == 0 {
					assert.LessOrEqual(t, s.requests, pages*11/10+10, "a full sync costs at most 1.1× the pages of its data, plus 10")
				} else { // a part costs a dozen requests more than its pages: nothing at 4,000 pages, much at 40
					assert.LessOrEqual(t, s.requests, pages*16/10, "a full sync in parts of 40 pages")
				}
			})
		}
	}
}

// A server whose clock says 2099 (or went back a year before the
// watermark) does not move the watermark: the sync stops with
// ErrServerClock before reading any record, and a Job created since is
// yielded by the next sync against a sane clock.
func TestSyncDoesNotTrustAFarServerClock(t *testing.T) {
	t.Parallel()
	s, srv := newChangingStore(t)
	s.now = time.Now().UTC().Truncate(time.Millisecond)
	s.add(10, s.now.Add(-time.Hour))
	c := s.client(t, srv.URL)
	var wm time.Time
	require.Len(t, syncOnce(t, c, &wm, nil), 10)
	good := wm

	s.mu.Lock()
	real := s.now
	s.now = time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)
	s.requests = 0
	s.mu.Unlock()
	var last error
	for _, err := range c.Jobs.Sync(context.Background(), &wm, nil) {
		last = err
	}
	require.ErrorIs(t, last, workforce.ErrServerClock)
	assert.Equal(t, good, wm, "the watermark stays")
	assert.Zero(t, s.requests, "no record is read by a sync that cannot trust the clock")

	far := good.Add(48 * time.Hour) // a watermark set by a clock two days ahead
	s.mu.Lock()
	s.now = real.Add(time.Second)
	s.add(1, s.now)
	s.mu.Unlock()
	last = nil
	for _, err := range c.Jobs.Sync(context.Background(), &far, nil) {
		last = err
	}
	require.ErrorIs(t, last, workforce.ErrServerClock)

	s.mu.Lock()
	s.now = s.now.Add(time.Minute)
	s.mu.Unlock()
	got := syncOnce(t, c, &wm, nil)
	assert.Equal(t, 1, got[11], "the Job created meanwhile")
}

// A full sync of 5,000 Jobs that fails late (a storm of 500s, or a cut
// connection, from its 70th request on) keeps its progress in a
// SyncState, persisted as text; the next sync resumes from it: together
// they yield every Job, none twice (the Jobs are old: none lie in the top
// of the window, which a resumed sync reads again), and the resumed sync
// reads only what the first did not.
func TestSyncResumesAfterAFailure(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		resource string
		cut      bool
		parts    int // the most pages of a part (0: the default)
	}{{"jobs", false, 0}, {"jobs", true, 0}, {"job_requests", false, 0}, {"users", true, 0}, {"jobs", false, 30}, {"jobs", true, 30}} {
		resource, cut := tc.resource, tc.cut
		t.Run(fmt.Sprintf("%s, cut connection %v, parts of %d pages", resource, cut, tc.parts), func(t *testing.T) {
			t.Parallel()
			const n = 5000
			s, srv := newChangingStore(t)
			for i := range n {
				s.add(1, s.now.Add(-time.Duration(n-i)*time.Hour))
			}
			s.failFrom, s.cut = 70, cut
			c := s.client(t, srv.URL)
			var wm time.Time
			var st workforce.SyncState
			first := map[int64]int{}
			var failed error
			opts := &workforce.SyncOptions{Progress: &st}
			if tc.parts > 0 {
				workforce.SetSpanPagesForTest(opts, tc.parts)
			}
			for id, err := range syncOf(c, resource, &wm, opts) {
				if err != nil {
					failed = err
					continue
				}
				first[id]++
			}
			require.Error(t, failed)
			assert.True(t, wm.IsZero(), "a failed sync leaves the watermark")
			require.False(t, st.IsZero(), "a failed sync keeps its progress")
			text, err := st.MarshalText()
			require.NoError(t, err)

			s.mu.Lock()
			s.failFrom, s.requests = 0, 0
			s.mu.Unlock()
			var again workforce.SyncState
			require.NoError(t, again.UnmarshalText(text))
			second := map[int64]int{}
			opts.Progress = &again
			for id, err := range syncOf(c, resource, &wm, opts) {
				require.NoError(t, err)
				second[id]++
			}
			assert.True(t, again.IsZero(), "a sync that finishes clears its progress")
			assert.False(t, wm.IsZero())
			for id := int64(1); id <= n; id++ {
				if first[id]+second[id] != 1 {
					t.Errorf("job %d yielded %d times before the failure and %d after", id, first[id], second[id])
				}
			}
			pages := n / workforce.MaxPerPage
			t.Logf("%d yielded before the failure, %d after, in %d requests", len(first), len(second), s.requests)
			assert.Greater(t, len(first), 1000, "the first sync got far")
			extra := 10
			if tc.parts > 0 { // the end of each part begun, and the discovery of each part not begun
				extra = 20
			}
			assert.LessOrEqual(t, s.requests, pages-len(first)/workforce.MaxPerPage+extra, "the resumed sync reads only what is left")
		})
	}
}

// Records that change between a failed sync and the one that resumes it
// leave the part below the floor: the resumed sync notices (its bracket
// does not hold) and reads that part again; nothing is skipped.
func TestSyncResumedAfterChangesSkipsNothing(t *testing.T) {
	t.Parallel()
	const n = 3000
	s, srv := newChangingStore(t)
	for i := range n {
		s.add(1, s.now.Add(-time.Duration(n-i)*time.Hour))
	}
	s.failFrom = 40
	c := s.client(t, srv.URL)
	var wm time.Time
	var st workforce.SyncState
	seen := map[int64]bool{}
	for job, err := range c.Jobs.Sync(context.Background(), &wm, &workforce.SyncOptions{Progress: &st}) {
		if err == nil {
			seen[job.ID] = true
		}
	}
	require.False(t, st.IsZero())
	s.mu.Lock()
	s.failFrom = 0
	s.now = s.now.Add(time.Minute)
	for id := int64(n); id > n-60; id-- { // the newest Jobs, on the pages read first, change
		s.touch(id)
	}
	s.now = s.now.Add(time.Minute)
	s.mu.Unlock()
	for id := range syncOnce(t, c, &wm, &workforce.SyncOptions{Progress: &st}) {
		seen[id] = true
	}
	for id := int64(1); id <= n; id++ {
		assert.True(t, seen[id], "job %d skipped", id)
	}
}

// A sync of each resource (and of Jobs in parts of 35 pages) fails mid-way
// (the server answers 500 from a request on) on data piled at a few instants (a bulk change of 1,500
// records in one millisecond, and 500 in the newest), while a writer
// changes a record at every request, during the failed sync and the one
// that resumes it: together with a last sync (which yields what changed
// during the second) they skip no record, and no sync yields one twice.
func TestSyncResumesOnPiledDataUnderWrites(t *testing.T) {
	t.Parallel()
	for _, resource := range []string{"jobs", "job_requests", "users", "jobs in parts"} {
		for _, failFrom := range []int{3, 20, 45} {
			t.Run(fmt.Sprintf("%s, 500 from request %d", resource, failFrom), func(t *testing.T) {
				t.Parallel()
				const n = 4000
				s, srv := newChangingStore(t)
				for i := range n - 2000 {
					s.add(1, s.now.Add(-time.Duration(n-i)*time.Minute))
				}
				s.add(1500, s.now.Add(-3*time.Hour))
				s.add(500, s.now.Add(-500*time.Millisecond))
				rng := rand.New(rand.NewPCG(uint64(failFrom), 7))
				s.onList = func(s *changingStore) { s.touch(1 + rng.Int64N(n)) }
				s.failFrom = failFrom
				c := s.client(t, srv.URL)
				var wm time.Time
				var st workforce.SyncState
				opts := &workforce.SyncOptions{Progress: &st}
				resource := resource
				if resource == "jobs in parts" { // of at most 35 pages: the pile of 1,500 fits one
					resource = "jobs"
					workforce.SetSpanPagesForTest(opts, 35)
				}
				seen := map[int64]bool{}
				var failed error
				for id, err := range syncOf(c, resource, &wm, opts) {
					if err != nil {
						failed = err
						continue
					}
					assert.False(t, seen[id], "record %d yielded twice by one sync", id)
					seen[id] = true
				}
				require.Error(t, failed)
				require.False(t, st.IsZero(), "a failed sync keeps its progress")
				text, err := st.MarshalText()
				require.NoError(t, err)
				var again workforce.SyncState
				require.NoError(t, again.UnmarshalText(text))
				s.mu.Lock()
				s.failFrom = 0
				s.mu.Unlock()
				twice := map[int64]bool{}
				opts.Progress = &again
				for id, err := range syncOf(c, resource, &wm, opts) {
					require.NoError(t, err)
					assert.False(t, twice[id], "record %d yielded twice by one sync", id)
					twice[id], seen[id] = true, true
				}
				assert.True(t, again.IsZero(), "a sync that finishes clears its progress")
				// A record changed during a sync may be left to the next one.
				s.mu.Lock()
				s.onList = nil
				s.mu.Unlock()
				for id, err := range syncOf(c, resource, &wm, nil) {
					require.NoError(t, err)
					seen[id] = true
				}
				for id := int64(1); id <= n; id++ {
					if !seen[id] {
						t.Errorf("record %d skipped", id)
					}
				}
			})
		}
	}
}

// A state that is not a sync state (corrupt, truncated, of another
// version) is refused by UnmarshalText; one of another resource or
// watermark is refused by the sync, before it reads a record: both with
// ErrSyncState, the state left as it was.
func TestSyncStateRefusesCorruptAndForeignStates(t *testing.T) {
	t.Parallel()
	s, srv := newChangingStore(t)
	for i := range 500 {
		s.add(1, s.now.Add(-time.Duration(500-i)*time.Hour))
	}
	s.failFrom = 5
	c := s.client(t, srv.URL)
	var wm time.Time
	var st workforce.SyncState
	for range c.Jobs.Sync(context.Background(), &wm, &workforce.SyncOptions{Progress: &st}) {
	}
	require.False(t, st.IsZero())
	text, err := st.MarshalText()
	require.NoError(t, err)

	flipped := slices.Clone(text)
	flipped[12] ^= 1
	for name, bad := range map[string][]byte{
		"garbage":       []byte("hello"),
		"truncated":     text[:len(text)-3],
		"flipped":       flipped,
		"other version": append([]byte("wfsync1:"), text[len("wfsync2:"):]...), // a state of one bracket below the floor
	} {
		got := st
		err := got.UnmarshalText(bad)
		assert.ErrorIs(t, err, workforce.ErrSyncState, name)
		assert.Equal(t, st, got, "%s: the state is left as it was", name)
	}

	s.mu.Lock()
	s.failFrom, s.requests = 0, 0
	s.mu.Unlock()
	other := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var last error
	for _, err := range c.Jobs.Sync(context.Background(), &other, &workforce.SyncOptions{Progress: &st}) {
		last = err
	}
	assert.ErrorIs(t, last, workforce.ErrSyncState, "another watermark")
	for _, err := range c.Users.Sync(context.Background(), &wm, &workforce.SyncOptions{Progress: &st}) {
		last = err
	}
	assert.ErrorIs(t, last, workforce.ErrSyncState, "another resource")
	assert.Zero(t, s.requests, "no record is read with a foreign state")
	assert.False(t, st.IsZero(), "the state is left as it was")
}

// A full sync of more than 4,000 pages (210,000 Jobs, IDs growing with time
// or not) is read in parts of at most 4,000 pages, each by a bracket
// (outside attack 7, A7-1: it fell back to slices, 17,155 requests for
// 4,200 pages): every Job once, at most 1.1× the pages plus 10.
// TestSyncCostOnEveryDistribution cuts smaller parts on every distribution.
func TestSyncOfMoreThanMaxSpanPages(t *testing.T) {
	t.Parallel()
	const n = 210000
	now := time.Now().UTC().Truncate(time.Millisecond)
	for name, at := range map[string]func(id int64, rng *rand.Rand) time.Time{
		"even": func(id int64, rng *rand.Rand) time.Time { // IDs growing with time, over three days
			return now.Add(-72 * time.Hour).Add(time.Duration(id) * time.Second)
		},
		"ids not growing with time": func(id int64, rng *rand.Rand) time.Time {
			return now.Add(-time.Duration(rng.Int64N(int64(365 * 24 * time.Hour))))
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(9, 10))
			updated := make(map[int64]time.Time, n)
			for id := int64(1); id <= n; id++ {
				updated[id] = at(id, rng).Truncate(time.Millisecond)
			}
			s := newSyncServerOf(t, updated, 0)
			c := newKeyed(t, s.URL, workforce.WithRetry(0, 0, 0))
			var wm time.Time
			got := syncOnce(t, c, &wm, nil)
			require.Len(t, got, n)
			for id, k := range got {
				if k != 1 {
					t.Fatalf("job %d yielded %d times", id, k)
				}
			}
			pages := n / workforce.MaxPerPage
			t.Logf("%s: %d requests for %d pages (%.3f×)", name, s.requests.Load(), pages, float64(s.requests.Load())/float64(pages))
			assert.LessOrEqual(t, s.requests.Load(), int64(pages*11/10+10), "a full sync costs at most 1.1× the pages of its data, plus 10")
		})
	}
}

// A sync that starts within two margins of the last one has no part below
// its floor; its state, should it fail, must read back all the same (it
// was refused as inconsistent, and a caller who persists it was stuck;
// outside attack on the sync in parts, ATK-1).
func TestTheStateOfAQuickSyncReadsBack(t *testing.T) {
	s, srv := newChangingStore(t)
	for i := range 200 {
		s.add(1, s.now.Add(-time.Duration(200-i)*time.Minute))
	}
	s.onInfo = func(s *changingStore) { s.now = s.now.Add(100 * time.Millisecond) } // syncs 100 ms apart
	c := s.client(t, srv.URL)
	var wm time.Time
	syncOnce(t, c, &wm, nil) // the last sync, finished
	s.mu.Lock()
	s.add(1, s.now)
	s.failFrom = s.requests + 1 // the next one fails at its first request
	s.mu.Unlock()
	var st workforce.SyncState
	var failed error
	for _, err := range c.Jobs.Sync(context.Background(), &wm, &workforce.SyncOptions{Progress: &st}) {
		if err != nil {
			failed = err
		}
	}
	require.Error(t, failed)
	require.False(t, st.IsZero())
	text, err := st.MarshalText()
	require.NoError(t, err)
	var again workforce.SyncState
	require.NoError(t, again.UnmarshalText(text), "a state MarshalText wrote must be read back")
}

// The parts below the floor are read one at a time: a caller slower than
// the link makes the sync hold at most about one part's pages ahead of it,
// not every part's (outside attack on the sync in parts, ATK-2).
func TestASlowCallerHoldsAtMostAPart(t *testing.T) {
	const n, span = 100000, 200 // 2,000 pages, in parts of at most 200
	s := newSyncServer(t, n, 0)
	c := newKeyed(t, s.URL, workforce.WithRetry(0, 0, 0))
	var wm time.Time
	opts := &workforce.SyncOptions{Concurrency: 8}
	workforce.SetSpanPagesForTest(opts, span)
	base := runtime.NumGoroutine()
	got, ahead, goroutines := 0, int64(0), 0
	for _, err := range c.Jobs.Sync(context.Background(), &wm, opts) {
		require.NoError(t, err)
		got++
		if got%50 == 0 {
			for range 2000 { // a caller writing each page to a database: slower than the link
				runtime.Gosched()
			}
			ahead = max(ahead, s.requests.Load()-int64(got/50))
			goroutines = max(goroutines, runtime.NumGoroutine()-base)
		}
	}
	t.Logf("%d records; at most %d pages read ahead of the consumer, %d goroutines more", got, ahead, goroutines)
	require.LessOrEqual(t, ahead, int64(span+100), "pages read ahead of the consumer are bounded by a part")
	require.LessOrEqual(t, goroutines, span+100, "goroutines bounded")
}
