// Package jsonscan finds the extent of JSON values without decoding them:
// the member of an object under a key, and the elements of an array. It is
// a fast structural scan that trusts encoding/json to judge validity later:
// on malformed input it reports false or nil, never panics.
package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Member returns the value of the top-level object data under key, a
// subslice of data, and whether data is an object holding key. Keys with
// escapes are compared as written.
func Member(data []byte, key string) ([]byte, bool) {
	var found []byte
	walk(data, func(name, value []byte) bool {
		if string(name) == key {
			found = value
			return false
		}
		return true
	})
	return found, found != nil
}

// Envelope returns, in one scan of the top-level object data, the value
// of its last member named key, as encoding/json reads duplicates, with
// each name compared with its escapes undone ("\u006aob" is "job"); the
// index in data where that value starts; and how many members data has.
// n is -1 when data is not a well-formed object followed by nothing but
// spaces (a second document, garbage).
func Envelope(data []byte, key string) (value []byte, at, n int) {
	end, ok := walkAt(data, func(name []byte, start, end int) bool {
		n++
		if nameIs(name, key) {
			value, at = data[start:end:end], start
		}
		return true
	})
	if !ok || SkipSpace(data, end) != len(data) {
		return nil, 0, -1
	}
	return value, at, n
}

// nameIs tells whether name, as written between its quotes, is key once
// its escapes are undone.
func nameIs(name []byte, key string) bool {
	if bytes.IndexByte(name, '\\') < 0 {
		return string(name) == key
	}
	var s string
	q := make([]byte, 0, len(name)+2)
	q = append(append(append(q, '"'), name...), '"')
	return json.Unmarshal(q, &s) == nil && s == key
}

// Members calls fn with the name (as written, escapes kept) and the value
// of each member of the top-level object data, in order, until fn returns
// false. It reports whether data was an object scanned to its end (or to
// where fn stopped).
func Members(data []byte, fn func(name, value []byte) bool) bool { return walk(data, fn) }

// Len returns how many members the top-level object data has, or -1 when
// data is not a well-formed object.
func Len(data []byte) int {
	n := 0
	if !walk(data, func(_, _ []byte) bool { n++; return true }) {
		return -1
	}
	return n
}

// walk calls fn with the name and value of each member of the top-level
// object data, in order, until fn returns false. It returns whether data
// was an object scanned to its end (or to where fn stopped).
func walk(data []byte, fn func(name, value []byte) bool) bool {
	_, ok := walkAt(data, func(name []byte, start, end int) bool { return fn(name, data[start:end:end]) })
	return ok
}

// walkAt is walk with each value given by where it starts and ends in
// data; it also returns the index after the object's closing brace (or
// after the value where fn stopped).
func walkAt(data []byte, fn func(name []byte, start, end int) bool) (int, bool) {
	i := SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return i, false
	}
	if i = SkipSpace(data, i+1); i < len(data) && data[i] == '}' {
		return i + 1, true
	}
	for {
		i = SkipSpace(data, i)
		if i >= len(data) || data[i] != '"' {
			return i, false
		}
		end := skipString(data, i)
		if end < 0 {
			return i, false
		}
		name := data[i+1 : end-1]
		i = SkipSpace(data, end)
		if i >= len(data) || data[i] != ':' {
			return i, false
		}
		start := SkipSpace(data, i+1)
		end = skipValue(data, start)
		if end < 0 {
			return start, false
		}
		if !fn(name, start, end) {
			return end, true
		}
		i = SkipSpace(data, end)
		switch {
		case i >= len(data):
			return i, false
		case data[i] == '}':
			return i + 1, true
		case data[i] != ',':
			return i, false
		}
		i++
	}
}

// Elements returns the elements of the JSON array data, each a subslice of
// data with its capacity capped at its end, or nil when data is not a
// well-formed array.
func Elements(data []byte) [][]byte {
	out := [][]byte{}
	if !each(data, func(e []byte) { out = append(out, e) }) {
		return nil
	}
	return out
}

// ArrayLen returns how many elements the JSON array data holds, or -1 when
// data is not a well-formed array. It allocates nothing.
func ArrayLen(data []byte) int {
	n := 0
	if !each(data, func([]byte) { n++ }) {
		return -1
	}
	return n
}

// each calls fn with each element of the JSON array data, in order, and
// returns whether data was a well-formed array.
func each(data []byte, fn func(elem []byte)) bool {
	i := SkipSpace(data, 0)
	if i >= len(data) || data[i] != '[' {
		return false
	}
	i = SkipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return true
	}
	for {
		start := SkipSpace(data, i)
		end := skipValue(data, start)
		if end < 0 {
			return false
		}
		fn(data[start:end:end])
		i = SkipSpace(data, end)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i++
		case ']':
			return true
		default:
			return false
		}
	}
}

// MaxDepth is the deepest nesting Count follows: that of encoding/json,
// which refuses deeper text.
const MaxDepth = 10000

// Count counts, in the JSON text data at every depth, its items (objects,
// arrays, and the elements of arrays) and its members (of objects): a
// bound on how many values decoding it allocates, found without decoding
// it. It stops once items passes maxItems or members passes maxMembers,
// returning that count as one past its bound; text nested deeper than
// MaxDepth returns items maxItems+1. Malformed text is counted as far as
// it reads (encoding/json judges it later). Count allocates nothing.
func Count(data []byte, maxItems, maxMembers int) (items, members int) {
	var arrays [MaxDepth/64 + 1]uint64 // bit d: the container at depth d is an array
	depth := 0
	for i := 0; i < len(data) && items <= maxItems && members <= maxMembers; i++ {
		switch c := data[i]; c {
		case '"':
			end := skipString(data, i)
			if end < 0 {
				return items, members
			}
			i = end - 1
		case ':':
			members++
		case '{', '[':
			if depth == MaxDepth {
				return maxItems + 1, members
			}
			items++
			if c == '[' {
				arrays[depth/64] |= 1 << (depth % 64)
				if j := SkipSpace(data, i+1); j < len(data) && data[j] != ']' {
					items++ // its first element
				}
			} else {
				arrays[depth/64] &^= 1 << (depth % 64)
			}
			depth++
		case '}', ']':
			depth = max(depth-1, 0)
		case ',':
			if depth > 0 && arrays[(depth-1)/64]&(1<<((depth-1)%64)) != 0 {
				items++ // a further element
			}
		}
	}
	return min(items, maxItems+1), min(members, maxMembers+1)
}

// SkipSpace returns the index of the first byte at or after i in data
// that is not JSON space.
func SkipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at data[i], a
// quote, or -1.
func skipString(data []byte, i int) int {
	for i++; i < len(data); i++ {
		q := bytes.IndexByte(data[i:], '"') // fast: strings are most of a document
		if q < 0 {
			return -1
		}
		i += q
		escapes := 0
		for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
			escapes++
		}
		if escapes%2 == 0 {
			return i + 1
		}
	}
	return -1
}

// skipValue returns the index after the value starting at data[i], or -1.
func skipValue(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0
		for ; i < len(data); i++ {
			switch data[i] {
			case '"':
				if i = skipString(data, i); i < 0 {
					return -1
				}
				i--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return -1
	default: // number, true, false, null
		end := i
		for end < len(data) && strings.IndexByte(" \t\r\n,:]}", data[end]) < 0 {
			end++
		}
		if end == i {
			return -1
		}
		return end
	}
}
