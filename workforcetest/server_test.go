package workforcetest_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/openapi"
	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

func TestStartLoopbackOnly(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "example.com:80", "no-port"} {
		srv, err := workforcetest.Start(workforcetest.WithAddr(addr))
		assert.Error(t, err, addr)
		assert.Nil(t, srv, addr)
	}
	srv, err := workforcetest.Start(workforcetest.WithAddr("localhost:0"))
	require.NoError(t, err)
	defer srv.Close()
	assert.True(t, strings.HasPrefix(srv.URL, "http://127.0.0.1:") || strings.HasPrefix(srv.URL, "http://[::1]:"), srv.URL)
}

func TestKeysAreRandomTestKeysOfEachServer(t *testing.T) {
	t.Parallel()
	a, b := workforcetest.NewServer(t), workforcetest.NewServer(t)
	for _, keys := range []workforcetest.KeyPair{a.Private, a.Public} {
		assert.Regexp(t, `^pk_test_[0-9a-f]{32}$`, keys.APIKey)
		assert.Regexp(t, `^sk_test_[0-9a-f]{32}$`, keys.SecretKey)
	}
	assert.NotEqual(t, a.Private, a.Public)
	assert.NotEqual(t, a.Private, b.Private)
	assert.NotEqual(t, a.URL, b.URL)
}

// TestWithKeysFixesTheKeyPairs starts fakes with fixed key pairs: they authenticate, and a pool
// left alone keeps a random pair.
func TestWithKeysFixesTheKeyPairs(t *testing.T) {
	t.Parallel()
	private := workforcetest.KeyPair{APIKey: "pk_test_compose-private", SecretKey: "sk_test_compose_private_1"}
	public := workforcetest.KeyPair{APIKey: "pk_test_compose-public", SecretKey: "sk_test_compose_public_1"}
	f := newFake(t, workforcetest.WithKeys(private), workforcetest.WithPublicKeys(public)) // authenticates with both
	assert.Equal(t, private, f.Private)
	assert.Equal(t, public, f.Public)
	assert.Equal(t, private, f.Ready().Private)

	only := workforcetest.NewServer(t, workforcetest.WithKeys(private))
	assert.Equal(t, private, only.Private)
	assert.Regexp(t, `^pk_test_[0-9a-f]{32}$`, only.Public.APIKey)
}

// TestStartRefusesKeysThatAreNotTestKeys gives Start live, malformed and half key pairs: each is
// refused with an error that quotes no key.
func TestStartRefusesKeysThatAreNotTestKeys(t *testing.T) {
	t.Parallel()
	good := workforcetest.KeyPair{APIKey: "pk_test_good", SecretKey: "sk_test_good"}
	live := "_live_" // made-up live keys, built here so that no tracked line looks like one
	for name, tc := range map[string]struct {
		opts []workforcetest.Option
		want string
	}{
		"live API key":      {[]workforcetest.Option{workforcetest.WithKeys(workforcetest.KeyPair{APIKey: "pk" + live + "SECRETVALUE", SecretKey: "sk_test_SECRETVALUE"})}, "Private Pool API key is a live key"},
		"live secret key":   {[]workforcetest.Option{workforcetest.WithPublicKeys(workforcetest.KeyPair{APIKey: "pk_test_SECRETVALUE", SecretKey: "sk" + live + "SECRETVALUE"})}, "Public Pool secret key is a live key"},
		"swapped":           {[]workforcetest.Option{workforcetest.WithKeys(workforcetest.KeyPair{APIKey: "sk_test_SECRETVALUE", SecretKey: "pk_test_SECRETVALUE"})}, "not a test key"},
		"no secret key":     {[]workforcetest.Option{workforcetest.WithKeys(workforcetest.KeyPair{APIKey: "pk_test_SECRETVALUE"})}, "secret key is missing"},
		"a space":           {[]workforcetest.Option{workforcetest.WithKeys(workforcetest.KeyPair{APIKey: "pk_test_SECRET VALUE", SecretKey: "sk_test_SECRETVALUE"})}, "not a test key"},
		"prefix only":       {[]workforcetest.Option{workforcetest.WithKeys(workforcetest.KeyPair{APIKey: "pk_test_", SecretKey: "sk_test_SECRETVALUE"})}, "not a test key"},
		"too long":          {[]workforcetest.Option{workforcetest.WithKeys(workforcetest.KeyPair{APIKey: "pk_test_SECRETVALUE" + strings.Repeat("x", 100), SecretKey: "sk_test_SECRETVALUE"})}, "not a test key"},
		"one pair for both": {[]workforcetest.Option{workforcetest.WithKeys(good), workforcetest.WithPublicKeys(good)}, "must differ"},
	} {
		srv, err := workforcetest.Start(tc.opts...)
		if !assert.Error(t, err, name) {
			srv.Close()
			continue
		}
		assert.Contains(t, err.Error(), tc.want, name)
		assert.NotContains(t, err.Error(), "SECRET", name)
	}
}

func TestTimeouts(t *testing.T) {
	t.Parallel()
	srv := workforcetest.NewServer(t, workforcetest.WithTimeouts(50*time.Millisecond, 50*time.Millisecond))
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(10*time.Second)))
	_, err = io.WriteString(conn, "POST /api_v2/authenticate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a")
	require.NoError(t, err)
	answer, err := io.ReadAll(conn) // until the server gives up on the rest of the body and closes
	require.NoError(t, err, "the server let a slow body hold the connection: %q", answer)

	srv.InjectFault(workforcetest.Fault{Path: "/api_v2/info", Delay: 200 * time.Millisecond, Status: http.StatusTeapot})
	resp, err := http.Get(srv.URL + "/api_v2/info")
	require.NoError(t, err, "a Delay fault outlasts the timeouts")
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, http.StatusTeapot, resp.StatusCode)
}

// TestWithMiddleware checks that a middleware sees every request, outermost first, that a nil
// one is refused, and that the fake serves its OpenAPI document.
func TestWithMiddleware(t *testing.T) {
	t.Parallel()
	var order []string
	var mu sync.Mutex
	mark := func(name string) func(http.Handler) http.Handler {
		return func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				order = append(order, name+" "+r.URL.Path)
				mu.Unlock()
				next.ServeHTTP(w, r)
			})
		}
	}
	srv := workforcetest.NewServer(t, workforcetest.WithMiddleware(mark("outer")), workforcetest.WithMiddleware(mark("inner")))
	resp, err := http.Get(srv.URL + "/_fake/openapi.yaml")
	require.NoError(t, err)
	defer resp.Body.Close()
	doc, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "application/yaml", resp.Header.Get("Content-Type"))
	assert.Equal(t, openapi.YAML(), doc)
	mu.Lock()
	assert.Equal(t, []string{"outer /_fake/openapi.yaml", "inner /_fake/openapi.yaml"}, order)
	mu.Unlock()

	_, err = workforcetest.Start(workforcetest.WithMiddleware(nil))
	assert.ErrorContains(t, err, "WithMiddleware")
	_, err = workforcetest.Start(workforcetest.WithMiddleware(func(http.Handler) http.Handler { return nil }))
	assert.ErrorContains(t, err, "nil handler")
}
