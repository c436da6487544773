package redact

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A view is a text with its escapes undone, JSON's (\u0073, a surrogate
// pair, \/, \n, ...) and the percent-escapes of a URL (%2F, in either
// case), so that a secret is found in it plain whatever mix of forms the
// text wrote it in. Each of its bytes knows the part of the text it came
// from, so that what is found is masked in the text as written.
type view struct {
	text     string
	from, to []int32 // the source of byte i of text is [from[i], to[i]); nil when text is the source
}

// escaped reports whether the view differs from its source.
func (v view) escaped() bool { return v.from != nil }

// decode returns the view of s.
func decode(s string) view {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '\\') < 0 {
		return view{text: s}
	}
	b := make([]byte, 0, len(s))
	from := make([]int32, 0, len(s))
	to := make([]int32, 0, len(s))
	changed := false
	var unit [utf8.UTFMax]byte
	for i := 0; i < len(s); {
		start, n := i, 0
		switch c := s[i]; {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			unit[0], n = unhex(s[i+1])<<4|unhex(s[i+2]), 1
			i += 3
		case c == '\\' && i+1 < len(s):
			r, size := unescape(s[i:])
			if size == 0 { // not an escape: the backslash itself
				unit[0], n = c, 1
				i++
				break
			}
			n = utf8.EncodeRune(unit[:], r)
			i += size
		default:
			unit[0], n = c, 1
			i++
		}
		changed = changed || i-start != 1
		for _, c := range unit[:n] {
			b = append(b, c)
			from = append(from, int32(start))
			to = append(to, int32(i))
		}
	}
	if !changed {
		return view{text: s}
	}
	return view{text: string(b), from: from, to: to}
}

// unescape reads the JSON escape at the start of s, a backslash, and
// returns the character it writes and its length, or a length of 0 when s
// starts with no escape. A lone surrogate is U+FFFD, as encoding/json
// reads it.
func unescape(s string) (rune, int) {
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
		r, ok := hex4(s[2:])
		if !ok {
			return 0, 0
		}
		if !utf16.IsSurrogate(r) {
			return r, 6
		}
		if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if r2, ok := hex4(s[8:]); ok {
				if c := utf16.DecodeRune(r, r2); c != utf8.RuneError {
					return c, 12
				}
			}
		}
		return utf8.RuneError, 6
	}
	return 0, 0
}

// hex4 reads the four hex digits at the start of s.
func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[:4]) {
		if !isHex(c) {
			return 0, false
		}
		r = r<<4 | rune(unhex(c))
	}
	return r, true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// unhex returns the value of the hex digit c.
func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// source maps spans of the view's text to the parts of its source they
// came from, whole escapes included.
func (v view) source(spans []span) []span {
	for i, sp := range spans {
		start := int(v.to[len(v.to)-1]) // the end of the source, for an empty span at the end
		if sp.start < len(v.from) {
			start = int(v.from[sp.start])
		}
		end := start
		if sp.end > sp.start {
			end = int(v.to[sp.end-1])
		}
		spans[i] = span{start, end}
	}
	return spans
}
