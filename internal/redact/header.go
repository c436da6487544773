package redact

import (
	"net/http"
	"strings"
)

// Header masks, in place, every secret String would mask in the names and
// values of h: a server may echo a token or a key in a request ID, a
// Location or a cookie. The header is read whole first, one line a name or
// value: an answer that holds no secret costs one linear pass.
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
	if r.String(whole) == whole {
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
