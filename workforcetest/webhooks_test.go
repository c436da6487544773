package workforcetest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/webhook"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// receiver is a webhook receiver that verifies each delivery with the
// secret key it is given, records the events, and answers status(n) for
// the n-th delivery (from 1).
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	events []*webhook.Event
	bad    int // deliveries that did not verify
	n      atomic.Int64
}

func newReceiver(t *testing.T, secretKey string, status func(n int64) int) *receiver {
	t.Helper()
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		n := r.n.Add(1)
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		if webhook.Verify(body, req.Header.Get(webhook.Header), secretKey) != nil {
			r.bad++
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		ev, err := webhook.Parse(body)
		if err != nil {
			r.bad++
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		r.events = append(r.events, ev)
		w.WriteHeader(status(n))
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *receiver) jobStates(id int64) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, ev := range r.events {
		if ev.Kind == webhook.KindJob && ev.ID == id {
			out = append(out, ev.State)
		}
	}
	return out
}

func always(status int) func(int64) int { return func(int64) int { return status } }

func waitWebhooks(t *testing.T, srv *workforcetest.Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	require.NoError(t, srv.WaitWebhooks(ctx))
}

func TestWebhooksDeliverEveryJobChangeSignedAndInOrder(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	rcv := newReceiver(t, f.Private.SecretKey, always(http.StatusNoContent))
	require.NoError(t, f.AddWebhookReceiver(rcv.URL))
	seed := f.Seed()

	job := f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID)
	id := idOf(job)
	require.NoError(t, f.StartJob(id))
	require.NoError(t, f.CompleteJob(id))
	require.NoError(t, f.ApproveJob(id))
	waitWebhooks(t, f.Server)

	assert.Equal(t, []string{"filled", "in_progress", "completed", "approved"}, rcv.jobStates(id))
	assert.Zero(t, rcv.bad, "every delivery verified with the Private Pool secret key")
	for _, a := range f.WebhookAttempts() {
		assert.Equal(t, 1, a.Attempt)
		assert.Equal(t, http.StatusNoContent, a.Status)
		assert.Equal(t, rcv.URL, a.URL)
		assert.Equal(t, webhook.Sign(a.Body, f.Private.SecretKey), a.Signature)
	}
}

func TestWebhooksRetryOnTheFakeClock(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	rcv := newReceiver(t, f.Private.SecretKey, always(http.StatusInternalServerError))
	require.NoError(t, f.AddWebhookReceiver(rcv.URL))
	seed := f.Seed()
	id := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID))
	waitWebhooks(t, f.Server)

	attemptsOf := func() []int {
		var out []int
		for _, a := range f.WebhookAttempts() {
			if a.Resource == "job" && a.ID == id {
				out = append(out, a.Attempt)
			}
		}
		return out
	}
	require.Equal(t, []int{1}, attemptsOf())
	start := f.WebhookAttempts()[0].Time
	for i, wait := range []time.Duration{60 * time.Second, 120 * time.Second, 240 * time.Second} {
		f.Advance(wait - time.Second)
		waitWebhooks(t, f.Server)
		require.Len(t, attemptsOf(), i+1, "not yet due")
		f.Advance(time.Second)
		waitWebhooks(t, f.Server)
		require.Len(t, attemptsOf(), i+2, "due after %v", wait)
	}
	f.Advance(24 * time.Hour)
	waitWebhooks(t, f.Server)
	assert.Equal(t, []int{1, 2, 3, 4}, attemptsOf(), "three retries, then no more")
	var times []time.Duration
	for _, a := range f.WebhookAttempts() {
		if a.Resource == "job" && a.ID == id {
			times = append(times, a.Time.Sub(start))
		}
	}
	assert.Equal(t, []time.Duration{0, 60 * time.Second, 180 * time.Second, 420 * time.Second}, times)
}

func TestWebhookRetrySucceedsAndStops(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	rcv := newReceiver(t, f.Private.SecretKey, func(n int64) int {
		if n == 1 {
			return http.StatusServiceUnavailable
		}
		return http.StatusOK
	})
	require.NoError(t, f.AddWebhookReceiver(rcv.URL))
	seed := f.Seed()
	id := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID))
	waitWebhooks(t, f.Server)
	f.Advance(61 * time.Second)
	waitWebhooks(t, f.Server)
	f.Advance(time.Hour)
	waitWebhooks(t, f.Server)
	assert.Equal(t, []string{"filled", "filled"}, rcv.jobStates(id), "delivered again once, then done")
}

func TestWebhooksNeverBlockTheAPIAndStopOnClose(t *testing.T) {
	before := runtime.NumGoroutine()
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	srv, err := workforcetest.Start(workforcetest.WithWebhookReceiver(hang.URL))
	require.NoError(t, err)
	c, err := srv.Client()
	require.NoError(t, err)
	seed := srv.Seed()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for _, w := range seed.WorkerIDs[1:3] {
		_, _, err := c.Jobs.Create(ctx, &workforce.JobCreate{WorkerID: w, JobRequestID: seed.JobRequest1099ID})
		require.NoError(t, err, "the API answers while deliveries hang")
	}
	srv.Close()
	close(release)
	hang.Close()
	assert.Eventually(t, func() bool { return runtime.NumGoroutine() <= before+2 }, 5*time.Second, 10*time.Millisecond,
		"goroutines: %d before, %d after", before, runtime.NumGoroutine())
}

func TestWebhookReceiverMustBeLoopback(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for _, u := range []string{"http://192.0.2.1/hook", "ftp://127.0.0.1/x", "not a url", "http:///x"} {
		assert.Error(t, f.AddWebhookReceiver(u), u)
	}
	assert.NoError(t, f.AddWebhookReceiver("http://localhost:1/x"))
	_, err := workforcetest.Start(workforcetest.WithWebhookReceiver("https://example.com/hook"))
	assert.Error(t, err)
}

func TestWebhooksForACancelledJobRequestAndItsJobs(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	var mu sync.Mutex
	var bodies []string
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
	}))
	defer rcv.Close()
	require.NoError(t, f.AddWebhookReceiver(rcv.URL))
	seed := f.Seed()
	job := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID))
	require.NoError(t, f.CancelJobRequest(seed.JobRequest1099ID))
	require.NoError(t, f.StartJob(seed.PublicJobID)) // a Public Pool Job
	waitWebhooks(t, f.Server)

	var got []string
	for _, a := range f.WebhookAttempts() {
		ev, err := webhook.Parse(a.Body)
		require.NoError(t, err)
		got = append(got, fmt.Sprintf("%s %d %s", ev.Key, ev.ID, ev.State))
		secret := f.Private.SecretKey
		if (ev.Kind == webhook.KindJob && ev.ID == seed.PublicJobID) || (ev.Kind == webhook.KindJobRequest && ev.ID == seed.PublicJobRequestID) {
			secret = f.Public.SecretKey
		}
		assert.NoError(t, webhook.Verify(a.Body, a.Signature, secret), "%s signed with the owner's secret key", got[len(got)-1])
		assert.Equal(t, ev.State, a.State)
	}
	assert.Subset(t, got, []string{
		fmt.Sprintf("job %d filled", job),
		fmt.Sprintf("job_request %d cancelled", seed.JobRequest1099ID),
		fmt.Sprintf("job %d cancelled", job),
		fmt.Sprintf("job %d in_progress", seed.PublicJobID),
	})
	for _, b := range bodies {
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(b), &m))
		assert.Len(t, m, 1, "one resource, wrapped in its singular name: %s", b)
	}
}

// An attempt prints its body as the text it is, not as bytes, its start only (the whole is in
// Body), and leaves out the signature and what a receiver's URL may hide.
func TestWebhookAttemptPrintsItsBody(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	rcv := newReceiver(t, f.Private.SecretKey, always(http.StatusNoContent))
	require.NoError(t, f.AddWebhookReceiver(rcv.URL))
	seed := f.Seed()
	id := idOf(f.createJob(seed.WorkerIDs[1], seed.JobRequest1099ID))
	waitWebhooks(t, f.Server)

	attempts := f.WebhookAttempts()
	require.NotEmpty(t, attempts)
	a := attempts[0]
	for _, printed := range []string{fmt.Sprint(a), fmt.Sprintf("%+v", a), a.String()} {
		assert.Contains(t, printed, fmt.Sprintf("attempt 1 of job %d filled to %s", id, rcv.URL))
		assert.Contains(t, printed, ": 204; body "+string(a.Body[:160])+fmt.Sprintf("… (%d bytes)", len(a.Body)))
		assert.NotContains(t, printed, a.Signature)
		assert.NotContains(t, printed, "[123 ")
	}
	a.URL = "https://hooks:pass-word-1@receiver.example/in?secret=s3cr3t&x=1"
	assert.Contains(t, a.String(), "to https://receiver.example/in?secret=%E2%80%A6&x=%E2%80%A6 at")
	assert.NotContains(t, a.String(), "pass-word-1")
	assert.NotContains(t, a.String(), "s3cr3t")
}
