// Package redact hides secrets (API keys, secret keys, tokens) in text and
// in log records before they leave the SDK.
package redact

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
)

// Mask replaces every secret.
const Mask = "[REDACTED]"

// patterns catch secrets the Redactor was not told about: keys by their
// prefixes and any token query or JSON parameter.
var patterns = regexp.MustCompile(`\b[ps]k_(?:test|live)_[A-Za-z0-9_\-]+|(\btoken=)[^&\s"'\[][^&\s"']*|("(?:token|api_key|secret_key)"\s*:\s*")[^"]*`)

// Redactor hides a changing set of known secrets and anything that looks
// like a key or a token. The zero value hides only what looks like one.
type Redactor struct {
	// Secrets returns the values to hide; it is called on every use, so it
	// may return a token that was renewed since the last call.
	Secrets func() []string
}

// String returns s with every secret replaced by Mask, in its plain form and
// in the escaped form it takes in a URL's query.
func (r *Redactor) String(s string) string {
	if r != nil && r.Secrets != nil {
		for _, v := range r.Secrets() {
			if v != "" {
				s = strings.ReplaceAll(s, v, Mask)
				s = strings.ReplaceAll(s, url.QueryEscape(v), Mask)
			}
		}
	}
	return patterns.ReplaceAllString(s, "$1$2"+Mask)
}

// Error returns err unchanged when its text holds no secret. Otherwise it
// returns an error with the masked text, which unwraps to the outermost
// error of err's chain whose own text holds no secret, so that the cause
// (a *net.OpError, say) can still be told with errors.As while nothing that
// prints the chain can show a secret.
func (r *Redactor) Error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	clean := r.String(msg)
	if clean == msg {
		return err
	}
	cause := errors.Unwrap(err)
	for cause != nil && r.String(cause.Error()) != cause.Error() {
		cause = errors.Unwrap(cause)
	}
	return &maskedError{msg: clean, cause: cause}
}

type maskedError struct {
	msg   string
	cause error
}

func (e *maskedError) Error() string { return e.msg }
func (e *maskedError) Unwrap() error { return e.cause }

// Handler wraps h so that every message and attribute it receives is
// redacted first.
func (r *Redactor) Handler(h slog.Handler) slog.Handler {
	return &handler{next: h, r: r}
}

type handler struct {
	next slog.Handler
	r    *Redactor
}

func (h *handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h *handler) Handle(ctx context.Context, rec slog.Record) error {
	out := slog.NewRecord(rec.Time, rec.Level, h.r.String(rec.Message), rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h *handler) WithAttrs(as []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(as))
	for i, a := range as {
		clean[i] = h.attr(a)
	}
	return &handler{next: h.next.WithAttrs(clean), r: h.r}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{next: h.next.WithGroup(name), r: h.r}
}

func (h *handler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.r.String(v.String()))
	case slog.KindGroup:
		g := v.Group()
		clean := make([]any, len(g))
		for i, ga := range g {
			clean[i] = h.attr(ga)
		}
		return slog.Group(a.Key, clean...)
	case slog.KindAny:
		return slog.String(a.Key, h.r.String(fmt.Sprintf("%+v", v.Any())))
	default:
		return slog.Attr{Key: a.Key, Value: v}
	}
}
