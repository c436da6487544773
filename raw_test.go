package workforce_test

import (
	"context"
	"encoding/json"
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
		Method: http.MethodPatch, Path: "/jobs/42", Query: url.Values{"notify": {"false"}},
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
