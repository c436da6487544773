package workforcetest

import (
	"fmt"
	"maps"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestRequestLogRing(t *testing.T) {
	t.Parallel()
	s := &Server{}
	for i := range maxRequests + 5 {
		s.log.add(entry{path: strconv.Itoa(i)})
	}
	got := s.Requests()
	if len(got) != maxRequests {
		t.Fatalf("%d requests kept, want %d", len(got), maxRequests)
	}
	for i, req := range got {
		if want := strconv.Itoa(i + 5); req.Path != want {
			t.Fatalf("request %d is %s, want %s: oldest first, the 5 oldest forgotten", i, req.Path, want)
		}
	}
	s.ResetRequests()
	s.log.add(entry{path: "after"})
	if got := s.Requests(); len(got) != 1 || got[0].Path != "after" {
		t.Fatalf("after a reset: %v", got)
	}
}

func BenchmarkRequestLogFull(b *testing.B) {
	var l requestLog
	for range maxRequests {
		l.add(entry{path: "/api_v2/jobs"})
	}
	b.ResetTimer()
	for range b.N {
		l.add(entry{path: "/api_v2/jobs"})
	}
}

// TestRequestLogBoundsItsBytes fills the log with the largest entries a
// client can make it keep: it holds no more than maxLogBytes, the newest
// first kept, and still at most maxRequests small ones.
func TestRequestLogBoundsItsBytes(t *testing.T) {
	t.Parallel()
	s := &Server{}
	header := scrubHeader(http.Header{"X-Big": {strings.Repeat("h", maxHeaderBytes)}})
	body := []byte(strings.Repeat("b", maxLoggedBody))
	for i := range 2000 {
		s.log.add(entry{path: strconv.Itoa(i), header: header, body: body})
	}
	got := s.Requests()
	total := 0
	for i := range s.log.n {
		total += s.log.entries[(s.log.start+i)%len(s.log.entries)].size()
	}
	if total > maxLogBytes || s.log.bytes != total {
		t.Fatalf("the log holds %d bytes (counted %d), at most %d", total, s.log.bytes, maxLogBytes)
	}
	if len(got) < 200 || got[len(got)-1].Path != "1999" || got[0].Path != strconv.Itoa(2000-len(got)) {
		t.Fatalf("%d kept, from %s to %s: want the newest, in order", len(got), got[0].Path, got[len(got)-1].Path)
	}
	for i := range maxRequests + 3 {
		s.log.add(entry{path: "small" + strconv.Itoa(i)})
	}
	if got := s.Requests(); len(got) != maxRequests || got[0].Path != "small3" {
		t.Fatalf("%d small requests kept, the first %s", len(got), got[0].Path)
	}
}

// TestRequestLogHoldsNoMoreThanItCounts sends requests that need no token, each shaped to cost
// more than it looks: thousands of tiny headers, a long request line of which little parses,
// thousands of query parameters, one header as large as the server takes. What the log holds is
// what it counts, which TestRequestLogBoundsItsBytes bounds by maxLogBytes. It measures the
// process's heap, so it does not run in parallel: the parallel tests start after it.
func TestRequestLogHoldsNoMoreThanItCounts(t *testing.T) {
	var params strings.Builder
	for i := 0; params.Len() < 40<<10; i++ {
		fmt.Fprintf(&params, "%x=1&", i)
	}
	tiny := http.Header{}
	for i := range 6000 {
		tiny[fmt.Sprintf("X%04x", i)] = []string{"v"}
	}
	for _, c := range []struct {
		name   string
		target string
		header http.Header
	}{
		{"6,000 tiny headers", "/api_v2/nowhere", tiny},
		{"a long request line of which little parses", "/api_v2/nowhere?x=%zz" + strings.Repeat("y", 60<<10), nil},
		{"thousands of query parameters", "/api_v2/nowhere?" + params.String(), nil},
		{"one header as large as the server takes", "/api_v2/nowhere", http.Header{"X-Big": {strings.Repeat("h", 60<<10)}}},
	} {
		srv := NewServer(t)
		client := &http.Client{}
		for i := range 100 {
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL+c.target, nil)
			if err != nil {
				t.Fatal(err)
			}
			maps.Copy(req.Header, c.header)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("%s: request %d: %v", c.name, i, err)
			}
			resp.Body.Close()
		}
		held := heapAlloc()
		srv.log.mu.Lock()
		counted := srv.log.bytes
		srv.log.mu.Unlock()
		srv.ResetRequests()
		held -= heapAlloc()
		t.Logf("%s: the log counts %.1f MiB and holds %.1f MiB", c.name, float64(counted)/(1<<20), float64(held)/(1<<20))
		if held > int64(counted)+1<<20 {
			t.Errorf("%s: the log counts %.1f MiB but holds %.1f MiB", c.name, float64(counted)/(1<<20), float64(held)/(1<<20))
		}
		srv.Close()
	}
}

// heapAlloc returns the bytes of the heap's live objects, after two collections (the second
// frees what sync.Pools kept through the first).
func heapAlloc() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
