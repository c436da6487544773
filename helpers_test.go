package workforce_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	_ "time/tzdata" // US Pacific time, whatever the machine holds

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// Made-up keys of the right shape; nothing real.
const (
	testAPIKey    = "pk_test_4eC39HqLyjWDarjtT1zdp7dc"
	testSecretKey = "sk_test_BQokikJOvBiI2HlWgH4olfQ2"
	testToken     = "tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0"
	mockBase      = "https://api.workforce.test"
)

// Live keys of the right shape; nothing real.
const (
	liveAPIKey    = "pk_live_made_up_1"
	liveSecretKey = "sk_live_made_up_2"
)

// infoBody is a minimal GET /info answer.
const infoBody = `{"utc_time_now": "2026-01-02T03:04:05Z", "environment": "test"}`

// mockAPI is an httpmock transport under a client, with /authenticate
// answering testToken and counting its calls.
type mockAPI struct {
	*httpmock.MockTransport
	auths atomic.Int64
}

// newMock returns a client whose requests go to a fresh mock transport.
// Retries wait no more than a millisecond.
func newMock(t *testing.T, opts ...workforce.Option) (*workforce.Client, *mockAPI) {
	t.Helper()
	m := &mockAPI{MockTransport: httpmock.NewMockTransport()}
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", func(req *http.Request) (*http.Response, error) {
		m.auths.Add(1)
		return httpmock.NewJsonResponse(200, map[string]any{
			"token": testToken, "expires_at": time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339),
		})
	})
	base := []workforce.Option{
		workforce.WithBaseURL(mockBase),
		workforce.WithHTTPClient(&http.Client{Transport: m}),
		workforce.WithRetry(3, time.Millisecond, time.Millisecond),
	}
	c, err := workforce.New(testAPIKey, testSecretKey, append(base, opts...)...)
	require.NoError(t, err)
	return c, m
}

// capture records the last request a responder saw, body included.
type capture struct {
	req  *http.Request
	body []byte
}

// respond returns a responder that records the request in c and answers
// status with body.
func (c *capture) respond(status int, body string) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		c.req = req
		if req.Body != nil {
			c.body, _ = io.ReadAll(req.Body)
		}
		resp := httpmock.NewStringResponse(status, body)
		resp.Header.Set("Content-Type", "application/json")
		return resp, nil
	}
}

// jsonBody decodes the captured body.
func (c *capture) jsonBody(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(c.body, &m), "body: %s", c.body)
	return m
}

// assertKept checks that the document raw holds the field name as the
// JSON text want: a field the SDK does not model stays reachable.
func assertKept(t *testing.T, raw json.RawMessage, name, want string) {
	t.Helper()
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &doc))
	assert.JSONEq(t, want, string(doc[name]), "an unmodelled field stays reachable")
}

// recorder is a mock transport that answers every request with status and
// body and keeps the requests it saw.
type recorder struct {
	*httpmock.MockTransport
	seen []*http.Request
}

func newRecorder(status int, body string) *recorder {
	r := &recorder{MockTransport: httpmock.NewMockTransport()}
	r.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		r.seen = append(r.seen, req)
		return httpmock.NewStringResponse(status, body), nil
	})
	return r
}

// newOver returns a client for the keys whose requests go to rt.
func newOver(rt http.RoundTripper, apiKey, secretKey string, opts ...workforce.Option) (*workforce.Client, error) {
	base := []workforce.Option{
		workforce.WithHTTPClient(&http.Client{Transport: rt}),
		workforce.WithRetry(0, time.Millisecond, time.Millisecond),
	}
	return workforce.New(apiKey, secretKey, append(base, opts...)...)
}

// tokenOf returns the token a request carries in its query.
func tokenOf(req *http.Request) string { return req.URL.Query().Get("token") }

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a logger.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// within runs call and returns its error, failing the test if it does not
// return in a generous while (no call here may wait for the server).
func within(t *testing.T, call func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- call() }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the call still waits for a server that stalled")
		return nil
	}
}

// newFake starts a fake API and returns it with a Private Pool client whose
// retries wait a millisecond at most.
func newFake(t *testing.T) (*workforcetest.Server, *workforce.Client) {
	t.Helper()
	srv := workforcetest.NewServer(t)
	c, err := srv.Client(workforce.WithRetry(3, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	return srv, c
}

func countRequests(srv *workforcetest.Server, method, path string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

func states(ts []workforce.Transition) []workforce.JobState {
	out := make([]workforce.JobState, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

// tokenOnly returns a client of srv holding only token, which the fake does not know: every
// call is a 401 it cannot recover from, having no keys.
func tokenOnly(t *testing.T, srv *workforcetest.Server) *workforce.Client {
	t.Helper()
	c, err := workforce.New("", "", workforce.WithBaseURL(srv.URL), workforce.WithToken("not-a-token-the-fake-gave"),
		workforce.WithRetry(0, 0, 0))
	require.NoError(t, err)
	return c
}

// walk collects the ids an iterator yields, failing the test at its first error.
func walk[T any](t *testing.T, seq iter.Seq2[T, error], id func(T) int64) []int64 {
	t.Helper()
	var ids []int64
	for v, err := range seq {
		require.NoError(t, err)
		ids = append(ids, id(v))
	}
	return ids
}

// assertNewestFirst checks that ids are strictly descending, so also free of duplicates.
func assertNewestFirst(t *testing.T, ids []int64) {
	t.Helper()
	seen := map[int64]bool{}
	for i, id := range ids {
		assert.False(t, seen[id], "id %d yielded twice", id)
		seen[id] = true
		if i > 0 {
			assert.Greater(t, ids[i-1], id, "newest first, at %d", i)
		}
	}
}

// listPages returns the per and page parameters of the GET requests to path, in order.
func listPages(srv *workforcetest.Server, path string) (pers, pages []string) {
	for _, r := range srv.Requests() {
		if r.Method == http.MethodGet && r.Path == path {
			pers = append(pers, r.Query.Get("per"))
			pages = append(pages, r.Query.Get("page"))
		}
	}
	return pers, pages
}

// servePages registers GET /api_v2/<path> answering sizes[i] records under
// path for page i+1 and an empty page past the end. It records each page
// asked for as "page/per", followed by "?" and the other parameters but
// the token, if any.
func servePages(t *testing.T, m *mockAPI, path string, sizes ...int) *[]string {
	t.Helper()
	asked := &[]string{}
	var mu sync.Mutex
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/"+path, func(req *http.Request) (*http.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		q := req.URL.Query()
		var page int
		_, err := fmt.Sscan(q.Get("page"), &page)
		require.NoError(t, err)
		seen := q.Get("page") + "/" + q.Get("per")
		for _, name := range []string{"page", "per", "token"} {
			q.Del(name)
		}
		if len(q) > 0 {
			seen += "?" + q.Encode()
		}
		*asked = append(*asked, seen)
		n := 0
		if page <= len(sizes) {
			n = sizes[page-1]
		}
		items := make([]string, n)
		for i := range items {
			items[i] = fmt.Sprintf(`{"id": %d, "state": "filled"}`, 100000-page*100-i)
		}
		return httpmock.NewStringResponse(200, `{"`+path+`": [`+strings.Join(items, ",")+`]}`), nil
	})
	return asked
}

// step is one answer of a scripted endpoint.
type step struct {
	status     int
	retryAfter string // the Retry-After header, if any
}

// script registers a responder for method and path (below /api_v2/) that
// answers the steps in order, the last one repeated, and counts its calls.
// A 200 answers a Job.
func script(m *mockAPI, method, path string, steps ...step) *atomic.Int64 {
	var calls atomic.Int64
	m.RegisterResponder(method, mockBase+"/api_v2/"+path, func(*http.Request) (*http.Response, error) {
		s := steps[min(int(calls.Add(1)), len(steps))-1]
		body := `{"error": "try again"}`
		if s.status == http.StatusOK {
			body = `{"job": {"id": 42}}`
		}
		resp := httpmock.NewStringResponse(s.status, body)
		if s.retryAfter != "" {
			resp.Header.Set("Retry-After", s.retryAfter)
		}
		return resp, nil
	})
	return &calls
}

// createJob creates a Job of Worker 7 on Job Request 9.
func createJob(c *workforce.Client) error {
	_, _, err := c.Jobs.Create(context.Background(), &workforce.JobCreate{WorkerID: 7, JobRequestID: 9})
	return err
}

// getJob42 gets the Job 42, and fails when the answer holds another.
func getJob42(c *workforce.Client) error {
	job, _, err := c.Jobs.Get(context.Background(), 42)
	if err == nil && job.ID != 42 {
		err = fmt.Errorf("got Job %d", job.ID)
	}
	return err
}

// rawField returns one member of a JSON object.
func rawField(t *testing.T, raw json.RawMessage, name string) json.RawMessage {
	t.Helper()
	var doc map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &doc), "raw: %s", raw)
	return doc[name]
}

// rtFunc is a RoundTripper of the caller's: no httptrace hooks, as
// httpmock, http3 or any custom transport.
type rtFunc func(*http.Request) (*http.Response, error)

func (f rtFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// httpAnswer is an answer to r with status and a JSON body.
func httpAnswer(r *http.Request, status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: r, ProtoMajor: 1, ProtoMinor: 1}
}

func userID(u *workforce.User) int64 {
	if u == nil {
		return 0
	}
	return u.ID
}

// fieldErrors returns the field errors of err, a 422.
func fieldErrors(t *testing.T, err error) map[string][]string {
	t.Helper()
	require.ErrorIs(t, err, workforce.ErrUnprocessable)
	var apiErr *workforce.APIError
	require.ErrorAs(t, err, &apiErr)
	return apiErr.FieldErrors
}

// newClient returns a client holding testToken and no keys, for base,
// whose retries wait a millisecond at most; opts come last.
func newClient(t *testing.T, base string, opts ...workforce.Option) *workforce.Client {
	t.Helper()
	all := append([]workforce.Option{workforce.WithToken(testToken), workforce.WithBaseURL(base),
		workforce.WithRetry(3, time.Millisecond, time.Millisecond)}, opts...)
	c, err := workforce.New("", "", all...)
	require.NoError(t, err)
	return c
}

// newServer starts a loopback server running h, closed when the test
// ends, and returns it with a client of it made by newClient.
func newServer(t *testing.T, h http.HandlerFunc, opts ...workforce.Option) (*httptest.Server, *workforce.Client) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, newClient(t, srv.URL, opts...)
}

// newOverTransport returns a client made by newClient whose requests go to
// rt, a transport of the caller's.
func newOverTransport(t *testing.T, rt http.RoundTripper, opts ...workforce.Option) *workforce.Client {
	t.Helper()
	return newClient(t, "https://api.example.com", append([]workforce.Option{workforce.WithHTTPClient(&http.Client{Transport: rt})}, opts...)...)
}

// fakeZone is the zone the fake reads wall-clock start times in and writes them with: US
// Pacific time, from the time zone database the test carries.
var fakeZone = func() *time.Location {
	loc, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		panic(err)
	}
	return loc
}()

// refusal is a call that must be refused before any I/O with an
// *ArgumentError naming field.
type refusal struct {
	name, field string
	run         func() error
}

// assertRefused runs each call and checks that it was refused with an
// *ArgumentError that matches ErrInvalidArgument and names its field,
// whose text shows none of hidden, and that nothing at all was sent to m,
// not even POST /authenticate.
func assertRefused(t *testing.T, m *mockAPI, calls []refusal, hidden ...string) {
	t.Helper()
	for _, tc := range calls {
		err := tc.run()
		var argErr *workforce.ArgumentError
		if assert.ErrorAs(t, err, &argErr, tc.name) {
			assert.Equal(t, tc.field, argErr.Name, tc.name)
			assert.ErrorIs(t, err, workforce.ErrInvalidArgument, tc.name)
		}
		for _, h := range hidden {
			assert.NotContains(t, fmt.Sprint(err), h, "%s: no error repeats a secret", tc.name)
		}
	}
	assert.Zero(t, m.GetTotalCallCount(), "nothing may be sent")
}

// deadlineCtx is a context whose deadline passes when pass is called, not
// by a clock: a test ends a call with context.DeadlineExceeded at the
// moment it chooses, without waiting for real.
type deadlineCtx struct {
	context.Context // for Value
	done            chan struct{}
	once            sync.Once
}

// newDeadline returns a context under parent whose deadline passes when
// pass is called.
func newDeadline(parent context.Context) (ctx context.Context, pass func()) {
	d := &deadlineCtx{Context: parent, done: make(chan struct{})}
	return d, func() { d.once.Do(func() { close(d.done) }) }
}

func (d *deadlineCtx) Deadline() (time.Time, bool) { return time.Time{}, false }
func (d *deadlineCtx) Done() <-chan struct{}       { return d.done }

func (d *deadlineCtx) Err() error {
	select {
	case <-d.done:
		return context.DeadlineExceeded
	default:
		return nil
	}
}

// onMessage is a log handler that calls do when a line with msg is
// logged: a test acts at a moment of a call's own choosing, such as while
// it waits to retry ("workforce: retrying").
type onMessage struct {
	msg string
	do  func()
}

func (h onMessage) Enabled(context.Context, slog.Level) bool { return true }
func (h onMessage) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h onMessage) WithGroup(string) slog.Handler            { return h }

func (h onMessage) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.do()
	}
	return nil
}

// newKeyed returns a client holding the test keys, for base, whose
// retries wait a millisecond at most; opts come last. The server at base
// hands out its token at POST /api_v2/authenticate.
func newKeyed(t testing.TB, base string, opts ...workforce.Option) *workforce.Client {
	t.Helper()
	all := append([]workforce.Option{workforce.WithBaseURL(base), workforce.WithRetry(3, time.Millisecond, time.Millisecond)}, opts...)
	c, err := workforce.New(testAPIKey, testSecretKey, all...)
	require.NoError(t, err)
	return c
}

// hangingServer serves /authenticate, and answers everything else with
// answer, counting the requests. release ends every handler still
// waiting; it is closed when the test ends.
func hangingServer(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, n int64, release <-chan struct{})) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var calls atomic.Int64
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api_v2/authenticate" {
			w.Write([]byte(`{"token": "tok_hanging_0123456789", "expires_at": "2099-01-01T00:00:00Z"}`))
			return
		}
		answer(w, r, calls.Add(1), release)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // before srv.Close, which waits for the handlers
	return srv, &calls
}

// newHangingClient returns a client of srv with timeouts and two quick retries.
func newHangingClient(t *testing.T, srv *httptest.Server, timeouts workforce.Timeouts) *workforce.Client {
	t.Helper()
	c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(srv.URL),
		workforce.WithRetry(2, time.Millisecond, time.Millisecond), workforce.WithTimeouts(timeouts))
	require.NoError(t, err)
	return c
}

// startIn returns a wall-clock start time d after the fake's now, on the minute.
func startIn(srv *workforcetest.Server, d time.Duration) workforce.WallClock {
	return workforce.WallClockOf(srv.Now().In(fakeZone).Add(d))
}

// postable returns the fields a Job Request needs to be created, posted, for the seeded Customer.
func postable(srv *workforcetest.Server, name string, slots int) *workforce.JobRequestParams {
	return &workforce.JobRequestParams{RequestName: name, Zip: "90021", City: "Los Angeles", Address: "1200 E 7th St",
		Slots: slots, Category: "Warehouse", DescriptionTasks: "Pick and pack.", State: workforce.JobRequestPosted,
		StartTime: startIn(srv, 72*time.Hour), Duration: 240, Wage: workforce.NewDecimal(18)}
}

// jobRequestID returns the ID of jr, for walk.
func jobRequestID(jr *workforce.JobRequest) int64 { return jr.ID }

// startFake starts the in-memory fake API for an example; examples on
// pkg.go.dev run against it so that their output is real. It logs its exchanges where
// NewServer would (WORKFORCE_CONTRACT_LOG), for the check of the suite against the document.
func startFake() (*workforcetest.Server, *workforce.Client) {
	srv, err := workforcetest.Start(workforcetest.WithExchangeLog(os.Getenv(workforcetest.ExchangeLogEnv)))
	if err != nil {
		log.Fatal(err)
	}
	c, err := srv.Client()
	if err != nil {
		log.Fatal(err)
	}
	return srv, c
}
