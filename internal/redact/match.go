package redact

import (
	"slices"
	"strings"
)

// A matcher finds one set of known secrets in a view's text (see decode):
// a key's or a token's starts and ends MinPrefix bytes or longer (so the
// whole of it too), and the whole of a secret hidden whole only. Its cost
// is linear in the length of the text: each secret is looked for by a
// key of a few bytes, found with strings.Index, or, when there are many,
// by one pass over the text that looks each eight bytes up in an index.
type matcher struct {
	secrets []string // as Redactor.Secrets returned them: the set the matcher is for
	entries []entry
	index   map[uint64][]int32 // entries by their key, when there are many; nil otherwise
	short   []int32            // entries whose key is shorter than eight bytes, searched one by one
}

// An entry is one way to find a secret: by its start, or by its end.
type entry struct {
	v   string
	key string // what is searched: v's first bytes (a start) or its last MinPrefix (an end)
	end bool   // the key ends v: a match is extended backwards
}

// indexAt is the number of entries from which a matcher indexes them
// instead of searching the text for each.
const indexAt = 12

// matcher returns the matcher of r's secrets, built once for each set of
// them, or nil when there is none.
func (r *Redactor) matcher() *matcher {
	if r == nil {
		return nil
	}
	var secrets []string
	if r.Secrets != nil {
		secrets = r.Secrets()
	}
	if len(secrets) == 0 && len(r.whole) == 0 {
		return nil
	}
	if f := r.cache.Load(); f != nil {
		if m := (*f)(); same(m.secrets, secrets) || slices.Equal(m.secrets, secrets) {
			return m
		}
	}
	m := newMatcher(secrets, r.whole)
	f := func() *matcher { return m }
	r.cache.Store(&f)
	return m
}

// newMatcher returns the matcher of random (keys and tokens: starts and
// ends too) and whole (whole only).
func newMatcher(random, whole []string) *matcher {
	m := &matcher{secrets: random}
	add := func(v string, startLen int, end bool) {
		for _, form := range forms(v) {
			m.entries = append(m.entries, entry{v: form, key: form[:startLen]})
			if end {
				m.entries = append(m.entries, entry{v: form, key: form[len(form)-MinPrefix:], end: true})
			}
		}
	}
	seen := map[string]bool{"": true}
	for _, v := range random {
		if seen[v] {
			continue
		}
		seen[v] = true
		if n := prefixLen(v); n > 0 {
			add(v, n, len(v) > MinPrefix)
		} else {
			add(v, len(v), false)
		}
	}
	for _, v := range whole {
		if !seen[v] {
			seen[v] = true
			add(v, len(v), false)
		}
	}
	long := 0
	for _, e := range m.entries {
		if len(e.key) >= 8 {
			long++
		}
	}
	if long < indexAt {
		return m
	}
	m.index = make(map[uint64][]int32, long)
	for i, e := range m.entries {
		if len(e.key) < 8 {
			m.short = append(m.short, int32(i))
			continue
		}
		k := key8(e.key)
		m.index[k] = append(m.index[k], int32(i))
	}
	return m
}

// forms returns v, v with its spaces written + as a form's query writes
// them (a percent-escaped space is undone by decode), and v with its +
// written as spaces, as a form decoder reads them back.
func forms(v string) []string {
	out := []string{v}
	if strings.IndexByte(v, ' ') >= 0 {
		out = append(out, strings.ReplaceAll(v, " ", "+"))
	}
	if strings.IndexByte(v, '+') >= 0 { // read back by a form decoder, a '+' is a space
		out = append(out, strings.ReplaceAll(v, "+", " "))
	}
	return out
}

// find adds to spans each part of t where a secret of m shows.
func (m *matcher) find(t string, spans []span) []span {
	if m == nil {
		return spans
	}
	if m.index == nil {
		for i := range m.entries {
			spans = m.entries[i].findAll(t, spans)
		}
		return spans
	}
	last := make([]int, len(m.entries)) // where each entry's last span ended
	for i := 0; i+8 <= len(t); i++ {
		for _, id := range m.index[key8(t[i:])] {
			e := &m.entries[id]
			if i < last[id] {
				continue
			}
			if sp, ok := e.at(t, i, last[id]); ok {
				spans = append(spans, sp)
				last[id] = max(sp.end, i+1)
			}
		}
	}
	for _, id := range m.short {
		spans = m.entries[id].findAll(t, spans)
	}
	return spans
}

// findAll adds to spans each part of t where e's secret shows.
func (e *entry) findAll(t string, spans []span) []span {
	last := 0
	for pos := 0; pos < len(t); {
		k := strings.Index(t[pos:], e.key)
		if k < 0 {
			break
		}
		i := pos + k
		pos = i + 1
		if sp, ok := e.at(t, i, last); ok {
			spans = append(spans, sp)
			last = sp.end
			pos = max(pos, sp.end)
		}
	}
	return spans
}

// at returns the span of e's secret in t whose key is found at i, and
// whether there is one: from a start, as far as t goes on matching it;
// from an end, as far back as t matches it, but not before floor (where
// the previous span of e ended).
func (e *entry) at(t string, i, floor int) (span, bool) {
	if !strings.HasPrefix(t[i:], e.key) {
		return span{}, false
	}
	if e.end {
		j, k := i, len(e.v)-len(e.key) // t[j:] matches e.v[k:]
		for j > floor && k > 0 && t[j-1] == e.v[k-1] {
			j, k = j-1, k-1
		}
		return span{utf8Start(t, j), i + len(e.key)}, true
	}
	j := len(e.key)
	for i+j < len(t) && j < len(e.v) && t[i+j] == e.v[j] {
		j++
	}
	return span{i, utf8End(t, i+j)}, true
}

// key8 returns the first eight bytes of s as a number, for the index.
func key8(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// same tells whether a and b are one slice: the set of secrets returned
// again, which needs no comparing.
func same(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
