// Package redact hides secrets (API keys, secret keys, tokens, passwords)
// in text and in log records before they leave the SDK.
package redact

import (
	"errors"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// Mask replaces every secret.
const Mask = "[REDACTED]"

// Redactor hides a changing set of known secrets and anything that looks
// like a key or a token. The zero value hides only what looks like one.
type Redactor struct {
	// Secrets returns the long random secrets to hide (keys, tokens); it is
	// called on every use, so it may return a token that was renewed since
	// the last call. They are hidden whole, and so are their starts and
	// ends MinPrefix bytes or longer. A slice it returns must not change
	// afterwards: the same slice returned again is known to be the same set.
	Secrets func() []string

	// whole are hidden whole only, such as a password: a start of one may
	// be an ordinary word.
	whole []string

	// cache reaches the matcher of the last set of secrets through a
	// function, whose closure no reflection can enter: the matcher holds
	// the secrets, and no printer of a value holding the Redactor (go-spew,
	// testify's diffs, go-cmp) may show them.
	cache atomic.Pointer[func() *matcher]
}

// With returns a Redactor that also hides extra, whole only, beside r's
// secrets: the secrets of one call, such as a password in its body, which
// may begin with an ordinary word ("Password2024") that must stay readable
// elsewhere in the text.
func (r *Redactor) With(extra ...string) *Redactor {
	out := &Redactor{whole: append(slices.Clip(r.whole), extra...)}
	if r != nil {
		out.Secrets = r.Secrets
	}
	return out
}

// Plus returns a Redactor that also hides extra as it hides r's secrets
// (whole, and by their starts and ends), beside r's: a secret learnt
// during one call, such as the token an answer delivers, before the
// client holds it. The set is r's as it is now; r's later changes are not
// seen.
func (r *Redactor) Plus(extra ...string) *Redactor {
	var secrets []string
	out := &Redactor{}
	if r != nil {
		if r.Secrets != nil {
			secrets = r.Secrets()
		}
		out.whole = r.whole
	}
	all := append(slices.Clip(secrets), extra...)
	out.Secrets = func() []string { return all }
	return out
}

// String returns s with every secret replaced by Mask: known secrets in
// any form a server or a URL may write them, each character plain,
// JSON-escaped (\u0073, \/, a surrogate pair) or percent-escaped (%2F, as
// in a query or a path; + for a space), in any mix; a start or an end of
// a key or a token MinPrefix bytes or longer, as text cut short shows it;
// and anything that looks like a key or a token, plain or escaped. Its
// cost is linear in the length of s, however many and however long the
// secrets are.
func (r *Redactor) String(s string) string {
	if s == "" {
		return s
	}
	return r.redact(r.matcher(), s)
}

// Strings redacts each of ss in place, as String does, with one look at
// the set of secrets: for the many values of one answer.
func (r *Redactor) Strings(ss []string) {
	m := r.matcher()
	for i, s := range ss {
		if s != "" {
			ss[i] = r.redact(m, s)
		}
	}
}

// redact hides in s what m finds, and anything that looks like a key or a
// token: in s as written, and in s with its escapes undone, since text
// such as "%def" may be either.
func (r *Redactor) redact(m *matcher, s string) string {
	spans := findPatterns(s, m.find(s, nil))
	if v := decode(s); v.escaped() {
		spans = append(spans, v.source(findPatterns(v.text, m.find(v.text, nil)))...)
	}
	return mask(s, spans)
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

// A span is a part of a text to mask: from start to end, exclusive.
type span struct{ start, end int }

// findPatterns adds to spans what looks like a key or a token in t,
// though the Redactor was not told of it: a key by its prefix (pk_test_,
// sk_live_ and the like, followed by the characters of base64 and of
// URL-safe base64, since a key of another shape is still a key), the value
// of a token query parameter, and the value of a JSON member "token",
// "api_key" or "secret_key".
func findPatterns(t string, spans []span) []span {
	for _, p := range []string{"k_test_", "k_live_"} {
		for i := index(t, p, 0); i >= 0; i = index(t, p, i+1) {
			if i == 0 || (t[i-1] != 'p' && t[i-1] != 's') || (i >= 2 && isWord(t[i-2])) {
				continue
			}
			end := i + len(p)
			for end < len(t) && (isWord(t[end]) || strings.IndexByte("-+/=", t[end]) >= 0) {
				end++
			}
			if end > i+len(p) {
				spans = append(spans, span{i - 1, end})
			}
		}
	}
	for i := index(t, "token=", 0); i >= 0; i = index(t, "token=", i+1) {
		if i > 0 && isWord(t[i-1]) {
			continue
		}
		start, end := i+len("token="), i+len("token=")
		for end < len(t) && strings.IndexByte("&\t\n\f\r \"'", t[end]) < 0 && (end > start || t[end] != '[') {
			end++
		}
		if end > start {
			spans = append(spans, span{start, end})
		}
	}
	for _, name := range []string{`"token"`, `"api_key"`, `"secret_key"`} {
		for i := index(t, name, 0); i >= 0; i = index(t, name, i+1) {
			j := skipSpace(t, i+len(name))
			if j >= len(t) || t[j] != ':' {
				continue
			}
			if j = skipSpace(t, j+1); j >= len(t) || t[j] != '"' {
				continue
			}
			end := j + 1
			for end < len(t) && t[end] != '"' {
				if t[end] == '\\' {
					end++
				}
				end++
			}
			spans = append(spans, span{j + 1, min(end, len(t))}) // empty for an empty value: the mask shows one was there
		}
	}
	return spans
}

// index returns the index of the first p in t at or after from, or -1.
func index(t, p string, from int) int {
	if from > len(t) {
		return -1
	}
	if i := strings.Index(t[from:], p); i >= 0 {
		return from + i
	}
	return -1
}

// isWord tells whether c is a letter, a digit or an underscore.
func isWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// skipSpace returns the index of the first byte of t at or after i that
// is not a JSON space.
func skipSpace(t string, i int) int {
	for i < len(t) && strings.IndexByte(" \t\n\r", t[i]) >= 0 {
		i++
	}
	return i
}

// mask returns s with each of spans, which may overlap, replaced by Mask.
func mask(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	last := 0
	for i := 0; i < len(spans); {
		start, end := spans[i].start, spans[i].end
		for i++; i < len(spans) && spans[i].start < end; i++ {
			end = max(end, spans[i].end)
		}
		if start < last {
			start = last
		}
		b.WriteString(s[last:start])
		b.WriteString(Mask)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// MinPrefix is the shortest start or end of a key or a token that is
// hidden on its own, as text cut short by a limit on length shows it: a
// secret's first or last MinPrefix bytes or more are a secret too. For a
// key, whose pk_test_ (or the like) is no secret, the count of a start
// begins after that prefix's last character but one, as the patterns that
// find keys by their shape do.
const MinPrefix = 8

// prefixLen returns how long a start of v must be to be hidden on its own,
// or 0 when only v whole is (it is no longer than that).
func prefixLen(v string) int {
	n := MinPrefix
	if m := keyPrefix.FindString(v); m != "" {
		n = len(m) + 1
	}
	if len(v) <= n {
		return 0
	}
	return n
}

// keyPrefix is the part of a key that is no secret.
var keyPrefix = regexp.MustCompile(`^[ps]k_(?:test|live)_`)

// utf8End returns the end of the character of t that holds byte i-1: a
// span never ends inside a character.
func utf8End(t string, i int) int {
	for i < len(t) && !utf8.RuneStart(t[i]) {
		i++
	}
	return i
}

// utf8Start returns the start of the character of t that holds byte i.
func utf8Start(t string, i int) int {
	for i > 0 && !utf8.RuneStart(t[i]) {
		i--
	}
	return i
}
