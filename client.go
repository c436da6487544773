// Package workforce is a client for the Workforce Marketplace API v2, the API
// of a temporary-staffing platform where Requestors post Job Requests and
// Workers perform them as Jobs.
//
// A Client is made once with New and shared: it is safe for concurrent use.
// It fetches its token from the API keys when first needed and renews it
// without the caller noticing. Every method takes a context first and
// answers the decoded value, the HTTP response and an error; an error from
// the API is an *APIError that matches sentinels such as ErrNotFound with
// errors.Is.
//
// Package workforcetest is an in-memory fake of the whole API to test
// against, with no account and no network.
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
	"time"

	"github.com/google/go-querystring/query"
	"github.com/hashicorp/go-retryablehttp"

	"github.com/workforce-marketplace/workforce-go/internal/auth"
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

// ErrConfig is matched by every error New returns for a configuration it
// cannot work with.
var ErrConfig = errors.New("workforce: invalid configuration")

// maxBody is the largest answer the client reads: a page of 50 Jobs is
// about 100 KiB, so anything near this is not an answer of the API.
const maxBody = 64 << 20

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
	maxBody   int64 // the largest answer read: maxBody, lowered by tests

	// Authentication obtains tokens from the API keys.
	Authentication *AuthenticationService
	// Info reads the API's status.
	Info *InfoService
	// Jobs reads, creates and changes Jobs.
	Jobs *JobsService
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
}

// WithBaseURL sets the API's base URL, such as "https://api.example.com",
// with or without the trailing "/api_v2". It overrides the environment.
func WithBaseURL(u string) Option { return func(s *settings) { s.baseURL = u } }

// WithHTTPClient sets the HTTP client requests are sent with. The client is
// copied, never changed. Its Transport, if any, becomes the innermost one,
// below the transport that adds the token: it sees the token in every URL,
// so it must not log them. Its Timeout bounds each attempt, and each token
// fetch, not a whole call with its retries: use the context for that.
func WithHTTPClient(hc *http.Client) Option { return func(s *settings) { s.httpClient = hc } }

// WithLogger makes the client log each call (method, path, status,
// duration) and each retry to l. Secrets are removed from every line.
// A nil logger, the default, logs nothing.
func WithLogger(l *slog.Logger) Option { return func(s *settings) { s.logger = l } }

// WithRetry sets how many times a failed request may be sent again (0 turns
// retries off) and the bounds of the exponential wait between attempts.
// maxWait also caps the Retry-After the client waits for: a longer one ends
// the retries. The default is 3 retries waiting from 500ms to 30s.
func WithRetry(max int, minWait, maxWait time.Duration) Option {
	return func(s *settings) { s.retries, s.minWait, s.maxWait = max, minWait, maxWait }
}

// WithUserAgent appends ua to the User-Agent header "workforce-go/<version>".
func WithUserAgent(ua string) Option { return func(s *settings) { s.userAgent = ua } }

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
	s := settings{retries: 3, minWait: 500 * time.Millisecond, maxWait: 30 * time.Second}
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

	creds := credentials{APIKey: apiKey, SecretKey: secretKey}
	c := &Client{base: base, keys: func() credentials { return creds }, logger: s.logger, maxBody: maxBody}
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
		if s.token != "" { // used until the API rejects it, then renewed from the keys
			c.tokens.Set(auth.Token{Value: s.token})
		}
	}
	c.redactor = &redact.Redactor{Secrets: func() []string {
		return []string{apiKey, secretKey, s.token, c.tokens.Current()}
	}}
	if c.logger != nil {
		c.logger = slog.New(c.redactor.Handler(c.logger.Handler()))
	}

	hc := &http.Client{}
	if s.httpClient != nil {
		copied := *s.httpClient
		hc = &copied
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	hc.Transport = &auth.Transport{Base: next, Source: c.tokens, Scheme: base.Scheme, Host: base.Host}

	c.policy = &retry.Policy{Cap: s.maxWait, Second: time.Second, Now: time.Now}
	c.http = &retryablehttp.Client{
		HTTPClient:      hc,
		RetryMax:        s.retries,
		RetryWaitMin:    s.minWait,
		RetryWaitMax:    s.maxWait,
		CheckRetry:      c.policy.Check,
		Backoff:         c.policy.Backoff,
		ErrorHandler:    retryablehttp.PassthroughErrorHandler,
		RequestLogHook:  c.logAttempt,
		ResponseLogHook: c.logAnswer,
	}

	c.Authentication = &AuthenticationService{client: c}
	c.Info = &InfoService{client: c}
	c.Jobs = &JobsService{client: c}
	return c, nil
}

// keyMode checks the key pair and answers "test" or "live", or "" for a
// client that only holds a static token.
func keyMode(apiKey, secretKey, token string) (string, error) {
	if apiKey == "" && secretKey == "" {
		if token == "" {
			return "", fmt.Errorf("%w: no API keys and no token", ErrConfig)
		}
		return "", nil
	}
	pk, ok1 := strings.CutPrefix(apiKey, "pk_")
	sk, ok2 := strings.CutPrefix(secretKey, "sk_")
	pkMode, _, _ := strings.Cut(pk, "_")
	skMode, _, _ := strings.Cut(sk, "_")
	switch {
	case !ok1 || (pkMode != "test" && pkMode != "live") || len(pk) <= len(pkMode)+1:
		return "", fmt.Errorf("%w: the API key does not start with pk_test_ or pk_live_", ErrConfig)
	case !ok2 || (skMode != "test" && skMode != "live") || len(sk) <= len(skMode)+1:
		return "", fmt.Errorf("%w: the secret key does not start with sk_test_ or sk_live_", ErrConfig)
	case pkMode != skMode:
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

// request is one call to the API, as a service method describes it.
type request struct {
	method string
	path   string // below /api_v2/, e.g. "jobs/42"
	query  any    // a struct with url tags, or nil
	body   any    // encoded as JSON, or nil
	key    string // the envelope key the answer is wrapped in, or ""
	create bool   // sending it twice could create two records
	public bool   // needs no token
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
	if ctx == nil {
		return nil, errors.New("workforce: nil context")
	}
	req, err := c.newRequest(ctx, r)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	resp, err := c.send(req, out, r.key)
	if c.logger != nil {
		c.log(req, resp, time.Since(start), err)
	}
	return resp, err
}

// newRequest builds the request r describes; the token is added later, by
// the transport.
func (c *Client) newRequest(ctx context.Context, r request) (*retryablehttp.Request, error) {
	u := c.base.JoinPath(r.path)
	if r.query != nil {
		q, err := query.Values(r.query)
		if err != nil {
			return nil, encodingError("query", err)
		}
		u.RawQuery = q.Encode()
	}
	var body any
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return nil, encodingError("body", err)
		}
		body = b
	}
	ctx = retry.MarkCreate(ctx, r.create) // also unmarks a token fetch run for a create
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
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
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
	defer hr.Body.Close()
	resp := newResponse(hr)
	if hr.StatusCode < 200 || hr.StatusCode > 299 {
		return resp, c.apiError(hr, method, path)
	}
	data, err := io.ReadAll(io.LimitReader(hr.Body, c.maxBody+1))
	switch {
	case err != nil:
		return resp, c.transportError(ctx, method, path, err)
	case int64(len(data)) > c.maxBody:
		err = fmt.Errorf("the answer is larger than %d bytes", c.maxBody)
	default:
		err = decodeEnvelope(data, key, out)
	}
	if err != nil {
		return resp, &DecodeError{Method: method, Path: path, Err: err}
	}
	return resp, nil
}

// log writes one line for a call: at debug level when it succeeded, else
// at warn level with the error.
func (c *Client) log(req *retryablehttp.Request, resp *Response, took time.Duration, err error) {
	attrs := []slog.Attr{slog.String("method", req.Method), slog.String("path", req.URL.Path), slog.Duration("duration", took)}
	if resp != nil {
		attrs = append(attrs, slog.Int("status", resp.StatusCode), slog.String("request_id", resp.RequestID))
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
		c.logger.LogAttrs(req.Context(), slog.LevelWarn, "workforce: call failed", attrs...)
		return
	}
	c.logger.LogAttrs(req.Context(), slog.LevelDebug, "workforce: call", attrs...)
}

// encodingError returns the *ArgumentError behind a failure to encode the
// request's query or body, or else err described.
func encodingError(part string, err error) error {
	var argErr *ArgumentError
	if errors.As(err, &argErr) {
		return argErr
	}
	return fmt.Errorf("workforce: encoding the request %s: %w", part, err)
}

// logAttempt is retryablehttp's RequestLogHook: it logs each attempt after
// the first.
func (c *Client) logAttempt(_ retryablehttp.Logger, req *http.Request, attempt int) {
	if c.logger != nil && attempt > 0 {
		c.logger.LogAttrs(req.Context(), slog.LevelInfo, "workforce: retrying",
			slog.String("method", req.Method), slog.String("path", req.URL.Path), slog.Int("attempt", attempt+1))
	}
}

// logAnswer is retryablehttp's ResponseLogHook: it logs each answer that
// was not a success, which is why an attempt is retried.
func (c *Client) logAnswer(_ retryablehttp.Logger, resp *http.Response) {
	if c.logger != nil && resp.StatusCode > 299 && resp.Request != nil {
		c.logger.LogAttrs(resp.Request.Context(), slog.LevelDebug, "workforce: attempt answered",
			slog.String("method", resp.Request.Method), slog.String("path", resp.Request.URL.Path),
			slog.Int("status", resp.StatusCode), slog.String("retry_after", resp.Header.Get("Retry-After")))
	}
}

// transportError turns an error from sending into the error the caller
// gets: the context's own when it ended; why authentication failed; or a
// *TransportError, its text cleared of secrets.
func (c *Client) transportError(ctx context.Context, method, path string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var fetchErr *auth.FetchError
	if errors.As(err, &fetchErr) {
		var apiErr *APIError
		var transportErr *TransportError
		if errors.As(fetchErr.Err, &apiErr) || errors.As(fetchErr.Err, &transportErr) {
			return fetchErr.Err // they name POST /api_v2/authenticate already
		}
		return fmt.Errorf("workforce: %s %s: authenticating: %w", method, path, fetchErr.Err)
	}
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err
	}
	return &TransportError{Method: method, Path: path, Err: c.redactor.Error(err)}
}
