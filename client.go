package workforce

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/google/go-querystring/query"
	"github.com/hashicorp/go-retryablehttp"

	"github.com/workforce-marketplace/workforce-go/internal/auth"
	"github.com/workforce-marketplace/workforce-go/internal/keys"
	"github.com/workforce-marketplace/workforce-go/internal/redact"
	"github.com/workforce-marketplace/workforce-go/internal/retry"
)

// Version is the version of this SDK, sent in the User-Agent header.
const Version = "0.1.0"

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

// ready answers errZeroClient for a nil or zero Client.
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
	base   *url.URL // the API root, ending in "/api_v2/"
	http   *retryablehttp.Client
	tokens *auth.Source
	// keys returns the key pair. It is a function so that no printing of
	// the Client, even by a path that skips Format, can reach the keys.
	keys      func() credentials
	userAgent string
	logger    *slog.Logger // nil: no logging
	redactor  *redact.Redactor
	policy    *retry.Policy
	maxBody   int64 // the largest answer read of any kind, lowered by tests
	window    int   // the most pages an iterator keeps in flight

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

// An Option configures a Client made by New.
type Option func(*settings)

type settings struct {
	baseURL    string
	httpClient *http.Client
	logger     *slog.Logger
	retries    int
	minWait    time.Duration
	maxWait    time.Duration
	userAgent  string
	token      string
	window     int
	timeouts   Timeouts

	retryAfterUnit time.Duration
}

// DefaultPageWindow is how many pages an iterator keeps in flight at most
// unless WithPageWindow says otherwise.
const DefaultPageWindow = 4

// WithPageWindow sets how many pages an iterator (All) fetches ahead at
// most while the caller ranges over the records of the current one: 1
// fetches one page at a time. The window opens only as a walk proves long
// (see JobsService.All), and at the end of a list up to n-1 requests find
// empty pages. The default is DefaultPageWindow; n must be at least 1.
func WithPageWindow(n int) Option { return func(s *settings) { s.window = n } }

// WithBaseURL sets the API's base URL, such as "https://api.example.com",
// with or without the trailing "/api_v2". It overrides the environment.
func WithBaseURL(u string) Option { return func(s *settings) { s.baseURL = u } }

// WithHTTPClient sets the HTTP client requests are sent with. The client is
// copied, never changed; the copy follows no redirect, whatever its
// CheckRedirect says (a 3xx answer is a *RedirectError). Its Transport, if any, becomes the innermost one,
// below the transport that adds the token: it sees the token in every URL,
// so it must not log them. Its Timeout bounds each attempt, and each token
// fetch, not a whole call with its retries: use the context for that. Of
// WithTimeouts, only BodyStall applies to its Transport; set the others on
// it.
func WithHTTPClient(hc *http.Client) Option { return func(s *settings) { s.httpClient = hc } }

// WithLogger makes the client log each call (method, path, status,
// duration) and each retry to l. Secrets are removed from every line.
// A nil logger, the default, logs nothing.
func WithLogger(l *slog.Logger) Option { return func(s *settings) { s.logger = l } }

// WithRetry sets how many times a failed request may be sent again (0 turns
// retries off) and the bounds of the exponential wait between attempts:
// before retry n (from 0) the client waits a time drawn at random from 0
// to minWait·2^n, capped at maxWait (full jitter), unless the server said
// how long in Retry-After. maxWait also caps the Retry-After the client
// waits for: a longer one ends the retries. The default is 3 retries with
// minWait 500ms and maxWait 30s.
func WithRetry(max int, minWait, maxWait time.Duration) Option {
	return func(s *settings) { s.retries, s.minWait, s.maxWait = max, minWait, maxWait }
}

// Timeouts bound the waits of one attempt of a request; the caller's
// context bounds a whole call. A zero field takes its default.
//
// Dial, TLSHandshake, ResponseHeader and IdleConn configure the client's
// own transport, and do not apply to a transport given with
// WithHTTPClient (set them on it). BodyStall applies to every answer.
type Timeouts struct {
	// Dial bounds opening a connection. Default 10s.
	Dial time.Duration
	// TLSHandshake bounds the TLS handshake of a new connection.
	// Default 10s.
	TLSHandshake time.Duration
	// ResponseHeader bounds the wait for an answer's headers once the
	// request is sent. Default 60s.
	ResponseHeader time.Duration
	// IdleConn is how long an idle connection is kept for the next
	// request. Default 90s.
	IdleConn time.Duration
	// BodyStall bounds the wait for the next bytes of an answer's body: a
	// body that stops arriving for that long ends the attempt with a
	// *TransportError whose Err matches os.ErrDeadlineExceeded (a read is
	// retried). Default 30s.
	BodyStall time.Duration
}

// The defaults of Timeouts.
const (
	DefaultDialTimeout           = 10 * time.Second
	DefaultTLSHandshakeTimeout   = 10 * time.Second
	DefaultResponseHeaderTimeout = 60 * time.Second
	DefaultIdleConnTimeout       = 90 * time.Second
	DefaultBodyStallTimeout      = 30 * time.Second
)

// withDefaults answers t with each zero field set to its default, or an
// error for a negative one.
func (t Timeouts) withDefaults() (Timeouts, error) {
	for _, f := range []struct {
		d   *time.Duration
		def time.Duration
	}{{&t.Dial, DefaultDialTimeout}, {&t.TLSHandshake, DefaultTLSHandshakeTimeout},
		{&t.ResponseHeader, DefaultResponseHeaderTimeout}, {&t.IdleConn, DefaultIdleConnTimeout},
		{&t.BodyStall, DefaultBodyStallTimeout}} {
		switch {
		case *f.d < 0:
			return t, fmt.Errorf("%w: a timeout must not be negative", ErrConfig)
		case *f.d == 0:
			*f.d = f.def
		}
	}
	return t, nil
}

// WithTimeouts sets the timeouts of each attempt of a request (see
// Timeouts); its zero fields keep their defaults.
func WithTimeouts(t Timeouts) Option { return func(s *settings) { s.timeouts = t } }

// WithUserAgent appends ua to the User-Agent header "workforce-go/<version>".
func WithUserAgent(ua string) Option { return func(s *settings) { s.userAgent = ua } }

// WithRetryAfterUnit sets how long one second of a Retry-After header
// lasts: time.Second, the default, for the API; a millisecond, say, for a
// fake server whose clock is its own (workforcetest's clients use that).
// It must be positive.
func WithRetryAfterUnit(d time.Duration) Option { return func(s *settings) { s.retryAfterUnit = d } }

// WithToken makes the client use token instead of fetching one, for callers
// that hold a token but no keys: pass empty keys to New with it, and the
// token is used as it is, never renewed. With keys too, the token is used
// until the API rejects it, then renewed from the keys.
func WithToken(token string) Option { return func(s *settings) { s.token = token } }

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
	if s.window < 1 {
		return nil, fmt.Errorf("%w: the page window must be at least 1, got %d", ErrConfig, s.window)
	}
	timeouts, err := s.timeouts.withDefaults()
	if err != nil {
		return nil, err
	}

	creds := credentials{APIKey: apiKey, SecretKey: secretKey}
	c := &Client{base: base, keys: func() credentials { return creds }, logger: s.logger, maxBody: maxUploadBody, window: s.window}
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
	c.redactor = &redact.Redactor{Secrets: func() []string {
		return append([]string{apiKey, secretKey, s.token}, c.tokens.Secrets()...)
	}}
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
	// From the top: GET answers read within their attempt, the token, the
	// write outcome, the stall guard, then the transport, sealed.
	hc.Transport = readAhead{&auth.Transport{Base: writeTracer{stallGuard{next: seal(next), idle: timeouts.BodyStall}},
		Source: c.tokens, Scheme: base.Scheme, Host: base.Host}}

	c.policy = &retry.Policy{Cap: s.maxWait, Second: s.retryAfterUnit, Now: time.Now}
	c.http = &retryablehttp.Client{
		HTTPClient:      hc,
		RetryMax:        s.retries,
		RetryWaitMin:    s.minWait,
		RetryWaitMax:    s.maxWait,
		CheckRetry:      c.checkRetry,
		Backoff:         c.policy.Backoff,
		ErrorHandler:    retryablehttp.PassthroughErrorHandler,
		RequestLogHook:  c.logAttempt,
		ResponseLogHook: c.logAnswer,
	}

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

// A sealed transport is reached through a function, whose closure no
// reflection can enter: the buffers of a transport's connections hold the
// last requests sent, tokens in their URLs, and no printer of a value that
// holds the Client (go-spew, testify's diffs, go-cmp) may show them.
type sealed func() http.RoundTripper

func seal(rt http.RoundTripper) sealed { return func() http.RoundTripper { return rt } }

func (s sealed) RoundTrip(req *http.Request) (*http.Response, error) { return s().RoundTrip(req) }

// maxResponseHeader is the most header bytes of an answer the client's own
// transport reads.
const maxResponseHeader = 256 << 10

// newTransport answers the transport used when the caller gives none:
// net/http's defaults, with the timeouts t, and room for as many idle
// connections to the API as a Client shared by many goroutines, with pages
// in flight, keeps busy (the default keeps 2, so a busy Client dials again
// and again).
func newTransport(t Timeouts) http.RoundTripper {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: t.Dial, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       t.IdleConn,
		TLSHandshakeTimeout:   t.TLSHandshake,
		ResponseHeaderTimeout: t.ResponseHeader,
		ExpectContinueTimeout: time.Second,
		// The API's headers are a few hundred bytes; net/http would take 10 MiB.
		MaxResponseHeaderBytes: maxResponseHeader,
	}
}

// keyMode checks the key pair and answers "test" or "live", or "" for a
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

// baseURL resolves and checks the base URL, and answers the API root.
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

// errNilContext refuses a call made with a nil context.
func errNilContext() error { return &ArgumentError{Name: "ctx", Reason: "must not be nil"} }

// request is one call to the API, as a service method describes it.
type request struct {
	method string
	path   string // below /api_v2/, e.g. "jobs/42"
	query  any    // a struct with url tags, or nil
	body   any    // encoded as JSON, or nil
	stream stream // a body produced as it is sent, instead of body; or nil
	key    string // the envelope key the answer is wrapped in, or ""
	create bool   // sending it twice could create two records
	public bool   // needs no token
	page   bool   // answered by a page of a list (see answerLimits)
	raw    bool   // made by Client.Do, for an answer of any kind
	// secrets are values of the body that no error or log line may show,
	// such as a password, should the server echo them.
	secrets []string
}

// call sends r and decodes the answer into a new T.
func call[T any](ctx context.Context, c *Client, r request) (T, *Response, error) {
	var v T
	resp, err := c.do(ctx, r, &v)
	if err != nil {
		var zero T
		return zero, resp, err
	}
	return v, resp, nil
}

// do is the one request path: it builds the request, sends it through the
// retrying client, maps errors, decodes the answer into out and logs the
// outcome.
func (c *Client) do(ctx context.Context, r request, out any) (*Response, error) {
	if err := c.ready(); err != nil {
		return nil, err
	}
	if ctx == nil {
		return nil, errNilContext()
	}
	ctx = context.WithValue(ctx, lastStatusKey{}, new(atomic.Int64))
	ctx = context.WithValue(ctx, limitsKey{}, c.limitsFor(r))
	if len(r.secrets) > 0 { // hidden in this call's errors, beside the keys and the token
		ctx = context.WithValue(ctx, redactorKey{}, c.redactor.With(r.secrets...))
	}
	switch {
	case r.public: // a token fetch made for a write is not that write
		ctx = context.WithValue(ctx, outcomeKey{}, (*outcome)(nil))
	case r.method != http.MethodGet:
		ctx = context.WithValue(ctx, outcomeKey{}, new(outcome))
	}
	req, err := c.newRequest(ctx, r)
	if err != nil {
		return nil, err
	}
	if r.stream != nil {
		defer r.stream.close()
	}
	start := time.Now()
	resp, err := c.send(req, out, r.key)
	markStarted(err, start)
	if c.logger != nil {
		c.log(req, resp, time.Since(start), err)
	}
	return resp, err
}

// newRequest builds the request r describes; the token is added later, by
// the transport.
func (c *Client) newRequest(ctx context.Context, r request) (*retryablehttp.Request, error) {
	u := c.base.JoinPath(r.path)
	switch q := r.query.(type) {
	case nil:
	case url.Values:
		u.RawQuery = q.Encode()
	default:
		values, err := query.Values(q)
		if err != nil {
			return nil, c.encodingError("query", err)
		}
		u.RawQuery = values.Encode()
	}
	var body any
	contentType := "application/json"
	switch {
	case r.stream != nil:
		body, contentType = retryablehttp.ReaderFunc(r.stream.open), r.stream.contentType()
	case r.body != nil:
		b, err := json.Marshal(r.body)
		if err != nil {
			return nil, c.encodingError("body", err)
		}
		body = b
	}
	ctx = retry.MarkCreate(ctx, r.create) // also unmarks a token fetch run for a create
	// Marked on every request, so that a token fetch run for an upload sent once is unmarked too.
	ctx = context.WithValue(ctx, sendOnceKey{}, r.stream != nil && !r.stream.replayable())
	if r.public {
		ctx = auth.WithoutToken(ctx)
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return nil, fmt.Errorf("workforce: building the request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if body != nil {
		req.Header.Set("Content-Type", contentType)
	}
	if r.stream != nil && !r.stream.replayable() {
		req.GetBody = nil // nothing below may send it again: no token renewal's replay, no redirect
	}
	return req, nil
}

// A stream is a request body produced as it is sent, never held whole in
// memory, such as an uploaded file.
type stream interface {
	// open returns the body for one attempt. Reading it may fail when the
	// body cannot be produced again.
	open() (io.Reader, error)
	contentType() string
	// replayable reports whether the body can be sent more than once.
	replayable() bool
	// close ends the production once the call is over.
	close()
}

// sendOnceKey marks the context of a request that must not be sent twice
// whatever the retry policy says: its body cannot be produced again.
type sendOnceKey struct{}

// checkRetry is the retry policy, except that a request marked to be sent
// once is never sent again.
func (c *Client) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if o, _ := ctx.Value(outcomeKey{}).(*outcome); o != nil && o.wrote.Swap(false) && !nothingDone(resp, err) {
		o.unknown.Store(true) // it may have reached the server, and no answer says it did nothing
	}
	again, err := c.policy.Check(ctx, resp, err)
	if once, _ := ctx.Value(sendOnceKey{}).(bool); once {
		return false, err
	}
	return again, err
}

// send sends req and decodes the answer, found under key, into out.
func (c *Client) send(req *retryablehttp.Request, out any, key string) (*Response, error) {
	ctx, method, path := req.Context(), req.Method, req.URL.Path
	hr, err := c.http.Do(req)
	if err != nil {
		if hr != nil { // an answer that came as the context ended
			hr.Body.Close()
		}
		return nil, c.transportError(ctx, method, path, err)
	}
	defer func() { // what the caller keeps holds nothing of the connection
		hr.Body.Close()
		hr.Body = http.NoBody
	}()
	resp := newResponse(hr, c.requestID(hr.Header))
	if hr.StatusCode >= 300 && hr.StatusCode <= 399 {
		e := c.redirectError(hr, method, path)
		e.OutcomeUnknown = outcomeUnknown(ctx) // an earlier attempt may have acted
		return resp, e
	}
	if hr.StatusCode < 200 || hr.StatusCode > 299 {
		e := c.apiError(hr, method, path)
		e.OutcomeUnknown = outcomeUnknown(ctx)
		return resp, e
	}
	limits, _ := ctx.Value(limitsKey{}).(answerLimits)
	a, ok := hr.Body.(*answer) // read by readAhead, within the attempt
	if !ok {
		if a, err = readAnswer(hr.Body, hr.ContentLength, limits.body); err != nil {
			err = c.transportError(ctx, method, path, bodyFailed(hr, err))
			if te, ok := err.(*TransportError); ok && isWrite(ctx) {
				te.OutcomeUnknown = true // done, by its status, but what it made is lost
			}
			return resp, err
		}
	}
	defer a.release() // the buffer is reused once the call returns: nothing decoded may alias it
	err = limits.check(a.data, key)
	if a.tooLarge {
		err = fmt.Errorf("the answer is larger than %d bytes", limits.body)
	}
	if err == nil {
		var warnings []Warning
		warnings, err = decodeEnvelope(a.data, key, out)
		resp.Warnings = c.reportWarnings(ctx, method, path, warnings)
	}
	if err != nil {
		return resp, c.decodeError(ctx, method, path, err)
	}
	return resp, nil
}

// decodeError describes an answer of the call of ctx that could not be
// decoded. A value quoted in err may be a secret a server echoed: it is
// hidden whole before the message cuts it short, and the message is
// redacted again, starts of secrets included. A write answered 2xx was
// done, so what it made is lost.
func (c *Client) decodeError(ctx context.Context, method, path string, err error) *DecodeError {
	rd := c.redactorFor(ctx)
	var ve *valueError
	if errors.As(err, &ve) {
		ve.value = rd.String(ve.value)
	}
	return &DecodeError{Method: method, Path: path, Err: rd.Error(err), OutcomeUnknown: isWrite(ctx)}
}

// redactorKey holds, in a call's context, the redactor of a call whose body
// holds secrets of its own (a password): the client's, and those.
type redactorKey struct{}

// redactorFor answers the redactor for the call of ctx.
func (c *Client) redactorFor(ctx context.Context) *redact.Redactor {
	if rd, ok := ctx.Value(redactorKey{}).(*redact.Redactor); ok {
		return rd
	}
	return c.redactor
}

// encodingError returns the *ArgumentError behind a failure to encode the
// request's query or body, or else an *ArgumentError naming the part (a
// channel, a function, NaN, a MarshalJSON that fails): nothing is sent.
func (c *Client) encodingError(part string, err error) error {
	var argErr *ArgumentError
	if errors.As(err, &argErr) {
		return argErr
	}
	return &ArgumentError{Name: part, Reason: "cannot be encoded: " + c.redactor.String(err.Error())}
}

// transportError turns an error from sending into the error the caller
// gets: a *TransportError naming the call and the context's error when it
// ended (with the last status seen); why authentication failed; or a
// *TransportError, its text cleared of secrets.
func (c *Client) transportError(ctx context.Context, method, path string, err error) error {
	if ctx.Err() != nil { // the caller's deadline or cancel: named with the call
		e := &TransportError{Method: method, Path: path, Err: ctx.Err(), OutcomeUnknown: outcomeUnknown(ctx)}
		if last, ok := ctx.Value(lastStatusKey{}).(*atomic.Int64); ok {
			e.LastStatus = int(last.Load())
		}
		return e
	}
	var fetchErr *auth.FetchError
	if errors.As(err, &fetchErr) {
		var apiErr *APIError
		var transportErr *TransportError
		var redirectErr *RedirectError
		if errors.As(fetchErr.Err, &apiErr) || errors.As(fetchErr.Err, &transportErr) || errors.As(fetchErr.Err, &redirectErr) {
			return fetchErr.Err // they name POST /api_v2/authenticate already
		}
		return fmt.Errorf("workforce: %s %s: authenticating: %w", method, path, fetchErr.Err)
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	e := &TransportError{Method: method, Path: path, Err: c.redactorFor(ctx).Error(err), OutcomeUnknown: outcomeUnknown(ctx)}
	var bodyErr *bodyError
	if errors.As(err, &bodyErr) {
		e.LastStatus = bodyErr.status // answered, but its body was lost
	}
	return e
}
