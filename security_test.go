package workforce_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// escapedForms answers the ways a careless server may write secret v:
// plain, JSON-escaped (an escaped slash, one letter or every letter as
// \uXXXX), query-escaped and path-escaped.
func escapedForms(v string) map[string]string {
	every, upper := "", ""
	for _, r := range v {
		every += fmt.Sprintf(`\u%04x`, r)
		upper += fmt.Sprintf(`\u%04X`, r)
	}
	return map[string]string{
		"plain":            v,
		"escaped slash":    strings.ReplaceAll(v, "/", `\/`),
		"first as unicode": fmt.Sprintf(`\u%04x`, v[0]) + v[1:],
		"all as unicode":   every,
		"upper-case hex":   upper,
		"query-escaped":    url.QueryEscape(v),
		"path-escaped":     url.PathEscape(v),
	}
}

// TestErrorBodiesHideEscapedSecrets has an error body quote each secret in
// each escaped form, in the message, in a field's name and messages and in
// the list of errors, and looks for the secret (and its tail) everywhere
// the error and the log lines can show it.
func TestErrorBodiesHideEscapedSecrets(t *testing.T) {
	t.Parallel()
	const token = "dG9rZW4+/w==" // a token with the characters that escape
	const secretKey = "sk_test_ab/cd+ef"
	for _, secret := range []string{token, testAPIKey, secretKey} {
		for form, written := range escapedForms(secret) {
			t.Run(secret[:6]+"/"+form, func(t *testing.T) {
				t.Parallel()
				var logs syncBuffer
				logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
				m := httpmock.NewMockTransport()
				m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate",
					httpmock.NewStringResponder(200, `{"token": "`+strings.ReplaceAll(token, "/", `\/`)+`", "expires_at": "2099-01-01T00:00:00Z"}`))
				quoted := strings.ReplaceAll(written, `"`, `\"`)
				body := fmt.Sprintf(`{"error": "token %s may not list jobs", "errors": {"%s": ["%s is wrong"], "x": ["see %s"]}}`,
					quoted, quoted, quoted, quoted)
				m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", httpmock.NewStringResponder(422, body))
				m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/43",
					httpmock.NewStringResponder(500, fmt.Sprintf(`["%s", "and %s"]`, quoted, quoted)))
				c, err := workforce.New(testAPIKey, secretKey, workforce.WithBaseURL(mockBase),
					workforce.WithHTTPClient(&http.Client{Transport: m}), workforce.WithLogger(logger),
					workforce.WithRetry(0, 0, 0))
				require.NoError(t, err)

				for _, id := range []int64{42, 43} {
					_, _, err = c.Jobs.Get(context.Background(), id)
					var apiErr *workforce.APIError
					require.ErrorAs(t, err, &apiErr)
					seen := map[string]string{
						"Error()": err.Error(), "%+v": fmt.Sprintf("%+v", err), "%#v": fmt.Sprintf("%#v", *apiErr),
						"Body": string(apiErr.Body), "Message": apiErr.Message,
						"FieldErrors": fmt.Sprint(apiErr.FieldErrors), "Errors": fmt.Sprint(apiErr.Errors),
						"log": logs.String(),
					}
					tail := secret[len(secret)-4:]
					for where, text := range seen {
						assert.NotContains(t, text, secret, where)
						assert.NotContains(t, text, written, where)
						assert.NotContains(t, text, tail, "%s: the secret's tail", where)
					}
					assert.Contains(t, apiErr.Message, "[REDACTED]")
				}
			})
		}
	}
}

// TestResponsesGiveNoKeysBack checks that the Response of an
// authentication, successful or not, cannot replay its body.
func TestResponsesGiveNoKeysBack(t *testing.T) {
	t.Parallel()
	for _, status := range []int{200, 401} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.WriteHeader(status)
				fmt.Fprintf(w, `{"token": "tok-1", "expires_at": "2099-01-01T00:00:00Z", "error": "wrong keys"}`)
			}))
			defer api.Close()
			c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(api.URL))
			require.NoError(t, err)
			_, resp, _ := c.Authentication.Authenticate(context.Background())
			require.NotNil(t, resp)
			require.NotNil(t, resp.Request)
			assert.Nil(t, resp.Request.GetBody)
			if resp.Request.Body != nil {
				b, _ := io.ReadAll(resp.Request.Body)
				assert.Empty(t, b)
			}
			assert.NotContains(t, fmt.Sprintf("%+v", resp.Request), testSecretKey)
		})
	}
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
		getJob(t, c)
	}
	assert.EqualValues(t, 1, is.calls.Load(), "10 calls, 1 authentication")

	mu.Lock()
	local = local.Add(2 * time.Minute) // past the minimum use: renewed
	mu.Unlock()
	is.set(epoch.Add(2 * time.Minute))
	getJob(t, c)
	getJob(t, c)
	assert.EqualValues(t, 2, is.calls.Load())
	assert.Equal(t, 1, strings.Count(logs.String(), "is the clock ahead"), logs.String())
}

// TestRetryAfterBeyondInt64 checks that a Retry-After too large to hold
// means longer than the cap: no retry, and RetryAfter at its maximum.
func TestRetryAfterBeyondInt64(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	calls := script(m, http.MethodGet, "jobs/42", step{status: 503, retryAfter: "99999999999999999999"}, step{status: 200})
	err := getJob42(c)
	var apiErr *workforce.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.EqualValues(t, 1, calls.Load(), "not retried")
	assert.Equal(t, time.Duration(math.MaxInt64), apiErr.RetryAfter)
}

// TestEnvelopeKeyAsAnOrdinaryField checks that a member named like the
// envelope but holding a scalar is a field of the resource, not an
// envelope.
func TestEnvelopeKeyAsAnOrdinaryField(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info",
		httpmock.NewStringResponder(200, `{"info": "API v2", "utc_time_now": "2026-11-23T04:50:40Z", "environment": "test"}`))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42",
		httpmock.NewStringResponder(200, `{"id": 42, "state": "filled", "job": "Warehouse Loader"}`))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/43",
		httpmock.NewStringResponder(200, `{"id": 43, "job": {"nested": true}}`))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs",
		httpmock.NewStringResponder(200, `{"jobs": [{"id": 44}], "meta": {"page": 1}}`))

	info, _, err := c.Info.Get(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "test", info.Environment)
	job, _, err := c.Jobs.Get(context.Background(), 42)
	require.NoError(t, err)
	assert.EqualValues(t, 42, job.ID)
	assert.Equal(t, workforce.JobFilled, job.State)
	assert.Contains(t, string(job.Raw), "Warehouse Loader")
	job, _, err = c.Jobs.Get(context.Background(), 43)
	require.NoError(t, err)
	assert.EqualValues(t, 43, job.ID, "an object under \"job\" beside an id is a field")
	jobs, _, err := c.Jobs.List(context.Background(), nil)
	require.NoError(t, err)
	require.Len(t, jobs, 1)
	assert.EqualValues(t, 44, jobs[0].ID, "a list envelope may carry other members")
}

// TestContextEndKeepsTheCall checks that a call whose context ends while it
// waits to retry answers an error that matches the context's and names the
// method, the path and the last status seen.
func TestContextEndKeepsTheCall(t *testing.T) {
	t.Parallel()
	c, m := newMock(t, workforce.WithRetry(5, 3*time.Second, 3*time.Second))
	script(m, http.MethodGet, "jobs/42", step{status: 503})
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, _, err := c.Jobs.Get(ctx, 42)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	var te *workforce.TransportError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, http.MethodGet, te.Method)
	assert.Equal(t, "/api_v2/jobs/42", te.Path)
	assert.Equal(t, 503, te.LastStatus)
	assert.Contains(t, err.Error(), "GET /api_v2/jobs/42")
	assert.Contains(t, err.Error(), "503")

	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	_, _, err = c.Jobs.Get(ctx, 42)
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorAs(t, err, &te)
	assert.Equal(t, "/api_v2/jobs/42", te.Path)
}

// TestEnvelopesThatHoldNothingUsable checks the answers that are neither a
// resource nor an envelope holding one.
func TestEnvelopesThatHoldNothingUsable(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	for id, body := range map[int64]string{
		1: `{"job": null, "request_id": "abc"}`,
		2: `{"job": "x", "meta": 1}`,
		3: `{}`,
		4: `{"error": "not here"}`,
	} {
		m.RegisterResponder(http.MethodGet, fmt.Sprintf("%s/api_v2/jobs/%d", mockBase, id), httpmock.NewStringResponder(200, body))
		_, _, err := c.Jobs.Get(context.Background(), id)
		var decodeErr *workforce.DecodeError
		assert.ErrorAs(t, err, &decodeErr, body)
	}
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", httpmock.NewStringResponder(200, `{"jobs": null, "request_id": "abc"}`))
	jobs, _, err := c.Jobs.List(context.Background(), nil)
	require.NoError(t, err, "no list is an empty list")
	assert.Empty(t, jobs)
}

// TestDecodeErrorsHideSecrets has a server echo the secret key where a
// timestamp is due, in lower case that the decoder upper-cases.
func TestDecodeErrorsHideSecrets(t *testing.T) {
	t.Parallel()
	logs := &lockedBuffer{}
	c, m := newMock(t, workforce.WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42",
		httpmock.NewStringResponder(200, `{"job": {"id": 42, "updated_at": "`+testSecretKey+`"}}`))
	job, resp, err := c.Jobs.Get(context.Background(), 42)
	require.NoError(t, err, "a value that fits no form is a warning")
	assert.True(t, job.UpdatedAt.IsZero())
	require.Len(t, resp.Warnings, 1)
	assert.Equal(t, "updated_at", resp.Warnings[0].Field)
	for _, text := range []string{resp.Warnings[0].Value, resp.Warnings[0].String(), logs.String()} {
		assert.NotContains(t, strings.ToUpper(text), strings.ToUpper(testSecretKey[8:]))
	}
	assert.Contains(t, logs.String(), "updated_at", "the warning is logged")

	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/43",
		httpmock.NewStringResponder(200, `{"job": {"id": 43, "updated_at": "`+testSecretKey+`"`))
	_, _, err = c.Jobs.Get(context.Background(), 43)
	require.Error(t, err)
	assert.NotContains(t, strings.ToUpper(err.Error()), strings.ToUpper(testSecretKey[8:]))
}

// TestMalformedValueIsAWarning checks that a bad decimal in an answer
// leaves its field zero with a warning naming it, keeps the record and its
// document, and is neither a DecodeError nor an ErrInvalidArgument.
func TestMalformedValueIsAWarning(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42",
		httpmock.NewStringResponder(200, `{"job": {"id": 42, "hours_worked": "abc", "state": "filled"}}`))
	job, resp, err := c.Jobs.Get(context.Background(), 42)
	require.NoError(t, err)
	assert.Equal(t, workforce.JobFilled, job.State)
	assert.False(t, job.HoursWorked.Valid())
	assert.Equal(t, []workforce.Warning{{ID: 42, Field: "hours_worked", Value: `"abc"`, Want: "decimal"}}, resp.Warnings)
	assert.Contains(t, string(job.Raw), `"abc"`)
}

// A server that echoes secrets in its request ID header: the ID the SDK
// hands back, in errors and responses alike, has them redacted.
func TestRequestIDsHideSecrets(t *testing.T) {
	t.Parallel()
	for _, status := range []int{200, 307, 404} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/api_v2/authenticate" {
					fmt.Fprintf(w, `{"token": %q, "expires_at": "2099-01-01T00:00:00Z"}`, testToken)
					return
				}
				w.Header().Set("X-Request-Id", "rid-"+testToken+"-"+testSecretKey)
				if status == 307 {
					w.Header().Set("Location", "https://elsewhere.example/")
				}
				w.WriteHeader(status)
				fmt.Fprint(w, `{"job": {"id": 1}}`)
			}))
			defer api.Close()
			c, err := workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(api.URL))
			require.NoError(t, err)
			_, resp, err := c.Jobs.Get(context.Background(), 1)
			var printed []string
			for _, verb := range []string{"%v", "%+v", "%#v"} {
				printed = append(printed, fmt.Sprintf(verb, err), fmt.Sprintf(verb, resp))
			}
			if resp != nil {
				printed = append(printed, resp.RequestID)
				assert.Contains(t, resp.RequestID, "rid-")
			}
			for _, s := range printed {
				assert.NotContains(t, s, testToken)
				assert.NotContains(t, s, testSecretKey)
			}
		})
	}
}
