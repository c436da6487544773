package workforcetest

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

func TestRequestLogRing(t *testing.T) {
	t.Parallel()
	s := &Server{}
	for i := range maxRequests + 5 {
		s.log.add(Request{Path: strconv.Itoa(i)})
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
	s.log.add(Request{Path: "after"})
	if got := s.Requests(); len(got) != 1 || got[0].Path != "after" {
		t.Fatalf("after a reset: %v", got)
	}
}

func BenchmarkRequestLogFull(b *testing.B) {
	var l requestLog
	for range maxRequests {
		l.add(Request{Path: "/api_v2/jobs"})
	}
	b.ResetTimer()
	for range b.N {
		l.add(Request{Path: "/api_v2/jobs"})
	}
}

// TestRequestLogBoundsItsBytes fills the log with the largest entries a
// client can make it keep: it holds no more than maxLogBytes, the newest
// first kept, and still at most maxRequests small ones.
func TestRequestLogBoundsItsBytes(t *testing.T) {
	t.Parallel()
	s := &Server{}
	header := http.Header{"X-Big": {strings.Repeat("h", maxHeaderBytes)}}
	body := []byte(strings.Repeat("b", maxLoggedBody))
	for i := range 2000 {
		s.log.add(Request{Path: strconv.Itoa(i), Header: header, Body: body})
	}
	got := s.Requests()
	total := 0
	for _, r := range got {
		total += r.size()
	}
	if total > maxLogBytes || s.log.bytes != total {
		t.Fatalf("the log holds %d bytes (counted %d), at most %d", total, s.log.bytes, maxLogBytes)
	}
	if len(got) < 200 || got[len(got)-1].Path != "1999" || got[0].Path != strconv.Itoa(2000-len(got)) {
		t.Fatalf("%d kept, from %s to %s: want the newest, in order", len(got), got[0].Path, got[len(got)-1].Path)
	}
	for i := range maxRequests + 3 {
		s.log.add(Request{Path: "small" + strconv.Itoa(i)})
	}
	if got := s.Requests(); len(got) != maxRequests || got[0].Path != "small3" {
		t.Fatalf("%d small requests kept, the first %s", len(got), got[0].Path)
	}
}
