package workforcetest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	workforce "github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// The list benchmarks compare the fake with a static server that answers the same bytes for the
// same URLs (the fastest server there can be), at 1,000 and 100,000 Jobs and 1, 8 and 32
// concurrent callers. They send their requests in rounds of 100 to each server in turn, so that
// both see the same load of the machine, and report each one's requests per second and their
// ratio (fake/static). Run them with
//
//	go test -run '^$' -bench 'ListJobs' -benchtime 2000x ./workforcetest/
//
// The fake's target is a ratio of 0.6 or more at 100,000 Jobs.

// benchPages is how many requests a workload cycles through.
const benchPages = 20

// BenchmarkListJobs lists the first 20 pages of 50 Jobs, unfiltered.
func BenchmarkListJobs(b *testing.B) {
	benchWorkload(b, func(b *testing.B, srv *workforcetest.Server, token string, first, last int64) []string {
		urls := make([]string, benchPages)
		for k := range urls {
			urls[k] = fmt.Sprintf("/api_v2/jobs?per=50&page=%d&token=%s", k+1, token)
		}
		return urls
	})
}

// BenchmarkListJobsLastPagesFiltered lists the last 20 pages of state=approved (six Jobs in
// ten): the pages a filter that walks from the newest Job reaches last.
func BenchmarkListJobsLastPagesFiltered(b *testing.B) {
	benchWorkload(b, func(b *testing.B, srv *workforcetest.Server, token string, first, last int64) []string {
		page := func(k int) string {
			return fmt.Sprintf("/api_v2/jobs?state=approved&per=50&page=%d&token=%s", k, token)
		}
		lastPage := benchLastPage(b, srv, page)
		urls := make([]string, 0, benchPages)
		for k := max(1, lastPage-benchPages+1); k <= lastPage; k++ {
			urls = append(urls, page(k))
		}
		return urls
	})
}

// BenchmarkListJobsWithGets is a list load with one GET /jobs/:id in ten: 18 pages and 2 Jobs.
func BenchmarkListJobsWithGets(b *testing.B) {
	benchWorkload(b, func(b *testing.B, srv *workforcetest.Server, token string, first, last int64) []string {
		urls := make([]string, benchPages)
		for k := range urls {
			urls[k] = fmt.Sprintf("/api_v2/jobs?per=50&page=%d&token=%s", k+1, token)
			if k%10 == 9 {
				urls[k] = fmt.Sprintf("/api_v2/jobs/%d?token=%s", first+int64(k)*37%(last-first), token)
			}
		}
		return urls
	})
}

// BenchmarkListJobsUpdatedWindows lists windows of updated_at that hold about a page of Jobs
// each, as a sync's slices do.
func BenchmarkListJobsUpdatedWindows(b *testing.B) {
	benchWorkload(b, func(b *testing.B, srv *workforcetest.Server, token string, first, last int64) []string {
		urls := make([]string, benchPages)
		now := srv.Now()
		width := 90 * 24 * time.Hour * 50 / time.Duration(last-first+1) // SeedJobs spreads them over 90 days
		for k := range urls {
			after := now.Add(-89*24*time.Hour + time.Duration(k)*89*24*time.Hour/benchPages)
			urls[k] = fmt.Sprintf("/api_v2/jobs?per=50&updated_after=%s&updated_before=%s&token=%s",
				after.Format(time.RFC3339), after.Add(width).Format(time.RFC3339), token)
		}
		return urls
	})
}

// benchWorkload runs the workload that urls builds (paths under the fake, each answering 200)
// against the fake at 1,000 and 100,000 Jobs and against a static server answering what the
// fake answered.
func benchWorkload(b *testing.B, urls func(b *testing.B, srv *workforcetest.Server, token string, first, last int64) []string) {
	for _, size := range []int{1000, 100000} {
		srv := workforcetest.NewServer(b)
		first, last := srv.SeedJobs(size - 1) // with the seeded Job, size in all
		token := benchToken(b, srv)
		paths := urls(b, srv, token, first, last)
		bodies := make(map[string][]byte, len(paths))
		fake := make([]string, len(paths))
		for k, p := range paths {
			fake[k] = srv.URL + p
			bodies[p] = benchGet(b, fake[k])
		}
		static := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			_, _ = w.Write(bodies[r.URL.RequestURI()])
		}))
		staticURLs := make([]string, len(paths))
		for k, p := range paths {
			staticURLs[k] = static.URL + p
		}
		for _, callers := range []int{1, 8, 32} {
			b.Run(fmt.Sprintf("jobs=%d/callers=%d", size, callers), func(b *testing.B) { compare(b, fake, staticURLs, callers) })
		}
		static.Close()
		srv.Close()
	}
}

// compare sends b.N GETs to each of fake and static (spread over their URLs) from callers
// goroutines, in rounds of 100 to one then the other, and reports the requests per second of each
// and their ratio.
func compare(b *testing.B, fake, static []string, callers int) {
	clients := [2]*http.Client{}
	for i := range clients {
		tr := &http.Transport{MaxIdleConnsPerHost: callers}
		defer tr.CloseIdleConnections()
		clients[i] = &http.Client{Transport: tr}
	}
	var took [2]time.Duration
	b.ResetTimer()
	for done := 0; done < b.N; done += 100 {
		n := min(100, b.N-done)
		for i, urls := range [2][]string{fake, static} {
			took[i] += burst(b, clients[i], urls, done, n, callers)
		}
	}
	b.ReportMetric(float64(b.N)/took[0].Seconds(), "fake-req/s")
	b.ReportMetric(float64(b.N)/took[1].Seconds(), "static-req/s")
	b.ReportMetric(took[1].Seconds()/took[0].Seconds(), "ratio")
}

// burst sends n GETs of urls, from the one after the first-th on, from callers goroutines, and
// answers how long they took.
func burst(b *testing.B, client *http.Client, urls []string, first, n, callers int) time.Duration {
	var sent atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := sent.Add(1)
				if i > int64(n) {
					return
				}
				resp, err := client.Get(urls[(first+int(i))%len(urls)])
				if err != nil {
					b.Error(err)
					return
				}
				_, err = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				if err != nil || resp.StatusCode != http.StatusOK {
					b.Errorf("status %d, %v", resp.StatusCode, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return time.Since(start)
}

// benchToken returns a Private Pool token of srv.
func benchToken(b *testing.B, srv *workforcetest.Server) string {
	body, _ := json.Marshal(srv.Private)
	resp, err := http.Post(srv.URL+"/api_v2/authenticate", "application/json", bytes.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Token string }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.Token == "" {
		b.Fatalf("authenticate: %v", err)
	}
	return out.Token
}

// benchGet returns the body of a GET of url, which must answer 200 with at least one Job.
func benchGet(b *testing.B, url string) []byte {
	resp, err := http.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	var answer struct {
		Jobs []json.RawMessage
		Job  json.RawMessage
	}
	if err != nil || resp.StatusCode != http.StatusOK || json.Unmarshal(body, &answer) != nil ||
		(len(answer.Jobs) == 0 && answer.Job == nil) {
		b.Fatalf("GET %s: %d %v, %d jobs", url, resp.StatusCode, err, len(answer.Jobs))
	}
	return body
}

// benchLastPage returns the last page of 50 that page(k) holds Jobs on.
func benchLastPage(b *testing.B, srv *workforcetest.Server, page func(k int) string) int {
	count := func(k int) int {
		resp, err := http.Get(srv.URL + page(k))
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		var answer struct{ Jobs []json.RawMessage }
		if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
			b.Fatal(err)
		}
		return len(answer.Jobs)
	}
	lo, hi := 1, 2 // count(lo) > 0; hi past the end
	for count(hi) > 0 {
		lo, hi = hi, 2*hi
	}
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; count(mid) > 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// BenchmarkSyncOfTheFake runs full Jobs.Syncs of 100,000 Jobs without latency, with the SDK's
// default options, against the fake and against a static server that replays what the fake
// answered to the same requests (the fastest server there can be), one after the other so that
// both see the same load of the machine. It reports the seconds of each sync and the requests it
// sent; the static sync's time is what the SDK itself costs:
//
//	go test -run '^$' -bench SyncOfTheFake -benchtime 3x ./workforcetest/
//
// The fake's first sync, which writes every Job's JSON, is reported apart (first-sync-s); the
// answers the static server replays are recorded by another sync, untimed.
func BenchmarkSyncOfTheFake(b *testing.B) {
	srv := workforcetest.NewServer(b)
	srv.SeedJobs(100000 - 1)
	first, err := srv.Client(workforce.WithHTTPClient(&http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}))
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	benchSync(b, first)
	cold := time.Since(start)
	// The answers are recorded by a sync of their own, untimed: recording copies every body,
	// which would cost the first sync about as much as the fake's writing of every Job.
	rec := &recordingTransport{rt: &http.Transport{MaxIdleConnsPerHost: 64}, answers: map[string]recorded{}}
	recorder, err := srv.Client(workforce.WithHTTPClient(&http.Client{Transport: rec}))
	if err != nil {
		b.Fatal(err)
	}
	benchSync(b, recorder)
	static := httptest.NewServer(rec.replay())
	defer static.Close()
	var clients [2]*workforce.Client
	var counts [2]*countingTransport
	for i, base := range []string{srv.URL, static.URL} {
		counts[i] = &countingTransport{rt: &http.Transport{MaxIdleConnsPerHost: 64}}
		if clients[i], err = srv.Client(workforce.WithBaseURL(base), workforce.WithHTTPClient(&http.Client{Transport: counts[i]})); err != nil {
			b.Fatal(err)
		}
	}
	var took [2]time.Duration
	for b.Loop() {
		for i, c := range clients {
			start := time.Now()
			benchSync(b, c)
			took[i] += time.Since(start)
		}
	}
	b.ReportMetric(cold.Seconds(), "first-sync-s")
	b.ReportMetric(took[0].Seconds()/float64(b.N), "fake-s/sync")
	b.ReportMetric(took[1].Seconds()/float64(b.N), "static-s/sync")
	b.ReportMetric(float64(counts[0].n.Load())/float64(b.N), "requests/sync")
}

// benchSync runs a full sync of at least 100,000 Jobs with c.
func benchSync(b *testing.B, c *workforce.Client) {
	var wm time.Time
	n := 0
	for _, err := range c.Jobs.Sync(b.Context(), &wm, nil) {
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
	if n < 100000 {
		b.Fatalf("synced %d Jobs, want 100,000", n)
	}
}

// recorded is an answer as recordingTransport keeps it.
type recorded struct {
	status int
	header http.Header
	body   []byte
}

// recordingTransport keeps the last answer to each method and URI it sent, for replay.
type recordingTransport struct {
	rt      http.RoundTripper
	mu      sync.Mutex
	answers map[string]recorded
}

func (t *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.rt.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.answers[r.Method+" "+r.URL.RequestURI()] = recorded{resp.StatusCode, resp.Header.Clone(), body}
	t.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// replay returns a handler that answers each request as the fake answered it, and 404 to one it
// was not sent.
func (t *recordingTransport) replay() http.Handler {
	t.mu.Lock()
	answers := maps.Clone(t.answers)
	t.mu.Unlock()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := answers[r.Method+" "+r.URL.RequestURI()]
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, v := range a.header {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(a.status)
		_, _ = w.Write(a.body)
	})
}

// countingTransport counts the requests it sends.
type countingTransport struct {
	rt http.RoundTripper
	n  atomic.Int64
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.rt.RoundTrip(r)
}
