package workforcetest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// benchPages is how many pages of 50 Jobs the list benchmarks cycle through.
const benchPages = 20

// BenchmarkListJobs measures list requests per second, GET /api_v2/jobs?per=50&page=k with a
// valid token for k in 1..20, at 1, 8 and 32 concurrent callers, against the fake holding 1,000
// and 100,000 Jobs, and against a static server answering the same bytes. Run it with
//
//	go test -run '^$' -bench ListJobs -benchtime 3s ./workforcetest/
//
// and compare the req/s of fake and static at each row.
func BenchmarkListJobs(b *testing.B) {
	for _, size := range []int{1000, 100000} {
		srv := workforcetest.NewServer(b)
		srv.SeedJobs(size - 1) // with the seeded Job, size in all
		token := benchToken(b, srv)
		urls := make([]string, benchPages)
		bodies := make(map[string][]byte, benchPages)
		for k := range urls {
			q := fmt.Sprintf("?per=50&page=%d&token=%s", k+1, token)
			urls[k] = srv.URL + "/api_v2/jobs" + q
			bodies[fmt.Sprint(k+1)] = benchGet(b, urls[k])
		}
		static := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			_, _ = w.Write(bodies[r.URL.Query().Get("page")])
		}))
		staticURLs := make([]string, benchPages)
		for k := range staticURLs {
			staticURLs[k] = static.URL + "/api_v2/jobs" + strings.TrimPrefix(urls[k], srv.URL+"/api_v2/jobs")
		}
		for _, callers := range []int{1, 8, 32} {
			b.Run(fmt.Sprintf("jobs=%d/callers=%d/fake", size, callers), func(b *testing.B) { hammer(b, urls, callers) })
			b.Run(fmt.Sprintf("jobs=%d/callers=%d/static", size, callers), func(b *testing.B) { hammer(b, staticURLs, callers) })
		}
		static.Close()
		srv.Close()
	}
}

// hammer sends b.N GETs, spread over urls, from callers goroutines, and reports requests per
// second.
func hammer(b *testing.B, urls []string, callers int) {
	tr := &http.Transport{MaxIdleConnsPerHost: callers}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var sent atomic.Int64
	var wg sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := sent.Add(1)
				if i > int64(b.N) {
					return
				}
				resp, err := client.Get(urls[int(i)%len(urls)])
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
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
}

// benchToken answers a Private Pool token of srv.
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

// benchGet answers the body of a GET of url, which must answer 200 with 50 Jobs.
func benchGet(b *testing.B, url string) []byte {
	resp, err := http.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	var page struct{ Jobs []json.RawMessage }
	if err != nil || resp.StatusCode != http.StatusOK || json.Unmarshal(body, &page) != nil || len(page.Jobs) != 50 {
		b.Fatalf("GET %s: %d %v, %d jobs", url, resp.StatusCode, err, len(page.Jobs))
	}
	return body
}
