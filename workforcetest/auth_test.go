package workforcetest_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func TestAuthenticateEncodings(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 4, 50, 40, 0, time.UTC)
	f := newFake(t, workforcetest.WithClock(start))
	keys := url.Values{"api_key": {f.Private.APIKey}, "secret_key": {f.Private.SecretKey}}
	for name, send := range map[string]func() (int, obj){
		"json": func() (int, obj) {
			return f.json(http.MethodPost, "/api_v2/authenticate", nil, obj{"api_key": f.Private.APIKey, "secret_key": f.Private.SecretKey})
		},
		"form":  func() (int, obj) { return f.form(http.MethodPost, "/api_v2/authenticate", nil, keys) },
		"query": func() (int, obj) { return f.json(http.MethodPost, "/api_v2/authenticate", keys, nil) },
	} {
		t.Run(name, func(t *testing.T) {
			status, body := send()
			require.Equal(t, http.StatusOK, status, body)
			assert.Len(t, body, 2, "a flat object of token and expires_at")
			assert.Regexp(t, regexp.MustCompile(`^[0-9a-f]{48}$`), body["token"])
			assert.Equal(t, "2026-11-23T04:50:40Z", body["expires_at"])
		})
	}
}

func TestAuthenticateTokensDiffer(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	assert.NotEqual(t, f.private, f.token(f.Private))
	assert.NotEqual(t, f.private, f.public)
}

func TestAuthenticateErrors(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for name, tc := range map[string]struct {
		body   obj
		status int
		fields []string
	}{
		"wrong secret":         {obj{"api_key": f.Private.APIKey, "secret_key": f.Public.SecretKey}, http.StatusUnauthorized, nil},
		"wrong api key":        {obj{"api_key": "pk_test_nope", "secret_key": f.Private.SecretKey}, http.StatusUnauthorized, nil},
		"missing secret":       {obj{"api_key": f.Private.APIKey}, http.StatusUnprocessableEntity, []string{"secret_key"}},
		"blank api key":        {obj{"api_key": " ", "secret_key": f.Private.SecretKey}, http.StatusUnprocessableEntity, []string{"api_key"}},
		"nothing":              {obj{}, http.StatusUnprocessableEntity, []string{"api_key", "secret_key"}},
		"null and wrong types": {obj{"api_key": nil, "secret_key": obj{}}, http.StatusUnprocessableEntity, []string{"api_key", "secret_key"}},
	} {
		t.Run(name, func(t *testing.T) {
			status, body := f.json(http.MethodPost, "/api_v2/authenticate", nil, tc.body)
			require.Equal(t, tc.status, status, body)
			require.NotEmpty(t, body["error"])
			if tc.fields != nil {
				errs := fieldErrors(t, body)
				for _, field := range tc.fields {
					assert.Equal(t, []any{"can't be blank"}, errs[field])
				}
			}
		})
	}
}

func TestTokenPlaces(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	path := jobPath(f.Seed().PublicJobID)
	status, _ := f.json(http.MethodGet, path, with(f.private), nil)
	assert.Equal(t, http.StatusOK, status, "query")
	status, _ = f.json(http.MethodGet, path, nil, obj{"token": f.private})
	assert.Equal(t, http.StatusOK, status, "JSON body")
	status, _ = f.form(http.MethodGet, path, nil, url.Values{"token": {f.private}})
	assert.Equal(t, http.StatusOK, status, "form body")

	for name, query := range map[string]url.Values{"missing": nil, "unknown": with("nope"), "empty": with(" ")} {
		status, body := f.json(http.MethodGet, path, query, nil)
		assert.Equal(t, http.StatusUnauthorized, status, name)
		assert.NotEmpty(t, body["error"], name)
	}
}

func TestTokenExpires(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	f.Advance(24*time.Hour - time.Second)
	status, _ := f.get("/api_v2/jobs", f.private)
	require.Equal(t, http.StatusOK, status, "alive one second before expires_at")
	f.Advance(time.Second)
	status, _ = f.get("/api_v2/jobs", f.private)
	require.Equal(t, http.StatusUnauthorized, status, "expired at expires_at")
	status, _ = f.get("/api_v2/jobs", f.token(f.Private))
	require.Equal(t, http.StatusOK, status, "a new token works")

	f.Advance(25 * time.Hour)
	status, _ = f.get("/api_v2/jobs", f.public)
	assert.Equal(t, http.StatusUnauthorized, status)
}

func TestExpireTokens(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	before := f.Now()
	f.ExpireTokens()
	assert.Equal(t, before, f.Now(), "the clock stays")
	for _, token := range []string{f.private, f.public} {
		status, _ := f.get("/api_v2/jobs", token)
		assert.Equal(t, http.StatusUnauthorized, status)
	}
	status, _ := f.get("/api_v2/jobs", f.token(f.Private))
	assert.Equal(t, http.StatusOK, status, "a new token works")
}

func TestInfoNeedsNoTokenAndTellsTheUTCTime(t *testing.T) {
	t.Parallel()
	f := newFake(t, workforcetest.WithClock(time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("", 3600))))
	status, body := f.get("/api_v2/info", "")
	require.Equal(t, http.StatusOK, status, body)
	assert.Equal(t, "2026-01-02T02:04:05.000Z", body["utc_time_now"], "UTC, to the millisecond of the records' times")
	assert.Equal(t, "test", body["environment"])
	assert.Greater(t, len(body), 2)

	status, _ = f.json(http.MethodPost, "/api_v2/info", nil, nil)
	assert.Equal(t, http.StatusMethodNotAllowed, status)
}

// TestEveryAPIRouteButAuthenticateAndInfoNeedsAToken sends every route of the route table,
// without a token and with one the fake never issued: each answers 401 and changes nothing.
func TestEveryAPIRouteButAuthenticateAndInfoNeedsAToken(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	for _, pattern := range f.RoutePatterns() {
		method, path, _ := strings.Cut(pattern, " ")
		if !strings.HasPrefix(path, "/api_v2/") || path == "/api_v2/authenticate" || path == "/api_v2/info" {
			continue
		}
		path = strings.ReplaceAll(path, "{id}", strconv.FormatInt(seed.BadgeID, 10))
		for _, token := range []string{"", "not-a-token"} {
			status, body := f.json(method, path, with(token), nil)
			assert.Equal(t, http.StatusUnauthorized, status, "%s %s %q", method, path, token)
			assert.NotEmpty(t, body["error"])
		}
	}
	status, _ := f.get(idPath("badges", seed.BadgeID), f.private)
	assert.Equal(t, http.StatusOK, status, "nothing was deleted")
}
