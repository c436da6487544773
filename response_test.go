package workforce_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/davecgh/go-spew/spew"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// echoToken is the token of echoingServer, whose answers echo it.
const echoToken = "tok_7c1e9a3f5b2d4068a1b3c5d7e9f02468ace13579bdf0"

// echoingServer hands out echoToken and echoes the token each request
// carries in its request ID, a Location, a cookie, a header's name and
// its status line; /jobs/404 answers 404.
func echoingServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api_v2/authenticate" {
			json.NewEncoder(w).Encode(map[string]string{"token": echoToken, "expires_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)})
			return
		}
		tok := r.URL.Query().Get("token")
		w.Header().Set("X-Request-Id", "req-"+tok)
		w.Header().Set("Location", "/api_v2/jobs/1?token="+tok)
		http.SetCookie(w, &http.Cookie{Name: "session", Value: tok})
		w.Header()["X-Echo-"+tok] = []string{"1"}
		w.Header().Set("X-Key", testSecretKey)
		if strings.HasSuffix(r.URL.Path, "/404") {
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"no such job"}`))
			return
		}
		w.Write([]byte(`{"job":{"id":1}}`))
	}))
	t.Cleanup(srv.Close)
	return srv
}

// printed returns resp as every verb and go-spew print it.
func printed(resp *workforce.Response) map[string]string {
	out := map[string]string{"spew": spew.Sdump(resp), "spew, fields": (&spew.ConfigState{DisableMethods: true}).Sdump(resp)}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
		out[verb] = fmt.Sprintf(verb, resp)
	}
	return out
}

func TestResponseHidesSecretsEchoedInHeaders(t *testing.T) {
	t.Parallel()
	srv := echoingServer(t)
	var seen []http.Header
	c := newKeyed(t, srv.URL, workforce.WithMiddleware(func(next http.RoundTripper) http.RoundTripper {
		return rtFunc(func(req *http.Request) (*http.Response, error) {
			resp, err := next.RoundTrip(req)
			if resp != nil {
				seen = append(seen, resp.Header.Clone())
			}
			return resp, err
		})
	}))
	_, ok, err := c.Jobs.Get(context.Background(), 1)
	require.NoError(t, err)
	_, failed, err := c.Jobs.Get(context.Background(), 404)
	require.ErrorIs(t, err, workforce.ErrNotFound)

	for name, resp := range map[string]*workforce.Response{"a 200": ok, "a 404": failed} {
		require.NotNil(t, resp, name)
		assert.Equal(t, "req-[REDACTED]", resp.Header.Get("X-Request-Id"), name)
		assert.Equal(t, "[REDACTED]", resp.Cookies()[0].Value, name)
		for how, out := range printed(resp) {
			assert.NotContains(t, out, echoToken[:12], "%s printed with %s", name, how)
			assert.NotContains(t, out, testSecretKey[8:20], "%s printed with %s", name, how)
		}
	}
	assert.Equal(t, `workforce.Response{GET /api_v2/jobs/1: 200 OK RequestID:"req-[REDACTED]" NextPage:0 Warnings:0}`, fmt.Sprint(ok))
	require.Len(t, seen, 2)
	assert.NotContains(t, fmt.Sprint(seen), echoToken[:12], "the middleware sees the headers masked too")
}

// A List with Per left 0 asks for MaxPerPage records, so that a short page
// is known to be the last (NextPage 0), as go-github's users expect; the
// caller's options are left as they were.
func TestListWithPerUnsetSendsTheLargestPage(t *testing.T) {
	t.Parallel()
	c, m := newMock(t)
	var pers []string
	m.RegisterResponder(http.MethodGet, mockBase+"/api_v2/jobs", func(req *http.Request) (*http.Response, error) {
		pers = append(pers, req.URL.Query().Get("per"))
		return httpAnswer(req, 200, `{"jobs": [{"id": 3}, {"id": 2}]}`), nil
	})
	opts := &workforce.JobListOptions{State: workforce.JobFilled}
	_, resp, err := c.Jobs.List(context.Background(), opts)
	require.NoError(t, err)
	assert.Zero(t, resp.NextPage, "two records where 50 were asked for: the last page")
	assert.Zero(t, opts.Per, "the caller's options are not changed")

	opts.Per, opts.Page = 2, 3
	_, resp, err = c.Jobs.List(context.Background(), opts)
	require.NoError(t, err)
	assert.Equal(t, 4, resp.NextPage, "a full page of the size asked for may have a successor")
	assert.Equal(t, []string{"50", "2"}, pers)
}
