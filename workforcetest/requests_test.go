package workforcetest_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func TestRequestsRedacted(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	f := newFake(t, workforcetest.WithClock(start)) // authenticates with a JSON body twice
	f.form(http.MethodPost, "/api_v2/authenticate", nil, url.Values{"api_key": {f.Private.APIKey}, "secret_key": {f.Private.SecretKey}})
	f.json(http.MethodPost, "/api_v2/authenticate", url.Values{"api_key": {f.Public.APIKey}, "secret_key": {f.Public.SecretKey}}, nil)
	f.get("/api_v2/jobs", f.private, "state", "filled")
	f.json(http.MethodPost, "/api_v2/jobs", nil, obj{"token": f.private, "job": obj{"worker_id": 1}})
	f.form(http.MethodPatch, jobPath(5), nil, url.Values{"token": {f.private}, "state": {"cancelled"}})
	unchanged := `{"job": {"worker_id": 7}}`
	f.decode(f.send(http.MethodPost, "/api_v2/jobs", with(f.private), "application/json", []byte(unchanged)))

	reqs := f.Requests()
	require.Len(t, reqs, 8)
	for _, req := range reqs {
		for _, secret := range []string{f.private, f.public, f.Private.APIKey, f.Private.SecretKey, f.Public.APIKey, f.Public.SecretKey} {
			assert.NotContains(t, string(req.Body), secret)
			assert.NotContains(t, req.Query.Encode(), secret)
		}
		assert.NotContains(t, req.Query, "token")
		assert.Equal(t, start, req.Time)
	}
	assert.JSONEq(t, `{"api_key": "[REDACTED]", "secret_key": "[REDACTED]"}`, string(reqs[0].Body))
	assert.Equal(t, "api_key=%5BREDACTED%5D&secret_key=%5BREDACTED%5D", string(reqs[2].Body))
	assert.Equal(t, url.Values{"api_key": {"[REDACTED]"}, "secret_key": {"[REDACTED]"}}, reqs[3].Query)
	assert.Equal(t, http.MethodGet, reqs[4].Method)
	assert.Equal(t, "/api_v2/jobs", reqs[4].Path)
	assert.Equal(t, url.Values{"state": {"filled"}}, reqs[4].Query)
	assert.JSONEq(t, `{"job": {"worker_id": 1}}`, string(reqs[5].Body))
	assert.Equal(t, "state=cancelled", string(reqs[6].Body))
	assert.Equal(t, unchanged, string(reqs[7].Body), "a body without secrets is kept verbatim")
	assert.Equal(t, "application/json", reqs[7].Header.Get("Content-Type"))
}

func TestRequestsCopiesAndReset(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.get("/api_v2/jobs", f.private, "state", "filled")
	reqs := f.Requests()
	last := len(reqs) - 1
	reqs[last].Query.Set("state", "changed")
	reqs[last].Header.Set("X-Mine", "1")
	reqs[last].Body = append(reqs[last].Body, 'x')
	again := f.Requests()[last]
	assert.Equal(t, "filled", again.Query.Get("state"))
	assert.Empty(t, again.Header.Get("X-Mine"))
	assert.Empty(t, again.Body)

	f.ResetRequests()
	assert.Empty(t, f.Requests())
	f.get("/api_v2/info", "")
	assert.Len(t, f.Requests(), 1)
}

func TestRequestsRedactedWhenTheBodyDoesNotParse(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.ResetRequests()
	keys := `{"api_key": "` + f.Private.APIKey + `", "secret_key": "` + f.Private.SecretKey + `"}`
	bodies := []struct{ contentType, body string }{
		{"application/json", keys + " trailing"},
		{"text/plain", keys},
		{"text/plain", "api_key=" + f.Private.APIKey + "&secret_key=" + f.Private.SecretKey},
		{"application/json", `{"token": "` + f.private + `", "x": "a\"b` + f.private + `"`},
		{"application/octet-stream", "keys " + f.Public.APIKey + " " + f.Public.SecretKey},
	}
	for _, b := range bodies {
		resp := f.send(http.MethodPost, "/api_v2/authenticate", nil, b.contentType, []byte(b.body))
		resp.Body.Close()
	}
	reqs := f.Requests()
	require.Len(t, reqs, len(bodies))
	for i, req := range reqs {
		for _, secret := range []string{f.private, f.Private.APIKey, f.Private.SecretKey, f.Public.APIKey, f.Public.SecretKey} {
			assert.NotContains(t, string(req.Body), secret, "body %d", i)
		}
		assert.Contains(t, string(req.Body), "[REDACTED]", "body %d", i)
	}
	assert.Equal(t, `{"api_key": "[REDACTED]", "secret_key": "[REDACTED]"} trailing`, string(reqs[0].Body))
}

// TestRequestLogKeepsNoBodyOfTheUnauthenticated sends bodies of 1 MiB
// without a token, with a made-up one and to an unknown path: the log
// records the requests, not their bodies. With a token, the body is kept
// cut to 64 KiB, its secrets redacted first.
func TestRequestLogKeepsNoBodyOfTheUnauthenticated(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.ResetRequests()
	big := bytes.Repeat([]byte("x"), 1<<20)
	for _, path := range []string{"/api_v2/nowhere", "/api_v2/jobs"} {
		for _, query := range []string{"", "?token=made-up"} {
			resp := f.send(http.MethodPost, path+query, nil, "text/plain", big)
			resp.Body.Close()
		}
	}
	reqs := f.Requests()
	require.Len(t, reqs, 4)
	for _, r := range reqs {
		assert.Empty(t, r.Body, "%s %s", r.Method, r.Path)
		assert.EqualValues(t, 1<<20, r.BodySize)
	}

	notes := `{"job": {"worker_id": 7, "job_request_id": 9, "requestor_notes": "` + strings.Repeat("n", 100<<10) + `"}, "token": "` + f.private + `"}`
	resp := f.send(http.MethodPost, "/api_v2/nowhere", nil, "application/json", []byte(notes))
	resp.Body.Close()
	reqs = f.Requests()
	last := reqs[len(reqs)-1]
	assert.Len(t, last.Body, 64<<10, "cut to 64 KiB")
	assert.EqualValues(t, len(notes), last.BodySize)
	assert.NotContains(t, string(last.Body), f.private, "redacted before it was cut")
	assert.True(t, bytes.HasPrefix(last.Body, []byte(`{"job":{`)), "re-encoded without the token: %.40s", last.Body)
}

// TestRequestLogHoldsNoSecretWhereverClientsPutIt sends the fake's tokens and keys where clients
// put them besides the token parameter: in Authorization (Bearer, Basic with the key pair plain
// or in base64), Referer, Cookie and headers of their own (names included), percent-encoded or
// JSON-escaped, in bodies that parse and bodies that do not, in a multipart file, straddling the
// 64 KiB the log keeps of a body, and a token the fake has forgotten (ExpireTokens). No part of
// the log holds 16 characters in a row of any of them, plain or escaped.
func TestRequestLogHoldsNoSecretWhereverClientsPutIt(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	forgotten := f.token(f.Private)
	f.ExpireTokens()
	token := f.token(f.Private)
	f.ResetRequests()
	pair := f.Private.APIKey + ":" + f.Private.SecretKey
	send := func(method, path, contentType, body string, header http.Header) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, f.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		for name, values := range header {
			req.Header[name] = values
		}
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
	}
	send("GET", "/api_v2/jobs?token="+token, "", "", http.Header{
		"Authorization": {"Bearer " + token}, "Referer": {"http://127.0.0.1/app?token=" + token + "&x=1"},
		"Cookie": {"session=" + percentEncoded(token)}, "X-Forgotten": {forgotten},
		"X-Api-Key": {f.Private.SecretKey}, "X-" + f.Private.APIKey: {"1"}, "X-" + token[:20]: {"1"}})
	send("GET", "/api_v2/info", "", "", http.Header{"Authorization": {"Basic " + pair}})
	send("GET", "/api_v2/info", "", "", http.Header{"Proxy-Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(pair))}})
	send("GET", "/api_v2/info?note="+percentEncoded(f.Private.SecretKey), "", "", nil)
	send("POST", "/api_v2/jobs?token="+token, "application/json", `{"t\u006fken":"`+jsonEscaped(token)+`", "job": {`, nil)
	send("POST", "/api_v2/jobs?token="+token, "text/plain", "secret_key="+percentEncoded(f.Private.SecretKey), nil)
	send("POST", "/api_v2/jobs?token="+token, "application/json",
		`{"job": {"worker_id": 101, "job_request_id": 501, "requestor_notes": "`+jsonEscaped(forgotten)+`"}}`, nil)
	send("PATCH", "/api_v2/jobs/1001", "application/x-www-form-urlencoded",
		"token="+token+"&state=cancelled&cancelled_reason="+f.Private.SecretKey, nil)
	send("POST", "/api_v2/jobs?token="+token, "text/plain", strings.Repeat("x", 64<<10-20)+forgotten, nil)
	send("POST", "/api_v2/jobs?token="+token, "text/plain", strings.Repeat("x", 64<<10-120)+jsonEscaped(f.Private.SecretKey), nil)
	var file bytes.Buffer
	w := multipart.NewWriter(&file)
	part, err := w.CreateFormFile("file", "hours.csv")
	require.NoError(t, err)
	_, err = part.Write([]byte("job_id,actual_duration,note\n1001,60," + forgotten + "\n"))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	send("POST", "/api_v2/customers/timesheet_import?token="+token, w.FormDataContentType(), file.String(), nil)

	reqs := f.Requests()
	require.Len(t, reqs, 11)
	for i, r := range reqs {
		var logged strings.Builder
		logged.WriteString(r.Path + "?" + r.Query.Encode() + "\n")
		for name, values := range r.Header {
			logged.WriteString(name + ": " + strings.Join(values, ", ") + "\n")
		}
		logged.Write(r.Body)
		for name, secret := range map[string]string{"token": token, "forgotten token": forgotten,
			"API key": f.Private.APIKey, "secret key": f.Private.SecretKey, "key pair in base64": base64.StdEncoding.EncodeToString([]byte(pair))} {
			for form, width := range map[string]int{secret: 16, jsonEscaped(secret): 16 * 6, percentEncoded(secret): 16 * 3} {
				if piece := sharedRun(logged.String(), form, width); piece != "" {
					t.Errorf("request %d (%s %s) holds %q of the %s:\n%.300s", i, r.Method, r.Path, piece, name, logged.String())
				}
			}
		}
	}
	assert.Equal(t, "Bearer [REDACTED]", reqs[0].Header.Get("Authorization"), "the scheme stays")
	assert.Equal(t, "1", reqs[0].Header.Get("X-[REDACTED]"), "what is not secret stays")
	assert.Equal(t, "Basic [REDACTED]", reqs[2].Header.Get("Proxy-Authorization"))
	assert.Contains(t, string(reqs[6].Body), `"requestor_notes": "[REDACTED]"`)
	assert.Equal(t, "cancelled_reason=[REDACTED]&state=cancelled", string(reqs[7].Body))
}

// jsonEscaped returns s with every character \u-escaped, as JSON allows.
func jsonEscaped(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

// percentEncoded returns s with every byte percent-encoded.
func percentEncoded(s string) string {
	var b strings.Builder
	for i := range len(s) {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
}

// sharedRun returns a run of n bytes of secret that text holds, or "".
func sharedRun(text, secret string, n int) string {
	for i := 0; i+n <= len(secret); i++ {
		if strings.Contains(text, secret[i:i+n]) {
			return secret[i : i+n]
		}
	}
	return ""
}

// Each request in the log carries the status the fake answered it with, a fault's included, and 0
// when no answer was sent.
func TestRequestsCarryTheirStatus(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.ResetRequests()
	f.get("/api_v2/jobs", f.private)
	f.get("/api_v2/jobs/999999", f.private)
	f.get("/api_v2/jobs", "")
	f.InjectFault(workforcetest.Fault{Method: http.MethodGet, Path: "/api_v2/info", Status: http.StatusServiceUnavailable})
	f.get("/api_v2/info", f.private)
	f.InjectFault(workforcetest.Fault{Method: http.MethodGet, Path: "/api_v2/info", Drop: true})
	fresh := &http.Client{Transport: &http.Transport{}} // a new connection: a broken reused one is tried again
	resp, err := fresh.Get(f.URL + "/api_v2/info")
	if err == nil {
		resp.Body.Close()
	}
	require.Error(t, err, "the connection was dropped")

	var got []int
	for _, req := range f.Requests() {
		got = append(got, req.Status)
	}
	assert.Equal(t, []int{http.StatusOK, http.StatusNotFound, http.StatusUnauthorized, http.StatusServiceUnavailable, 0}, got)
}
