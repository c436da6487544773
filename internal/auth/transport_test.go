package auth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// base is a RoundTripper that records what it is sent and answers with
// answer, or 200.
type base struct {
	mu     sync.Mutex
	reqs   []*http.Request
	bodies []string
	answer func(req *http.Request) int
}

func (b *base) RoundTrip(req *http.Request) (*http.Response, error) {
	var body string
	if req.Body != nil {
		data, _ := io.ReadAll(req.Body)
		body = string(data)
	}
	b.mu.Lock()
	b.reqs = append(b.reqs, req)
	b.bodies = append(b.bodies, body)
	b.mu.Unlock()
	status := http.StatusOK
	if b.answer != nil {
		status = b.answer(req)
	}
	return &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader("{}")), Header: http.Header{}, Request: req}, nil
}

// counting returns a FetchFunc handing out tok-1, tok-2, … and counting.
func counting(n *atomic.Int64) FetchFunc {
	return func(context.Context) (Token, error) {
		return Token{Value: fmt.Sprintf("tok-%d", n.Add(1)), ExpiresAt: time.Now().Add(24 * time.Hour)}, nil
	}
}

func newTransport(b *base, src *Source) *Transport {
	return &Transport{Base: b, Source: src, Scheme: "https", Host: "api.example.com"}
}

func get(t *testing.T, rt http.RoundTripper, ctx context.Context, rawURL string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	require.NoError(t, err)
	resp, err := rt.RoundTrip(req)
	require.NoError(t, err)
	return resp
}

func TestTransportAddsTokenOnlyForItsHost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url       string
		wantToken bool
	}{
		{"https://api.example.com/api_v2/jobs?page=2", true},
		{"https://api.example.com/api_v2/jobs", true},
		{"http://api.example.com/api_v2/jobs", false},       // another scheme
		{"https://api.example.com:8443/api_v2/jobs", false}, // another port
		{"https://evil.example.com/api_v2/jobs", false},     // another host
		{"https://api.example.com.evil.test/api_v2", false}, // a host that starts the same
		{"https://sub.api.example.com/api_v2/jobs", false},  // a subdomain
		{"https://evil.test/?next=https://api.example.com", false},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			t.Parallel()
			b := &base{}
			rt := newTransport(b, NewStaticSource("tok-static"))
			req, err := http.NewRequest(http.MethodGet, tt.url, nil)
			require.NoError(t, err)
			before := req.URL.String()

			resp, err := rt.RoundTrip(req)
			require.NoError(t, err)
			require.Len(t, b.reqs, 1)
			sent := b.reqs[0].URL
			if tt.wantToken {
				assert.Equal(t, "tok-static", sent.Query().Get("token"))
				if strings.Contains(tt.url, "page=2") {
					assert.Equal(t, "2", sent.Query().Get("page"), "the query is kept")
				}
			} else {
				assert.NotContains(t, sent.String(), "tok-static")
			}
			assert.Equal(t, before, req.URL.String(), "the caller's request is not changed")
			assert.Same(t, req, resp.Request, "the response points at the caller's request")
		})
	}
}

func TestTransportRenewsOnceOn401AndReplaysTheBody(t *testing.T) {
	t.Parallel()
	b := &base{answer: func(req *http.Request) int {
		if req.URL.Query().Get("token") == "tok-1" {
			return http.StatusUnauthorized
		}
		return http.StatusOK
	}}
	var fetches atomic.Int64
	rt := newTransport(b, NewSource(counting(&fetches)))
	req, err := http.NewRequest(http.MethodPost, "https://api.example.com/api_v2/jobs", strings.NewReader(`{"a":1}`))
	require.NoError(t, err) // NewRequest sets GetBody for a strings.Reader

	resp, err := rt.RoundTrip(req)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Same(t, req, resp.Request)
	assert.EqualValues(t, 2, fetches.Load())
	require.Len(t, b.reqs, 2)
	assert.Equal(t, "tok-1", b.reqs[0].URL.Query().Get("token"))
	assert.Equal(t, "tok-2", b.reqs[1].URL.Query().Get("token"))
	assert.Equal(t, []string{`{"a":1}`, `{"a":1}`}, b.bodies)
}

func TestTransportDoesNotLoopOn401(t *testing.T) {
	t.Parallel()
	b := &base{answer: func(*http.Request) int { return http.StatusUnauthorized }}
	var fetches atomic.Int64
	rt := newTransport(b, NewSource(counting(&fetches)))
	resp := get(t, rt, context.Background(), "https://api.example.com/api_v2/jobs")
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	assert.Len(t, b.reqs, 2)
	assert.EqualValues(t, 2, fetches.Load())
}

// TestTransportDoesNotRenewWithoutEnd has a server answer 401 to every
// token: many calls make a few fetches, not one each.
func TestTransportDoesNotRenewWithoutEnd(t *testing.T) {
	t.Parallel()
	b := &base{answer: func(*http.Request) int { return http.StatusUnauthorized }}
	var fetches atomic.Int64
	src := NewSource(counting(&fetches))
	now := time.Now()
	src.SetClock(func() time.Time { return now }) // however slow the machine, no wait passes
	rt := newTransport(b, src)
	for range 100 {
		resp := get(t, rt, context.Background(), "https://api.example.com/api_v2/jobs")
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	}
	assert.EqualValues(t, 3, fetches.Load(), "the first token, and two renewals")
}

func TestTransportDoesNotReplayWhatItCannot(t *testing.T) {
	t.Parallel()
	t.Run("static token", func(t *testing.T) {
		t.Parallel()
		b := &base{answer: func(*http.Request) int { return http.StatusUnauthorized }}
		resp := get(t, newTransport(b, NewStaticSource("tok-static")), context.Background(), "https://api.example.com/x")
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
		assert.Len(t, b.reqs, 1)
	})
	t.Run("body without GetBody", func(t *testing.T) {
		t.Parallel()
		b := &base{answer: func(*http.Request) int { return http.StatusUnauthorized }}
		var fetches atomic.Int64
		req, err := http.NewRequest(http.MethodPost, "https://api.example.com/x", io.NopCloser(strings.NewReader("x")))
		require.NoError(t, err)
		require.Nil(t, req.GetBody)
		src := NewSource(counting(&fetches))
		tr := newTransport(b, src)
		resp, err := tr.RoundTrip(req)
		require.NoError(t, err)
		assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
		assert.Len(t, b.reqs, 1)

		b.answer = nil
		get(t, tr, context.Background(), "https://api.example.com/y")
		assert.Equal(t, "tok-2", b.reqs[1].URL.Query().Get("token"), "the rejected token was dropped, not used again")
	})
}

func TestTransportReportsFetchFailure(t *testing.T) {
	t.Parallel()
	b := &base{}
	reason := errors.New("keys refused")
	src := NewSource(func(context.Context) (Token, error) { return Token{}, reason })
	req, err := http.NewRequest(http.MethodGet, "https://api.example.com/x", nil)
	require.NoError(t, err)
	_, err = newTransport(b, src).RoundTrip(req)
	var fetchErr *FetchError
	require.ErrorAs(t, err, &fetchErr)
	assert.ErrorIs(t, err, reason)
	assert.Empty(t, b.reqs, "nothing is sent without a token")

	_, err = newTransport(b, NewStaticSource("")).RoundTrip(req)
	assert.ErrorIs(t, err, ErrNoCredentials)
}

func TestTransportReturnsContextErrorWhileWaitingForToken(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	src := NewSource(func(context.Context) (Token, error) {
		<-release
		return Token{Value: "late"}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.example.com/x", nil)
	require.NoError(t, err)
	_, err = newTransport(&base{}, src).RoundTrip(req)
	assert.ErrorIs(t, err, context.Canceled)
	var fetchErr *FetchError
	assert.NotErrorAs(t, err, &fetchErr)
}

func TestSourceRenewsBeforeExpiry(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	var fetches atomic.Int64
	src := NewSource(func(context.Context) (Token, error) {
		return Token{Value: fmt.Sprintf("tok-%d", fetches.Add(1)), ExpiresAt: clock.Load().Add(time.Hour)}, nil
	})
	src.SetClock(func() time.Time { return *clock.Load() })

	tok, err := src.Token(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "tok-1", tok)

	later := now.Add(54 * time.Minute)
	clock.Store(&later)
	tok, _ = src.Token(context.Background())
	assert.Equal(t, "tok-1", tok, "six minutes left: still used")

	later = now.Add(56 * time.Minute)
	clock.Store(&later)
	tok, _ = src.Token(context.Background())
	assert.Equal(t, "tok-2", tok, "four minutes left: renewed")
}

func TestSourceInvalidateKeepsANewerToken(t *testing.T) {
	t.Parallel()
	var fetches atomic.Int64
	src := NewSource(counting(&fetches))
	first, err := src.Token(context.Background())
	require.NoError(t, err)
	src.Invalidate(first)
	second, err := src.Token(context.Background())
	require.NoError(t, err)
	require.NotEqual(t, first, second)

	src.Invalidate(first) // a late rejection of the old token
	assert.Equal(t, second, src.Current())
	assert.EqualValues(t, 2, fetches.Load())
}

func TestTokenAndSourcePrintNoValue(t *testing.T) {
	t.Parallel()
	tok := Token{Value: "tok-secret", ExpiresAt: time.Now()}
	src := NewStaticSource("tok-secret")
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		assert.NotContains(t, fmt.Sprintf(verb, tok), "tok-secret")
		assert.NotContains(t, fmt.Sprintf(verb, &tok), "tok-secret")
		assert.NotContains(t, fmt.Sprintf(verb, src), "tok-secret")
	}
}

// failing is a RoundTripper that fails quoting the URL it was sent, as
// proxies and mocks do.
type failing struct{ cause error }

func (f failing) RoundTrip(req *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("cannot reach %s: %w", req.URL, f.cause)
}

func TestTransportErrorsHideTheToken(t *testing.T) {
	t.Parallel()
	cause := errors.New("refused")
	rt := &Transport{Base: failing{cause}, Source: NewStaticSource("tok-static"), Scheme: "https", Host: "api.example.com"}
	req, err := http.NewRequest(http.MethodGet, "https://api.example.com/api_v2/jobs", nil)
	require.NoError(t, err)
	_, err = rt.RoundTrip(req)
	require.ErrorIs(t, err, cause, "the cause, which does not quote the token, stays reachable")
	for e := err; e != nil; e = errors.Unwrap(e) {
		assert.NotContains(t, e.Error(), "tok-static", "no error of the chain shows the token")
		assert.NotContains(t, fmt.Sprintf("%#v", e), "tok-static")
	}
	assert.NotContains(t, fmt.Sprintf("%v %+v %s", err, err, err), "tok-static")
	assert.Contains(t, err.Error(), "https://api.example.com/api_v2/jobs")
}

// TestRenewalDoesNotReplaceANewerToken sets a token while a renewal that
// started earlier is under way: the renewal's older token is not kept.
func TestRenewalDoesNotReplaceANewerToken(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	now := time.Now()
	src := NewSource(func(context.Context) (Token, error) {
		close(started)
		<-release
		return Token{Value: "tok-renewal", ExpiresAt: now.Add(23 * time.Hour)}, nil
	})
	done := make(chan string)
	go func() {
		v, _ := src.Token(context.Background())
		done <- v
	}()
	<-started // the fetch runs: the renewal is under way
	require.True(t, renewing(src))
	require.Empty(t, src.Current())
	src.Set(Token{Value: "tok-explicit", ExpiresAt: now.Add(24 * time.Hour)})
	close(release)
	<-done
	assert.Equal(t, "tok-explicit", src.Current(), "the newer token is kept")

	src.Set(Token{Value: "tok-older-but-explicit", ExpiresAt: now.Add(time.Hour)})
	assert.Equal(t, "tok-older-but-explicit", src.Current(), "an explicit authentication always replaces")
}

// renewing tells whether a fetch is under way.
func renewing(s *Source) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.v().inflight != nil
}
