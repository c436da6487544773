package workforce

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"unicode/utf8"

	"github.com/workforce-marketplace/workforce-go/internal/jsonscan"
)

// The JSON scans of the fast decoder (decode_fast.go), and its reading of
// strings and integers, each checking what it reads as encoding/json would.

// text decodes the string at data[i] into v, a string.
func (d *fastDecoder) text(i int, v reflect.Value) int {
	end, plain := scanString(d.data, i)
	switch {
	case end < 0:
		return giveUp
	case plain:
		v.SetString(string(d.data[i+1 : end-1]))
	case json.Unmarshal(d.data[i:end:end], v.Addr().Interface()) != nil: // escapes, invalid UTF-8
		return giveUp
	}
	return end
}

// integer decodes the number at data[i] into v, an integer, as
// encoding/json does: a number with a fraction or an exponent, or one out
// of v's range, is not one.
func (d *fastDecoder) integer(i int, v reflect.Value) int {
	j, neg := i, false
	if j < len(d.data) && d.data[j] == '-' {
		j, neg = j+1, true
	}
	var n uint64
	start := j
	for ; j < len(d.data) && d.data[j] >= '0' && d.data[j] <= '9'; j++ {
		if n > (math.MaxUint64-9)/10 {
			return mismatch
		}
		n = n*10 + uint64(d.data[j]-'0')
	}
	switch {
	case j == start, d.data[start] == '0' && j-start > 1: // not a number, or a leading zero
		return mismatch
	case j < len(d.data) && (d.data[j] == '.' || d.data[j] == 'e' || d.data[j] == 'E'):
		return mismatch
	case neg && n > 1<<63, !neg && n > math.MaxInt64:
		return mismatch
	}
	x := int64(n)
	if neg {
		x = -x
	}
	if v.OverflowInt(x) {
		return mismatch
	}
	v.SetInt(x)
	return j
}

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
		i = jsonscan.SkipSpace(d.data, i+1)
		if i < len(d.data) && d.data[i] == closing {
			return i + 1
		}
		for {
			if c == '{' {
				end, _ := scanString(d.data, i)
				if end < 0 || !d.member() {
					return giveUp
				}
				if i = jsonscan.SkipSpace(d.data, end); i >= len(d.data) || d.data[i] != ':' {
					return giveUp
				}
				i = jsonscan.SkipSpace(d.data, i+1)
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
