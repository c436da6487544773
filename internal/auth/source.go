// Package auth keeps the API token: it fetches it lazily, caches it, renews
// it shortly before it expires or when the server rejects it, and adds it to
// outgoing requests from the innermost transport.
package auth

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
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

// The token is renewed renewMargin before it expires, but a token is always
// used for minUse after it was fetched: one that arrives already within the
// margin (short-lived, or judged by a clock that runs ahead) would otherwise
// be fetched anew for every call. Should it really expire meanwhile, the
// API's 401 makes the transport renew it.
const (
	renewMargin = 5 * time.Minute
	minUse      = time.Minute
)

// A token the source no longer hands out (replaced by a renewal, or
// rejected by a 401 that may have been spurious) may still be valid, and a
// request still in flight with it may get an answer that repeats it: it
// stays among Secrets until skewGrace past its expiry (the local clock may
// run ahead of the server's), or tokenLife past its retirement when its
// expiry is unknown, and never less.
const (
	tokenLife = 24 * time.Hour
	skewGrace = time.Hour
)

// The renewals a 401 triggers are limited, so that a server that rejects
// tokens cannot make the source fetch without end, nor hold tokens without
// bound. A token that was never accepted (no answer other than 401 came
// with it) and is rejected is renewed at once the first two times in a
// row, then after a wait since the last renewal that doubles from a second
// up to maxRenewWait: a server that rejects every token gets a fetch every
// five minutes at most. A token that was accepted and then rejected is
// renewed at once while fewer than maxHeld tokens are held: a server that
// accepts each token once and then rejects it stops getting fetches at
// maxHeld until the oldest expire. Until a renewal is allowed, a 401 is the
// caller's answer.
const (
	maxRenewWait = 5 * time.Minute
	maxHeld      = 4096
)

// renewWait returns how long after the last renewal the streak-th renewal
// in a row of never-accepted tokens may happen.
func renewWait(streak int) time.Duration {
	if streak < 2 {
		return 0
	}
	return min(time.Second<<min(streak-2, 16), maxRenewWait)
}

// fetchTimeout bounds one shared fetch, which runs detached from the
// context of the caller that started it so that one caller giving up does
// not fail the others waiting on the same renewal.
const fetchTimeout = time.Minute

// Source hands out the current token. It is safe for concurrent use:
// callers that need a token at the same moment share one fetch.
type Source struct {
	fetch FetchFunc // nil for a static token
	now   func() time.Time

	// OnSkew, when set, is called once, the first time a token arrives
	// that expires within the renewal margin by the local clock, with how
	// long it has left by that clock (negative when already past).
	OnSkew func(left time.Duration)

	mu       sync.Mutex
	renewAt  time.Time // when the token is renewed; zero for never
	skewSeen bool
	// accepted is set once an answer other than 401 came with the current
	// token. streak counts the renewals in a row of tokens rejected
	// before they were accepted; renewed is when the last 401 renewal was.
	accepted atomic.Bool
	streak   int
	renewed  time.Time
	// vault holds the tokens. It is reached through a function, whose
	// closure no reflection can enter, so that no printer of a value that
	// holds the Source (go-spew, testify's diffs, go-cmp) shows them.
	vault func() *vault
}

// A vault is what a Source holds that is secret.
type vault struct {
	tok      Token
	inflight *call
	retired  []retiredToken // tokens held before tok that may still be valid, oldest first
	// secrets is what Secrets last returned, until the first of the
	// retired tokens expires or the set changes (nil).
	secrets    []string
	secretsEnd time.Time
}

// newVault returns the function that reaches a new vault holding tok.
func newVault(tok Token) func() *vault {
	v := &vault{tok: tok}
	return func() *vault { return v }
}

// v returns the source's vault.
func (s *Source) v() *vault { return s.vault() }

// A retiredToken is a token the source held and no longer hands out.
type retiredToken struct {
	value string
	until time.Time // when it is surely no longer valid
}

type call struct {
	done chan struct{}
	tok  Token
	err  error
}

// NewSource returns a Source that fetches tokens with fetch.
func NewSource(fetch FetchFunc) *Source {
	return &Source{fetch: fetch, now: time.Now, vault: newVault(Token{})}
}

// NewStaticSource returns a Source that always hands out value and never
// renews it.
func NewStaticSource(value string) *Source {
	return &Source{now: time.Now, vault: newVault(Token{Value: value})}
}

// store makes tok the current token, and sets when it is renewed. A
// renewal (force false) keeps the current token instead when it is fresh
// and expires later: an explicit authentication that finished first. It returns how long tok has left when that
// is within the renewal margin the first time it happens, for OnSkew. The
// caller holds s.mu.
func (s *Source) store(tok Token, force bool) (left time.Duration, skewed bool) {
	if !force && s.fresh() && tok.ExpiresAt.Before(s.v().tok.ExpiresAt) {
		s.retire(tok) // a newer token arrived meanwhile; the callers of this fetch use it all the same
		return 0, false
	}
	if s.v().tok.Value != tok.Value {
		s.retire(s.v().tok)
		s.accepted.Store(false)
	}
	s.v().tok, s.renewAt, s.v().secrets = tok, time.Time{}, nil
	if tok.ExpiresAt.IsZero() {
		return 0, false
	}
	now := s.now()
	s.renewAt = tok.ExpiresAt.Add(-renewMargin)
	if earliest := now.Add(minUse); s.renewAt.Before(earliest) {
		s.renewAt = earliest
		if !s.skewSeen {
			s.skewSeen = true
			return tok.ExpiresAt.Sub(now), true
		}
	}
	return 0, false
}

// reportSkew calls OnSkew, outside the lock.
func (s *Source) reportSkew(left time.Duration, skewed bool) {
	if skewed && s.OnSkew != nil {
		s.OnSkew(left)
	}
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
// is none.
func (s *Source) Current() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.v().tok.Value
}

// Secrets returns every token the source holds or has held that may still
// be valid: the current one, and those it replaced or dropped before they
// expired. The redactor hides them all, since a request sent with an
// earlier token may still be answered with it. The slice is shared: it is
// returned again until the set changes, and must not be changed.
func (s *Source) Secrets() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	now, v := s.now(), s.v()
	if v.secrets != nil && now.Before(v.secretsEnd) {
		return v.secrets
	}
	v.retired = slices.DeleteFunc(v.retired, func(r retiredToken) bool { return !now.Before(r.until) })
	out := make([]string, 0, len(v.retired)+1)
	if v.tok.Value != "" {
		out = append(out, v.tok.Value)
	}
	end := now.Add(tokenLife)
	for _, r := range v.retired {
		out = append(out, r.value)
		if r.until.Before(end) {
			end = r.until
		}
	}
	v.secrets, v.secretsEnd = out, end
	return out
}

// retire keeps tok among the secrets until it is surely no longer valid.
// The caller holds s.mu.
func (s *Source) retire(tok Token) {
	if tok.Value == "" {
		return
	}
	until := tok.ExpiresAt
	if until.IsZero() {
		until = s.now().Add(tokenLife)
	}
	until = until.Add(skewGrace)
	v := s.v()
	v.secrets = nil
	if i := slices.IndexFunc(v.retired, func(r retiredToken) bool { return r.value == tok.Value }); i >= 0 {
		if until.After(v.retired[i].until) {
			v.retired[i].until = until
		}
		return
	}
	v.retired = append(v.retired, retiredToken{value: tok.Value, until: until})
}

// Set stores tok as the current token, for example after the caller
// authenticated explicitly. A renewal that was under way meanwhile and
// brings an older token does not replace it.
func (s *Source) Set(tok Token) {
	if s.fetch == nil {
		return
	}
	s.mu.Lock()
	left, skewed := s.store(tok, true)
	s.mu.Unlock()
	s.reportSkew(left, skewed)
}

// Token returns a valid token, fetching one when none is cached or the
// cached one is about to expire.
func (s *Source) Token(ctx context.Context) (string, error) {
	s.mu.Lock()
	if s.fetch == nil {
		v := s.v().tok.Value
		s.mu.Unlock()
		if v == "" {
			return "", ErrNoCredentials
		}
		return v, nil
	}
	if s.fresh() {
		v := s.v().tok.Value
		s.mu.Unlock()
		return v, nil
	}
	c := s.v().inflight
	if c == nil {
		c = &call{done: make(chan struct{})}
		s.v().inflight = c
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

// Accepted records that an answer other than 401 came with tok: a token
// the server took, whose rejection later is renewed at once.
func (s *Source) Accepted(tok string) {
	if s.fetch == nil || s.accepted.Load() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.v().tok.Value == tok {
		s.accepted.Store(true)
		s.streak = 0
	}
}

// Invalidate drops the cached token if it is still stale, the value a
// request was rejected with, so that the next request fetches another;
// it reports whether a request may be sent again with a token other than
// stale. A token renewed meanwhile by another caller is kept, so that many
// rejections of one token cause one renewal. A renewal that the limits
// above do not allow yet leaves stale in place and reports false: the 401
// is the caller's answer.
func (s *Source) Invalidate(stale string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.v()
	switch {
	case s.fetch == nil:
		return false
	case v.tok.Value != stale:
		return true // renewed meanwhile
	case s.accepted.Load():
		if len(v.retired) >= maxHeld {
			return false
		}
	default:
		if s.streak > 0 && s.now().Before(s.renewed.Add(renewWait(s.streak))) {
			return false
		}
		s.streak++
	}
	s.renewed = s.now()
	s.retire(v.tok) // a 401 may be spurious: it may still be valid
	v.tok, s.renewAt = Token{}, time.Time{}
	s.accepted.Store(false)
	return true
}

// fresh reports whether the cached token can still be used: until its
// renewal time, set when it was stored.
func (s *Source) fresh() bool {
	return s.v().tok.Value != "" && (s.renewAt.IsZero() || s.now().Before(s.renewAt))
}

func (s *Source) run(ctx context.Context, c *call) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	c.tok, c.err = s.safeFetch(ctx)
	if c.err == nil && c.tok.Value == "" {
		c.err = errors.New("authentication answered an empty token")
	}
	var left time.Duration
	var skewed bool
	s.mu.Lock()
	if c.err == nil {
		left, skewed = s.store(c.tok, false)
	}
	s.v().inflight = nil
	s.mu.Unlock()
	s.reportSkew(left, skewed) // before the callers wake: a call that returns has seen it reported
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
