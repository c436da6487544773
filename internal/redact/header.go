package redact

import (
	"net/http"
	"strings"
)

// Header masks, in place, every secret String would mask in the names and
// values of h: a server may echo a token or a key in a request ID, a
// Location or a cookie. The header is read whole first, one line a name or
// value: an answer that holds no secret and no JSON escape (which a value
// must be read alone for) costs one pass, without the patterns' regular
// expression when no line holds what they need.
func (r *Redactor) Header(h http.Header) {
	if len(h) == 0 {
		return
	}
	n := 0
	for name, vs := range h {
		n += len(name) + 1
		for _, v := range vs {
			n += len(v) + 1
		}
	}
	var b strings.Builder
	b.Grow(n)
	for name, vs := range h {
		b.WriteString(name)
		for _, v := range vs {
			b.WriteByte('\n')
			b.WriteString(v)
		}
		b.WriteByte('\n')
	}
	whole := b.String()
	if !strings.Contains(whole, `\`) && !mayMatchPatterns(whole) && r.known(whole) == whole {
		return
	}
	for name, vs := range h {
		for i, v := range vs {
			vs[i] = r.String(v)
		}
		if clean := r.String(name); clean != name {
			delete(h, name)
			h[clean] = append(h[clean], vs...)
		}
	}
}

// mayMatchPatterns reports whether s, which holds no JSON escape, holds a
// literal that every match of patterns holds: a key's "k_test_" or
// "k_live_", "token=", or a quoted "token", "api_key" or "secret_key".
func mayMatchPatterns(s string) bool {
	for _, lit := range [...]string{"k_test_", "k_live_", "token=", `"token"`, `"api_key"`, `"secret_key"`} {
		if strings.Contains(s, lit) {
			return true
		}
	}
	return false
}
