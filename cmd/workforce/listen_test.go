package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/webhook"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// delivery is what a receiver acknowledged: the resource and its state, and for a Job the
// transition the body ends with.
type delivery struct {
	kind       webhook.Kind
	id         int64
	state      string
	transition int64
	updatedAt  time.Time
}

// receiver verifies every delivery's signature, refuses some (500) and drops others (the
// connection closed), and records what it acknowledged, in order.
type receiver struct {
	t         *testing.T
	secretKey string
	mu        sync.Mutex
	n         int
	acked     []delivery
	rebuilt   int
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	if err := webhook.Verify(body, r.Header.Get("X-Service-Webhook-Token"), rc.secretKey); err != nil {
		rc.t.Errorf("a delivery whose signature fails: %v", err)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	ev, err := webhook.Parse(body)
	if err != nil {
		rc.t.Errorf("a delivery that does not parse: %v", err)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.n++
	switch {
	case rc.n%5 == 0: // dropped: no answer at all
		if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = c.Close()
		}
		return
	case rc.n%3 == 0:
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	d := delivery{kind: ev.Kind}
	switch ev.Kind {
	case webhook.KindJob:
		d.id, d.state, d.updatedAt = ev.Job.ID, string(ev.Job.State), ev.Job.UpdatedAt.Time
		d.transition = newest(ev.Job.Transitions).ID
		if h := r.Header.Get("X-Workforce-Cli-Transition"); h != strconv.FormatInt(d.transition, 10) {
			rc.t.Errorf("Job %d delivered at transition %d with X-Workforce-Cli-Transition %q", d.id, d.transition, h)
		}
	case webhook.KindJobRequest:
		d.id, d.state, d.updatedAt = ev.JobRequest.ID, string(ev.JobRequest.State), ev.JobRequest.UpdatedAt.Time
	}
	if r.Header.Get("X-Workforce-Cli-Rebuilt") != "" {
		rc.rebuilt++
	}
	rc.acked = append(rc.acked, d)
	w.WriteHeader(http.StatusNoContent)
}

// newest answers the latest of transitions (listed newest first), as the feed orders them.
func newest(trs []workforce.Transition) workforce.Transition {
	var n workforce.Transition
	for i, tr := range trs {
		if i == 0 || tr.CreatedAt.After(n.CreatedAt.Time) {
			n = tr
		}
	}
	return n
}

// acknowledged answers a copy of what was acknowledged so far.
func (rc *receiver) acknowledged() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.acked)
}

// waitFor polls until cond holds on the acknowledged deliveries, or fails t after a while.
// listen syncs on real time: the wait is for its interval, not a fixed sleep.
func (rc *receiver) waitFor(t *testing.T, what string, cond func([]delivery) bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond(rc.acknowledged()) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; acknowledged %d", what, len(rc.acknowledged()))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// jobTransitions answers every transition id of every Job of the fake, by Job, in time order.
func jobTransitions(t *testing.T, c *workforce.Client) map[int64][]int64 {
	t.Helper()
	out := map[int64][]int64{}
	for j, err := range c.Jobs.All(context.Background(), nil) {
		require.NoError(t, err)
		trs := slices.Clone(j.Transitions)
		slices.Reverse(trs)
		slices.SortStableFunc(trs, func(a, b workforce.Transition) int { return a.CreatedAt.Compare(b.CreatedAt.Time) })
		for _, tr := range trs {
			out[j.ID] = append(out[j.ID], tr.ID)
		}
	}
	return out
}

// hasAll tells whether every transition of want was acknowledged.
func hasAll(want map[int64][]int64) func([]delivery) bool {
	return func(got []delivery) bool {
		seen := map[int64]bool{}
		for _, d := range got {
			seen[d.transition] = true
		}
		for _, ids := range want {
			for _, id := range ids {
				if !seen[id] {
					return false
				}
			}
		}
		return true
	}
}

// startListen runs listen in the background; stop ends it (as Ctrl-C does) and answers its
// result.
func startListen(env map[string]string, args ...string) (stop func() result) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan result, 1)
	go func() { done <- runCLI(ctx, env, append([]string{"listen"}, args...)...) }()
	return func() result {
		cancel()
		return <-done
	}
}

func TestListenDeliversEveryChangeOnceInOrderAcrossARestart(t *testing.T) {
	srv := workforcetest.NewServer(t, workforcetest.WithTickingClock())
	env := fakeEnv(srv)
	c, err := srv.Client()
	require.NoError(t, err)
	rc := &receiver{t: t, secretKey: env[envSecretKey]}
	hook := httptest.NewServer(rc)
	defer hook.Close()
	d := &driver{srv: srv, c: c, seed: srv.Seed(), out: io.Discard}
	steps := slices.Concat(d.story(), d.story(), d.story(), d.story())
	ctx := context.Background()
	step := func(n int) {
		for ; n > 0 && len(steps) > 0; n-- {
			what, err := steps[0](ctx)
			require.NoError(t, err, what)
			steps = steps[1:]
		}
	}
	step(5) // history, before the first start
	state := filepath.Join(t.TempDir(), "listen.db")
	args := []string{"--forward-to", hook.URL, "--interval", "50ms", "--retry-wait", "5ms", "--state", state}

	stop := startListen(env, args...)
	srv.InjectFault(workforcetest.Fault{Method: "GET", Path: "/api_v2/jobs", Times: 3, Status: 503})
	srv.InjectFault(workforcetest.Fault{Method: "GET", Path: "/api_v2/job_requests", Times: 2, Drop: true})
	step(6)
	rc.waitFor(t, "the first run's changes", hasAll(jobTransitions(t, c)))
	first := stop()
	require.Equal(t, exitOK, first.code, first.stderr)
	noSecrets(t, first, env)
	acked := len(rc.acknowledged())

	step(len(steps)) // while stopped
	stop = startListen(env, args...)
	srv.InjectFault(workforcetest.Fault{Method: "GET", Path: "/api_v2/jobs", Times: 2, Truncate: true})
	want := jobTransitions(t, c)
	rc.waitFor(t, "the second run's changes", hasAll(want))
	second := stop()
	require.Equal(t, exitOK, second.code, second.stderr)
	noSecrets(t, second, env)

	got := rc.acknowledged()
	assert.Greater(t, len(got), acked, "the second run delivered the changes made while stopped")
	byJob := map[int64][]int64{}
	jrs := map[int64][]delivery{}
	for _, d := range got {
		if d.kind == webhook.KindJob {
			byJob[d.id] = append(byJob[d.id], d.transition)
		} else {
			jrs[d.id] = append(jrs[d.id], d)
		}
	}
	assert.Equal(t, want, byJob, "every Job transition once, in order")
	assert.NotEmpty(t, jrs)
	for id, ds := range jrs {
		for i := 1; i < len(ds); i++ {
			assert.False(t, ds[i].updatedAt.Before(ds[i-1].updatedAt), "Job Request %d out of order", id)
			assert.NotEqual(t, ds[i].state, ds[i-1].state, "Job Request %d: a state twice: %+v\n%s\n%s", id, ds, first.stdout, second.stdout)
		}
	}
	assert.Contains(t, first.stdout, "500")
	assert.Contains(t, first.stdout, "will retry")
}

func TestListenFromNowAndOneResource(t *testing.T) {
	srv := workforcetest.NewServer(t, workforcetest.WithTickingClock())
	env := fakeEnv(srv)
	c, err := srv.Client()
	require.NoError(t, err)
	rc := &receiver{t: t, secretKey: env[envSecretKey], n: 1} // n: 1 answers 2xx to the first ones
	hook := httptest.NewServer(rc)
	defer hook.Close()
	d := &driver{srv: srv, c: c, seed: srv.Seed(), out: io.Discard}
	ctx := context.Background()
	for _, s := range d.story()[:3] { // a W2 Job started, before the start
		_, err := s(ctx)
		require.NoError(t, err)
	}
	started, _, err := c.Jobs.List(ctx, &workforce.JobListOptions{State: workforce.JobInProgress})
	require.NoError(t, err)
	require.Len(t, started, 1)
	srv.Advance(2 * time.Second) // the start is after the history, by the fake's clock

	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(lctx, []string{"listen", "--forward-to", hook.URL, "--interval", "50ms", "--retry-wait", "5ms",
			"--from-now", "--resource", "jobs", "--print-json"}, func(k string) string { return env[k] }, &out, &errOut)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(errOut.String(), "are not delivered") { // the start is taken
		require.True(t, time.Now().Before(deadline), errOut.String())
		time.Sleep(10 * time.Millisecond)
	}
	srv.Advance(2 * time.Second)
	require.NoError(t, srv.PauseJob(started[0].ID))
	rc.waitFor(t, "the pause", func(got []delivery) bool { return len(got) > 0 })
	cancel()
	r := result{code: <-done, stdout: out.String(), stderr: errOut.String()}
	require.Equal(t, exitOK, r.code, r.stderr)
	got := rc.acknowledged()
	require.Len(t, got, 1, "only the change made after the start: %+v", got)
	assert.Equal(t, webhook.KindJob, got[0].kind)
	assert.Equal(t, "paused", got[0].state)
	assert.Contains(t, r.stdout, `{"job":{`)
	noSecrets(t, r, env)
}
