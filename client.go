package workforce

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/workforce-marketplace/workforce-go/internal/auth"
	"github.com/workforce-marketplace/workforce-go/internal/keys"
	"github.com/workforce-marketplace/workforce-go/internal/redact"
	"github.com/workforce-marketplace/workforce-go/internal/retry"
)

// Version is the version of this SDK, sent in the User-Agent header.
const Version = "0.2.0"

// Environment variables New reads when no base URL option is given.
const (
	// EnvBaseURL names the variable holding the API's base URL.
	EnvBaseURL = "WORKFORCE_BASE_URL"
	// EnvTestBaseURL names the variable holding the test environment's base
	// URL; test keys (pk_test_…) use it in preference to EnvBaseURL.
	EnvTestBaseURL = "WORKFORCE_TEST_BASE_URL"
)

// errZeroClient is the error of every call on a Client not made by New.
var errZeroClient = fmt.Errorf("%w: the Client was not made by workforce.New", ErrConfig)

// ready returns errZeroClient for a nil or zero Client.
func (c *Client) ready() error {
	if c == nil || c.http == nil {
		return errZeroClient
	}
	return nil
}

// ErrConfig is matched by every error New returns for a configuration it
// cannot work with.
var ErrConfig = errors.New("workforce: invalid configuration")

// A Client talks to the Workforce API. Make one with New.
type Client struct {
	base *url.URL // the API root, ending in "/api_v2/"
	// http sends each attempt through the token transport; publicHTTP,
	// for the calls that need no token, past it.
	http, publicHTTP *http.Client
	policy           *retry.Policy
	tokens           *auth.Source
	// keys returns the key pair. It is a function so that no printing of
	// the Client, even by a path that skips Format, can reach the keys.
	keys      func() credentials
	userAgent string
	logger    *slog.Logger // nil: no logging
	redactor  *redact.Redactor
	maxBody   int64 // the largest answer read of any kind, lowered by tests
	// middleware runs a call through the caller's middlewares; nil when
	// there is none (WithMiddleware).
	middleware http.RoundTripper
	window     int // the most pages an iterator keeps in flight

	settleHorizon  time.Duration // how long a create may stay in flight on the server (WithSettleHorizon)
	clockTolerance time.Duration // how far apart the server's clocks may be (WithClockTolerance)
	limiter        *limiter      // paces the requests of the iterators, up to window in flight

	// Authentication obtains tokens from the API keys.
	Authentication AuthenticationService
	// Info reads the API's status.
	Info InfoService
	// Jobs reads, creates and changes Jobs.
	Jobs JobsService
	// JobRequests reads, posts, changes and cancels Job Requests.
	JobRequests JobRequestsService
	// MultiDayJobRequests creates and changes the series that group the
	// Job Requests of several days.
	MultiDayJobRequests MultiDayJobRequestsService
	// Badges reads, creates, changes and deletes Badges.
	Badges BadgesService
	// Customers reads, creates and changes Customers, and imports
	// timesheets.
	Customers CustomersService
	// Users reads, creates, invites and changes Workers and Employers.
	Users UsersService
	// Messages reads and sends Messages about Jobs.
	Messages MessagesService
	// Search finds Users, Customers, Job Requests and Badges by name.
	Search SearchService
}

type service struct{ client *Client }

// Format prints the client's base URL and nothing secret, whatever the verb.
func (c Client) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "workforce.Client{BaseURL: %s}", c.base)
}

// New returns a client for the API keys apiKey (pk_test_… or pk_live_…) and
// secretKey (sk_test_… or sk_live_… of the same mode). It makes no network
// call: the token is fetched when first needed.
//
// The base URL comes from WithBaseURL, else from WORKFORCE_TEST_BASE_URL
// (test keys only) or WORKFORCE_BASE_URL. It must be https, or plain http
// to a loopback host. Any problem is an error matching ErrConfig.
func New(apiKey, secretKey string, opts ...Option) (*Client, error) {
	s := settings{retries: 3, minWait: 500 * time.Millisecond, maxWait: 30 * time.Second, window: DefaultPageWindow,
		retryAfterUnit: time.Second}
	for _, o := range opts {
		if o != nil {
			o(&s)
		}
	}
	mode, err := keyMode(apiKey, secretKey, s.token)
	if err != nil {
		return nil, err
	}
	base, err := baseURL(s.baseURL, mode)
	if err != nil {
		return nil, err
	}
	if s.retries < 0 || s.minWait < 0 || s.maxWait < s.minWait {
		return nil, fmt.Errorf("%w: retries must be ≥ 0 and 0 ≤ minWait ≤ maxWait", ErrConfig)
	}
	if s.retryAfterUnit <= 0 {
		return nil, fmt.Errorf("%w: the Retry-After unit must be positive", ErrConfig)
	}
	if !s.settleHorizonSet {
		s.settleHorizon = DefaultSettleHorizon
	}
	if s.settleHorizon < 0 || s.clockTolerance < 0 {
		return nil, fmt.Errorf("%w: the settle horizon and the clock tolerance must not be negative", ErrConfig)
	}
	if s.window < 1 {
		return nil, fmt.Errorf("%w: the page window must be at least 1, got %d", ErrConfig, s.window)
	}
	timeouts, err := s.timeouts.withDefaults()
	if err != nil {
		return nil, err
	}

	creds := credentials{APIKey: apiKey, SecretKey: secretKey}
	c := &Client{base: base, keys: func() credentials { return creds }, logger: s.logger, maxBody: maxUploadBody, window: s.window,
		settleHorizon: s.settleHorizon, clockTolerance: s.clockTolerance,
		limiter: newLimiter(s.window)}
	c.userAgent = "workforce-go/" + Version
	if ua := strings.TrimSpace(s.userAgent); ua != "" {
		if strings.ContainsFunc(ua, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			return nil, fmt.Errorf("%w: the user agent holds a control character", ErrConfig)
		}
		c.userAgent += " " + ua
	}
	switch {
	case mode == "":
		c.tokens = auth.NewStaticSource(s.token)
	default:
		c.tokens = auth.NewSource(c.fetchToken)
		c.tokens.OnSkew = c.logSkew
		if s.token != "" { // used until the API rejects it, then renewed from the keys
			c.tokens.Set(auth.Token{Value: s.token})
		}
	}
	c.redactor = &redact.Redactor{Secrets: secretsOf(c.tokens, apiKey, secretKey, s.token)}
	if c.logger != nil {
		c.logger = slog.New(c.redactor.Handler(c.logger.Handler()))
	}

	hc := &http.Client{}
	if s.httpClient != nil {
		copied := *s.httpClient
		hc = &copied
	}
	// The API needs no redirect, and following one would send the keys, the
	// token or a body to wherever it points: a 3xx is an error.
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	next := hc.Transport
	if next == nil {
		next = newTransport(timeouts)
	}
	// Each attempt, from the top: the token (public calls skip it), the
	// write outcome, the stall guard, then the transport, sealed.
	wire := writeTracer{stallGuard{next: seal(next), idle: timeouts.BodyStall, total: timeouts.Body}}
	public := *hc
	public.Transport = wire
	hc.Transport = &auth.Transport{Base: wire, Source: c.tokens, Scheme: base.Scheme, Host: base.Host}
	c.http, c.publicHTTP = hc, &public
	if c.middleware, err = c.chain(s.middleware); err != nil {
		return nil, err
	}
	c.policy = &retry.Policy{Retries: s.retries, MinWait: s.minWait, MaxWait: s.maxWait, Second: s.retryAfterUnit, Now: time.Now}

	c.Authentication = AuthenticationService{client: c}
	c.Info = InfoService{client: c}
	c.Jobs = JobsService{client: c}
	c.JobRequests = JobRequestsService{client: c}
	c.MultiDayJobRequests = MultiDayJobRequestsService{client: c}
	c.Badges = BadgesService{client: c}
	c.Customers = CustomersService{client: c}
	c.Users = UsersService{client: c}
	c.Messages = MessagesService{client: c}
	c.Search = SearchService{client: c}
	return c, nil
}

// keyMode checks the key pair and returns "test" or "live", or "" for a
// client that only holds a static token.
func keyMode(apiKey, secretKey, token string) (string, error) {
	if token != "" && strings.ContainsFunc(token, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return "", fmt.Errorf("%w: the token holds a space or a control character", ErrConfig)
	}
	if apiKey == "" && secretKey == "" {
		if token == "" {
			return "", fmt.Errorf("%w: no API keys and no token", ErrConfig)
		}
		return "", nil
	}
	if strings.HasPrefix(apiKey, "sk_") && strings.HasPrefix(secretKey, "pk_") {
		return "", fmt.Errorf("%w: the keys look swapped: the API key (pk_…) comes first, the secret key (sk_…) second", ErrConfig)
	}
	pkMode, err := keys.Mode("API key", "pk", apiKey)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrConfig, err)
	}
	skMode, err := keys.Mode("secret key", "sk", secretKey)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrConfig, err)
	}
	if pkMode != skMode {
		return "", fmt.Errorf("%w: the API key is a %s key but the secret key a %s key", ErrConfig, pkMode, skMode)
	}
	return pkMode, nil
}

// baseURL resolves and checks the base URL, and returns the API root.
func baseURL(option, mode string) (*url.URL, error) {
	raw := option
	if raw == "" && mode == "test" {
		raw = os.Getenv(EnvTestBaseURL)
	}
	if raw == "" {
		raw = os.Getenv(EnvBaseURL)
	}
	if raw == "" {
		return nil, fmt.Errorf("%w: no base URL: use WithBaseURL or set %s", ErrConfig, EnvBaseURL)
	}
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%w: the base URL must be absolute, without credentials, query or fragment", ErrConfig)
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && isLoopback(u.Hostname()):
	case u.Scheme == "http":
		return nil, fmt.Errorf("%w: base URL %s: plain http is only allowed to a loopback host", ErrConfig, u.Redacted())
	default:
		return nil, fmt.Errorf("%w: base URL %s: scheme must be https", ErrConfig, u.Redacted())
	}
	u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), "/api_v2") + "/api_v2/"
	u.RawPath = ""
	return u, nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// secretsOf returns the function that returns the secrets a Client hides:
// its keys, and the tokens it holds or held. The same slice is returned
// while the tokens are the same, so that the redactor knows the set
// without comparing it.
func secretsOf(tokens *auth.Source, keys ...string) func() []string {
	type set struct{ tokens, all []string }
	var last atomic.Pointer[set]
	return func() []string {
		toks := tokens.Secrets()
		if l := last.Load(); l != nil && len(l.tokens) == len(toks) && (len(toks) == 0 || &l.tokens[0] == &toks[0]) {
			return l.all
		}
		all := append(slices.Clip(keys), toks...)
		last.Store(&set{toks, all})
		return all
	}
}
