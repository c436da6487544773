package workforcetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Server is a running fake of Workforce Marketplace API v2. All its methods are safe for
// concurrent use. Its exported fields are set by Start and NewServer and must not be changed.
type Server struct {
	// URL is the base URL, e.g. "http://127.0.0.1:43123"; the API lives under URL + "/api_v2".
	URL string
	// Private is the Private Pool key pair, pk_test_… and sk_test_…, random for each server.
	Private KeyPair
	// Public is the Public Pool key pair, random for each server.
	Public KeyPair

	keys      map[pool]KeyPair // the pairs authenticate accepts, safe from changes to the fields
	clock     *clock
	st        *store
	seed      Seed
	faults    faultQueue
	log       requestLog
	buffers   bufferPool   // the buffers of rawJSON answers
	latency   atomic.Int64 // what every API request waits, a time.Duration
	hooks     *hooks
	routes    []route
	http      *http.Server
	cancel    context.CancelFunc // ends the context of every request, so that delays stop
	closeOnce sync.Once
}

// KeyPair is an API key pair.
type KeyPair struct {
	// APIKey is the publishable key, pk_test_….
	APIKey string `json:"api_key"`
	// SecretKey is the secret key, sk_test_….
	SecretKey string `json:"secret_key"`
}

// config is what the options set.
type config struct {
	addr    string
	start   time.Time
	ticking bool
	// readTimeout and writeTimeout bound reading a whole request and writing its answer; a Delay
	// fault lifts them for its request.
	readTimeout, writeTimeout time.Duration
	receivers                 []string // webhook receivers
	remote                    bool     // listen on any address, not only a loopback one
	latency                   time.Duration
	chaos                     *WebhookChaos // webhook delivery faults
}

// Option configures Start and NewServer.
type Option func(*config)

// WithAddr sets the listen address, "127.0.0.1:0" (a free port) by default. The host must be a
// loopback address or "localhost"; Start refuses any other, unless WithRemoteAccess is given.
func WithAddr(addr string) Option { return func(c *config) { c.addr = addr } }

// WithRemoteAccess lets WithAddr name an address that is not a loopback one, such as
// "0.0.0.0:8080" for a fake run in a container whose port is published to the host's loopback
// (docker run -p 127.0.0.1:8080:8080). Whoever reaches the address can read the keys' records and
// drive the control API, which needs no token: give it only on a network you trust. The SDK still
// talks plain http to loopback hosts only.
func WithRemoteAccess() Option { return func(c *config) { c.remote = true } }

// WithClock sets the initial time of the fake clock. By default it is the current time in UTC,
// truncated to the second.
func WithClock(start time.Time) Option { return func(c *config) { c.start = start } }

// WithTickingClock makes the fake clock also follow the wall clock, as a long-running fake needs
// (cmd/workforce-fake uses it). By default the clock stands still, and moves only by
// Server.Advance and Server.SetTime, so that tests are deterministic.
func WithTickingClock() Option { return func(c *config) { c.ticking = true } }

// WithWebhookReceiver registers url as a webhook receiver from the start (see
// Server.AddWebhookReceiver). It may be given more than once.
func WithWebhookReceiver(url string) Option {
	return func(c *config) { c.receivers = append(c.receivers, url) }
}

// NewServer starts a fake on 127.0.0.1 with a free port and closes it with tb.Cleanup. It fails
// the test if the server cannot start.
func NewServer(tb testing.TB, opts ...Option) *Server {
	tb.Helper()
	s, err := Start(opts...)
	if err != nil {
		tb.Fatalf("workforcetest: %v", err)
		return nil
	}
	tb.Cleanup(s.Close)
	return s
}

// Start starts a fake without a testing.TB, for programs and examples. The caller must Close it.
func Start(opts ...Option) (*Server, error) {
	cfg := config{addr: "127.0.0.1:0", start: time.Now().UTC().Truncate(time.Second),
		readTimeout: 30 * time.Second, writeTimeout: time.Minute}
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	if err := checkLoopback(cfg.addr); err != nil && !cfg.remote {
		return nil, err
	}
	for _, r := range cfg.receivers {
		if err := checkReceiver(r); err != nil {
			return nil, err
		}
	}
	if cfg.chaos != nil {
		if err := cfg.chaos.check(); err != nil {
			return nil, err
		}
	}
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return nil, fmt.Errorf("workforcetest: listen: %w", err)
	}
	s := &Server{
		URL:     "http://" + ln.Addr().String(),
		Private: KeyPair{APIKey: "pk_test_" + randomHex(16), SecretKey: "sk_test_" + randomHex(16)},
		Public:  KeyPair{APIKey: "pk_test_" + randomHex(16), SecretKey: "sk_test_" + randomHex(16)},
		clock:   newClock(cfg.start, cfg.ticking),
	}
	s.SetLatency(cfg.latency)
	s.keys = map[pool]KeyPair{poolPrivate: s.Private, poolPublic: s.Public}
	s.st = newStore(s.clock)
	s.seed = s.st.seed()
	s.routes = append(s.apiRoutes(), s.controlRoutes()...)
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.hooks = newHooks(ctx, s.clock)
	if cfg.chaos != nil {
		_ = s.SetWebhookChaos(*cfg.chaos) // checked above
	}
	s.st.committed = s.deliver
	for _, r := range cfg.receivers {
		_ = s.AddWebhookReceiver(r) // checked above
	}
	s.http = &http.Server{
		Handler:           http.HandlerFunc(s.serveHTTP),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       cfg.readTimeout,
		WriteTimeout:      cfg.writeTimeout,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	go func() { _ = s.http.Serve(ln) }()
	return s, nil
}

// checkLoopback refuses a listen address whose host is not a loopback address or "localhost".
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("workforcetest: listen address %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); (ip != nil && ip.IsLoopback()) || strings.EqualFold(host, "localhost") {
		return nil
	}
	return fmt.Errorf("workforcetest: listen address %q is not a loopback address", addr)
}

// Close stops the server: it ends requests in progress (a Delay fault included) and webhook
// deliveries, and closes the listener and all connections; no goroutine of the server outlives
// it. Close may be called more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.cancel()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.http.Shutdown(ctx); err != nil {
			_ = s.http.Close()
		}
		s.hooks.wait()
	})
}

// Seed answers the ids of the records every fake starts with.
func (s *Server) Seed() Seed {
	seed := s.seed
	seed.WorkerIDs = append([]int64(nil), s.seed.WorkerIDs...)
	seed.MultiDayDayIDs = append([]int64(nil), s.seed.MultiDayDayIDs...)
	return seed
}

// serveHTTP answers one request: it stamps a request id, records the request and plays a fault if
// one is due (except on the control API), then routes, authenticates and runs the handler.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Request-Id", randomHex(16))
	limit := int64(maxBody)
	if r.URL.Path == timesheetPath {
		limit = maxTimesheet
	}
	raw, err := readBody(w, r, limit)
	var b body
	if err == nil {
		b, err = parseBody(r.Header.Get("Content-Type"), raw)
	}
	var after *Fault
	if !strings.HasPrefix(r.URL.Path, controlPrefix) {
		s.log.add(record(r, raw, b, s.clock.now(), s.secrets))
		if !s.wait(w, r) {
			return
		}
		var done bool
		if after, done = s.faults.play(w, r); done {
			return
		}
	}
	v, err := s.dispatch(w, r, b, err)
	if after != nil {
		status, body := answerOf(v, err)
		playAfter(w, after, status, body)
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
	if raw, ok := v.(rawJSON); ok {
		s.buffers.put(raw)
	}
}

// dispatch finds the route, checks the token and runs the handler. bodyErr is the error of
// reading the body, reported once the route is known to exist.
func (s *Server) dispatch(w http.ResponseWriter, r *http.Request, b body, bodyErr error) (any, error) {
	rt, id, allowed := match(s.routes, r.Method, r.URL.Path)
	switch {
	case rt == nil && len(allowed) == 0:
		return nil, errorf(http.StatusNotFound, "no route for %s %s", r.Method, r.URL.Path)
	case rt == nil:
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		return nil, &apiError{status: http.StatusMethodNotAllowed,
			msg: fmt.Sprintf("method %s not allowed; allowed: %s", r.Method, strings.Join(allowed, ", "))}
	case bodyErr != nil:
		return nil, bodyErr
	}
	c := &call{r: r, p: newParams(r.URL.Query(), b), body: b.raw, files: b.files, id: id}
	if !rt.open {
		p, err := s.st.checkToken(c.p)
		if err != nil {
			return nil, err
		}
		c.pool = p
	}
	return rt.handle(c)
}

// randomHex answers n random bytes as hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}
