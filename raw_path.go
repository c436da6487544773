package workforce

// The rules a RawRequest's Path must pass (Client.Do): a clean relative
// path below /api_v2/, never the authenticate endpoint in any spelling.

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// checkPath refuses a path that is not a clean relative path below
// /api_v2/: segments separated by single slashes, each of letters, digits,
// -._~!$&'()*+,=:@ (':' not in the first, where it reads as a scheme) and
// percent-escapes of other printable ASCII (not / \ ? # % ; or '.', which
// could smuggle a query or a step up) or of UTF-8 text (not in the first
// segment, and no rune unsafeRune refuses), none "." or "..".
// Controls, raw spaces and non-ASCII, ';', a malformed escape, an empty
// segment, a scheme or a host are refused.
func checkPath(p string) error {
	if p == "" {
		return &ArgumentError{Name: "Path", Reason: "is required"}
	}
	for n, seg := range strings.Split(p, "/") {
		if n == 0 && strings.Contains(seg, ":") {
			return &ArgumentError{Name: "Path", Reason: fmt.Sprintf("starts with %q: a first segment holding ':' reads as a scheme", seg)}
		}
		if escaped, err := url.PathUnescape(seg); err != nil || !utf8.ValidString(escaped) {
			return &ArgumentError{Name: "Path", Reason: fmt.Sprintf("holds %q: a percent-escape must be two hex digits, and the escapes of a segment UTF-8 text", seg)}
		}
		if seg == "" {
			return &ArgumentError{Name: "Path", Reason: "must be a path below /api_v2/ without empty segments, such as \"jobs/42\": no host, no leading, doubled or trailing /"}
		}
		escaped, _ := url.PathUnescape(seg)
		if strings.TrimFunc(escaped, func(r rune) bool { return r == '.' || unicode.IsSpace(r) }) == "" || strings.TrimSpace(escaped) != escaped {
			return &ArgumentError{Name: "Path", Reason: "must not hold a segment of only dots and spaces (. or .. in any form), nor one beginning or ending with a space"}
		}
		if r, ok := unsafeRune(escaped); ok {
			return &ArgumentError{Name: "Path", Reason: fmt.Sprintf("holds %+q: no invisible or control character (bidi controls, zero-width), nor one that servers normalising Unicode read as ASCII (fullwidth forms, dot leaders)", r)}
		}
		if n == 0 && strings.ContainsFunc(escaped, func(r rune) bool { return r >= utf8.RuneSelf }) {
			return &ArgumentError{Name: "Path", Reason: "must begin with an ASCII segment, the resource (such as jobs): a server normalising Unicode may read other letters as ASCII"}
		}
		for i := 0; i < len(seg); i++ {
			b := seg[i]
			switch {
			case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9', strings.IndexByte("-._~!$&'()*+,=:@", b) >= 0:
			case b == '%':
				d, ok := unhex(seg[i+1:])
				if !ok || d < ' ' || d == 0x7f || strings.IndexByte(`/\?#%.;`, d) >= 0 {
					return &ArgumentError{Name: "Path", Reason: fmt.Sprintf("holds %.3q: a percent-escape must be two hex digits of a printable character other than / \\ ? # %% ; and ., or of UTF-8 text", seg[i:])}
				}
				i += 2
			default:
				r, _ := utf8.DecodeRuneInString(seg[i:])
				return &ArgumentError{Name: "Path", Reason: fmt.Sprintf("holds %q: a path below /api_v2/ holds only letters, digits, -._~!$&'()*+,=:@, percent-escapes and slashes (no query, fragment, ';', scheme, space or control character)", r)}
			}
		}
	}
	return nil
}

// unsafeRune returns the first rune of s, a path segment with its escapes
// undone, that a path may not hold although it is UTF-8 text: a control
// or format character (C1 controls, bidi controls, zero-width characters,
// a byte order mark), which hides what the path says in logs and
// Endpoint names; or a character that a server normalising Unicode (NFKC)
// reads as ASCII, which could turn it into a step up or a slash: the
// fullwidth forms of ASCII, the dot leaders and ellipsis, the small full
// stop.
func unsafeRune(s string) (rune, bool) {
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || ('\uff01' <= r && r <= '\uff5e') ||
			('\u2024' <= r && r <= '\u2026') || r == '\ufe52' {
			return r, true
		}
	}
	return 0, false
}

// isAuthenticate reports whether a path checkPath took may reach POST
// /authenticate on a server that reads it loosely: its first segment, its
// escapes undone, is "authenticate" in any case, with anything after a dot
// (a format such as ".json", trailing dots) or trailing spaces.
func isAuthenticate(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	first, _ = url.PathUnescape(first)
	first, _, _ = strings.Cut(first, ".")
	return strings.EqualFold(strings.TrimRight(first, " \t"), authentication.path)
}

// unhex reads the byte that the two hex digits at the start of s write.
func unhex(s string) (byte, bool) {
	if len(s) < 2 {
		return 0, false
	}
	var v byte
	for _, c := range []byte(s[:2]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | c
	}
	return v, true
}
