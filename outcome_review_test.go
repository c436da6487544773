package workforce_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

type rtFunc func(*http.Request) (*http.Response, error)

func (f rtFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// BUG: a create answered 200 (done) whose context ends before CheckRetry
// runs is reported as a TransportError that does NOT match ErrOutcomeUnknown.
func TestReviewCancelAfter200IsNotUnknown(t *testing.T) {
	var created atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		created.Add(1)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"badge":{"id":7,"name":"n","description":"d"}}`)
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	base := http.DefaultTransport.(*http.Transport).Clone()
	hc := &http.Client{Transport: rtFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := base.RoundTrip(r)
		cancel() // the deadline passes just as the answer arrives
		return resp, err
	})}
	c, err := workforce.New("", "", workforce.WithToken("tok"), workforce.WithBaseURL(srv.URL), workforce.WithHTTPClient(hc))
	require.NoError(t, err)
	_, _, err = c.Badges.Create(ctx, &workforce.BadgeParams{Name: "n", Description: "d"})
	require.Error(t, err)
	t.Logf("created on server: %d; err: %v", created.Load(), err)
	require.Equal(t, int64(1), created.Load())
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown, "the create was done, but the error says nothing was done")
}

// BUG: a 2xx create whose close-delimited body is cut short is a DecodeError
// that does not match ErrOutcomeUnknown, though the create was done.
func TestReviewCutShort2xxWithoutLengthIsNotUnknown(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		conn, bw, _ := http.NewResponseController(w).Hijack()
		bw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{\"badge\":{\"id\":7,\"na")
		bw.Flush()
		conn.Close()
	}))
	defer srv.Close()
	c, err := workforce.New("", "", workforce.WithToken("tok"), workforce.WithBaseURL(srv.URL))
	require.NoError(t, err)
	_, _, err = c.Badges.Create(context.Background(), &workforce.BadgeParams{Name: "n", Description: "d"})
	t.Logf("err: %v", err)
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
}

// BUG: a transport that does not report httptrace (httpmock, http3, any
// custom RoundTripper) makes every write failure "nothing was done".
func TestReviewCustomTransportNeverUnknown(t *testing.T) {
	var acted atomic.Int64
	hc := &http.Client{Transport: rtFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		acted.Add(1) // the server got it and acted
		return nil, io.ErrUnexpectedEOF
	})}
	c, err := workforce.New("", "", workforce.WithToken("tok"), workforce.WithBaseURL("https://api.example.com"),
		workforce.WithHTTPClient(hc), workforce.WithRetry(0, 0, 0))
	require.NoError(t, err)
	_, _, err = c.Badges.Create(context.Background(), &workforce.BadgeParams{Name: "n", Description: "d"})
	t.Logf("acted: %d err: %v", acted.Load(), err)
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
}

// Wrong direction (false alarm): a write answered 401, whose replay is never
// sent because the context ends during the token renewal, says the write may
// have been done.
func TestReviewReplayNeverSentIsUnknown(t *testing.T) {
	t.Parallel()
	var writes atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api_v2/authenticate":
			time.Sleep(3 * time.Second)
			w.WriteHeader(401)
			return
		default:
			io.Copy(io.Discard, r.Body)
			writes.Add(1)
			w.WriteHeader(401)
			io.WriteString(w, `{"error":"expired"}`)
		}
	}))
	defer srv.Close()
	c, err := workforce.New("pk_test_abc", "sk_test_def", workforce.WithToken("old"), workforce.WithBaseURL(srv.URL))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, _, err = c.Badges.Create(ctx, &workforce.BadgeParams{Name: "n", Description: "d"})
	t.Logf("writes: %d err: %v", writes.Load(), err)
	require.Equal(t, int64(1), writes.Load())
	require.False(t, errors.Is(err, workforce.ErrOutcomeUnknown), "answered 401 and never sent again: nothing was done")
}
