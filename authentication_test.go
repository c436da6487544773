package workforce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// issuer answers POST /authenticate with a new token each time, tok-1,
// tok-2, …, valid for 24 hours from its clock.
type issuer struct {
	calls atomic.Int64
	now   atomic.Pointer[time.Time]
	gate  chan struct{} // when set, each answer waits for it to close
}

// newIssuer registers an issuer on m in place of newMock's /authenticate.
func newIssuer(m *mockAPI, now time.Time) *issuer {
	i := &issuer{}
	i.now.Store(&now)
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", func(*http.Request) (*http.Response, error) {
		n := i.calls.Add(1)
		if i.gate != nil {
			<-i.gate
		}
		return httpmock.NewJsonResponse(200, map[string]any{
			"token":      fmt.Sprintf("tok-%d", n),
			"expires_at": i.clock().Add(24 * time.Hour).UTC().Format(time.RFC3339),
		})
	})
	return i
}

func (i *issuer) clock() time.Time { return *i.now.Load() }
func (i *issuer) set(t time.Time)  { i.now.Store(&t) }

// tokens registers a GET /jobs/42 responder that records the tokens it sees
// and answers 200 unless reject says the token is refused (401).
type tokens struct {
	mu   sync.Mutex
	seen []string
}

func (tk *tokens) register(m *mockAPI, reject func(token string) bool) {
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(req *http.Request) (*http.Response, error) {
		tok := tokenOf(req)
		tk.mu.Lock()
		tk.seen = append(tk.seen, tok)
		tk.mu.Unlock()
		if reject != nil && reject(tok) {
			return httpmock.NewStringResponse(401, `{"error": "invalid token"}`), nil
		}
		return httpmock.NewStringResponse(200, `{"job": {"id": 42}}`), nil
	})
}

func (tk *tokens) list() []string {
	tk.mu.Lock()
	defer tk.mu.Unlock()
	return append([]string(nil), tk.seen...)
}

var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestTokenIsFetchedLazilyOnceAndReused(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var tk tokens
	tk.register(m, nil)
	assert.Zero(t, m.auths.Load(), "New fetches nothing")
	for range 3 {
		require.NoError(t, getJob42(c))
	}
	assert.EqualValues(t, 1, m.auths.Load())
	assert.Equal(t, []string{testToken, testToken, testToken}, tk.list())
}

func TestAuthenticateRequestShape(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate",
		got.respond(200, `{"token": "tok-x", "expires_at": "2099-01-01T00:00:00Z"}`))
	tok, _, err := c.Authentication.Authenticate(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "tok-x", tok.Value)

	assert.Equal(t, "application/json", got.req.Header.Get("Content-Type"))
	assert.Empty(t, got.req.URL.RawQuery, "no token and no key in the URL")
	var body map[string]any
	require.NoError(t, json.Unmarshal(got.body, &body))
	assert.Equal(t, map[string]any{"api_key": testAPIKey, "secret_key": testSecretKey}, body)
}

func TestTokenIsRenewedBeforeItExpires(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	is := newIssuer(m, epoch)
	workforce.SetClockForTest(c, is.clock)
	var tk tokens
	tk.register(m, nil)

	require.NoError(t, getJob42(c))
	is.set(epoch.Add(24*time.Hour - 6*time.Minute)) // still more than 5 minutes left
	require.NoError(t, getJob42(c))
	assert.EqualValues(t, 1, is.calls.Load())

	is.set(epoch.Add(24*time.Hour - 4*time.Minute)) // inside the 5-minute margin
	require.NoError(t, getJob42(c))
	require.NoError(t, getJob42(c))
	assert.EqualValues(t, 2, is.calls.Load())
	assert.Equal(t, []string{"tok-1", "tok-1", "tok-2", "tok-2"}, tk.list())
}

func TestTokenIsRenewedOnceOn401(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	is := newIssuer(m, time.Now())
	var tk tokens
	tk.register(m, func(tok string) bool { return tok == "tok-1" })

	require.NoError(t, getJob42(c))
	assert.EqualValues(t, 2, is.calls.Load())
	assert.Equal(t, []string{"tok-1", "tok-2"}, tk.list())

	require.NoError(t, getJob42(c)) // the new token is kept
	assert.EqualValues(t, 2, is.calls.Load())
}

func TestGivenTokenIsUsedThenRenewedFromTheKeys(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithToken("tok-given"))
	is := newIssuer(m, time.Now())
	var tk tokens
	rejectGiven := atomic.Bool{}
	tk.register(m, func(tok string) bool { return rejectGiven.Load() && tok == "tok-given" })

	require.NoError(t, getJob42(c))
	assert.Zero(t, is.calls.Load(), "the given token is used as it is")
	rejectGiven.Store(true)
	require.NoError(t, getJob42(c))
	assert.EqualValues(t, 1, is.calls.Load(), "once rejected, it is renewed from the keys")
	assert.Equal(t, []string{"tok-given", "tok-given", "tok-1"}, tk.list())
}

func TestSecond401InARowIsReturned(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	is := newIssuer(m, time.Now())
	var tk tokens
	tk.register(m, func(string) bool { return true })

	_, resp, err := c.Jobs.Get(context.Background(), 42)
	require.ErrorIs(t, err, workforce.ErrUnauthorized)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.EqualValues(t, 2, is.calls.Load(), "one renewal, no loop")
	assert.Equal(t, []string{"tok-1", "tok-2"}, tk.list())
}

func TestCreateIsReplayedWithItsBodyAfter401(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	newIssuer(m, time.Now())
	var bodies, toks []string
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/jobs", func(req *http.Request) (*http.Response, error) {
		b, _ := io.ReadAll(req.Body)
		bodies = append(bodies, string(b))
		toks = append(toks, tokenOf(req))
		if tokenOf(req) == "tok-1" {
			return httpmock.NewStringResponse(401, `{"error": "expired"}`), nil
		}
		return httpmock.NewStringResponse(200, `{"job": {"id": 3}}`), nil
	})
	job, _, err := c.Jobs.Create(context.Background(), &workforce.JobCreate{WorkerID: 7, JobRequestID: 9})
	require.NoError(t, err)
	assert.EqualValues(t, 3, job.ID)
	assert.Equal(t, []string{"tok-1", "tok-2"}, toks)
	require.Len(t, bodies, 2)
	assert.JSONEq(t, `{"job": {"worker_id": 7, "job_request_id": 9}}`, bodies[0])
	assert.Equal(t, bodies[0], bodies[1])
}

// concurrently runs n calls to GET /jobs/42 at once and returns their
// errors. It closes started, if not nil, once every caller is under way.
func concurrently(c *workforce.Client, n int, started chan struct{}) []error {
	errs := make([]error, n)
	var wg, ready sync.WaitGroup
	ready.Add(n)
	wg.Add(n)
	for i := range n {
		go func() {
			defer wg.Done()
			ready.Done()
			_, _, errs[i] = c.Jobs.Get(context.Background(), 42)
		}()
	}
	if started != nil {
		go func() { ready.Wait(); close(started) }()
	}
	wg.Wait()
	return errs
}

func TestConcurrentCallersShareOneFetch(t *testing.T) {
	t.Parallel()
	const n = 64
	c, m := newMock(t)
	is := newIssuer(m, time.Now())
	is.gate = make(chan struct{}) // the fetch is answered once all callers are under way
	var tk tokens
	tk.register(m, nil)
	for _, err := range concurrently(c, n, is.gate) {
		require.NoError(t, err)
	}
	assert.EqualValues(t, 1, is.calls.Load())
	seen := tk.list()
	assert.Len(t, seen, n)
	for _, tok := range seen {
		assert.Equal(t, "tok-1", tok)
	}
}

func TestConcurrent401sShareOneRenewal(t *testing.T) {
	t.Parallel()
	const n = 64
	c, m := newMock(t)
	is := newIssuer(m, time.Now())
	var tk tokens
	tk.register(m, nil)
	require.NoError(t, getJob42(c)) // caches tok-1
	require.EqualValues(t, 1, is.calls.Load())

	// Every caller sends tok-1; none is answered until all of them have, so
	// that all 64 are rejected with the same stale token.
	var withStale atomic.Int64
	allStale := make(chan struct{})
	var seen sync.Map
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(req *http.Request) (*http.Response, error) {
		tok := tokenOf(req)
		counter, _ := seen.LoadOrStore(tok, new(atomic.Int64))
		counter.(*atomic.Int64).Add(1)
		if tok != "tok-1" {
			return httpmock.NewStringResponse(200, `{"job": {"id": 42}}`), nil
		}
		if withStale.Add(1) == n {
			close(allStale)
		}
		select {
		case <-allStale:
		case <-time.After(10 * time.Second): // a guard against a hang, not a wait
			return nil, fmt.Errorf("only %d callers sent the stale token", withStale.Load())
		}
		return httpmock.NewStringResponse(401, `{"error": "expired"}`), nil
	})

	for _, err := range concurrently(c, n, nil) {
		require.NoError(t, err)
	}
	assert.EqualValues(t, 2, is.calls.Load(), "one renewal for all")
	stale, _ := seen.Load("tok-1")
	fresh, _ := seen.Load("tok-2")
	require.NotNil(t, fresh)
	assert.EqualValues(t, n, stale.(*atomic.Int64).Load())
	assert.EqualValues(t, n, fresh.(*atomic.Int64).Load())
}

func TestWrongKeysAnswerUnauthorized(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var auths atomic.Int64
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", func(*http.Request) (*http.Response, error) {
		auths.Add(1)
		return httpmock.NewStringResponse(401, `{"error": "Invalid API keys"}`), nil
	})
	var tk tokens
	tk.register(m, nil)

	_, _, err := c.Jobs.Get(context.Background(), 42)
	require.ErrorIs(t, err, workforce.ErrUnauthorized)
	var apiErr *workforce.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "/api_v2/authenticate", apiErr.Path)
	assert.Equal(t, http.MethodPost, apiErr.Method)
	assert.Equal(t, "Invalid API keys", apiErr.Message)
	assert.EqualValues(t, 1, auths.Load(), "a 401 at /authenticate is not retried")
	assert.Empty(t, tk.list(), "the call itself is never sent")

	_, _, err = c.Authentication.Authenticate(context.Background())
	require.ErrorIs(t, err, workforce.ErrUnauthorized)
	assert.EqualValues(t, 2, auths.Load())
}

func TestAuthenticateSetsTheClientsToken(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	is := newIssuer(m, epoch)
	workforce.SetClockForTest(c, is.clock)
	var tk tokens
	tk.register(m, nil)

	tok, resp, err := c.Authentication.Authenticate(context.Background())
	require.NoError(t, err)
	require.NotNil(t, resp)
	assert.Equal(t, "tok-1", tok.Value)
	assert.Equal(t, epoch.Add(24*time.Hour), tok.ExpiresAt.UTC())

	require.NoError(t, getJob42(c))
	assert.EqualValues(t, 1, is.calls.Load(), "the client used the token it was handed")
	assert.Equal(t, []string{"tok-1"}, tk.list())

	// Authenticating again replaces the token.
	_, _, err = c.Authentication.Authenticate(context.Background())
	require.NoError(t, err)
	require.NoError(t, getJob42(c))
	assert.Equal(t, []string{"tok-1", "tok-2"}, tk.list())
}

func TestAuthenticateNeedsKeys(t *testing.T) {
	t.Parallel()
	rec := newRecorder(200, `{}`)
	c, err := newOver(rec, "", "", workforce.WithBaseURL(mockBase), workforce.WithToken(testToken))
	require.NoError(t, err)
	_, _, err = c.Authentication.Authenticate(context.Background())
	require.ErrorIs(t, err, workforce.ErrInvalidArgument)
	assert.Empty(t, rec.seen)
}

func TestAuthenticateWithoutTokenInAnswer(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", httpmock.NewStringResponder(200, `{"expires_at": "2099-01-01T00:00:00Z"}`))
	_, _, err := c.Authentication.Authenticate(context.Background())
	var decErr *workforce.DecodeError
	require.ErrorAs(t, err, &decErr)
	assert.Equal(t, "/api_v2/authenticate", decErr.Path)
}

// bareTransport answers like a minimal RoundTripper: no Request in the
// response.
type bareTransport struct{ body string }

func (b bareTransport) RoundTrip(*http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(b.body))}, nil
}

func TestTokenlessAnswerFromABareTransportIsAnError(t *testing.T) {
	t.Parallel()
	c, err := newOver(bareTransport{`{}`}, testAPIKey, testSecretKey, workforce.WithBaseURL(mockBase))
	require.NoError(t, err)
	_, _, err = c.Jobs.Get(context.Background(), 42) // the token is fetched on a goroutine of its own
	var decErr *workforce.DecodeError
	require.ErrorAs(t, err, &decErr)
	assert.Equal(t, "/api_v2/authenticate", decErr.Path)
}

func TestTokenPrintsNoValue(t *testing.T) {
	t.Parallel()
	tok := workforce.Token{Value: "tok-secret-value", ExpiresAt: workforce.Time{Time: epoch}}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		for _, v := range []any{tok, &tok} {
			s := fmt.Sprintf(verb, v)
			assert.NotContains(t, s, "tok-secret-value", verb)
			assert.NotContains(t, s, fmt.Sprintf("%x", "tok-secret-value"), verb)
		}
	}
	assert.Contains(t, fmt.Sprint(tok), "2026-03-01T12:00:00Z", "the expiry is worth printing")
}

// TestTokenInsideTheMarginIsStillUsed hands out tokens that expire within
// the renewal margin (the client's clock runs 23h55m ahead): each is used
// for a while, not fetched anew for every call, and the skew is logged once.
func TestTokenInsideTheMarginIsStillUsed(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, m := newMock(t, workforce.WithLogger(logger))
	is := newIssuer(m, epoch)
	var mu sync.Mutex
	local := epoch.Add(23*time.Hour + 55*time.Minute)
	workforce.SetClockForTest(c, func() time.Time { mu.Lock(); defer mu.Unlock(); return local })
	var tk tokens
	tk.register(m, nil)

	for range 10 {
		require.NoError(t, getJob42(c))
	}
	assert.EqualValues(t, 1, is.calls.Load(), "10 calls, 1 authentication")

	mu.Lock()
	local = local.Add(2 * time.Minute) // past the minimum use: renewed
	mu.Unlock()
	is.set(epoch.Add(2 * time.Minute))
	require.NoError(t, getJob42(c))
	require.NoError(t, getJob42(c))
	assert.EqualValues(t, 2, is.calls.Load())
	assert.Equal(t, 1, strings.Count(logs.String(), "is the clock ahead"), logs.String())
}

// TestA401StormFetchesFewTokensAndHidesThemAll has a server answer 401 to
// every call with every token (A3): the client renews a few times, not once
// a call, and every token it fetched, each still valid, stays hidden when
// the server later repeats it.
func TestA401StormFetchesFewTokensAndHidesThemAll(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithRetry(0, 0, 0))
	rt := newRandomTokens(m, epoch)
	workforce.SetClockForTest(c, rt.clock) // no renewal's wait passes, however slow the machine
	var echo atomic.Pointer[string]
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/1", func(*http.Request) (*http.Response, error) {
		if e := echo.Load(); e != nil {
			return httpmock.NewStringResponse(404, `{"error":"no job; your session `+*e+` is still open"}`), nil
		}
		return httpmock.NewStringResponse(401, `{"error":"unauthorized"}`), nil
	})
	for range 100 {
		_, _, err := c.Jobs.Get(context.Background(), 1)
		require.ErrorIs(t, err, workforce.ErrUnauthorized)
	}
	rt.mu.Lock()
	issued := slices.Clone(rt.issued)
	rt.mu.Unlock()
	assert.Len(t, issued, 3, "the first token and two renewals; then a 401 renews after a wait")
	for _, tok := range issued {
		echo.Store(&tok)
		_, _, err := c.Jobs.Get(context.Background(), 1)
		require.ErrorIs(t, err, workforce.ErrNotFound)
		assert.NotContains(t, err.Error(), tok[4:12])
	}
}

// An /authenticate answer that issues a token but is otherwise malformed
// (its expiry holds the token, as a string or inside an object; its token
// is an array) shows the token in no warning, log line or error: the
// token is learnt before anything is reported, and the warnings of such
// an answer carry no value (attack 7, A7-6).
func TestMalformedAuthenticateAnswerShowsNoToken(t *testing.T) {
	t.Parallel()
	const issued = "tok_ISSUEDmadeUpTOKEN9f8e7d6c5b4a39281706"
	for name, body := range map[string]string{
		"expiry the token":       `{"token": "` + issued + `", "expires_at": "` + issued + `"}`,
		"expiry an object":       `{"token": "` + issued + `", "expires_at": {"t": "` + issued + `"}}`,
		"token an array":         `{"token": ["` + issued + `"], "expires_at": "2030-01-01T00:00:00Z"}`,
		"token an array, padded": `{"token": [" ` + issued + `"], "expires_at": "2030-01-01T00:00:00Z"}`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var logs syncBuffer
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, body)
			}))
			t.Cleanup(srv.Close)
			c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(srv.URL),
				workforce.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
			require.NoError(t, err)
			_, resp, err := c.Authentication.Authenticate(context.Background())
			seen := logs.String()
			if err != nil {
				seen += fmt.Sprintf("%v %+v %#v", err, err, err)
			}
			if resp != nil {
				seen += fmt.Sprintf("%v %+v", resp, resp.Warnings)
			}
			assert.NotContains(t, seen, issued[4:20])
		})
	}
}
