package workforce_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

func resp(r *http.Request, status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: r, ProtoMajor: 1, ProtoMinor: 1}
}

// A caller's RoundTripper (no httptrace hooks) answers 500 after the server acted.
func TestR2CustomTransport500NotUnknown(t *testing.T) {
	var acted atomic.Int64
	hc := &http.Client{Transport: rtFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		acted.Add(1)
		return resp(r, 500, `{"error":"boom"}`), nil
	})}
	c, err := workforce.New("", "", workforce.WithToken("tok"), workforce.WithBaseURL("https://api.example.com"),
		workforce.WithHTTPClient(hc), workforce.WithRetry(0, 0, 0))
	require.NoError(t, err)
	_, _, err = c.Badges.Create(context.Background(), &workforce.BadgeParams{Name: "n", Description: "d"})
	t.Logf("acted=%d err=%v", acted.Load(), err)
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
}

// A caller's RoundTripper answers 200 (done), then the context ends before CheckRetry.
func TestR2CustomTransport200ThenCancelNotUnknown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	hc := &http.Client{Transport: rtFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		cancel()
		return resp(r, 200, `{"badge":{"id":7,"name":"n","description":"d"}}`), nil
	})}
	c, err := workforce.New("", "", workforce.WithToken("tok"), workforce.WithBaseURL("https://api.example.com"),
		workforce.WithHTTPClient(hc))
	require.NoError(t, err)
	_, _, err = c.Badges.Create(ctx, &workforce.BadgeParams{Name: "n", Description: "d"})
	t.Logf("err=%v", err)
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
}

// A PATCH (an update, retried on 502) through a caller's transport: 502, then 503 exhausted.
func TestR2CustomTransport502Then503NotUnknown(t *testing.T) {
	var n atomic.Int64
	hc := &http.Client{Transport: rtFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		if n.Add(1) == 1 {
			return resp(r, 502, `{}`), nil
		}
		return resp(r, 503, `{}`), nil
	})}
	c, err := workforce.New("", "", workforce.WithToken("tok"), workforce.WithBaseURL("https://api.example.com"),
		workforce.WithHTTPClient(hc), workforce.WithRetry(1, 0, 0))
	require.NoError(t, err)
	_, _, err = c.Badges.Update(context.Background(), 3, &workforce.BadgeParams{Name: "n", Description: "d"})
	t.Logf("attempts=%d err=%v unknown=%v", n.Load(), err, errors.Is(err, workforce.ErrOutcomeUnknown))
	require.ErrorIs(t, err, workforce.ErrOutcomeUnknown)
}
