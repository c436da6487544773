package workforce_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// An answer holding thousands of values that fit no form lists the first
// MaxWarnings and counts the rest, in the Response and in the log (A8, C5).
func TestWarningsAreCapped(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, m := newMock(t, workforce.WithLogger(logger))
	var page strings.Builder
	page.WriteString(`{"jobs":[`)
	for i := range 50 {
		if i > 0 {
			page.WriteByte(',')
		}
		fmt.Fprintf(&page, `{"id":%d,"state":"filled"`, 1000-i)
		for range 20 {
			page.WriteString(`,"hours_worked":"many"`)
		}
		page.WriteByte('}')
	}
	page.WriteString(`]}`)
	m.RegisterResponder(http.MethodGet, "=~^"+mockBase+"/api_v2/jobs", httpmock.NewStringResponder(200, page.String()))

	jobs, resp, err := c.Jobs.List(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, jobs, 50)
	assert.Equal(t, workforce.JobFilled, jobs[49].State, "every record kept")
	require.Len(t, resp.Warnings, workforce.MaxWarnings)
	assert.Equal(t, 50*20-workforce.MaxWarnings, resp.MoreWarnings)
	assert.Equal(t, workforce.Warning{Index: 4, ID: 996, Field: "hours_worked", Value: `"many"`, Want: "decimal"}, resp.Warnings[99])
	assert.Contains(t, logs.String(), fmt.Sprintf("more=%d", 50*20-10), "the log counts what it does not show")
}

// hugeToken is a made-up token of 300 bytes, longer than the part of a
// value a Warning keeps.
var hugeToken = "tok_" + strings.Repeat("Zq8xW3vN", 37)

// jsonEscaped writes every byte of s as a \u escape.
func jsonEscaped(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		fmt.Fprintf(&b, `\u%04x`, c)
	}
	return b.String()
}

// newLongTokenMock is newMock with a server that hands out hugeToken.
func newLongTokenMock(t *testing.T, opts ...workforce.Option) (*workforce.Client, *httpmock.MockTransport) {
	t.Helper()
	m := httpmock.NewMockTransport()
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", func(req *http.Request) (*http.Response, error) {
		return httpmock.NewJsonResponse(200, map[string]any{
			"token": hugeToken, "expires_at": time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339),
		})
	})
	c, err := workforce.New(testAPIKey, testSecretKey, append([]workforce.Option{
		workforce.WithBaseURL(mockBase), workforce.WithHTTPClient(&http.Client{Transport: m}),
		workforce.WithRetry(0, time.Millisecond, time.Millisecond),
	}, opts...)...)
	require.NoError(t, err)
	return c, m
}

// assertNoTokenPart checks that no start or end of hugeToken of 8 bytes
// shows in text, plain or JSON-escaped.
func assertNoTokenPart(t *testing.T, what, text string) {
	t.Helper()
	for _, part := range []string{hugeToken[:8], hugeToken[len(hugeToken)-8:], hugeToken[100:108]} {
		assert.NotContains(t, text, part, "%s shows part of the token", what)
		assert.NotContains(t, strings.ToLower(text), strings.ToLower(jsonEscaped(part)), "%s shows part of the token, escaped", what)
	}
}

// A token longer than the part of a value a Warning keeps, echoed into a
// value that fits no form (plain or JSON-escaped, whole, its start or its
// end) or into a member name, shows in no Warning and no log line (A10,
// A11, token tails).
func TestWarningsHideLongTokens(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, m := newLongTokenMock(t, workforce.WithLogger(logger))
	values := []string{hugeToken, jsonEscaped(hugeToken), jsonEscaped(hugeToken[:40]), "x " + hugeToken[250:],
		"x " + jsonEscaped(hugeToken[260:]), strings.Repeat("y", 240) + hugeToken}
	var job strings.Builder
	job.WriteString(`{"job":{"id":7`)
	for _, v := range values {
		job.WriteString(`,"hours_worked":"` + v + `"`)
	}
	job.WriteString(`}}`)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/7", httpmock.NewStringResponder(200, job.String()))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/stats", httpmock.NewStringResponder(200,
		`{"counts":{"`+hugeToken+`":"many","`+jsonEscaped(hugeToken)+`":"many","ok":1}}`))

	_, resp, err := c.Jobs.Get(context.Background(), 7)
	require.NoError(t, err)
	require.Len(t, resp.Warnings, len(values))
	for _, w := range resp.Warnings {
		assertNoTokenPart(t, "Warning.Value", w.Value)
		assertNoTokenPart(t, "Warning", w.String())
	}

	var out struct {
		Counts map[string]int `json:"counts"`
	}
	resp, err = c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: "stats"}, &out)
	require.NoError(t, err)
	require.Len(t, resp.Warnings, 2)
	for _, w := range resp.Warnings {
		assertNoTokenPart(t, "Warning.Field", w.Field)
		assertNoTokenPart(t, "Warning", w.String())
	}
	assertNoTokenPart(t, "the log", logs.String())
}
