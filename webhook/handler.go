package webhook

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
)

// DefaultMaxBody is the largest delivery body Handler reads unless
// WithMaxBody says otherwise: a Job with its Users and transitions is a
// few KiB.
const DefaultMaxBody = 1 << 20

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

// WithLogger makes Handler log each refused delivery and each error of the
// function it calls, with the status it answered. Nothing secret is
// logged: not the secret key, not the signature, not the body.
func WithLogger(l *slog.Logger) HandlerOption { return func(h *handler) { h.logger = l } }

type handler struct {
	secretKey string
	fn        func(context.Context, *Event) error
	maxBody   int64
	logger    *slog.Logger
}

// Handler returns an http.Handler that receives deliveries signed with
// secretKey and calls fn with each one's Event. For each request it:
//
//   - refuses a method other than POST (405);
//   - reads the body up to the cap (DefaultMaxBody, or WithMaxBody), and
//     answers 413 beyond it;
//   - verifies the signature before anything else looks at the body, and
//     answers 401 when it does not verify (500 when secretKey is empty, a
//     misconfiguration the sender's retries can outlast);
//   - parses the body (400 when it is not an event), and calls fn with the
//     request's context;
//   - answers 204 when fn returns nil, and 500 otherwise, so that the
//     sender delivers it again later.
//
// fn sees only verified deliveries. The platform retries a delivery that
// did not get a 2xx, and the scheme has no timestamp, so fn may see the
// same delivery more than once: see the package documentation.
func Handler(secretKey string, fn func(ctx context.Context, ev *Event) error, opts ...HandlerOption) http.Handler {
	h := &handler{secretKey: secretKey, fn: fn, maxBody: DefaultMaxBody}
	for _, o := range opts {
		if o != nil {
			o(h)
		}
	}
	return h
}

// ServeHTTP implements http.Handler.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.refuse(w, r, http.StatusMethodNotAllowed, errors.New("webhook: method "+r.Method+" not allowed"))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.maxBody))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		h.refuse(w, r, http.StatusRequestEntityTooLarge, errors.New("webhook: the body is larger than the cap"))
		return
	case err != nil:
		h.refuse(w, r, http.StatusBadRequest, errors.New("webhook: reading the body: "+err.Error()))
		return
	}
	if err := Verify(body, r.Header.Get(Header), h.secretKey); err != nil {
		status := http.StatusUnauthorized
		if errors.Is(err, ErrNoSecret) {
			status = http.StatusInternalServerError
		}
		h.refuse(w, r, status, err)
		return
	}
	ev, err := Parse(body)
	if err != nil {
		h.refuse(w, r, http.StatusBadRequest, err)
		return
	}
	if h.fn == nil {
		h.refuse(w, r, http.StatusInternalServerError, errors.New("webhook: no function to call"))
		return
	}
	if err := h.call(r.Context(), ev); err != nil {
		h.refuse(w, r, http.StatusInternalServerError, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
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
