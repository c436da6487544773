package workforce_test

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

func TestNewMakesNoNetworkCall(t *testing.T) {
	t.Parallel()
	m := httpmock.NewMockTransport()
	_, err := workforce.New(testAPIKey, testSecretKey,
		workforce.WithBaseURL(mockBase), workforce.WithHTTPClient(&http.Client{Transport: m}))
	require.NoError(t, err)
	assert.Zero(t, m.GetTotalCallCount())
}

func TestNewRefusesBadConfiguration(t *testing.T) {
	t.Parallel()
	const good = "https://api.example.com"
	tests := []struct {
		name           string
		apiKey, secret string
		opts           []workforce.Option
	}{
		{"unknown mode", "pk_prod_abc123", "sk_prod_abc123", nil},
		{"api key without prefix", "abc123", testSecretKey, nil},
		{"secret key without prefix", testAPIKey, "abc123", nil},
		{"keys swapped", testSecretKey, testAPIKey, nil},
		{"prefix only", "pk_test_", "sk_test_", nil},
		{"prefix without underscore", "pk_test", "sk_test", nil},
		{"test api key, live secret", testAPIKey, liveSecretKey, nil},
		{"live api key, test secret", liveAPIKey, testSecretKey, nil},
		{"no keys, no token", "", "", nil},
		{"no secret key", testAPIKey, "", nil},
		{"no api key", "", testSecretKey, nil},
		{"one key with a token", testAPIKey, "", []workforce.Option{workforce.WithToken(testToken)}},
		{"plain http to a remote host", testAPIKey, testSecretKey, []workforce.Option{workforce.WithBaseURL("http://example.com")}},
		{"http to a name that starts like loopback", testAPIKey, testSecretKey, []workforce.Option{workforce.WithBaseURL("http://127.0.0.1.example.com")}},
		{"http to a subdomain of localhost's name", testAPIKey, testSecretKey, []workforce.Option{workforce.WithBaseURL("http://localhost.example.com")}},
		{"ftp scheme", testAPIKey, testSecretKey, []workforce.Option{workforce.WithBaseURL("ftp://api.example.com")}},
		{"query", testAPIKey, testSecretKey, []workforce.Option{workforce.WithBaseURL(good + "?env=test")}},
		{"fragment", testAPIKey, testSecretKey, []workforce.Option{workforce.WithBaseURL(good + "/#top")}},
		{"credentials", testAPIKey, testSecretKey, []workforce.Option{workforce.WithBaseURL("https://user:hunter2@api.example.com")}},
		{"no scheme", testAPIKey, testSecretKey, []workforce.Option{workforce.WithBaseURL("api.example.com")}},
		{"no host", testAPIKey, testSecretKey, []workforce.Option{workforce.WithBaseURL("https://")}},
		{"unparseable", testAPIKey, testSecretKey, []workforce.Option{workforce.WithBaseURL("https://api.example.com/%zz")}},
		{"negative retries", testAPIKey, testSecretKey, []workforce.Option{workforce.WithRetry(-1, 0, 0)}},
		{"minWait above maxWait", testAPIKey, testSecretKey, []workforce.Option{workforce.WithRetry(1, time.Second, time.Millisecond)}},
		{"api key with a space", testAPIKey + " ", testSecretKey, nil},
		{"secret key with a line break", testAPIKey, testSecretKey + "\n", nil},
		{"secret key with a tab inside", testAPIKey, "sk_test_ab\tcd", nil},
		{"token with a control character", "", "", []workforce.Option{workforce.WithToken("tok\x00x")}},
		{"zero Retry-After unit", testAPIKey, testSecretKey, []workforce.Option{workforce.WithRetryAfterUnit(0)}},
		{"zero page window", testAPIKey, testSecretKey, []workforce.Option{workforce.WithPageWindow(0)}},
		{"a line break in the user agent", testAPIKey, testSecretKey, []workforce.Option{workforce.WithUserAgent("app/1\r\nX-Injected: 1")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := append([]workforce.Option{workforce.WithBaseURL(good)}, tt.opts...)
			c, err := workforce.New(tt.apiKey, tt.secret, opts...)
			require.ErrorIs(t, err, workforce.ErrConfig)
			assert.Nil(t, c)
			for _, secret := range []string{tt.apiKey, tt.secret, testToken, "hunter2", testSecretKey[8:], testAPIKey[8:]} {
				if len(secret) > len("pk_test_") { // a bare prefix may be named
					assert.NotContains(t, err.Error(), secret)
				}
			}
		})
	}
}

func TestNewSaysWhenTheKeysLookSwapped(t *testing.T) {
	t.Parallel()
	_, err := workforce.New(testSecretKey, testAPIKey, workforce.WithBaseURL("https://api.example.com"))
	require.ErrorIs(t, err, workforce.ErrConfig)
	assert.Contains(t, err.Error(), "swapped")
	assert.NotContains(t, err.Error(), testSecretKey[8:])
}

func TestNewAcceptsGoodConfiguration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		apiKey, secret string
		opts           []workforce.Option
	}{
		{"test keys", testAPIKey, testSecretKey, nil},
		{"live keys", liveAPIKey, liveSecretKey, nil},
		{"token only", "", "", []workforce.Option{workforce.WithToken(testToken)}},
		{"nil option", testAPIKey, testSecretKey, []workforce.Option{nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := append([]workforce.Option{workforce.WithBaseURL(mockBase)}, tt.opts...)
			c, err := workforce.New(tt.apiKey, tt.secret, opts...)
			require.NoError(t, err)
			require.NotNil(t, c)
		})
	}
}

func TestNewAcceptsPlainHTTPToLoopback(t *testing.T) {
	t.Parallel()
	for _, base := range []string{
		"http://127.0.0.1:8080", "http://127.9.8.7:80", "http://[::1]:8080",
		"http://localhost:8080", "http://LocalHost:8080", "http://127.0.0.1",
	} {
		t.Run(base, func(t *testing.T) {
			t.Parallel()
			rec := newRecorder(200, infoBody)
			c, err := newOver(rec, testAPIKey, testSecretKey, workforce.WithBaseURL(base))
			require.NoError(t, err)
			_, _, err = c.Info.Get(context.Background())
			require.NoError(t, err)
			require.Len(t, rec.seen, 1)
			assert.Equal(t, strings.TrimSuffix(base, "/")+"/api_v2/info", rec.seen[0].URL.String())
		})
	}
}

func TestBaseURLPathIsNormalised(t *testing.T) {
	t.Parallel()
	tests := []struct{ base, want string }{
		{mockBase, "/api_v2/info"},
		{mockBase + "/", "/api_v2/info"},
		{mockBase + "/api_v2", "/api_v2/info"},
		{mockBase + "/api_v2/", "/api_v2/info"},
		{"  " + mockBase + "  ", "/api_v2/info"},
		{mockBase + "/gateway", "/gateway/api_v2/info"},
		{mockBase + "/gateway/api_v2/", "/gateway/api_v2/info"},
	}
	for _, tt := range tests {
		t.Run(tt.base, func(t *testing.T) {
			t.Parallel()
			rec := newRecorder(200, infoBody)
			c, err := newOver(rec, testAPIKey, testSecretKey, workforce.WithBaseURL(tt.base))
			require.NoError(t, err)
			_, _, err = c.Info.Get(context.Background())
			require.NoError(t, err)
			require.Len(t, rec.seen, 1)
			assert.Equal(t, "api.workforce.test", rec.seen[0].URL.Host)
			assert.Equal(t, tt.want, rec.seen[0].URL.Path)
		})
	}
}

// The environment tests use t.Setenv, so they cannot run in parallel.

func TestNewReadsBaseURLFromEnvironment(t *testing.T) {
	const (
		testEnvURL = "https://test-env.workforce.test"
		baseEnvURL = "https://base-env.workforce.test"
		optionURL  = "https://option.workforce.test"
	)
	tests := []struct {
		name           string
		apiKey, secret string
		testEnv, base  string
		opts           []workforce.Option
		wantHost       string // "" when New must fail with ErrConfig
	}{
		{"test keys prefer the test variable", testAPIKey, testSecretKey, testEnvURL, baseEnvURL, nil, "test-env.workforce.test"},
		{"test keys fall back to the base variable", testAPIKey, testSecretKey, "", baseEnvURL, nil, "base-env.workforce.test"},
		{"test keys with only the test variable", testAPIKey, testSecretKey, testEnvURL, "", nil, "test-env.workforce.test"},
		{"live keys ignore the test variable", liveAPIKey, liveSecretKey, testEnvURL, baseEnvURL, nil, "base-env.workforce.test"},
		{"live keys with only the test variable", liveAPIKey, liveSecretKey, testEnvURL, "", nil, ""},
		{"the option beats the environment", testAPIKey, testSecretKey, testEnvURL, baseEnvURL, []workforce.Option{workforce.WithBaseURL(optionURL)}, "option.workforce.test"},
		{"no option and no environment", testAPIKey, testSecretKey, "", "", nil, ""},
		{"a bad variable is refused", testAPIKey, testSecretKey, "http://example.com", "", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(workforce.EnvTestBaseURL, tt.testEnv)
			t.Setenv(workforce.EnvBaseURL, tt.base)
			rec := newRecorder(200, infoBody)
			c, err := newOver(rec, tt.apiKey, tt.secret, tt.opts...)
			if tt.wantHost == "" {
				require.ErrorIs(t, err, workforce.ErrConfig)
				return
			}
			require.NoError(t, err)
			_, _, err = c.Info.Get(context.Background())
			require.NoError(t, err)
			require.Len(t, rec.seen, 1)
			assert.Equal(t, tt.wantHost, rec.seen[0].URL.Host)
			assert.Equal(t, "/api_v2/info", rec.seen[0].URL.Path)
		})
	}
}

func TestClientPrintsNoSecret(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", httpmock.NewStringResponder(200, `{"job": {"id": 42}}`))
	_, _, err := c.Jobs.Get(context.Background(), 42) // caches the token
	require.NoError(t, err)
	require.EqualValues(t, 1, m.auths.Load())

	var printed []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
		for _, v := range []any{c, *c, c.Jobs, &c.Jobs, c.Authentication, &c.Authentication, c.Info, &c.Info} {
			printed = append(printed, fmt.Sprintf(verb, v))
		}
	}
	for _, s := range printed {
		for _, secret := range []string{testAPIKey, testSecretKey, testToken} {
			assert.NotContains(t, s, secret)
		}
	}
	assert.Contains(t, printed[0], "api.workforce.test", "the base URL is worth printing")
}

func TestWithHTTPClientIsNotMutated(t *testing.T) {
	t.Parallel()
	m := httpmock.NewMockTransport()
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info", httpmock.NewStringResponder(200, infoBody))
	hc := &http.Client{Transport: m, Timeout: 7 * time.Second}
	c := newKeyed(t, mockBase, workforce.WithHTTPClient(hc))
	assert.Same(t, m, hc.Transport)

	_, _, err := c.Info.Get(context.Background())
	require.NoError(t, err)
	assert.Same(t, m, hc.Transport)
	assert.Equal(t, 7*time.Second, hc.Timeout)
	assert.Nil(t, hc.CheckRedirect)
	assert.Nil(t, hc.Jar)

	// A client without a transport keeps having none.
	bare := &http.Client{}
	_, err = workforce.New(testAPIKey, testSecretKey, workforce.WithBaseURL(mockBase), workforce.WithHTTPClient(bare))
	require.NoError(t, err)
	assert.Nil(t, bare.Transport)
}

func TestUserAgent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts []workforce.Option
		want string
	}{
		{"default", nil, "workforce-go/" + workforce.Version},
		{"appended", []workforce.Option{workforce.WithUserAgent("myapp/1.0")}, "workforce-go/" + workforce.Version + " myapp/1.0"},
		{"blank is ignored", []workforce.Option{workforce.WithUserAgent("  ")}, "workforce-go/" + workforce.Version},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t, tt.opts...)
			var got capture
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/1", got.respond(200, `{"job": {"id": 1}}`))
			_, _, err := c.Jobs.Get(context.Background(), 1)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.req.Header.Get("User-Agent"))
			assert.Equal(t, "application/json", got.req.Header.Get("Accept"))
		})
	}
}

func TestWithTokenSendsItAndNeverAuthenticates(t *testing.T) {
	t.Parallel()
	rec := newRecorder(200, `{"job": {"id": 5}}`)
	c, err := newOver(rec, "", "", workforce.WithBaseURL(mockBase), workforce.WithToken("static-token-1"))
	require.NoError(t, err)
	for range 3 {
		job, _, err := c.Jobs.Get(context.Background(), 5)
		require.NoError(t, err)
		assert.EqualValues(t, 5, job.ID)
	}
	require.Len(t, rec.seen, 3)
	for _, req := range rec.seen {
		assert.Equal(t, "/api_v2/jobs/5", req.URL.Path, "nothing but the call itself is sent")
		assert.Equal(t, "static-token-1", tokenOf(req))
	}

	// A rejected static token is not renewed, and the call is not replayed.
	rejecting := newRecorder(401, `{"error": "expired"}`)
	c, err = newOver(rejecting, "", "", workforce.WithBaseURL(mockBase), workforce.WithToken("static-token-1"))
	require.NoError(t, err)
	_, _, err = c.Jobs.Get(context.Background(), 5)
	require.ErrorIs(t, err, workforce.ErrUnauthorized)
	assert.Len(t, rejecting.seen, 1)
}

func TestInfoSendsNoToken(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var got capture
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info",
		got.respond(200, `{"utc_time_now": "2026-01-02T03:04:05Z", "environment": "test", "version": "2.1"}`))
	info, _, err := c.Info.Get(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "test", info.Environment)
	assert.Equal(t, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), info.UTCTimeNow.UTC())
	assert.Contains(t, string(info.Raw), `"version": "2.1"`, "unmodelled fields stay reachable")
	assert.Empty(t, got.req.URL.RawQuery)
	assert.Zero(t, m.auths.Load())
}

// TestInfoKeepsTheRealKeys decodes the real answer of GET /info (testdata/realworld/info.json):
// every key it holds has its field, release_version and deploy null; a set one is kept as text,
// and one of another form leaves its field nil, with a Warning, and stays in Raw.
func TestInfoKeepsTheRealKeys(t *testing.T) {
	t.Parallel()
	real, err := os.ReadFile("testdata/realworld/info.json")
	require.NoError(t, err)
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info", httpmock.NewBytesResponder(200, real))
	info, resp, err := c.Info.Get(context.Background())
	require.NoError(t, err)
	assert.Empty(t, resp.Warnings)
	assert.Equal(t, workforce.Info{UTCTimeNow: info.UTCTimeNow, Environment: "production", RailsEnvironment: "production",
		RackEnvironment: "production", Raw: info.Raw}, *info, "release_version and deploy null: nil")
	assert.Equal(t, time.Date(2026, 8, 5, 12, 0, 0, 0, time.UTC), info.UTCTimeNow.UTC())

	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/info", httpmock.NewStringResponder(200,
		`{"utc_time_now": "2026-08-05T12:00:00.000Z", "release_version": "v812", "deploy": {"sha": "4f2a"}}`))
	info, resp, err = c.Info.Get(context.Background())
	require.NoError(t, err)
	assert.Equal(t, workforce.Ptr("v812"), info.ReleaseVersion)
	assert.Nil(t, info.Deploy, "an object is no text")
	if assert.Len(t, resp.Warnings, 1) {
		assert.Equal(t, "deploy", resp.Warnings[0].Field)
	}
	assertKept(t, info.Raw, "deploy", `{"sha": "4f2a"}`)
}

func TestResponseURLHoldsNoToken(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", httpmock.NewStringResponder(200, `{"job": {"id": 42}}`))
	_, resp, err := c.Jobs.Get(context.Background(), 42)
	require.NoError(t, err)
	require.NotNil(t, resp.Request)
	assert.NotContains(t, resp.Request.URL.String(), testToken)
	assert.Empty(t, resp.Request.URL.Query().Get("token"))
}

func TestNilContextIsRefused(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var ctx context.Context // nil
	_, _, err := c.Jobs.Get(ctx, 1)
	require.Error(t, err)
	assert.Zero(t, m.GetTotalCallCount())
}

// Every method of every service of a zero Client returns an error (one
// matching ErrConfig once its arguments pass), and panics in none of them.
func TestZeroClientAnswersErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []*workforce.Client{{}, new(workforce.Client)} {
		v := reflect.ValueOf(c).Elem()
		for i := range v.NumField() {
			field := v.Type().Field(i)
			if !field.IsExported() {
				continue
			}
			svc := v.Field(i).Addr()
			for m := range svc.NumMethod() {
				name := field.Name + "." + svc.Type().Method(m).Name
				method := svc.Method(m)
				args := make([]reflect.Value, method.Type().NumIn())
				for k := range args {
					in := method.Type().In(k)
					switch {
					case in == reflect.TypeFor[context.Context]():
						args[k] = reflect.ValueOf(context.Background())
					case in.Kind() == reflect.Int64:
						args[k] = reflect.ValueOf(int64(1)).Convert(in)
					default:
						args[k] = reflect.Zero(in)
					}
				}
				var err error
				assert.NotPanics(t, func() { err = firstError(method.Call(args)) }, name)
				assert.True(t, errors.Is(err, workforce.ErrConfig) || errors.Is(err, workforce.ErrInvalidArgument), "%s: %v", name, err)
			}
		}
		_, err := c.Do(context.Background(), &workforce.RawRequest{Method: "GET", Path: "info"}, nil)
		assert.ErrorIs(t, err, workforce.ErrConfig)
	}
}

// firstError returns the error a method call returned, or the first one
// its sequence yielded.
func firstError(out []reflect.Value) error {
	last := out[len(out)-1]
	if err, ok := last.Interface().(error); ok || last.Type() == reflect.TypeFor[error]() {
		return err
	}
	if seq, ok := last.Interface().(iter.Seq2[*workforce.Job, error]); ok {
		for _, err := range seq {
			return err
		}
	}
	// Any other iterator: range over it by reflection.
	var err error
	if last.Kind() == reflect.Func {
		yield := reflect.MakeFunc(last.Type().In(0), func(args []reflect.Value) []reflect.Value {
			if e, ok := args[1].Interface().(error); ok {
				err = e
			}
			return []reflect.Value{reflect.ValueOf(false)}
		})
		last.Call([]reflect.Value{yield})
	}
	return err
}
