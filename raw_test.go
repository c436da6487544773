package workforce_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"net/url"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

func TestDoSendsThroughTheRequestPath(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodPatch, mockBase+"/api_v2/jobs/42", got.respond(200, `{"job": {"id": 42, "future_field": "x"}}`))
	var out struct {
		ID          int64  `json:"id"`
		FutureField string `json:"future_field"`
	}
	resp, err := c.Do(context.Background(), &workforce.RawRequest{
		Method: http.MethodPatch, Path: "jobs/42", Query: url.Values{"notify": {"false"}},
		Body: map[string]any{"state": "cancelled", "new_param": true}, Key: "job",
	}, &out)
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, int64(42), out.ID)
	assert.Equal(t, "x", out.FutureField)
	assert.Equal(t, "false", got.req.URL.Query().Get("notify"))
	assert.Equal(t, testToken, tokenOf(got.req), "the token is added as for any call")
	assert.Equal(t, map[string]any{"state": "cancelled", "new_param": true}, got.jsonBody(t))
}

func TestDoErrorsAndDiscard(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/users/7/tracking",
		httpmock.NewStringResponder(404, `{"error": "no such user"}`))
	_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: "users/7/tracking"}, nil)
	assert.ErrorIs(t, err, workforce.ErrNotFound)

	m.RegisterResponder(http.MethodDelete, mockBase+"/api_v2/badges/3",
		httpmock.NewStringResponder(200, `{"badge": {"id": 3}}`))
	var raw json.RawMessage
	_, err = c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodDelete, Path: "badges/3", Key: "badge"}, &raw)
	require.NoError(t, err)
	assert.JSONEq(t, `{"id": 3}`, string(raw))
}

func TestDoRefusesBadRequestsBeforeIO(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var v map[string]any
	for name, tc := range map[string]struct {
		r   *workforce.RawRequest
		out any
	}{
		"nil request":     {nil, &v},
		"unknown method":  {&workforce.RawRequest{Method: "TRACE", Path: "jobs"}, &v},
		"empty path":      {&workforce.RawRequest{Method: "GET"}, &v},
		"absolute URL":    {&workforce.RawRequest{Method: "GET", Path: "https://evil.example/x"}, &v},
		"query in path":   {&workforce.RawRequest{Method: "GET", Path: "jobs?token=x"}, &v},
		"dot-dot":         {&workforce.RawRequest{Method: "GET", Path: "jobs/../../admin"}, &v},
		"double slash":    {&workforce.RawRequest{Method: "GET", Path: "//evil.example/x"}, &v},
		"out not pointer": {&workforce.RawRequest{Method: "GET", Path: "jobs"}, v},
	} {
		_, err := c.Do(context.Background(), tc.r, tc.out)
		assert.ErrorIs(t, err, workforce.ErrInvalidArgument, name)
	}
	assert.Zero(t, m.GetTotalCallCount())
}

// failingJSON is a body whose encoding fails.
type failingJSON struct{}

func (failingJSON) MarshalJSON() ([]byte, error) { return nil, errors.New("cannot") }

// TestDoRefusesMalformedPathsBeforeIO checks that a path that is not a
// clean relative path below /api_v2/, and a body that cannot be encoded,
// are *ArgumentErrors and nothing is sent (not even the token fetch).
func TestDoRefusesMalformedPathsBeforeIO(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	paths := []string{
		"badges/%zz", "badges/7%", "badges/7%4", "badges/%", // malformed escapes
		"jobs/%2e%2e/%2e%2e/authenticate", "jobs/%2E%2e/x", "jobs/.%2e/x", "jobs/%2e/x", "jobs/..", "./jobs", // dot-segments, escaped or not
		"jobs/%2f..%2fauthenticate", "jobs%2F42", "jobs%5C42", "jobs%3Ftoken=x", "jobs%23x", "jobs/%2542", // escapes of / \ ? # %
		"jobs/%00", "jobs/%0a", "jobs/%7f", "jobs/%C3", "jobs/%C3%28", "jobs/%FF", // escapes of control characters, bytes that are not UTF-8
		"jobs//42", "jobs/42/", "/", "//api.example.com/x", "/jobs/42", // empty segments, a leading slash among them
		"jobs/..;/..;/authenticate", "badges/.;/1", "jobs/..%3b/x", "jobs/..%3B/x", "jobs;x/1", // ';' and its escape (S4, A13)
		"https://evil.example/x", "https:evil", "mailto:x", // schemes
		"jobs?token=x", "jobs#frag", `jobs\42`, // query, fragment, backslash
		"jobs/4\x002", "jobs\n42", "jobs\r\nX-Evil: 1", "jobs\t", "jobs/\x7f", "jobs 42", "jobs/é", // control, space, non-ASCII
	}
	for _, p := range paths {
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodDelete, Path: p}, nil)
		var argErr *workforce.ArgumentError
		if assert.ErrorAs(t, err, &argErr, "%q", p) {
			assert.Equal(t, "Path", argErr.Name, "%q", p)
		}
	}
	bodies := map[string]any{
		"a channel": map[string]any{"c": make(chan int)}, "a function": func() {}, "NaN": math.NaN(),
		"a failing MarshalJSON": failingJSON{},
	}
	for name, body := range bodies {
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodPost, Path: "jobs", Body: body}, nil)
		var argErr *workforce.ArgumentError
		if assert.ErrorAs(t, err, &argErr, name) {
			assert.Equal(t, "body", argErr.Name, name)
			assert.ErrorIs(t, err, workforce.ErrInvalidArgument, name)
		}
	}
	assert.Zero(t, m.GetTotalCallCount(), "nothing sent")
}

// TestDoSendsCleanPathsAsWritten checks the paths that are accepted.
func TestDoSendsCleanPathsAsWritten(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got []string
	m.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		got = append(got, req.URL.EscapedPath())
		return httpmock.NewStringResponse(200, `{}`), nil
	})
	for _, p := range []string{"jobs", "jobs/42", "users/7/tracking", "customers/exists", "badges/a.b-c_d~e", "x/%41%3a",
		"users/a:b", "reports/2026-11-24T09:00", "badges/caf%C3%A9", "jobs/a%20b"} { // ':' past the first segment, UTF-8 and space escaped (C10, S4)
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: p}, nil)
		require.NoError(t, err, p)
	}
	assert.Equal(t, []string{"/api_v2/jobs", "/api_v2/jobs/42", "/api_v2/users/7/tracking", "/api_v2/customers/exists",
		"/api_v2/badges/a.b-c_d~e", "/api_v2/x/%41%3a", "/api_v2/users/a:b", "/api_v2/reports/2026-11-24T09:00",
		"/api_v2/badges/caf%C3%A9", "/api_v2/jobs/a%20b"}, got)
}

// A token in RawRequest.Query would be sent beside the client's own: it is
// refused before any I/O (S4).
func TestDoRefusesATokenInTheQuery(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	for _, key := range []string{"token", "Token", " token"} {
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: "jobs", Query: url.Values{key: {"attacker"}}}, nil)
		var argErr *workforce.ArgumentError
		if assert.ErrorAs(t, err, &argErr, key) {
			assert.Equal(t, "Query", argErr.Name)
		}
	}
	assert.Zero(t, m.GetTotalCallCount(), "nothing sent")
}

// jsonBytes is a named byte slice, as a caller may hold encoded JSON.
type jsonBytes []byte

// A Body of bytes in any type JSON encodes as bytes (base64, or numbers
// for an array), through pointers, is refused before any I/O; bytes that
// encode themselves (a json.RawMessage, or a pointer to one) are sent as
// they are (A8-6).
func TestDoRefusesBytesOfAnyTypeAsABody(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	msg := []byte(`{"message": {"body": "hi"}}`)
	named := jsonBytes(msg)
	namedPtr := &named
	var array [4]byte
	var boxed any = msg
	for name, body := range map[string]any{
		"[]byte": msg, "*[]byte": &msg, "named": named, "*named": &named, "**named": &namedPtr,
		"array": array, "*array": &array, "*any holding []byte": &boxed,
	} {
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodPost, Path: "messages", Body: body}, nil)
		var argErr *workforce.ArgumentError
		if assert.True(t, errors.As(err, &argErr), "%s: %v", name, err) {
			assert.Equal(t, "Body", argErr.Name, name)
		}
	}
	assert.Zero(t, m.GetTotalCallCount(), "nothing was sent")

	var got capture
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/messages", got.respond(200, `{}`))
	raw := json.RawMessage(msg)
	for name, body := range map[string]any{"json.RawMessage": raw, "*json.RawMessage": &raw} {
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodPost, Path: "messages", Body: body}, nil)
		require.NoError(t, err, name)
		assert.Equal(t, map[string]any{"message": map[string]any{"body": "hi"}}, got.jsonBody(t), name)
	}
}
