package workforce_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

func TestDoSendsTheCallersHeaders(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/jobs", got.respond(200, `{"job": {"id": 42}}`))
	_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodPost, Path: "jobs", Key: "job",
		Body:   map[string]any{"job": map[string]any{"worker_id": 7}},
		Header: http.Header{"idempotency-key": {"a1b2"}, "X-Trace": {"one", "two"}}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "a1b2", got.req.Header.Get("Idempotency-Key"), "sent under its canonical name")
	assert.Equal(t, []string{"one", "two"}, got.req.Header.Values("X-Trace"))
	assert.Equal(t, "application/json", got.req.Header.Get("Content-Type"), "the client's own stay")
}

func TestDoRefusesHeadersBeforeIO(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/1", httpmock.NewStringResponder(200, `{"job": {"id": 1}}`))
	_, _, err := c.Jobs.Get(context.Background(), 1) // the client holds its token now
	require.NoError(t, err)
	calls := m.GetTotalCallCount()
	for name, h := range map[string]http.Header{
		"Authorization":               {"Authorization": {"Bearer abc"}},
		"authorization, any case":     {"authorization": {"Bearer abc"}},
		"Proxy-Authorization":         {"Proxy-Authorization": {"Basic abc"}},
		"Cookie":                      {"Cookie": {"session=abc"}},
		"User-Agent":                  {"User-Agent": {"mine/1"}},
		"Accept":                      {"Accept": {"text/html"}},
		"Accept-Encoding":             {"Accept-Encoding": {"br"}},
		"Content-Type":                {"Content-Type": {"text/plain"}},
		"Content-Length":              {"Content-Length": {"5"}},
		"Host":                        {"Host": {"evil.example"}},
		"Transfer-Encoding":           {"Transfer-Encoding": {"chunked"}},
		"Connection":                  {"Connection": {"close"}},
		"a line break in a value":     {"X-Note": {"a\r\nX-Injected: 1"}},
		"a space in a name":           {"X Note": {"value-1"}},
		"a colon in a name":           {"X-Note:": {"value-1"}},
		"an empty name":               {"": {"value-1"}},
		"the client's token":          {"X-Debug": {testToken}},
		"a secret key":                {"X-Debug": {"sk_test_made_up_secret_0123456789"}},
		"a token parameter":           {"Referer": {"https://x.example/?token=abc"}},
		"the API key in a longer one": {"X-Debug": {"key " + testAPIKey}},
		"a token header":              {"Token": {"abc"}},
		"X-Auth-Token":                {"X-Auth-Token": {"abc"}},
		"x-api-key":                   {"x-api-key": {"abc"}},
		"X-Api_key":                   {"X-Api_key": {"abc"}},
		"X-Secret-Key":                {"X-Secret-Key": {"abc"}},
		"X-Password":                  {"X-Password": {"abc"}},
		"a key in a name":             {"X-" + testSecretKey: {"1"}},
	} {
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: "jobs", Header: h}, nil)
		var argErr *workforce.ArgumentError
		require.True(t, errors.As(err, &argErr), "%s: %v", name, err)
		assert.ErrorIs(t, err, workforce.ErrInvalidArgument, name)
		for name, vs := range h {
			if strings.Contains(name, "_test_") {
				assert.NotContains(t, err.Error(), name, "the error does not quote a key in a name")
			}
			for _, v := range vs {
				assert.NotContains(t, err.Error(), v, "%s: the error does not quote the value", name)
			}
		}
	}
	assert.Equal(t, calls, m.GetTotalCallCount(), "nothing was sent")
}

func TestDoSendsTheHeadersOnEveryAttemptAndToTheMiddleware(t *testing.T) {
	t.Parallel()
	var mw []*http.Request
	c, m := newMock(t, workforce.WithMiddleware(func(next http.RoundTripper) http.RoundTripper {
		return rtFunc(func(req *http.Request) (*http.Response, error) {
			mw = append(mw, req)
			return next.RoundTrip(req)
		})
	}))
	var seen []http.Header
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(req *http.Request) (*http.Response, error) {
		seen = append(seen, req.Header.Clone())
		if len(seen) == 1 {
			return httpmock.NewStringResponse(503, `{"error": "busy"}`), nil
		}
		return httpmock.NewStringResponse(200, `{"job": {"id": 42}}`), nil
	})
	h := http.Header{"x-trace": {"a"}, "X-Trace": {"b"}, "If-None-Match": {`"v1"`}}
	before := h.Clone()
	_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: "jobs/42", Key: "job", Header: h}, nil)
	require.NoError(t, err)
	require.Len(t, seen, 2, "retried once")
	for i, got := range seen {
		assert.ElementsMatch(t, []string{"a", "b"}, got.Values("X-Trace"), "attempt %d: one header under its canonical name", i+1)
		assert.Equal(t, `"v1"`, got.Get("If-None-Match"), "attempt %d", i+1)
		assert.Equal(t, "application/json", got.Get("Accept"), "attempt %d", i+1)
	}
	require.Len(t, mw, 1, "the middleware sees the call once")
	assert.ElementsMatch(t, []string{"a", "b"}, mw[0].Header.Values("X-Trace"))
	assert.Empty(t, tokenOf(mw[0]), "and no token")
	assert.Equal(t, before, h, "the caller's header is left as it was")
}

func TestDoOnAZeroClientRefusesTheHeaderFirst(t *testing.T) {
	t.Parallel()
	var c *workforce.Client
	_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: "jobs", Header: http.Header{"Authorization": {"x"}}}, nil)
	assert.ErrorIs(t, err, workforce.ErrInvalidArgument)
	_, err = c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: "jobs", Header: http.Header{"X-Trace": {"x"}}}, nil)
	assert.Error(t, err, "a nil client still fails, and does not panic")
}

// TestDoRefusesASecretInAnyPartOfTheRequest holds every part of a
// RawRequest to the rule of its Header (D5): a Path, a Query key or value
// or a Body holding the client's key, secret key or token, or anything
// shaped like one, is refused before any I/O with an error naming the part
// and quoting no value; the middleware sees none of them.
func TestDoRefusesASecretInAnyPartOfTheRequest(t *testing.T) {
	t.Parallel()
	var mw atomic.Int64
	c, m := newMock(t, workforce.WithMiddleware(func(next http.RoundTripper) http.RoundTripper {
		return rtFunc(func(req *http.Request) (*http.Response, error) {
			mw.Add(1)
			return next.RoundTrip(req)
		})
	}))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/1", httpmock.NewStringResponder(200, `{"job": {"id": 1}}`))
	_, _, err := c.Jobs.Get(context.Background(), 1) // the client holds its token now
	require.NoError(t, err)
	calls, seen := m.GetTotalCallCount(), mw.Load()
	escaped := "%" + fmt.Sprintf("%02X", testToken[0]) + testToken[1:]
	for name, tc := range map[string]struct {
		r      workforce.RawRequest
		part   string
		secret string
	}{
		"the token in a query value":    {workforce.RawRequest{Method: "GET", Path: "jobs", Query: url.Values{"access_token": {testToken}}}, `Query["access_token"]`, testToken},
		"the secret key in a query":     {workforce.RawRequest{Method: "GET", Path: "jobs", Query: url.Values{"q": {testSecretKey}}}, `Query["q"]`, testSecretKey},
		"the API key in a query":        {workforce.RawRequest{Method: "GET", Path: "jobs", Query: url.Values{"api_key": {testAPIKey}}}, `Query["api_key"]`, testAPIKey},
		"a live key's shape in a query": {workforce.RawRequest{Method: "GET", Path: "jobs", Query: url.Values{"q": {"x sk_live_made_up_other"}}}, `Query["q"]`, "made_up_other"},
		"the token as a query key":      {workforce.RawRequest{Method: "GET", Path: "jobs", Query: url.Values{testToken: {"1"}}}, "Query", testToken},
		"the secret key in a body":      {workforce.RawRequest{Method: "POST", Path: "webhooks", Body: map[string]any{"secret": testSecretKey}}, "Body", testSecretKey},
		"the token in a body":           {workforce.RawRequest{Method: "POST", Path: "webhooks", Body: map[string]any{"t": testToken}}, "Body", testToken},
		"the token's start in a body":   {workforce.RawRequest{Method: "PUT", Path: "webhooks/1", Body: []string{testToken[:12]}}, "Body", testToken[:12]},
		"a token member in a body":      {workforce.RawRequest{Method: "POST", Path: "webhooks", Body: map[string]any{"token": "abc123"}}, "Body", "abc123"},
		// encoding/json writes a []byte as base64 (D4 of attack 6)
		"the secret key as []byte":      {workforce.RawRequest{Method: "POST", Path: "webhooks", Body: map[string][]byte{"k": []byte(testSecretKey)}}, "Body", testSecretKey},
		"the token inside longer bytes": {workforce.RawRequest{Method: "POST", Path: "webhooks", Body: map[string]any{"a": map[string]any{"blob": []byte("xy " + testToken + " z")}}}, "Body", testToken},
		"the API key in base64":         {workforce.RawRequest{Method: "POST", Path: "webhooks", Body: []string{base64.StdEncoding.EncodeToString([]byte(testAPIKey))}}, "Body", testAPIKey},
		"a live key's shape as []byte":  {workforce.RawRequest{Method: "POST", Path: "webhooks", Body: map[string]any{"k": []byte("sk_live_made_up_other")}}, "Body", "made_up_other"},
		"a whole body as []byte":        {workforce.RawRequest{Method: "POST", Path: "webhooks", Body: []byte(`{"a": 1}`)}, "Body", "\"a\""},
		// other encoders (outside attack 8, A8-3): JSON escapes, the URL alphabet, no padding
		"the key spelled with escapes": {workforce.RawRequest{Method: "POST", Path: "webhooks", Body: json.RawMessage(`{"n": "` + strings.Replace(testSecretKey, "_", `\u005f`, 1) + `"}`)}, "Body", testSecretKey[4:]},
		"base64 with escaped slashes":  {workforce.RawRequest{Method: "POST", Path: "webhooks", Body: json.RawMessage(`{"b": "` + strings.ReplaceAll(strings.ReplaceAll(base64.StdEncoding.EncodeToString(append([]byte{0xfb, 0xef, 0xbe, 0xff, 0xff, 0xff}, testSecretKey...)), "/", `\/`), "+", `\u002b`) + `"}`)}, "Body", testSecretKey},
		"the key in base64url":         {workforce.RawRequest{Method: "POST", Path: "webhooks", Body: []string{base64.URLEncoding.EncodeToString([]byte("x:" + testSecretKey))}}, "Body", testSecretKey},
		"the key in unpadded base64":   {workforce.RawRequest{Method: "POST", Path: "webhooks", Body: []string{base64.RawStdEncoding.EncodeToString([]byte("xy:" + testSecretKey))}}, "Body", testSecretKey},
		"the token in a path":          {workforce.RawRequest{Method: "GET", Path: "jobs/" + testToken}, "Path", testToken},
		"the token escaped in a path":  {workforce.RawRequest{Method: "GET", Path: "jobs/" + escaped}, "Path", testToken[1:]},
		"a key across segments":        {workforce.RawRequest{Method: "DELETE", Path: "x/" + testAPIKey[:12] + "/" + testAPIKey[12:]}, "Path", testAPIKey[8:]},
	} {
		_, err := c.Do(context.Background(), &tc.r, nil)
		var argErr *workforce.ArgumentError
		if assert.True(t, errors.As(err, &argErr), "%s: %v", name, err) {
			assert.Equal(t, tc.part, argErr.Name, name)
			assert.ErrorIs(t, err, workforce.ErrInvalidArgument, name)
			assert.NotContains(t, err.Error(), tc.secret, "%s: the error quotes no value", name)
		}
	}
	assert.Equal(t, calls, m.GetTotalCallCount(), "nothing was sent")
	assert.Equal(t, seen, mw.Load(), "the middleware saw none of them")

	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/webhooks", httpmock.NewStringResponder(200, `{}`))
	_, err = c.Do(context.Background(), &workforce.RawRequest{Method: "POST", Path: "webhooks", Query: url.Values{"q": {"tok"}},
		Body: map[string]any{"url": "https://example.test/hook", "events": []string{"job.updated"}}}, nil)
	assert.NoError(t, err, "a request holding no secret is sent")
	_, err = c.Do(context.Background(), &workforce.RawRequest{Method: "POST", Path: "webhooks",
		Body: map[string]any{"file": []byte("a file, no key in it"), "id": "abcd", "b64": base64.StdEncoding.EncodeToString([]byte("plain text"))}}, nil)
	assert.NoError(t, err, "bytes and base64 holding no secret are sent")
	_, err = c.Do(context.Background(), &workforce.RawRequest{Method: "POST", Path: "webhooks", Body: json.RawMessage(`{"a": 1}`)}, nil)
	assert.NoError(t, err, "a body already encoded is a json.RawMessage")
}

// TestDoRefusesTheAuthenticateEndpoint keeps Client.Do from POST
// /authenticate in any form a server may route there (D5b): its body
// would hold the keys and its answer a token, shown to the middleware.
func TestDoRefusesTheAuthenticateEndpoint(t *testing.T) {
	t.Parallel()
	var mw atomic.Int64
	c, m := newMock(t, workforce.WithMiddleware(func(next http.RoundTripper) http.RoundTripper {
		return rtFunc(func(req *http.Request) (*http.Response, error) {
			mw.Add(1)
			return next.RoundTrip(req)
		})
	}))
	for _, p := range []string{"authenticate", "Authenticate", "AUTHENTICATE", "authenticate.json", "authenticate.", "authenticate..json",
		"%61uthenticate", "authenticate%20", "Authenticate.JSON/x"} {
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodPost, Path: p}, nil)
		var argErr *workforce.ArgumentError
		if assert.True(t, errors.As(err, &argErr), "%s: %v", p, err) {
			assert.Equal(t, "Path", argErr.Name, p)
		}
	}
	assert.Zero(t, m.GetTotalCallCount(), "nothing was sent")
	assert.Zero(t, mw.Load(), "the middleware saw nothing")
	m.RegisterNoResponder(httpmock.NewStringResponder(200, `{}`))
	for _, p := range []string{"authentications", "users/authenticate", "reauthenticate"} {
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: p}, nil)
		assert.NoError(t, err, p)
	}
}

// TestDoRefusesATokenMemberInTheBody refuses a Body with a top-level
// "token" member of any value (D10), as a "token" Query key is: a server
// that merges the body into its parameters would take it over the
// client's token, and the 401 it earns would retire the client's own.
func TestDoRefusesATokenMemberInTheBody(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	for _, body := range []any{map[string]any{"token": 12345}, map[string]any{"Token": nil}, map[string]any{" token ": true},
		json.RawMessage(`{"a": 1, "\u0074oken": [1]}`)} {
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodPost, Path: "things", Body: body}, nil)
		var argErr *workforce.ArgumentError
		if assert.True(t, errors.As(err, &argErr), "%v: %v", body, err) {
			assert.Equal(t, "Body", argErr.Name)
		}
	}
	assert.Zero(t, m.GetTotalCallCount(), "nothing was sent, no token fetched")
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/things", httpmock.NewStringResponder(200, `{}`))
	_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodPost, Path: "things",
		Body: map[string]any{"tokens": 1, "thing": map[string]any{"token": 5}}}, nil)
	assert.NoError(t, err, "a member of another name, or below the top, is sent")
}

// TestDoRefusesWhatSomeServersReroute refuses the paths and headers some
// servers read as a step up or another route (D9): a segment of only dots
// and spaces, or one beginning or ending with a space, and the headers
// that re-route a request or carry a credential under another name.
func TestDoRefusesWhatSomeServersReroute(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	for _, p := range []string{"jobs/...", "jobs/..%20", "jobs/%20..", "jobs/..%C2%A0", "jobs/%20x", "jobs/x%20", "jobs/%20",
		// what servers normalising Unicode (NFKC) read as ASCII: fullwidth dots and solidus, dot leaders (attack 5, D9)
		"jobs/%EF%BC%8E%EF%BC%8E/authenticate", "jobs/%EF%BC%8E", "jobs/.%EF%BC%8E", "jobs/%E2%80%A5/authenticate", "jobs/%E2%80%A4%E2%80%A4",
		"jobs/%E2%80%A6", "jobs/%EF%B9%92%EF%B9%92", "jobs/a%EF%BC%8Fb", "jobs/..%E3%80%80",
		// invisible characters: bidi controls, zero-width, C1 controls
		"jobs/%E2%80%AE", "jobs/a%E2%80%AEb", "jobs/a%E2%81%A6b%E2%81%A9", "jobs/a%E2%80%8Fb", "jobs/a%E2%80%8Bb", "jobs/%EF%BB%BF1",
		"jobs/x%C2%85y", "jobs/x%C2%9By",
		// a first segment (the resource) that is not ASCII: "authenticate" in fullwidth or mathematical letters
		"%EF%BD%81uthenticate", "%F0%9D%90%9Authenticate/x", "caf%C3%A9/1",
	} {
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: p}, nil)
		var argErr *workforce.ArgumentError
		if assert.True(t, errors.As(err, &argErr), "%s: %v", p, err) {
			assert.Equal(t, "Path", argErr.Name, p)
		}
	}
	for _, name := range []string{"X-Original-Url", "X-Rewrite-Url", "X-Forwarded-Host", "Forwarded", "X-Http-Method-Override",
		"Range", "If-Range", "X-Auth", "X-Access-Key", "Cookie2", "X-Session-Id"} {
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: "jobs", Header: http.Header{name: {"1"}}}, nil)
		var argErr *workforce.ArgumentError
		assert.True(t, errors.As(err, &argErr), "%s: %v", name, err)
	}
	assert.Zero(t, m.GetTotalCallCount(), "nothing was sent")
	m.RegisterNoResponder(httpmock.NewStringResponder(200, `{}`))
	for _, p := range []string{"badges/caf%C3%A9", "tags/%E6%97%A5%E6%9C%AC", "notes/%D7%A9%D7%9C%D7%95%D7%9D", "jobs/a.b", "jobs/%E2%82%AC5"} {
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: p}, nil)
		assert.NoError(t, err, "UTF-8 text past the first segment is sent: %s", p)
	}
}
