package workforcetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
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
	// Private is the Private Pool key pair, pk_test_… and sk_test_…: random for each server,
	// unless WithKeys fixes it.
	Private KeyPair
	// Public is the Public Pool key pair: random for each server, unless WithPublicKeys fixes it.
	Public KeyPair

	keys      map[pool]KeyPair // the pairs authenticate accepts, safe from changes to the fields
	clock     *clock
	st        *store
	tokens    tokens
	seed      Seed
	faults    faultQueue
	log       requestLog
	buffers   bufferPool   // the buffers of rawJSON answers
	latency   atomic.Int64 // what every API request waits, a time.Duration
	hooks     *hooks
	exchanges *exchangeLog   // nil: no exchange log
	mux       *http.ServeMux // the route table's routes, and a catch-all
	unrouted  http.Handler   // the catch-all: 404 or 405
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
	private, public           KeyPair       // fixed key pairs; zero: random
	chaos                     *WebhookChaos // webhook delivery faults
	middleware                []func(http.Handler) http.Handler
	exchangeLog               string // the exchange log's directory; "": none
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

// WithKeys fixes the Private Pool key pair, random by default, for a fake whose clients are
// configured before it starts (a compose file, a CI job). Both keys are test keys: pk_test_ and
// sk_test_, each followed by 1 to 100 letters, digits, '_' or '-'. Start refuses any other, and
// a live-looking one (pk_live_…, sk_live_…) first of all; its errors never quote a key.
func WithKeys(private KeyPair) Option { return func(c *config) { c.private = private } }

// WithPublicKeys fixes the Public Pool key pair, as WithKeys fixes the Private Pool's. The two
// pairs must differ.
func WithPublicKeys(public KeyPair) Option { return func(c *config) { c.public = public } }

// WithMiddleware puts mw in front of every request the fake serves, API and control API alike:
// it sees each request before the fake does and each answer as it is written. Given more than
// once, the first given is the outermost. Tests use it to check exchanges against the OpenAPI
// document (package openapi) or to record them.
func WithMiddleware(mw func(http.Handler) http.Handler) Option {
	return func(c *config) { c.middleware = append(c.middleware, mw) }
}

// NewServer starts a fake on 127.0.0.1 with a free port and closes it with tb.Cleanup. It fails
// the test if the server cannot start. When the environment variable WORKFORCE_CONTRACT_LOG
// (ExchangeLogEnv) names a directory, the fake logs its exchanges there (WithExchangeLog), unless
// an option says otherwise.
func NewServer(tb testing.TB, opts ...Option) *Server {
	tb.Helper()
	s, err := Start(append([]Option{WithExchangeLog(os.Getenv(ExchangeLogEnv))}, opts...)...)
	if err != nil {
		tb.Fatalf("workforcetest: %v", err)
		return nil
	}
	tb.Cleanup(func() {
		s.Close()
		if s.exchanges != nil {
			if err := s.exchanges.close(); err != nil {
				tb.Error(err)
			}
		}
	})
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
	keys, err := cfg.keys()
	if err != nil {
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
		Private: keys[poolPrivate],
		Public:  keys[poolPublic],
		clock:   newClock(cfg.start, cfg.ticking),
	}
	var handler http.Handler = http.HandlerFunc(s.serveHTTP)
	if cfg.exchangeLog != "" {
		if s.exchanges, err = newExchangeLog(cfg.exchangeLog); err != nil {
			_ = ln.Close()
			return nil, err
		}
		handler = s.exchanges.middleware(handler)
	}
	for i := len(cfg.middleware) - 1; i >= 0; i-- {
		if cfg.middleware[i] == nil {
			_ = ln.Close()
			s.closeExchanges()
			return nil, errors.New("workforcetest: WithMiddleware was given nil")
		}
		if handler = cfg.middleware[i](handler); handler == nil {
			_ = ln.Close()
			s.closeExchanges()
			return nil, errors.New("workforcetest: a WithMiddleware function returned a nil handler")
		}
	}
	s.SetLatency(cfg.latency)
	s.keys = keys
	s.st = newStore(s.clock)
	s.seed = s.st.seed()
	s.mux, s.unrouted = s.newMux()
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.hooks = newHooks(ctx, s.clock, s.exchanges)
	if cfg.chaos != nil {
		_ = s.SetWebhookChaos(*cfg.chaos) // checked above
	}
	s.st.committed = s.deliver
	for _, r := range cfg.receivers {
		_ = s.AddWebhookReceiver(r) // checked above
	}
	s.http = &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    maxHeaderBytes,
		ReadTimeout:       cfg.readTimeout,
		WriteTimeout:      cfg.writeTimeout,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	go func() { _ = s.http.Serve(ln) }()
	return s, nil
}

// keys returns the key pairs of both pools: the fixed ones, checked, and random ones for the
// others.
func (c config) keys() (map[pool]KeyPair, error) {
	out := map[pool]KeyPair{}
	for p, fixed := range map[pool]KeyPair{poolPrivate: c.private, poolPublic: c.public} {
		if fixed == (KeyPair{}) {
			out[p] = KeyPair{APIKey: "pk_test_" + randomHex(16), SecretKey: "sk_test_" + randomHex(16)}
			continue
		}
		if err := checkKeys(p, fixed); err != nil {
			return nil, err
		}
		out[p] = fixed
	}
	if a, b := out[poolPrivate], out[poolPublic]; a.APIKey == b.APIKey || a.SecretKey == b.SecretKey {
		return nil, errors.New("workforcetest: the Private and the Public Pool key pairs must differ")
	}
	return out, nil
}

// checkKeys refuses a pair of p that is not a pair of test keys, without quoting a key.
func checkKeys(p pool, kp KeyPair) error {
	for _, k := range []struct{ name, prefix, key string }{{"API key", "pk", kp.APIKey}, {"secret key", "sk", kp.SecretKey}} {
		name := p.title() + " Pool " + k.name
		rest, test := strings.CutPrefix(k.key, k.prefix+"_test_")
		switch {
		case k.key == "":
			return fmt.Errorf("workforcetest: the %s is missing: a fixed pair needs both keys", name)
		case strings.HasPrefix(k.key, k.prefix+"_live_"):
			return fmt.Errorf("workforcetest: the %s is a live key (%s_live_…): the fake takes test keys (%s_test_…) only",
				name, k.prefix, k.prefix)
		case !test || len(rest) == 0 || len(rest) > 100 || strings.ContainsFunc(rest, notKeyRune):
			return fmt.Errorf("workforcetest: the %s is not a test key: %s_test_ followed by 1 to 100 letters, digits, _ or -",
				name, k.prefix)
		}
	}
	return nil
}

// notKeyRune tells whether r may not stand in a key after its prefix.
func notKeyRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
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
		s.closeExchanges()
	})
}

// closeExchanges closes the exchange log, if any; NewServer reports its error.
func (s *Server) closeExchanges() {
	if s.exchanges != nil {
		_ = s.exchanges.close()
	}
}

// Seed returns the ids of the records every fake starts with.
func (s *Server) Seed() Seed {
	seed := s.seed
	seed.WorkerIDs = append([]int64(nil), s.seed.WorkerIDs...)
	seed.MultiDayDayIDs = append([]int64(nil), s.seed.MultiDayDayIDs...)
	return seed
}

// randomHex returns n random bytes as hex.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}
