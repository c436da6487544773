package workforce_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/davecgh/go-spew/spew"
	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// echo is an error body that repeats every secret of the request back, in
// every form a careless server might.
func echo(req *http.Request) string {
	tok := tokenOf(req)
	return fmt.Sprintf(`{"error": "rejected %s with %s/%s", "token": "%s", "api_key": "%s", "url": "%s", `+
		`"errors": {"token": ["%s is expired"], "secret_key": ["%s"]}}`,
		tok, testAPIKey, testSecretKey, tok, testAPIKey, req.URL, tok, testSecretKey)
}

func echoResponder(status int) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		return httpmock.NewStringResponse(status, echo(req)), nil
	}
}

func TestNoSecretInErrorsOrLogs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(m *mockAPI)
	}{
		{"wrong keys", func(m *mockAPI) {
			m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", echoResponder(401))
		}},
		{"token rejected twice", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", echoResponder(401))
		}},
		{"forbidden", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", echoResponder(403))
		}},
		{"unprocessable", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", echoResponder(422))
		}},
		{"server error", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", echoResponder(500))
		}},
		{"server error, plain text", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(req *http.Request) (*http.Response, error) {
				return httpmock.NewStringResponse(500, "failed: "+req.URL.String()+" token "+tokenOf(req)), nil
			})
		}},
		{"retried, then failed", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", echoResponder(503))
		}},
		{"authentication failed", func(m *mockAPI) {
			m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", echoResponder(500))
		}},
		{"transport error naming the URL", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(req *http.Request) (*http.Response, error) {
				return nil, fmt.Errorf("proxy refused %s (token %s)", req.URL, tokenOf(req))
			})
		}},
		{"transport error", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", httpmock.NewErrorResponder(errors.New("connection reset")))
		}},
		{"undecodable answer", func(m *mockAPI) {
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(req *http.Request) (*http.Response, error) {
				return httpmock.NewStringResponse(200, `{"job": "`+tokenOf(req)+`"}`), nil
			})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var logs syncBuffer
			logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			c, m := newMock(t, workforce.WithLogger(logger))
			tt.setup(m)

			_, _, err := c.Jobs.Get(context.Background(), 42)
			require.Error(t, err)

			seen := []string{err.Error(), fmt.Sprintf("%v|%+v|%s", err, err, err), logs.String()}
			var apiErr *workforce.APIError
			if errors.As(err, &apiErr) {
				seen = append(seen, string(apiErr.Body), apiErr.Message, fmt.Sprint(apiErr.FieldErrors, apiErr.Errors),
					fmt.Sprintf("%+v", *apiErr))
			}
			for _, s := range seen {
				for _, secret := range []string{testAPIKey, testSecretKey, testToken} {
					assert.NotContains(t, s, secret)
				}
			}
			assert.NotEmpty(t, logs.String(), "the failure was logged")
		})
	}
}

// randomTokens answers POST /authenticate with a new random token each
// time, valid for 24 hours from its clock, and remembers them in order.
type randomTokens struct {
	mu     sync.Mutex
	issued []string
	now    time.Time
}

func newRandomTokens(m *mockAPI, now time.Time) *randomTokens {
	rt := &randomTokens{now: now}
	m.RegisterResponder(http.MethodPost, mockBase+"/api_v2/authenticate", func(*http.Request) (*http.Response, error) {
		b := make([]byte, 20)
		_, _ = rand.Read(b)
		rt.mu.Lock()
		tok := "tok_" + hex.EncodeToString(b)
		rt.issued = append(rt.issued, tok)
		expires := rt.now.Add(24 * time.Hour)
		rt.mu.Unlock()
		return httpmock.NewJsonResponse(200, map[string]any{"token": tok, "expires_at": expires.UTC().Format(time.RFC3339)})
	})
	return rt
}

func (rt *randomTokens) clock() time.Time {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.now
}

func (rt *randomTokens) set(t time.Time) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.now = t
}

func (rt *randomTokens) token(i int) string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.issued[i]
}

// TestEarlierTokensStayHidden sends a call with the first token, renews the
// token while it is in flight (by Authenticate, by a spurious 401 on
// another call, by the timed renewal), then answers the call with an error
// that repeats the first token: it is still valid, so neither the error,
// its body nor the log line may show it.
func TestEarlierTokensStayHidden(t *testing.T) {
	t.Parallel()
	renewals := map[string]func(t *testing.T, c *workforce.Client, m *mockAPI, rt *randomTokens){
		"Authenticate": func(t *testing.T, c *workforce.Client, _ *mockAPI, _ *randomTokens) {
			_, _, err := c.Authentication.Authenticate(context.Background())
			require.NoError(t, err)
		},
		"a spurious 401 on another call": func(t *testing.T, c *workforce.Client, m *mockAPI, rt *randomTokens) {
			first := rt.token(0)
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", func(req *http.Request) (*http.Response, error) {
				if tokenOf(req) == first {
					return httpmock.NewStringResponse(401, `{"error": "try again"}`), nil
				}
				return httpmock.NewStringResponse(200, `{"job": {"id": 42}}`), nil
			})
			require.NoError(t, getJob42(c))
		},
		"the timed renewal": func(t *testing.T, c *workforce.Client, _ *mockAPI, rt *randomTokens) {
			rt.set(epoch.Add(24*time.Hour - 4*time.Minute)) // inside the renewal margin, still valid
			require.NoError(t, getJob42(c))
		},
	}
	for name, renew := range renewals {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var logs syncBuffer
			c, m := newMock(t, workforce.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
			rt := newRandomTokens(m, epoch)
			workforce.SetClockForTest(c, rt.clock)
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42", httpmock.NewStringResponder(200, `{"job": {"id": 42}}`))
			require.NoError(t, getJob42(c)) // the first token

			arrived, release := make(chan string, 1), make(chan struct{})
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/1", func(req *http.Request) (*http.Response, error) {
				arrived <- tokenOf(req)
				<-release
				return httpmock.NewStringResponse(422, echo(req)), nil // not 500: a read is retried on 500
			})
			errc := make(chan error, 1)
			go func() {
				_, _, err := c.Jobs.Get(context.Background(), 1)
				errc <- err
			}()
			first := <-arrived
			require.Equal(t, rt.token(0), first)

			renew(t, c, m, rt)
			require.NotEqual(t, first, rt.token(len(rt.issued)-1), "renewed")
			close(release)
			err := <-errc

			var apiErr *workforce.APIError
			require.True(t, errors.As(err, &apiErr), "%v", err)
			assert.NotContains(t, err.Error(), first)
			assert.NotContains(t, string(apiErr.Body), first)
			assert.Contains(t, string(apiErr.Body), "[REDACTED]")
			assert.NotContains(t, apiErr.Message, first)
			assert.NotContains(t, logs.String(), first)
			assert.Contains(t, logs.String(), "call failed")
		})
	}
}

// failures is a testify TestingT that keeps the failure messages.
type failures struct{ out strings.Builder }

func (f *failures) Errorf(format string, args ...any) { fmt.Fprintf(&f.out, format, args...) }

// holder is a value a caller might compare or print: SDK values after
// calls that fetched, renewed and used tokens.
type holder struct {
	Client *workforce.Client
	Resp   *workforce.Response
	Err    error
	Job    *workforce.Job
	Note   string
}

// TestNoPrinterShowsASecret prints values holding a used *Client with
// fmt, with go-spew as deep as it goes, in testify's failure diff, and
// with go-cmp told to read every unexported field: no key, no token the
// client held (current or earlier), no 8 characters of one in a row, may
// show.
func TestNoPrinterShowsASecret(t *testing.T) {
	t.Parallel()
	srv := workforcetest.NewServer(t)
	ctx := context.Background()
	c, err := srv.Client()
	require.NoError(t, err)
	var tokens []string
	for range 2 { // a token, then a newer one: the first is held still
		tok, _, err := c.Authentication.Authenticate(ctx)
		require.NoError(t, err)
		tokens = append(tokens, tok.Value)
	}
	job, resp, err := c.Jobs.Get(ctx, srv.Seed().PublicJobID)
	require.NoError(t, err)
	_, _, notFound := c.Jobs.Get(ctx, 999999)
	require.Error(t, notFound)
	a := holder{Client: c, Resp: resp, Err: notFound, Job: job, Note: "a"}
	b := a
	b.Note = "b"
	secrets := append([]string{srv.Private.APIKey, srv.Private.SecretKey}, tokens...)

	deep := spew.ConfigState{DisableMethods: true, DisablePointerAddresses: true}
	var diff failures
	assert.Equal(&diff, a, b)
	require.Contains(t, diff.out.String(), "Diff:", "testify printed its diff")
	outputs := map[string]string{
		"%v": fmt.Sprintf("%v", a), "%+v": fmt.Sprintf("%+v", a), "%#v": fmt.Sprintf("%#v", a),
		"%#v of the Client": fmt.Sprintf("%#v", *c), "Sprint": fmt.Sprint(a),
		"go-spew, every field": deep.Sdump(a), "go-spew, methods": spew.Sdump(a),
		"testify's failure diff": diff.out.String(),
		"go-cmp, every field":    cmp.Diff(a, b, cmp.Exporter(func(reflect.Type) bool { return true })),
	}
	for name, out := range outputs {
		require.NotEmpty(t, out, name)
		for _, s := range secrets {
			for i := 0; i+8 <= len(s); i++ {
				if strings.Contains(out, s[i:i+8]) {
					t.Errorf("%s shows %q of a secret", name, s[i:i+8])
					break
				}
			}
		}
	}
}

// longToken is a made-up token of the length of a real one, 48 characters:
// longer than the 40 a decode error quotes of a value.
const longToken = "tok_3f9a1c7e5b2d4068a1b3c5d7e9f02468ace13579bdf0"

// TestWarningsShowNoStartOfASecret has a server echo the client's token,
// whole or after other text, where a decimal or a timestamp is due: the
// record is kept and the value reported in a Warning, which quotes at most
// 64 bytes of it, and no start of the token of 8 characters or more may
// show.
func TestWarningsShowNoStartOfASecret(t *testing.T) {
	t.Parallel()
	values := map[string]string{
		"decimal":             `"adjusted_wage": "` + longToken + `"`,
		"timestamp":           `"updated_at": "` + longToken + `"`,
		"timestamp, later":    `"updated_at": "at ` + longToken + `"`,
		"not a string":        `"updated_at": {"t": "` + longToken + `"}`,
		"decimal, at the cut": `"adjusted_wage": "` + "0123456789012345678901234567890" + longToken + `"`,
	}
	for name, field := range values {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c, m := newMock(t, workforce.WithToken(longToken))
			m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs/42",
				httpmock.NewStringResponder(200, `{"job": {"id": 42, `+field+`}}`))
			job, resp, err := c.Jobs.Get(context.Background(), 42)
			require.NoError(t, err)
			assert.Equal(t, int64(42), job.ID)
			require.Len(t, resp.Warnings, 1)
			assert.NotContains(t, resp.Warnings[0].String(), longToken[:8], "no start of the token of 8 characters or more")
		})
	}
}

// escapedForms returns the ways a careless server may write secret v:
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
			c := newKeyed(t, api.URL)
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
			c := newKeyed(t, api.URL)
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

// TestEndsOfTokensAreHidden has a server name the token by its tail, as
// some do ("token …<last 40 characters>"): the end of a key or a token 8
// bytes or longer is hidden, as its start is.
func TestEndsOfTokensAreHidden(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	_, c := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(403)
		fmt.Fprintf(w, `{"error":"token …%s may not read this job; key …%s"}`, tokenOf(r)[8:], testSecretKey[12:])
	}, workforce.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	_, _, err := c.Jobs.Get(context.Background(), 1)
	require.ErrorIs(t, err, workforce.ErrForbidden)
	assert.Contains(t, err.Error(), "token …[REDACTED] may not read this job")
	for _, s := range []string{err.Error(), logs.String()} {
		assert.NotContains(t, s, testToken[len(testToken)-8:])
	}
}

// TestTokenEchoedInTheAuthenticateAnswerIsHidden has a server echo the
// token it hands out in the headers of that very answer (X-Request-Id, a
// header of its own, a trailer): the answer that delivers the token is
// read before the client holds it, yet neither the call's log line nor
// the Response (RequestID, Header, Trailer, every verb) shows it, for an
// explicit Authenticate and for the token a first call fetches.
func TestTokenEchoedInTheAuthenticateAnswerIsHidden(t *testing.T) {
	t.Parallel()
	const tok = "echoedTOKENxyzw0123456789abcdefABCDEF" // no shape a pattern finds: only knowing it hides it
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "rid-"+tok)
		w.Header().Set("X-Echo", "issued "+tok[:12]+"…")
		w.Header().Set("Trailer", "X-Checked")
		if r.URL.Path == "/api_v2/authenticate" {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"token": %q, "expires_at": %q}`, tok, time.Now().Add(24*time.Hour).UTC().Format(time.RFC3339))
			w.Header().Set("X-Checked", tok)
			return
		}
		fmt.Fprint(w, `{"jobs": []}`)
		w.Header().Set("X-Checked", tok)
	}))
	t.Cleanup(srv.Close)
	shown := func(resp *workforce.Response) string {
		return fmt.Sprintf("%v|%+v|%#v|%s|%s|%v|%v|%s", resp, resp, resp, resp, resp.RequestID, resp.Header, resp.Trailer, resp.Status)
	}

	var logs syncBuffer
	c := newKeyed(t, srv.URL, workforce.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	got, resp, err := c.Authentication.Authenticate(context.Background())
	require.NoError(t, err)
	require.Equal(t, tok, got.Value)
	assert.NotContains(t, shown(resp), tok[:10])
	assert.Contains(t, resp.RequestID, "[REDACTED]")
	assert.Contains(t, logs.String(), "request_id=rid-[REDACTED]")
	assert.NotContains(t, logs.String(), tok[:10])

	var logs2 syncBuffer
	c2 := newKeyed(t, srv.URL, workforce.WithLogger(slog.New(slog.NewTextHandler(&logs2, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	_, resp2, err := c2.Jobs.List(context.Background(), nil)
	require.NoError(t, err)
	assert.NotContains(t, shown(resp2), tok[:10])
	assert.Contains(t, logs2.String(), "path=/api_v2/authenticate")
	assert.NotContains(t, logs2.String(), tok[:10])
}
