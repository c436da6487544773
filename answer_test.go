package workforce_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// hostile is an answer built to cost the client memory.
type hostile struct {
	name    string
	call    func(c *workforce.Client) error
	path    string // answered, below /api_v2/
	body    []byte // the answer; nil: a body that never ends
	chunked bool   // sent without Content-Length
	// accepted: within every limit, so decoded, at the most memory an
	// answer of its kind can cost
	accepted bool
}

func listJobs(c *workforce.Client) error {
	_, _, err := c.Jobs.List(context.Background(), nil)
	return err
}

func getJob1(c *workforce.Client) error {
	_, _, err := c.Jobs.Get(context.Background(), 1)
	return err
}

// repeated returns prefix, then item repeated to make size bytes in all,
// then suffix: a well-formed document.
func repeated(prefix, item, suffix string, size int) []byte {
	n := (size - len(prefix) - len(suffix)) / (len(item) + 1)
	var b bytes.Buffer
	b.Grow(size)
	b.WriteString(prefix)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(item)
	}
	b.WriteString(suffix)
	return b.Bytes()
}

// distinctMembers returns an object of n members of distinct names, each
// an entry of its own in a map.
func distinctMembers(n int) []byte {
	var b bytes.Buffer
	b.Grow(12*n + 2)
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"%07x":0`, i)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func hostileAnswers() []hostile {
	const mib = 1 << 20
	return []hostile{
		{"4 MiB of empty Jobs", listJobs, "jobs", repeated(`{"jobs":[`, `{}`, `]}`, 4*mib), false, false},
		{"4 MiB of empty Jobs, chunked", listJobs, "jobs", repeated(`{"jobs":[`, `{}`, `]}`, 4*mib), true, false},
		{"16 MiB of empty Jobs", listJobs, "jobs", repeated(`{"jobs":[`, `{}`, `]}`, 16*mib), false, false},
		{"16 MiB of empty Jobs, chunked", listJobs, "jobs", repeated(`{"jobs":[`, `{}`, `]}`, 16*mib), true, false},
		{"a page of 3.9 MiB of transitions", listJobs, "jobs", repeated(`{"jobs":[{"id":1,"transitions":[`, `{}`, `]}]}`, 4*mib-mib/8), false, false},
		{"a Job with 3.9 MiB of transitions", getJob1, "jobs/1", repeated(`{"job":{"id":1,"transitions":[`, `{}`, `]}}`, 4*mib-mib/8), false, false},
		{"a Job with 0.9 MiB of transitions", getJob1, "jobs/1", repeated(`{"job":{"id":1,"transitions":[`, `{}`, `]}}`, mib-mib/8), false, false},
		{"a page of 3.9 MiB of zeros", listJobs, "jobs", repeated(`{"jobs":[{"id":1,"preferred_candidate_ids":[`, `0`, `]}]}`, 4*mib-mib/8), false, false},
		{"a raw answer of 4 MiB of members, into a map", rawMap, "anything", distinctMembers(4 * mib / 12), false, false},
		{"a list that never ends", listJobs, "jobs", nil, true, false},
		{"a Job that never ends", getJob1, "jobs/1", nil, true, false},
		// The worst within the limits: the most items, each the largest
		// value it can be; the largest body of long strings.
		{"9,999 Users of only an id found", search, "search", repeated(`{"users":[`, `{"id":1}`, `]}`, 9999*9+10), false, true},
		{"9,999 empty Users found (no id: refused)", search, "search", repeated(`{"users":[`, `{}`, `]}`, 9999*3+10), false, false},
		{"6,666 rankings of empty Workers", rankings, "job_requests/1/rankings",
			repeated(`{"rankings":[`, `{"worker":{}}`, `]}`, 6666*14+13), false, true},
		{"a page of 9,997 empty transitions", listJobs, "jobs", repeated(`{"jobs":[{"id":1,"transitions":[`, `{}`, `]}]}`, 9997*3+30), false, true},
		{"a raw answer of 49,999 members, into a map", rawMap, "anything", distinctMembers(49_999), false, true},
		{"a page of 50 Jobs of 80 KiB notes", listJobs, "jobs",
			[]byte(`{"jobs":[` + strings.Repeat(`{"id":1,"requestor_notes":"`+strings.Repeat("x", 80<<10)+`"},`, 49) +
				`{"id":1,"requestor_notes":"` + strings.Repeat("x", 80<<10) + `"}]}`), false, true},
		// The lenient path: every value fits no form (a warning each), or
		// one value in each record needs a form json.Unmarshal refuses.
		{"a page of 49,500 values that fit no form", listJobs, "jobs", warningPage(990, strings.Repeat("x", 60)), false, true},
		{"a page of 49,500 escaped values that fit no form", listJobs, "jobs", warningPage(990, `\u0041`+strings.Repeat("x", 52)), false, true},
		{"a raw answer of 2,000 objects under a 1 MB member name, leniently", rawNested, "anything", longNamedObjects(2000), false, true},
		{"a search of 4 Users of 1 MB", search, "search", hugeRecords(`{"users":[`, `{"id":1,"first_name":"%s"}`, `]}`), false, true},
		{"a search of 4 Users of 1 MB, leniently", search, "search",
			hugeRecords(`{"users":[`, `{"id":1,"suspended":"no","first_name":"%s"}`, `]}`), false, true},
		{"4 rankings of Workers of 1 MB", rankings, "job_requests/1/rankings",
			hugeRecords(`{"rankings":[`, `{"rank":1,"worker":{"id":1,"first_name":"%s"}}`, `]}`), false, true},
		{"4 rankings of Workers of 1 MB, leniently", rankings, "job_requests/1/rankings",
			hugeRecords(`{"rankings":[`, `{"rank":"1","worker":{"id":1,"suspended":"no","first_name":"%s"}}`, `]}`), false, true},
	}
}

// warningPage returns a page of 50 Jobs, each holding perJob members
// "hours_worked" whose value fits no form of a decimal.
func warningPage(perJob int, value string) []byte {
	var b bytes.Buffer
	b.WriteString(`{"jobs":[`)
	for i := range 50 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d`, 1000-i)
		for range perJob {
			b.WriteString(`,"hours_worked":"` + value + `"`)
		}
		b.WriteByte('}')
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// hugeRecords returns prefix, four records of item each with its %s a
// name of 1 MB, and suffix: the largest strings a list answer may hold.
func hugeRecords(prefix, item, suffix string) []byte {
	record := fmt.Sprintf(item, strings.Repeat("a", 1_000_000))
	return []byte(prefix + strings.Repeat(record+",", 3) + record + suffix)
}

// rawNested reads an answer through Client.Do into maps of maps, which
// the lenient path decodes when a value does not fit.
func rawNested(c *workforce.Client) error {
	var m map[string]map[string]map[string]int
	resp, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: "anything"}, &m)
	if err == nil && len(resp.Warnings) == 0 {
		return errors.New("no warning")
	}
	return err
}

// longNamedObjects returns a member of a 1 MB name holding n objects, one
// with a value that fits no form.
func longNamedObjects(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"` + strings.Repeat("k", 1_000_000) + `":{"bad":{"x":"many"}`)
	for i := range n {
		fmt.Fprintf(&b, `,"o%d":{}`, i)
	}
	b.WriteString(`}}`)
	return b.Bytes()
}

// rawMap reads an answer through Client.Do into a map, which costs an
// entry for each member.
func rawMap(c *workforce.Client) error {
	var m map[string]any
	_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: "anything"}, &m)
	return err
}

func search(c *workforce.Client) error {
	_, _, err := c.Search.Query(context.Background(), "x")
	return err
}

func rankings(c *workforce.Client) error {
	_, _, err := c.JobRequests.Rankings(context.Background(), 1)
	return err
}

// serveHostile returns a server answering h, or a body that never ends (until the client
// goes) when h.body is nil.
func serveHostile(t testing.TB, h hostile) *httptest.Server {
	endless := repeated(`{"jobs":[`, `{}`, ``, 64<<10)[9:]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api_v2/authenticate" {
			w.Write([]byte(`{"token": "tok_hostile", "expires_at": "2099-01-01T00:00:00Z"}`))
			return
		}
		if r.URL.Path != "/api_v2/"+h.path {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if h.body == nil {
			w.Write([]byte(`{"jobs":[{}`))
			for {
				if _, err := w.Write(endless); err != nil {
					return
				}
			}
		}
		if !h.chunked {
			w.Header().Set("Content-Length", strconv.Itoa(len(h.body)))
		}
		w.Write(h.body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// liveHeap samples the bytes of live heap objects until stop is closed,
// and sends the most it saw.
func liveHeap(stop <-chan struct{}) <-chan uint64 {
	out := make(chan uint64, 1)
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var peak uint64
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-stop:
				out <- peak
				return
			case <-time.After(200 * time.Microsecond):
			}
		}
	}()
	return out
}

// measure runs call once and returns the bytes allocated while it ran, the
// peak of live heap above what was live before, and its error.
func measure(call func() error) (allocated, peak uint64, err error) {
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop := make(chan struct{})
	peaks := liveHeap(stop)
	err = call()
	close(stop)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, max(<-peaks, before.HeapAlloc) - before.HeapAlloc, err
}

// maxAnswerMemory is the most one hostile answer may cost the client: a
// small multiple of a real answer (a page of 50 Jobs is 100-200 KiB, and
// decodes into about 1 MiB).
const maxAnswerMemory = 24 << 20

// TestHostileAnswersCostBoundedMemory has a server answer what the issue
// of unbounded answers named (4 and 16 MiB of {"jobs":[{},{},...]}, a body
// that never ends) and a few more shapes, and checks that each is refused
// as a *DecodeError having cost the client less than maxAnswerMemory of
// allocation (so of live heap too). It is not parallel: it measures the
// allocations of the whole process while it runs.
func TestHostileAnswersCostBoundedMemory(t *testing.T) {
	for _, h := range hostileAnswers() {
		t.Run(h.name, func(t *testing.T) {
			srv := serveHostile(t, h)
			c := newKeyed(t, srv.URL, workforce.WithRetry(0, 0, 0))
			require.NoError(t, getJob1OrNothing(c)) // the token fetch and the first connection, outside the measure
			allocated, peak, err := measure(func() error { return h.call(c) })
			t.Logf("%s: allocated %.1f MiB, live heap peak +%.1f MiB", h.name, float64(allocated)/(1<<20), float64(peak)/(1<<20))
			if h.accepted {
				assert.NoError(t, err)
			} else {
				var decodeErr *workforce.DecodeError
				assert.True(t, errors.As(err, &decodeErr), "refused as a DecodeError: %v", err)
			}
			assert.Less(t, allocated, uint64(maxAnswerMemory), "allocated")
			assert.Less(t, peak, uint64(maxAnswerMemory), "live heap")
		})
	}
}

// getJob1OrNothing warms c up: it authenticates with a call that the
// hostile server answers 404.
func getJob1OrNothing(c *workforce.Client) error {
	_, _, err := c.Badges.Get(context.Background(), 1)
	if errors.Is(err, workforce.ErrNotFound) {
		return nil
	}
	return err
}

// BenchmarkHostileAnswer reports what one hostile answer costs the client
// (B/op), beside a real page of 50 Jobs as workforcetest renders them.
func BenchmarkHostileAnswer(b *testing.B) {
	for _, h := range hostileAnswers() {
		if strings.Contains(h.name, "16 MiB") || strings.Contains(h.name, "chunked") {
			continue
		}
		b.Run(strings.ReplaceAll(h.name, " ", "_"), func(b *testing.B) {
			srv := serveHostile(b, h)
			c := newKeyed(b, srv.URL, workforce.WithRetry(0, 0, 0))
			require.NoError(b, getJob1OrNothing(c))
			b.ReportAllocs()
			var once sync.Once
			for b.Loop() {
				if err := h.call(c); (err == nil) != h.accepted {
					once.Do(func() { b.Errorf("accepted %v, want %v: %v", err == nil, h.accepted, err) })
				}
			}
		})
	}
}
