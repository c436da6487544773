package workforce

import (
	"bytes"
	"unicode/utf8"
)

// The JSON scans of the fast decoder (decode_fast.go), each checking what it
// reads as encoding/json would.

// name reads the member name at data[i], which must be plain: no escape,
// ASCII only. It returns the name and the index after its closing quote,
// or -1.
func (d *fastDecoder) name(i int) ([]byte, int) {
	if i >= len(d.data) || d.data[i] != '"' {
		return nil, -1
	}
	for j := i + 1; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			return d.data[i+1 : j], j + 1
		case c == '\\', c < 0x20, c >= utf8.RuneSelf:
			return nil, -1
		}
	}
	return nil, -1
}

// enter and leave follow the depth of nesting.
func (d *fastDecoder) enter() bool { d.depth++; return d.depth <= maxFastDepth }
func (d *fastDecoder) leave()      { d.depth-- }

// skip checks the value at data[i], counting its items and members, and
// returns the index after it, or -1.
func (d *fastDecoder) skip(i int) int {
	if i >= len(d.data) {
		return giveUp
	}
	switch c := d.data[i]; {
	case c == '"':
		end, _ := scanString(d.data, i)
		return end
	case c == '{' || c == '[':
		if !d.item() || !d.enter() {
			return giveUp
		}
		defer d.leave()
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		i = skipSpace(d.data, i+1)
		if i < len(d.data) && d.data[i] == closing {
			return i + 1
		}
		for {
			if c == '{' {
				end, _ := scanString(d.data, i)
				if end < 0 || !d.member() {
					return giveUp
				}
				if i = skipSpace(d.data, end); i >= len(d.data) || d.data[i] != ':' {
					return giveUp
				}
				i = skipSpace(d.data, i+1)
			} else if !d.item() {
				return giveUp
			}
			end := d.skip(i)
			if end < 0 {
				return giveUp
			}
			var done bool
			if i, done = d.after(end, closing); done {
				return i
			}
		}
	case c == 't':
		return literal(d.data, i, "true")
	case c == 'f':
		return literal(d.data, i, "false")
	case c == 'n':
		return literal(d.data, i, "null")
	default:
		return scanNumber(d.data, i)
	}
}

// literal returns the index after the literal word at data[i], or -1.
func literal(data []byte, i int, word string) int {
	if !bytes.HasPrefix(data[i:], []byte(word)) {
		return -1
	}
	return i + len(word)
}

// scanString returns the index after the JSON string at data[i], or -1
// when it is not one, and whether its text is as written: no escape, and
// valid UTF-8.
func scanString(data []byte, i int) (end int, plain bool) {
	if i >= len(data) || data[i] != '"' {
		return -1, false
	}
	plain, ascii := true, true
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			if !ascii && plain {
				plain = utf8.Valid(data[i+1 : j])
			}
			return j + 1, plain
		case c < 0x20:
			return -1, false
		case c >= utf8.RuneSelf:
			ascii = false
		case c == '\\':
			plain = false
			j++
			if j >= len(data) {
				return -1, false
			}
			switch data[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(data) || !isHex(data[j+1]) || !isHex(data[j+2]) || !isHex(data[j+3]) || !isHex(data[j+4]) {
					return -1, false
				}
				j += 4
			default:
				return -1, false
			}
		}
	}
	return -1, false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// scanNumber returns the index after the JSON number at data[i], or -1.
func scanNumber(data []byte, i int) int {
	digits := func(j int) int {
		k := j
		for k < len(data) && data[k] >= '0' && data[k] <= '9' {
			k++
		}
		if k == j {
			return -1
		}
		return k
	}
	if i < len(data) && data[i] == '-' {
		i++
	}
	if i >= len(data) {
		return -1
	}
	if data[i] == '0' {
		i++
	} else if i = digits(i); i < 0 {
		return -1
	}
	if i < len(data) && data[i] == '.' {
		if i = digits(i + 1); i < 0 {
			return -1
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i = digits(i); i < 0 {
			return -1
		}
	}
	return i
}

// skipSpace returns the index of the first byte at or after i in data
// that is not JSON space.
func skipSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t') {
		i++
	}
	return i
}
