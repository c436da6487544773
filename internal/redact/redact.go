// Package redact hides secrets (API keys, secret keys, tokens) in text and
// in log records before they leave the SDK.
package redact

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf16"
	"unicode/utf8"
)

// Mask replaces every secret.
const Mask = "[REDACTED]"

// patterns catch secrets the Redactor was not told about: keys by their
// prefixes (with the characters of base64 and URL-safe base64, since a key
// of another shape is still a key) and any token query or JSON parameter.
var patterns = regexp.MustCompile(`\b[ps]k_(?:test|live)_[A-Za-z0-9_\-+/=]+|(\btoken=)[^&\s"'\[][^&\s"']*|("(?:token|api_key|secret_key)"\s*:\s*")[^"]*`)

// Redactor hides a changing set of known secrets and anything that looks
// like a key or a token. The zero value hides only what looks like one.
type Redactor struct {
	// Secrets returns the values to hide; it is called on every use, so it
	// may return a token that was renewed since the last call.
	Secrets func() []string

	// cache reaches the matcher of the last set of secrets through a
	// function, whose closure no reflection can enter: the matcher holds
	// the secrets, and no printer of a value holding the Redactor (go-spew,
	// testify's diffs, go-cmp) may show them.
	cache atomic.Pointer[func() *matcher]
}

// matcher finds a set of secrets in any of their written forms.
type matcher struct {
	secrets string // the set, joined by NUL
	re      *regexp.Regexp
}

// With returns a Redactor that hides extra too, beside r's secrets: the
// secrets of one call, such as a password in its body.
func (r *Redactor) With(extra ...string) *Redactor {
	return &Redactor{Secrets: func() []string {
		var base []string
		if r.Secrets != nil {
			base = r.Secrets()
		}
		return append(base, extra...)
	}}
}

// String returns s with every secret replaced by Mask: known secrets in
// any form a server or a URL may write them, each character plain,
// JSON-escaped (\u0073, \/, a surrogate pair) or percent-escaped (%2F, as
// in a query or a path; + for a space), in any mix; a start of a known
// secret MinPrefix characters or longer, as text cut short shows it; and,
// in text and inside JSON strings whose escapes are undone first, anything
// that looks like a key or a token.
func (r *Redactor) String(s string) string {
	s = r.known(s)
	if strings.IndexByte(s, '\\') >= 0 {
		s = redactJSONStrings(s, func(v string) string { return patterns.ReplaceAllString(r.known(v), "$1$2"+Mask) })
	}
	return patterns.ReplaceAllString(s, "$1$2"+Mask)
}

// maxPatterned is the longest secret matched in every escaped form; a
// longer one (no key or token is that long) is matched plain and in the
// whole-string escapes of a query, a path and JSON, so that a hostile
// server cannot make redaction slow with a huge token.
const maxPatterned = 512

// known hides the secrets the Redactor was told about. Plain forms are
// replaced first, in linear time; the pattern of escaped forms runs only
// on text that holds an escape.
func (r *Redactor) known(s string) string {
	if r == nil || r.Secrets == nil || s == "" {
		return s
	}
	secrets := distinct(r.Secrets())
	for _, v := range secrets {
		s = strings.ReplaceAll(s, v, Mask)
		if len(v) > maxPatterned {
			for _, form := range escapedForms(v) {
				s = strings.ReplaceAll(s, form, Mask)
			}
		}
	}
	if strings.ContainsAny(s, `%\+`) {
		if re := r.matcher(secrets); re != nil {
			s = re.ReplaceAllLiteralString(s, Mask)
		}
	}
	for _, v := range secrets { // after whole secrets in every form: a start of one is hidden too
		s = maskPrefixes(s, v)
	}
	return s
}

// MinPrefix is the shortest start of a secret that is hidden on its own, as
// text cut short by a limit on length shows it: a secret's first MinPrefix
// characters or more are a secret too. For a key, whose pk_test_ (or the
// like) is no secret, the count starts after that prefix's last character
// but one, as the patterns that find keys by their shape do.
const MinPrefix = 8

// maxPrefixPatterned is the longest secret whose starts are also matched
// in every escaped form (the pattern nests once a character, and regexp
// limits nesting); a longer one's starts are matched plain.
const maxPrefixPatterned = 128

// prefixLen returns how long a start of v must be to be hidden on its own,
// or 0 when only v whole is (it is shorter than that).
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

// maskPrefixes replaces each plain start of v in s that is prefixLen(v)
// bytes or longer, up to where it stops matching v (the end of its
// character in s).
func maskPrefixes(s, v string) string {
	n := prefixLen(v)
	if n == 0 {
		return s
	}
	head := v[:n]
	i := strings.Index(s, head)
	if i < 0 {
		return s
	}
	var b strings.Builder
	for i >= 0 {
		j := n
		for i+j < len(s) && j < len(v) && s[i+j] == v[j] {
			j++
		}
		for i+j < len(s) && !utf8.RuneStart(s[i+j]) {
			j++
		}
		b.WriteString(s[:i])
		b.WriteString(Mask)
		s = s[i+j:]
		i = strings.Index(s, head)
	}
	b.WriteString(s)
	return b.String()
}

// distinct returns the non-empty secrets, each once, longest first, so
// that a secret holding another is hidden whole.
func distinct(secrets []string) []string {
	out := make([]string, 0, len(secrets))
	for _, v := range secrets {
		if v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// escapedForms returns v as a query, a path and a JSON string write it.
func escapedForms(v string) []string {
	j, _ := json.Marshal(v)
	return []string{url.QueryEscape(v), url.PathEscape(v), string(j[1 : len(j)-1])}
}

// matcher returns the regular expression that finds the secrets (as
// distinct returns them) in their escaped forms, built once for each set of
// them, or nil when there is none to pattern.
func (r *Redactor) matcher(secrets []string) *regexp.Regexp {
	var parts []string
	var key strings.Builder
	for _, v := range secrets {
		if len(v) <= maxPatterned {
			parts = append(parts, v)
			fmt.Fprintf(&key, "%d:%s;", len(v), v) // length-prefixed: no two sets share a key
		}
	}
	if len(parts) == 0 {
		return nil
	}
	if f := r.cache.Load(); f != nil {
		if m := (*f)(); m.secrets == key.String() {
			return m.re
		}
	}
	alts := make([]string, len(parts))
	for i, v := range parts {
		alts[i] = anyPrefixForm(v)
	}
	re, err := regexp.Compile(strings.Join(alts, "|"))
	if err != nil {
		return nil // cannot happen: every part is quoted; plain forms were replaced already
	}
	m := &matcher{secrets: key.String(), re: re}
	f := func() *matcher { return m }
	r.cache.Store(&f)
	return re
}

// anyPrefixForm returns a regular expression that matches v, or a start of
// it prefixLen(v) bytes or longer (the longest there is), in any form
// anyForm matches.
func anyPrefixForm(v string) string {
	n := prefixLen(v)
	if n == 0 || len(v) > maxPrefixPatterned {
		return anyForm(v)
	}
	for n < len(v) && !utf8.RuneStart(v[n]) {
		n++
	}
	rest := []rune(v[n:])
	var b strings.Builder
	b.WriteString(anyForm(v[:n]))
	for _, r := range rest {
		b.WriteString("(?:" + anyRune(r))
	}
	b.WriteString(strings.Repeat(")?", len(rest)))
	return b.String()
}

// anyForm returns a regular expression that matches v with each of its
// characters written plain, JSON-escaped (\uXXXX in either case, a
// surrogate pair beyond the BMP, \/ and the like) or percent-escaped byte by
// byte in either case (+ for a space). A byte that is not valid UTF-8 is
// matched as U+FFFD, as the regexp package reads it.
func anyForm(v string) string {
	var b strings.Builder
	for _, r := range v {
		b.WriteString(anyRune(r))
	}
	return b.String()
}

// anyRune returns the group of anyForm that matches r.
func anyRune(r rune) string {
	var b strings.Builder
	b.WriteString("(?:" + regexp.QuoteMeta(string(r)))
	var buf [utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], r)
	b.WriteString("|")
	for _, c := range buf[:n] {
		b.WriteString("%" + hexClass(c>>4) + hexClass(c&0xf))
	}
	if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
		b.WriteString("|" + jsonEscape(uint16(r1)) + jsonEscape(uint16(r2)))
	} else {
		b.WriteString("|" + jsonEscape(uint16(r)))
	}
	switch r {
	case '/', '"', '\\':
		b.WriteString(`|\\` + regexp.QuoteMeta(string(r)))
	case ' ':
		b.WriteString(`|\+`)
	}
	b.WriteString(")")
	return b.String()
}

// jsonEscape returns the pattern of \uXXXX for u, hex digits in either case.
func jsonEscape(u uint16) string {
	return `\\u` + hexClass(byte(u>>12)) + hexClass(byte(u>>8&0xf)) + hexClass(byte(u>>4&0xf)) + hexClass(byte(u&0xf))
}

// hexClass returns a character class matching the hex digit of n in
// either case.
func hexClass(n byte) string {
	const digits = "0123456789abcdef"
	d := digits[n]
	if d < 'a' {
		return string(d)
	}
	return "[" + string(d) + string(d-'a'+'A') + "]"
}

// redactJSONStrings rewrites each JSON string literal of s that holds an
// escape: it undoes the escapes, applies clean, and writes the literal
// anew when clean changed it. Other text is left as it is, so that s need
// not be valid JSON.
func redactJSONStrings(s string, clean func(string) string) string {
	var out strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			continue
		}
		end, escaped := i+1, false
		for end < len(s) && s[end] != '"' {
			if s[end] == '\\' {
				escaped = true
				end++
			}
			end++
		}
		if end >= len(s) {
			break
		}
		if escaped {
			var v string
			if json.Unmarshal([]byte(s[i:end+1]), &v) == nil {
				if c := clean(v); c != v {
					lit, _ := json.Marshal(c)
					out.WriteString(s[last:i])
					out.Write(lit)
					last = end + 1
				}
			}
		}
		i = end
	}
	if last == 0 {
		return s
	}
	out.WriteString(s[last:])
	return out.String()
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
