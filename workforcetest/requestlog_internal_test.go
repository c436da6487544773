package workforcetest

import (
	"strconv"
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
