package workforce

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

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
	middleware []func(http.RoundTripper) http.RoundTripper

	retryAfterUnit   time.Duration
	settleHorizon    time.Duration
	settleHorizonSet bool
	clockTolerance   time.Duration
}

// DefaultPageWindow is how many pages an iterator keeps in flight at most
// unless WithPageWindow says otherwise.
const DefaultPageWindow = 4

// WithPageWindow sets how many pages an iterator (the All methods) fetches
// ahead at most while the caller ranges over the current one; records are
// still yielded in list order. The window opens as a walk proves long, and
// pages in flight are cancelled when the loop breaks; the README's
// Performance section measures it. 1 fetches each page after the one
// before; n must be at least 1, or New fails with ErrConfig.
func WithPageWindow(n int) Option { return func(s *settings) { s.window = n } }

// WithBaseURL sets the API's base URL, such as "https://api.example.com",
// with or without the trailing "/api_v2". It overrides the environment.
func WithBaseURL(u string) Option { return func(s *settings) { s.baseURL = u } }

// WithHTTPClient sets the HTTP client requests are sent with. The client is
// copied, never changed; the copy follows no redirect, whatever its
// CheckRedirect says (a 3xx answer is a *RedirectError). Its Transport, if any, becomes the innermost one,
// below the transport that adds the token: it sees the token in every URL,
// so it must not log them (WithMiddleware is the place to observe calls). Its Timeout bounds each attempt, and each token
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
// WithHTTPClient (set them on it). BodyStall and Body apply to every
// answer.
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
	// Body bounds reading an answer's whole body, from its headers on,
	// however steadily it arrives: a body read for longer ends the attempt
	// with a *TransportError whose Err matches os.ErrDeadlineExceeded (a
	// read is retried). Default 5m.
	Body time.Duration
}

// The defaults of Timeouts.
const (
	DefaultDialTimeout           = 10 * time.Second
	DefaultTLSHandshakeTimeout   = 10 * time.Second
	DefaultResponseHeaderTimeout = 60 * time.Second
	DefaultIdleConnTimeout       = 90 * time.Second
	DefaultBodyStallTimeout      = 30 * time.Second
	DefaultBodyTimeout           = 5 * time.Minute
)

// withDefaults returns t with each zero field set to its default, or an
// error for a negative one.
func (t Timeouts) withDefaults() (Timeouts, error) {
	for _, f := range []struct {
		d   *time.Duration
		def time.Duration
	}{{&t.Dial, DefaultDialTimeout}, {&t.TLSHandshake, DefaultTLSHandshakeTimeout},
		{&t.ResponseHeader, DefaultResponseHeaderTimeout}, {&t.IdleConn, DefaultIdleConnTimeout},
		{&t.BodyStall, DefaultBodyStallTimeout}, {&t.Body, DefaultBodyTimeout}} {
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
