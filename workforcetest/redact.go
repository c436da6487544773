package workforcetest

import (
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// What the request log hides. Every text it keeps (query names and values, header names and
// values, bodies) passes through scrub, which finds secrets by their shape, so that a token the
// fake issued long ago and has forgotten is hidden like a live one: the fake's keys are pk_test_…
// and sk_test_… (checkKeys) and its tokens 48 hex digits (tokens.issue). Parameters are hidden by
// name too (hideValues, hideJSON): token is removed, and api_key, secret_key and password fields
// are redacted whatever they hold.

// redacted replaces what the request log hides.
const redacted = "[REDACTED]"

// minTokenRun is the length of the fake's tokens (24 random bytes in hex): scrub hides every run
// of that many hex digits or more.
const minTokenRun = 48

// secretText finds the values of token, api_key, secret_key, password and
// password_confirmation as JSON members or form fields (the part after its group 1 or 2), and
// anything shaped like a key, with a capital first letter too (a header name is canonicalized).
var secretText = regexp.MustCompile(`("(?:token|api_key|secret_key|password|password_confirmation)"\s*:\s*")(?:[^"\\]|\\.)*|` +
	`(\b(?:token|api_key|secret_key|password|password_confirmation)(?:\]|%5[Dd])?=)[^&\s]*|[psPS]k_(?:test|live)_[A-Za-z0-9_\-]+`)

// secretMarks are what every match of secretText holds: where none is, it need not run.
var secretMarks = []string{"token", "api_key", "secret_key", "password", "k_test_", "k_live_"}

// findSecretText returns the matches of secretText in s.
func findSecretText(s string) [][]int {
	if !slices.ContainsFunc(secretMarks, func(mark string) bool { return strings.Contains(s, mark) }) {
		return nil
	}
	return secretText.FindAllStringSubmatchIndex(s, -1)
}

// span is the bytes [from, to) of a text.
type span struct{ from, to int }

// scrub returns text with every secret in it replaced by "[REDACTED]". It looks at text as it is
// and as it reads with its JSON escapes (\u0074) and percent-escapes (%74) decoded, so that an
// escaped secret is found too.
func scrub(text string) string { return scrubCut(text, len(text)) }

// scrubCut returns at most keep bytes: the first keep bytes of text, scrubbed. Text must hold at
// least cutSlack bytes beyond keep (or end before), so that every secret that starts within keep
// ends within text, escaped or not; a secret the cut crosses is hidden whole.
func scrubCut(text string, keep int) string {
	keep = min(keep, len(text))
	spans := secrets(text, keep)
	if len(spans) == 0 {
		return text[:keep]
	}
	var b strings.Builder
	at := 0
	for _, sp := range spans {
		b.WriteString(text[at:sp.from])
		b.WriteString(redacted)
		at = sp.to
	}
	if at < keep {
		b.WriteString(text[at:keep])
	}
	return b.String()[:min(b.Len(), keep)]
}

// cutSlack is how far beyond a cut scrubCut needs to see: a key (at most 108 bytes, checkKeys) or
// a token, each character \u-escaped (6 bytes), with room for the start of a JSON member.
const cutSlack = 6*max(108, minTokenRun) + 64

// secrets returns where text holds secrets that start before end, in order and merged, as spans
// of text that never split an escape.
func secrets(text string, end int) []span {
	var spans []span
	add := func(from, to int) {
		if from < end && from < to {
			spans = append(spans, span{from, to})
		}
	}
	view, from := unescape(text)
	down, up := func(i int) int { return i }, func(i int) int { return i }
	if from != nil { // a span found in text grows to whole escapes
		down = func(i int) int { return from[sort.SearchInts(from, i+1)-1] }
		up = func(i int) int { return from[sort.SearchInts(from, i)] }
	}
	for _, m := range findSecretText(text) {
		if v := valueOf(text, m); !isRedacted(text[v:m[1]]) {
			add(down(v), up(m[1]))
		}
	}
	for _, r := range hexRuns(text, minTokenRun) {
		add(down(r.from), up(r.to))
	}
	if from != nil { // a span found in the view is the escapes it was decoded from
		for _, m := range findSecretText(view) {
			if v := valueOf(view, m); !isRedacted(view[v:m[1]]) {
				add(from[v], from[m[1]])
			}
		}
		for _, r := range hexRuns(view, minTokenRun) {
			add(from[r.from], from[r.to])
		}
	}
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	merged := spans[:0]
	for _, sp := range spans {
		if n := len(merged); n > 0 && sp.from <= merged[n-1].to {
			merged[n-1].to = max(merged[n-1].to, sp.to)
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// isRedacted tells whether a secret's value is "[REDACTED]" already, plain or percent-encoded.
func isRedacted(value string) bool { return value == redacted || value == "%5BREDACTED%5D" }

// valueOf returns where the secret of secretText's match m of s starts: after the member's or
// field's name, if it has one.
func valueOf(s string, m []int) int { return m[0] + max(m[3]-m[2], m[5]-m[4], 0) }

// hexRuns returns the runs of least or more hex digits in s.
func hexRuns(s string, least int) []span {
	var out []span
	from := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && isHex(s[i]) {
			if from < 0 {
				from = i
			}
			continue
		}
		if from >= 0 && i-from >= least {
			out = append(out, span{from, i})
		}
		from = -1
	}
	return out
}

// isHex tells whether c is a hex digit.
func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// unescape returns text with its JSON escapes (\u0074, \n, ...) and percent-escapes (%74)
// decoded, and for each byte of that view where it starts in text (an escape's bytes all start
// at its backslash or percent sign), then len(text). Text without a backslash or a percent sign
// is its own view: then from is nil.
func unescape(text string) (view string, from []int) {
	if !strings.ContainsAny(text, `\%`) {
		return text, nil
	}
	var b strings.Builder
	from = make([]int, 0, len(text)+1)
	emit := func(s string, start int) {
		b.WriteString(s)
		for range len(s) {
			from = append(from, start)
		}
	}
	for i := 0; i < len(text); {
		switch c := text[i]; {
		case c == '\\' && i+1 < len(text):
			if r, n := jsonEscape(text[i:]); n > 0 {
				emit(string(r), i)
				i += n
				continue
			}
		case c == '%' && i+2 < len(text) && isHex(text[i+1]) && isHex(text[i+2]):
			emit(string([]byte{unhex(text[i+1])<<4 | unhex(text[i+2])}), i)
			i += 3
			continue
		}
		emit(text[i:i+1], i)
		i++
	}
	return b.String(), append(from, len(text))
}

// jsonEscape decodes the JSON escape s starts with: the rune and its length, or 0 for none.
func jsonEscape(s string) (rune, int) {
	switch s[1] {
	case '"', '\\', '/':
		return rune(s[1]), 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		if len(s) >= 6 && isHex(s[2]) && isHex(s[3]) && isHex(s[4]) && isHex(s[5]) {
			r := rune(unhex(s[2]))<<12 | rune(unhex(s[3]))<<8 | rune(unhex(s[4]))<<4 | rune(unhex(s[5]))
			if !utf8.ValidRune(r) {
				r = utf8.RuneError
			}
			return r, 6
		}
	}
	return 0, 0
}

// unhex returns the value of the hex digit c.
func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// credentialHeaders are the headers whose value is a credential after its scheme: the log keeps
// the scheme ("Basic [REDACTED]").
var credentialHeaders = []string{"Authorization", "Proxy-Authorization"}

// oneLine keeps a header value on its line.
var oneLine = strings.NewReplacer("\r", " ", "\n", " ")

// scrubHeader returns h as the log keeps it: its lines "Name: value\n", names sorted, every name
// scrubbed by scrubName and every value by scrub, credentials redacted after their scheme.
func scrubHeader(h http.Header) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(h)) {
		shown := scrubName(name)
		for _, v := range h[name] {
			if slices.Contains(credentialHeaders, name) {
				scheme, _, found := strings.Cut(v, " ")
				if v = redacted; found {
					v = scheme + " " + redacted
				}
			}
			b.WriteString(shown + ": " + oneLine.Replace(scrub(v)) + "\n")
		}
	}
	return b.String()
}

// minNameHexRun is the shortest run of hex digits scrubName hides in a header name: no header
// name a client needs holds one, and a piece of a token may (X-<20 digits of it>).
const minNameHexRun = 8

// scrubName answers a header name as the log keeps it: scrubbed as values are, and every run of
// minNameHexRun or more hex digits hidden, so that a piece of a token is hidden too.
func scrubName(name string) string {
	name = scrub(name)
	runs := hexRuns(name, minNameHexRun)
	for _, r := range slices.Backward(runs) {
		name = name[:r.from] + redacted + name[r.to:]
	}
	return name
}

// parseHeader reads lines written by scrubHeader.
func parseHeader(lines string) http.Header {
	h := http.Header{}
	for line := range strings.Lines(lines) {
		name, value, _ := strings.Cut(strings.TrimSuffix(line, "\n"), ": ")
		h[name] = append(h[name], value)
	}
	return h
}

// hideValues returns a copy of v without token and with api_key, secret_key and every password
// field (user[password], user[password_confirmation]) redacted, and whether anything was removed
// or redacted.
func hideValues(v url.Values) (url.Values, bool) {
	out := make(url.Values, len(v))
	_, changed := v["token"]
	for key, values := range v {
		switch {
		case key == "token":
		case secretName(key):
			out[key] = slices.Repeat([]string{redacted}, len(values))
			changed = true
		default:
			out[key] = values
		}
	}
	return out, changed
}

// secretName tells whether a parameter named name, or its last segment (user[password]), holds a
// secret whatever its value: api_key, secret_key or a password.
func secretName(name string) bool {
	name = strings.TrimSuffix(name[strings.LastIndex(name, "[")+1:], "]")
	return name == "api_key" || name == "secret_key" || name == "password" || name == "password_confirmation"
}

// hideJSON returns m, a decoded JSON object, without token (at the top level only: a nested one is
// data) and with api_key, secret_key and every password field redacted at any depth, and whether
// anything was removed or redacted.
func hideJSON(m map[string]any, top bool) (map[string]any, bool) {
	out := make(map[string]any, len(m))
	changed := false
	for k, v := range m {
		var c bool
		switch {
		case top && k == "token":
			changed = true
			continue
		case secretName(k):
			v, c = redacted, true
		default:
			v, c = hideNested(v)
		}
		out[k] = v
		changed = changed || c
	}
	return out, changed
}

// hideNested returns v, a decoded JSON value, with the objects it holds at any depth hidden as
// hideJSON does, and whether anything was.
func hideNested(v any) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		return hideJSON(v, false)
	case []any:
		out := make([]any, len(v))
		changed := false
		for i, item := range v {
			var c bool
			out[i], c = hideNested(item)
			changed = changed || c
		}
		return out, changed
	}
	return v, false
}
