package sqlite_test

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/feed"
	"github.com/workforce-marketplace/workforce-go/feed/feedtest"
	"github.com/workforce-marketplace/workforce-go/feed/sqlite"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// The chaos proof on one SQLite file: one feed, killed mid-handler (its
// store closed without acknowledging, its claim lost with its memory) and
// started again on the same file, through dropped, repeated and reordered
// deliveries.
func TestChaosRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "feed.db")
	res := feedtest.RunChaos(t, feedtest.Chaos{Jobs: chaosJobs(), Kill: true, Restart: true,
		Open: func(tb testing.TB, _ int) (feed.Store, func()) {
			s := open(tb, path)
			return s, func() { s.Close() }
		}})
	t.Logf("%+v", res)
	assert.True(t, res.Killed)
	assert.Zero(t, res.Lost)
	assert.Zero(t, res.Repeated)
	assert.Zero(t, res.OutOfOrder)
	assert.Zero(t, res.Invented)
	assert.Zero(t, res.JobRequestErrors)
	assert.Equal(t, res.Transitions, res.Handled)
}

// chaosJobs is 500, or what WORKFORCE_CHAOS_JOBS says.
func chaosJobs() int {
	var n int
	if _, err := fmt.Sscan(os.Getenv("WORKFORCE_CHAOS_JOBS"), &n); err != nil || n < 1 {
		return 500
	}
	return n
}

// The crash test: a real child process runs the feed on a SQLite file,
// its handler writing each change's effect in the transaction of the
// acknowledgment (TxHandler); the parent drives Jobs through their lives
// on the fake and kills the child with SIGKILL three times, starting
// another each time. At the end every transition's effect is in the file
// exactly once, in the order of its Job.
func TestCrashSIGKILL(t *testing.T) {
	t.Parallel()
	fake := workforcetest.NewServer(t, workforcetest.WithWebhookChaos(workforcetest.WebhookChaos{Drop: 0.3, Duplicate: 0.2, Reorder: 0.5}))
	path := filepath.Join(t.TempDir(), "feed.db")

	var mu sync.Mutex
	var target *url.URL // the live child's address
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		u := target
		mu.Unlock()
		if u == nil {
			http.Error(w, "no receiver", http.StatusBadGateway)
			return
		}
		rp := httputil.NewSingleHostReverseProxy(u)
		rp.ErrorLog = nil
		rp.ErrorHandler = func(w http.ResponseWriter, _ *http.Request, _ error) { w.WriteHeader(http.StatusBadGateway) }
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	require.NoError(t, fake.AddWebhookReceiver(proxy.URL+"/webhooks"))

	handled := make(chan string, 1<<16)
	var child *exec.Cmd
	var childDone chan struct{}
	startChild := func() {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashSIGKILL$")
		cmd.Env = append(os.Environ(), "FEED_CRASH_CHILD=1", "FEED_DB="+path, "FAKE_URL="+fake.URL,
			"FAKE_API_KEY="+fake.Private.APIKey, "FAKE_SECRET_KEY="+fake.Private.SecretKey)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		lines := bufio.NewScanner(out)
		require.True(t, lines.Scan(), "the child's first line")
		addr, ok := strings.CutPrefix(lines.Text(), "LISTEN ")
		require.True(t, ok, "the child said %q", lines.Text())
		u, err := url.Parse("http://" + addr)
		require.NoError(t, err)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for lines.Scan() {
				handled <- lines.Text()
			}
			_, _ = io.Copy(io.Discard, out)
		}()
		mu.Lock()
		target, child, childDone = u, cmd, done
		mu.Unlock()
	}
	kill := func() {
		mu.Lock()
		cmd, done := child, childDone
		target = nil
		mu.Unlock()
		_ = cmd.Process.Signal(syscall.SIGKILL)
		<-done
		_ = cmd.Wait()
	}
	startChild()
	kills := 0
	moves := feedtest.Lives(t, fake, chaosJobs()/2, 0, func(n int) {
		if n%(chaosJobs()/2) == chaosJobs()/4 && kills < 3 { // three times, a few hundred moves apart
			kills++
			kill()
			startChild()
		}
	})
	require.Equal(t, 3, kills, "moves: %d", moves)
	ctx := context.Background()
	for range 4 { // the retries of what the dead children missed
		fake.Advance(5 * time.Minute)
		require.NoError(t, fake.WaitWebhooks(ctx))
	}
	c, err := fake.Client()
	require.NoError(t, err)
	want := map[int64][]workforce.Transition{}
	total := 0
	for j, err := range c.Jobs.All(ctx, nil) {
		require.NoError(t, err)
		want[j.ID] = j.Transitions
		total += len(j.Transitions)
	}
	// Wait for the child to report every transition, then stop it cleanly.
	seen := map[string]bool{}
	deadline := time.After(3 * time.Minute)
	for len(seen) < total {
		select {
		case line := <-handled:
			seen[line] = true
		case <-deadline:
			t.Fatalf("after three minutes the children reported %d of %d transitions", len(seen), total)
		}
	}
	mu.Lock()
	cmd, done := child, childDone
	mu.Unlock()
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	<-done
	require.NoError(t, cmd.Wait())

	db, err := sql.Open("sqlite3", "file:"+path)
	require.NoError(t, err)
	defer db.Close()
	rows, err := db.Query("SELECT job_id, transition_id, seq FROM effects ORDER BY n")
	require.NoError(t, err)
	got := map[int64][]int64{}
	count := map[int64]int{}
	for rows.Next() {
		var job, tid, seq int64
		require.NoError(t, rows.Scan(&job, &tid, &seq))
		got[job] = append(got[job], tid)
		count[tid]++
		assert.EqualValues(t, len(got[job]), seq, "job %d: effects in order", job)
	}
	require.NoError(t, rows.Err())
	lost, repeated := 0, 0
	for id, ts := range want {
		var order []int64
		for i := len(ts) - 1; i >= 0; i-- {
			order = append(order, ts[i].ID)
			switch count[ts[i].ID] {
			case 0:
				lost++
			case 1:
			default:
				repeated++
			}
		}
		assert.Equal(t, order, got[id], "job %d: effects in the order of its transitions", id)
	}
	t.Logf("%d moves, %d transitions, 3 SIGKILLs: %d lost, %d repeated", moves, total, lost, repeated)
	assert.Zero(t, lost)
	assert.Zero(t, repeated)
}

// crashChild is the child of TestCrashSIGKILL: a feed on the SQLite file,
// recording each Job transition's effect with its acknowledgment and
// printing it, until SIGTERM (or SIGKILL).
func crashChild() error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	s, err := sqlite.Open(ctx, os.Getenv("FEED_DB"))
	if err != nil {
		return err
	}
	defer s.Close()
	if _, err := s.DB().ExecContext(ctx, `CREATE TABLE IF NOT EXISTS effects (n INTEGER PRIMARY KEY AUTOINCREMENT,
		job_id INTEGER NOT NULL, transition_id INTEGER NOT NULL, seq INTEGER NOT NULL)`); err != nil {
		return err
	}
	c, err := workforce.New(os.Getenv("FAKE_API_KEY"), os.Getenv("FAKE_SECRET_KEY"), workforce.WithBaseURL(os.Getenv("FAKE_URL")),
		workforce.WithRetry(3, time.Millisecond, 50*time.Millisecond))
	if err != nil {
		return err
	}
	var out sync.Mutex
	h := s.TxHandler(func(ctx context.Context, tx *sql.Tx, ch *feed.Change) error {
		if ch.Kind != feed.KindJob {
			return nil
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO effects (job_id, transition_id, seq) VALUES (?, ?, ?)", ch.ResourceID, ch.TransitionID, ch.Seq)
		return err
	})
	f, err := feed.New(c, os.Getenv("FAKE_SECRET_KEY"), func(ctx context.Context, ch *feed.Change) error {
		if err := h(ctx, ch); err != nil {
			return err
		}
		if ch.Kind == feed.KindJob {
			out.Lock()
			fmt.Printf("%d %d\n", ch.ResourceID, ch.TransitionID)
			out.Unlock()
		}
		return nil
	}, feed.WithStore(s), feed.WithSyncInterval(200*time.Millisecond), feed.WithPoll(50*time.Millisecond),
		feed.WithRetry(time.Millisecond, 20*time.Millisecond))
	if err != nil {
		return err
	}
	srv := httptest.NewServer(f)
	defer srv.Close()
	fmt.Println("LISTEN " + strings.TrimPrefix(srv.URL, "http://"))
	// What the children before this one did, should one have died between
	// its commit and its line.
	rows, err := s.DB().QueryContext(ctx, "SELECT job_id, transition_id FROM effects")
	if err != nil {
		return err
	}
	for rows.Next() {
		var job, tid int64
		if err := rows.Scan(&job, &tid); err != nil {
			rows.Close()
			return err
		}
		fmt.Printf("%d %d\n", job, tid)
	}
	rows.Close()
	return f.Run(ctx)
}
