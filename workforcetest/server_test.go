package workforcetest_test

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

func TestKeys(t *testing.T) {
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
	for name, tc := range map[string]struct {
		opts []workforcetest.Option
		want string
	}{
		"live API key":      {[]workforcetest.Option{workforcetest.WithKeys(workforcetest.KeyPair{APIKey: "pk_live_SECRETVALUE", SecretKey: "sk_test_SECRETVALUE"})}, "Private Pool API key is a live key"},
		"live secret key":   {[]workforcetest.Option{workforcetest.WithPublicKeys(workforcetest.KeyPair{APIKey: "pk_test_SECRETVALUE", SecretKey: "sk_live_SECRETVALUE"})}, "Public Pool secret key is a live key"},
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

func TestClock(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 2, 3, 4, 5, 6, 0, time.UTC)
	srv := workforcetest.NewServer(t, workforcetest.WithClock(start))
	assert.Equal(t, start, srv.Now())
	srv.Advance(90 * time.Minute)
	assert.Equal(t, start.Add(90*time.Minute), srv.Now())
	later := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	srv.SetTime(later)
	assert.Equal(t, later, srv.Now())

	def := workforcetest.NewServer(t)
	assert.Equal(t, time.UTC, def.Now().Location())
	assert.Zero(t, def.Now().Nanosecond(), "truncated to the second")
	assert.WithinDuration(t, time.Now(), def.Now(), time.Minute)

	ticking := workforcetest.NewServer(t, workforcetest.WithClock(start), workforcetest.WithTickingClock())
	ticking.Advance(time.Hour)
	assert.False(t, ticking.Now().Before(start.Add(time.Hour)))
	assert.WithinDuration(t, start.Add(time.Hour), ticking.Now(), time.Minute)
}

func TestRoutingErrors(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for _, path := range []string{"/", "/api_v2", "/api_v2/workers", "/api_v2/jobs/1/extra", "/jobs"} {
		status, body := f.get(path, f.private)
		assert.Equal(t, http.StatusNotFound, status, path)
		assert.NotEmpty(t, body["error"], path)
	}
	resp := f.send(http.MethodDelete, "/api_v2/jobs/5", with(f.private), "", nil)
	assert.Equal(t, "GET, PATCH", resp.Header.Get("Allow"))
	status, body := f.decode(resp)
	assert.Equal(t, http.StatusMethodNotAllowed, status)
	assert.NotEmpty(t, body["error"])
	status, _ = f.json(http.MethodPut, "/api_v2/jobs", with(f.private), nil)
	assert.Equal(t, http.StatusMethodNotAllowed, status)
}

func TestRequestIDs(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seen := map[string]bool{}
	for _, path := range []string{"/api_v2/info", "/api_v2/info", "/nowhere", "/api_v2/jobs"} {
		resp := f.send(http.MethodGet, path, nil, "", nil)
		id := resp.Header.Get("X-Request-Id")
		require.NoError(t, resp.Body.Close())
		assert.Regexp(t, `^[0-9a-f]{32}$`, id)
		assert.False(t, seen[id], "request ids are unique")
		seen[id] = true
	}
}

func TestMalformedBodies(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for name, tc := range map[string]struct {
		contentType, body string
		status            int
	}{
		"broken JSON":     {"application/json", `{"api_key":`, http.StatusUnprocessableEntity},
		"JSON null":       {"application/json", `null`, http.StatusUnprocessableEntity},
		"JSON array":      {"application/json", `[1,2]`, http.StatusUnprocessableEntity},
		"two objects":     {"application/json", `{}{}`, http.StatusUnprocessableEntity},
		"trailing data":   {"application/json", `{"api_key": "a"} {}`, http.StatusUnprocessableEntity},
		"sniffed broken":  {"", `{"job":`, http.StatusUnprocessableEntity},
		"bad form escape": {"application/x-www-form-urlencoded", "api_key=%zz", http.StatusUnprocessableEntity},
		"too large":       {"application/json", `{"a": "` + strings.Repeat("x", 2<<20) + `"}`, http.StatusRequestEntityTooLarge},
		"other type":      {"text/plain", "api_key=a&secret_key=b", http.StatusUnprocessableEntity},
		"sniffed JSON":    {"", `{"api_key": "a", "secret_key": "b"}`, http.StatusUnauthorized},
		"sniffed form":    {"", "api_key=a&secret_key=b", http.StatusUnauthorized},
		"bracket garbage": {"application/x-www-form-urlencoded", "api_key[=1&[x]=2&a[b]c=3&api_key=a&secret_key=b", http.StatusUnauthorized},
	} {
		t.Run(name, func(t *testing.T) {
			status, body := f.decode(f.send(http.MethodPost, "/api_v2/authenticate", nil, tc.contentType, []byte(tc.body)))
			assert.Equal(t, tc.status, status, body)
			assert.NotEmpty(t, body["error"])
			if status == http.StatusUnprocessableEntity && tc.contentType != "text/plain" {
				errs := fieldErrors(t, body)
				assert.Len(t, errs, 1, errs)
				assert.Contains(t, errs, "body")
			}
		})
	}
	for _, raw := range []string{`{"job":`, `null`, `[1,2]`, `{}{}`} { // before the token is checked, as any invalid parameter
		status, body := f.decode(f.send(http.MethodPatch, jobPath(f.Seed().PublicJobID), nil, "application/json", []byte(raw)))
		assert.Equal(t, http.StatusUnprocessableEntity, status, raw)
		assert.Contains(t, fieldErrors(t, body), "body", raw)
	}
	status, body := f.decode(f.send(http.MethodPost, "/api_v2/jobs", with(f.private), "application/x-www-form-urlencoded",
		[]byte("job=1&job[worker_id]=2&job[job_request_id][]=3")))
	assert.Equal(t, http.StatusUnprocessableEntity, status, "conflicting nesting is a validation error, not a crash")
	assert.Contains(t, fieldErrors(t, body), "job_request_id")
}

func TestSeed(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	seed := f.Seed()
	require.GreaterOrEqual(t, len(seed.WorkerIDs), 5)
	ids := append([]int64{seed.CustomerID, seed.PendingCustomerID, seed.EmployerID, seed.PendingEmployerID,
		seed.JobRequest1099ID, seed.JobRequestW2ID, seed.PendingJobRequestID, seed.PublicJobRequestID, seed.PublicJobID},
		seed.WorkerIDs...)
	unique := map[int64]bool{}
	for _, id := range ids {
		assert.Positive(t, id)
		unique[id] = true
	}
	assert.Len(t, unique, len(ids), "ids differ across tables")

	seed.WorkerIDs[0] = -1
	assert.Positive(t, f.Seed().WorkerIDs[0], "Seed answers a copy")

	for _, w := range f.Seed().WorkerIDs[1:] {
		for _, jr := range []int64{seed.JobRequest1099ID, seed.JobRequestW2ID, seed.PendingJobRequestID, seed.PublicJobRequestID} {
			_, err := f.Accept(jr, w)
			require.NoError(t, err, "every seeded Worker is free on every Job Request")
		}
	}
	job := f.getJob(seed.PublicJobID)
	assert.EqualValues(t, f.Seed().WorkerIDs[0], job["worker_id"])
	assert.EqualValues(t, seed.PublicJobRequestID, job["job_request_id"])
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
