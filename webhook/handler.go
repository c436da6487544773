package webhook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/internal/keys"
)

// DefaultMaxBody is the largest delivery body Handler reads unless
// WithMaxBody says otherwise: a Job with its Users and transitions is a
// few KiB.
const DefaultMaxBody = 1 << 20

// DefaultReadTimeout is how long Handler waits for a delivery's body unless
// WithReadTimeout says otherwise: a delivery of a few KiB arrives in
// milliseconds, and a sender that trickles its body holds a goroutine and a
// connection for no more than this.
const DefaultReadTimeout = 10 * time.Second

// A HandlerOption configures Handler.
type HandlerOption func(*handler)

// WithMaxBody sets the largest body Handler reads; a larger one is
// answered 413 and passed on to nothing. n must be positive.
func WithMaxBody(n int64) HandlerOption {
	return func(h *handler) {
		if n > 0 {
			h.maxBody = n
		}
	}
}

// WithReadTimeout sets how long Handler waits for a delivery's whole body,
// counted from when it starts reading it; a body not read in time is
// answered 408 and passed on to nothing. d must be positive.
func WithReadTimeout(d time.Duration) HandlerOption {
	return func(h *handler) {
		if d > 0 {
			h.readTimeout = d
		}
	}
}

// WithLogger makes Handler log each refused delivery and each error of the
// function it calls, with the status it answered. Nothing secret is
// logged: not the secret key, not the signature, not the body.
func WithLogger(l *slog.Logger) HandlerOption { return func(h *handler) { h.logger = l } }

type handler struct {
	// secretKey returns the key. It is a function so that no printer of
	// the handler, reflection-based ones included, can reach the key.
	secretKey   func() string
	fn          func(context.Context, *Event) error
	maxBody     int64
	readTimeout time.Duration
	logger      *slog.Logger
}

// Handler returns an http.Handler that verifies each delivery signed with
// secretKey, parses it, and calls fn with its Event and the request's
// context: it answers 204 when fn returns nil, 422 when fn's error matches
// ErrMalformedEvent (a delivery fn can never take), and 500 otherwise, so
// that the sender delivers it again later. It refuses, before fn sees
// anything, a delivery that is not a POST, too large or too slow
// (WithMaxBody, WithReadTimeout), unsigned or not an event: the package
// documentation lists the answers. A secret key workforce.New would refuse,
// or a nil fn, gets an error matching workforce.ErrConfig.
func Handler(secretKey string, fn func(ctx context.Context, ev *Event) error, opts ...HandlerOption) (http.Handler, error) {
	if _, err := keys.Mode("secret key", "sk", secretKey); err != nil {
		return nil, fmt.Errorf("%w: %v", workforce.ErrConfig, err)
	}
	if fn == nil {
		return nil, fmt.Errorf("%w: no function to call with each delivery", workforce.ErrConfig)
	}
	h := &handler{secretKey: func() string { return secretKey }, fn: fn, maxBody: DefaultMaxBody, readTimeout: DefaultReadTimeout}
	for _, o := range opts {
		if o != nil {
			o(h)
		}
	}
	return h, nil
}

// Format prints the handler without its secret key, whatever the verb.
func (h *handler) Format(f fmt.State, _ rune) {
	fmt.Fprint(f, "webhook.Handler{secret key: [REDACTED]}")
}

// ServeHTTP implements http.Handler.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.refuse(w, r, http.StatusMethodNotAllowed, errors.New("webhook: method "+r.Method+" not allowed"))
		return
	}
	body, err := h.read(w, r)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		h.refuse(w, r, http.StatusRequestEntityTooLarge, errors.New("webhook: the body is larger than the cap"))
		return
	case errors.Is(err, os.ErrDeadlineExceeded):
		w.Header().Set("Connection", "close") // the rest of the body is not waited for
		h.refuse(w, r, http.StatusRequestTimeout, fmt.Errorf("webhook: the body did not arrive within %v", h.readTimeout))
		return
	case err != nil:
		h.refuse(w, r, http.StatusBadRequest, errors.New("webhook: reading the body: "+err.Error()))
		return
	}
	if err := Verify(body, r.Header.Get(Header), h.secretKey()); err != nil {
		h.refuse(w, r, http.StatusUnauthorized, err)
		return
	}
	ev, err := Parse(body)
	if err != nil {
		h.refuse(w, r, http.StatusBadRequest, err)
		return
	}
	if err := h.call(r.Context(), ev); err != nil {
		status := http.StatusInternalServerError
		if errors.Is(err, ErrMalformedEvent) {
			status = http.StatusUnprocessableEntity
		}
		h.refuse(w, r, status, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// read reads r's body up to the cap, within the read timeout: under a
// read deadline on the connection, or, when w supports none, on a
// goroutine of its own that Handler stops waiting for at the timeout.
// Past the timeout the error matches os.ErrDeadlineExceeded.
func (h *handler) read(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, h.maxBody)
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(h.readTimeout)) == nil {
		b, err := io.ReadAll(body)
		if err == nil {
			// Cleared once read: the server's wait for the client to go
			// while fn runs is a read too, and must not end the request's
			// context. Past the timeout it stays, so that the server does
			// not wait for the rest of the body before it answers.
			_ = rc.SetReadDeadline(time.Time{})
		}
		return b, err
	}
	type result struct {
		body []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(body)
		done <- result{b, err}
	}()
	timer := time.NewTimer(h.readTimeout)
	defer timer.Stop()
	select {
	case res := <-done:
		return res.body, res.err
	case <-timer.C:
		return nil, os.ErrDeadlineExceeded
	case <-r.Context().Done():
		return nil, r.Context().Err()
	}
}

// call runs fn, turning a panic into an error so the delivery is retried.
func (h *handler) call(ctx context.Context, ev *Event) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = errors.New("webhook: the handler function panicked")
		}
	}()
	return h.fn(ctx, ev)
}

// refuse answers status with a short text and logs why.
func (h *handler) refuse(w http.ResponseWriter, r *http.Request, status int, err error) {
	if h.logger != nil {
		h.logger.LogAttrs(r.Context(), slog.LevelWarn, "webhook: delivery refused",
			slog.Int("status", status), slog.String("error", err.Error()))
	}
	http.Error(w, http.StatusText(status), status)
}
