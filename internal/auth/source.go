// Package auth keeps the API token: it fetches it lazily, caches it, renews
// it shortly before it expires or when the server rejects it, and adds it to
// outgoing requests from the innermost transport.
package auth

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Token is an API token and the moment it stops being accepted.
// A zero ExpiresAt means the token carries no known expiry.
type Token struct {
	Value     string
	ExpiresAt time.Time
}

// Format prints the token with its value hidden, whatever the verb.
func (t Token) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "auth.Token{Value:[REDACTED] ExpiresAt:%s}", t.ExpiresAt.Format(time.RFC3339))
}

// FetchFunc obtains a fresh token, typically by calling POST /authenticate.
type FetchFunc func(ctx context.Context) (Token, error)

// ErrNoCredentials is returned when a token is needed but the source has
// neither keys to fetch one nor a static token.
var ErrNoCredentials = errors.New("no API keys and no token configured")

// fetchTimeout bounds one shared fetch, which runs detached from the
// context of the caller that started it so that one caller giving up does
// not fail the others waiting on the same renewal.
const fetchTimeout = time.Minute

// Source hands out the current token. It is safe for concurrent use:
// callers that need a token at the same moment share one fetch.
type Source struct {
	fetch FetchFunc // nil for a static token
	now   func() time.Time

	mu       sync.Mutex
	tok      Token
	inflight *call
}

type call struct {
	done chan struct{}
	tok  Token
	err  error
}

// NewSource returns a Source that fetches tokens with fetch.
func NewSource(fetch FetchFunc) *Source {
	return &Source{fetch: fetch, now: time.Now}
}

// NewStaticSource returns a Source that always hands out value and never
// renews it.
func NewStaticSource(value string) *Source {
	return &Source{tok: Token{Value: value}, now: time.Now}
}

// Format prints the source without any secret, whatever the verb.
func (s *Source) Format(f fmt.State, _ rune) { fmt.Fprint(f, "auth.Source{[REDACTED]}") }

// SetClock replaces the clock the source judges expiry by. It is meant
// for tests.
func (s *Source) SetClock(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
}

// CanRenew reports whether the source can fetch a new token.
func (s *Source) CanRenew() bool { return s.fetch != nil }

// Current returns the cached token value without fetching, or "" when there
// is none. The redactor uses it to know what to hide.
func (s *Source) Current() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tok.Value
}

// Set stores tok as the current token, for example after the caller
// authenticated explicitly.
func (s *Source) Set(tok Token) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fetch != nil {
		s.tok = tok
	}
}

// Token returns a valid token, fetching one when none is cached or the
// cached one is about to expire.
func (s *Source) Token(ctx context.Context) (string, error) {
	s.mu.Lock()
	if s.fetch == nil {
		v := s.tok.Value
		s.mu.Unlock()
		if v == "" {
			return "", ErrNoCredentials
		}
		return v, nil
	}
	if s.fresh() {
		v := s.tok.Value
		s.mu.Unlock()
		return v, nil
	}
	c := s.inflight
	if c == nil {
		c = &call{done: make(chan struct{})}
		s.inflight = c
		go s.run(context.WithoutCancel(ctx), c)
	}
	s.mu.Unlock()

	select {
	case <-c.done:
		return c.tok.Value, c.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Invalidate drops the cached token if it is still stale, the value a
// request was rejected with. A token renewed meanwhile by another caller is
// kept, so that many rejections of one token cause one renewal.
func (s *Source) Invalidate(stale string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fetch != nil && s.tok.Value == stale {
		s.tok = Token{}
	}
}

// fresh reports whether the cached token can still be used: tokens are
// renewed five minutes before they expire.
func (s *Source) fresh() bool {
	if s.tok.Value == "" {
		return false
	}
	if s.tok.ExpiresAt.IsZero() {
		return true
	}
	return s.now().Before(s.tok.ExpiresAt.Add(-5 * time.Minute))
}

func (s *Source) run(ctx context.Context, c *call) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	c.tok, c.err = s.safeFetch(ctx)
	if c.err == nil && c.tok.Value == "" {
		c.err = errors.New("authentication answered an empty token")
	}
	s.mu.Lock()
	if c.err == nil {
		s.tok = c.tok
	}
	s.inflight = nil
	s.mu.Unlock()
	close(c.done)
}

// safeFetch calls fetch, turning a panic into an error: the fetch runs on
// a goroutine of its own, where a panic would end the program and leave
// the callers waiting on it stuck.
func (s *Source) safeFetch(ctx context.Context) (tok Token, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("fetching a token panicked: %v", p)
		}
	}()
	return s.fetch(ctx)
}
