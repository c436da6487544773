package webhook_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/davecgh/go-spew/spew"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/webhook"
)

func TestParseJob(t *testing.T) {
	t.Parallel()
	body := []byte(`{"job": {"id": 1001, "state": "completed", "job_request_id": 501, "hours_worked": "7.5", "new_field": [1]}}`)
	ev, err := webhook.Parse(body)
	require.NoError(t, err)
	assert.Equal(t, webhook.KindJob, ev.Kind)
	assert.Equal(t, "job", ev.Key)
	assert.EqualValues(t, 1001, ev.ID)
	assert.Equal(t, "completed", ev.State)
	require.NotNil(t, ev.Job)
	assert.Equal(t, workforce.JobCompleted, ev.Job.State)
	assert.EqualValues(t, 501, ev.Job.JobRequestID)
	assert.Equal(t, "7.5", ev.Job.HoursWorked.String())
	assert.Contains(t, string(ev.Job.Raw), `"new_field": [1]`, "unknown fields stay reachable")
	assert.Equal(t, body, ev.Body)
	assert.Nil(t, ev.JobRequest)
}

func TestParseJobRequest(t *testing.T) {
	t.Parallel()
	ev, err := webhook.Parse([]byte(`{"job_request": {"id": 501, "state": "cancelled"}}`))
	require.NoError(t, err)
	assert.Equal(t, webhook.KindJobRequest, ev.Kind)
	assert.EqualValues(t, 501, ev.ID)
	assert.Equal(t, "cancelled", ev.State)
	require.NotNil(t, ev.JobRequest)
	assert.EqualValues(t, 501, ev.JobRequest.ID)
	assert.JSONEq(t, `{"id": 501, "state": "cancelled"}`, string(ev.JobRequest.Raw))
}

func TestParseUnknownKind(t *testing.T) {
	t.Parallel()
	ev, err := webhook.Parse([]byte(`{"timesheet": {"id": 7, "state": "signed", "extra": true}}`))
	require.NoError(t, err)
	assert.Equal(t, webhook.KindUnknown, ev.Kind)
	assert.Equal(t, "timesheet", ev.Key)
	assert.EqualValues(t, 7, ev.ID)
	assert.Equal(t, "signed", ev.State)
	assert.JSONEq(t, `{"id": 7, "state": "signed", "extra": true}`, string(ev.Resource))

	ev, err = webhook.Parse([]byte(`{"thing": {"id": "not a number"}}`))
	require.NoError(t, err, "an unknown kind is read leniently")
	assert.Zero(t, ev.ID)
}

func TestParseRefusesMalformed(t *testing.T) {
	t.Parallel()
	for _, body := range []string{``, `null`, `[]`, `{}`, `"job"`, `{"job": 5}`, `{"job": null}`,
		`{"job": {"id": 1}, "job_request": {"id": 2}}`, `{"job": {"id": 1}} trailing`, `{"job": {`} {
		_, err := webhook.Parse([]byte(body))
		assert.ErrorIs(t, err, webhook.ErrMalformedEvent, body)
	}
}

// FuzzParse checks that Parse never panics, and that what it accepts has
// a resource object.
func FuzzParse(f *testing.F) {
	f.Add([]byte(jobBody))
	f.Add([]byte(jrBody))
	f.Add([]byte(`{"x": {"id": 1}}`))
	f.Add([]byte(`{"job": {"transitions": [{"latitude": "1.5"}], "worker": {"rating": 4}}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		ev, err := webhook.Parse(body)
		if err != nil {
			return
		}
		if len(ev.Resource) == 0 || ev.Resource[0] != '{' {
			t.Fatalf("accepted %q without a resource object", body)
		}
		if (ev.Kind == webhook.KindJob) != (ev.Job != nil) || (ev.Kind == webhook.KindJobRequest) != (ev.JobRequest != nil) {
			t.Fatalf("kind %s does not match the decoded resource", ev.Kind)
		}
	})
}

// post sends body with header to h and returns the status.
func post(t *testing.T, h http.Handler, body, header string) int {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/hooks", strings.NewReader(body))
	if header != "" {
		req.Header.Set(webhook.Header, header)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

func TestHandler(t *testing.T) {
	t.Parallel()
	var got []*webhook.Event
	fail := errors.New("database down")
	var failNext bool
	h := mustHandler(t, testKey, func(_ context.Context, ev *webhook.Event) error {
		if failNext {
			failNext = false
			return fail
		}
		got = append(got, ev)
		return nil
	})

	assert.Equal(t, http.StatusNoContent, post(t, h, jobBody, jobDigestHex))
	require.Len(t, got, 1)
	assert.EqualValues(t, 1001, got[0].ID)

	assert.Equal(t, http.StatusUnauthorized, post(t, h, jobBody, jrDigestHex), "forged")
	assert.Equal(t, http.StatusUnauthorized, post(t, h, jobBody, ""), "unsigned")
	assert.Equal(t, http.StatusUnauthorized, post(t, h, jobBody, "zz"), "malformed")
	assert.Equal(t, http.StatusUnauthorized, post(t, h, jobBody+" ", jobDigestHex), "tampered")
	notEvent := `{"a": 1, "b": 2}`
	assert.Equal(t, http.StatusBadRequest, post(t, h, notEvent, webhook.Sign([]byte(notEvent), testKey)))
	assert.Len(t, got, 1, "nothing refused was passed on")

	failNext = true
	assert.Equal(t, http.StatusInternalServerError, post(t, h, jobBody, jobDigestHex), "the sender retries")
	fail = fmt.Errorf("%w: no id", webhook.ErrMalformedEvent)
	failNext = true
	assert.Equal(t, http.StatusUnprocessableEntity, post(t, h, jobBody, jobDigestHex), "refused for good")
	assert.Equal(t, http.StatusNoContent, post(t, h, jobBody, jobDigestHex))
	assert.Len(t, got, 2)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/hooks", nil))
	assert.Equal(t, http.StatusMethodNotAllowed, rec.Code)
	assert.Equal(t, http.MethodPost, rec.Header().Get("Allow"))
}

func TestHandlerCapsTheBody(t *testing.T) {
	t.Parallel()
	called := false
	fn := func(context.Context, *webhook.Event) error { called = true; return nil }
	big := `{"job": {"id": 1, "requestor_notes": "` + strings.Repeat("x", webhook.DefaultMaxBody) + `"}}`
	assert.Equal(t, http.StatusRequestEntityTooLarge, post(t, mustHandler(t, testKey, fn), big, webhook.Sign([]byte(big), testKey)))

	small := mustHandler(t, testKey, fn, webhook.WithMaxBody(int64(len(jobBody))))
	assert.Equal(t, http.StatusNoContent, post(t, small, jobBody, jobDigestHex), "exactly at the cap")
	tiny := mustHandler(t, testKey, fn, webhook.WithMaxBody(int64(len(jobBody)-1)))
	called = false
	assert.Equal(t, http.StatusRequestEntityTooLarge, post(t, tiny, jobBody, jobDigestHex))
	assert.False(t, called)
}

// mustHandler returns webhook.Handler's handler, failing the test on an
// error.
func mustHandler(t *testing.T, secretKey string, fn func(context.Context, *webhook.Event) error, opts ...webhook.HandlerOption) http.Handler {
	t.Helper()
	h, err := webhook.Handler(secretKey, fn, opts...)
	require.NoError(t, err)
	return h
}

// TestHandlerRefusesWhatNewRefuses checks that a secret key workforce.New
// would refuse (whitespace around it, a line break read from a file, no
// sk_ prefix, none at all) is refused at construction, as New refuses it,
// rather than making the receiver answer 401 to every genuine delivery.
func TestHandlerRefusesWhatNewRefuses(t *testing.T) {
	t.Parallel()
	fn := func(context.Context, *webhook.Event) error { return nil }
	for _, key := range []string{" " + testKey, testKey + "\n", testKey + " ", "\t" + testKey, "sk_test_ab cd", "",
		"pk_test_51Hfake0000000000000000", "sk_prod_51Hfake", "sk_test_", "51Hfake0000000000000000"} {
		h, err := webhook.Handler(key, fn)
		assert.ErrorIs(t, err, workforce.ErrConfig, "%q", key)
		assert.Nil(t, h, "%q", key)
		_, newErr := workforce.New("pk_test_51Hfake0000000000000000", key, workforce.WithBaseURL("https://api.example.com"))
		assert.ErrorIs(t, newErr, workforce.ErrConfig, "New refuses %q too", key)
		if err != nil && len(key) > 10 {
			assert.NotContains(t, err.Error(), key[8:], "the key is not quoted")
		}
	}
	h, err := webhook.Handler(testKey, nil)
	assert.ErrorIs(t, err, workforce.ErrConfig, "no function")
	assert.Nil(t, h)
}

// TestHandlerPrintsNoKey checks that the handler, printed any way, even by
// reflection, does not show its secret key.
func TestHandlerPrintsNoKey(t *testing.T) {
	t.Parallel()
	h := mustHandler(t, testKey, func(context.Context, *webhook.Event) error { return nil })
	for _, out := range []string{fmt.Sprintf("%v", h), fmt.Sprintf("%+v", h), fmt.Sprintf("%#v", h),
		spew.Sdump(h), (&spew.ConfigState{DisableMethods: true}).Sdump(h)} {
		assert.NotContains(t, out, testKey[8:])
	}
}

func TestHandlerTurnsAPanicIntoARetry(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	h := mustHandler(t, testKey, func(context.Context, *webhook.Event) error { panic("boom") },
		webhook.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	assert.Equal(t, http.StatusInternalServerError, post(t, h, jobBody, jobDigestHex))
	assert.Contains(t, logs.String(), "panicked")
	assert.NotContains(t, logs.String(), testKey)
	assert.NotContains(t, logs.String(), jobDigestHex)
}

func TestHandlerOverHTTP(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var states []string
	srv := httptest.NewServer(mustHandler(t, testKey, func(ctx context.Context, ev *webhook.Event) error {
		mu.Lock()
		defer mu.Unlock()
		states = append(states, ev.State)
		return ctx.Err()
	}))
	defer srv.Close()
	req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(jobBody))
	require.NoError(t, err)
	req.Header.Set(webhook.Header, strings.ToUpper(jobDigestHex))
	resp, err := srv.Client().Do(req)
	require.NoError(t, err)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)
	assert.Equal(t, []string{"in_progress"}, states)
}

// trickle sends a delivery's headers, promising a body of size bytes, to
// addr, then one byte of it every gap until the connection fails, and
// returns the status line of the answer.
func trickle(t *testing.T, addr string, size int, gap time.Duration) string {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /hooks HTTP/1.1\r\nHost: x\r\n%s: %s\r\nContent-Length: %d\r\n\r\n{", webhook.Header, jobDigestHex, size)
	require.NoError(t, err)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(gap)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte(" ")); err != nil {
					return
				}
			}
		}
	}()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(20*time.Second))) // generous: the handler's timeout is 100 ms
	status, err := bufio.NewReader(conn).ReadString('\n')
	require.NoError(t, err, "the handler answered before the sender gave up")
	return strings.TrimSpace(status)
}

// TestHandlerBoundsTheReadInTime has senders trickle or stall their bodies:
// each is answered 408 once the read timeout passes, whatever it sends
// meanwhile, fn sees none of them, and no handler is left running.
func TestHandlerBoundsTheReadInTime(t *testing.T) {
	t.Parallel()
	var called, running atomic.Int64
	h := mustHandler(t, testKey, func(context.Context, *webhook.Event) error { called.Add(1); return nil },
		webhook.WithReadTimeout(100*time.Millisecond))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		running.Add(1)
		defer running.Add(-1)
		h.ServeHTTP(w, r) // the server's own ResponseWriter: deadlines are supported
	}))
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	var wg sync.WaitGroup
	statuses := make([]string, 20)
	for i := range statuses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gap := 20 * time.Millisecond // a byte every 20 ms: never idle for the timeout
			if i%2 == 1 {
				gap = time.Hour // stalled
			}
			statuses[i] = trickle(t, addr, 1000, gap)
		}()
	}
	wg.Wait()
	for _, s := range statuses {
		assert.Equal(t, "HTTP/1.1 408 Request Timeout", s)
	}
	assert.Zero(t, called.Load())
	assert.Eventually(t, func() bool { return running.Load() == 0 }, 10*time.Second, 5*time.Millisecond, "no handler left")
}

// deadlineRecorder is a ResponseWriter that records the read deadlines set
// on it, as http.ResponseController sets them.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	mu        sync.Mutex
	deadlines []time.Time
}

func (d *deadlineRecorder) SetReadDeadline(t time.Time) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.deadlines = append(d.deadlines, t)
	return nil
}

func (d *deadlineRecorder) set() []time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.deadlines)
}

// TestHandlerClearsTheReadDeadline checks that the read deadline is
// cleared once the body is read, before fn runs: the server's wait for the
// sender to go while fn runs is a read too, and a deadline left behind
// would end fn's context, however long fn may take.
func TestHandlerClearsTheReadDeadline(t *testing.T) {
	t.Parallel()
	w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
	var seen []time.Time
	h := mustHandler(t, testKey, func(context.Context, *webhook.Event) error {
		seen = w.set()
		return nil
	}, webhook.WithReadTimeout(time.Hour))
	req := httptest.NewRequest(http.MethodPost, "/hooks", strings.NewReader(jobBody))
	req.Header.Set(webhook.Header, jobDigestHex)
	h.ServeHTTP(w, req)
	assert.Equal(t, http.StatusNoContent, w.Code)
	require.Len(t, seen, 2, "a deadline for the read, then cleared")
	assert.False(t, seen[0].IsZero(), "the read has a deadline")
	assert.True(t, seen[1].IsZero(), "fn runs with no read deadline")
}

// noDeadlines is a ResponseWriter that supports no deadlines, as a
// wrapper without Unwrap.
type noDeadlines struct{ *httptest.ResponseRecorder }

// TestHandlerBoundsTheReadWithoutDeadlines checks the fallback: with a
// ResponseWriter that supports no deadline, a body that never comes is
// answered 408 at the timeout all the same.
func TestHandlerBoundsTheReadWithoutDeadlines(t *testing.T) {
	t.Parallel()
	h := mustHandler(t, testKey, func(context.Context, *webhook.Event) error { t.Error("called"); return nil },
		webhook.WithReadTimeout(50*time.Millisecond))
	body, sender := io.Pipe()
	t.Cleanup(func() { sender.Close() }) // ends the read left behind
	req := httptest.NewRequest(http.MethodPost, "/hooks", body)
	req.Header.Set(webhook.Header, jobDigestHex)
	w := noDeadlines{httptest.NewRecorder()}
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(w, req)
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the handler still waits for a body that never comes")
	}
	assert.Equal(t, http.StatusRequestTimeout, w.Code)
}
