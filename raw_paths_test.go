package workforce_test

import (
	"context"
	"errors"
	"math"
	"net/http"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

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
		"jobs/%00", "jobs/%0a", "jobs/%7f", "jobs/%20", "jobs/%C3%A9", // escapes of control, space, non-ASCII bytes
		"jobs//42", "jobs/42/", "/", "//api.example.com/x", // empty segments
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
	for _, p := range []string{"jobs", "/jobs/42", "users/7/tracking", "customers/exists", "badges/a.b-c_d~e", "x/%41%3a"} {
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: http.MethodGet, Path: p}, nil)
		require.NoError(t, err, p)
	}
	assert.Equal(t, []string{"/api_v2/jobs", "/api_v2/jobs/42", "/api_v2/users/7/tracking", "/api_v2/customers/exists",
		"/api_v2/badges/a.b-c_d~e", "/api_v2/x/%41%3a"}, got)
}
