package workforce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// A Decimal is a decimal number as the API sends it: wages, rates, ratings,
// coordinates. The API writes these as JSON numbers or as strings ("5.0"),
// and an absent one as null or "". A Decimal keeps the digits it was given,
// so no precision is lost, and its zero value is "absent", distinct from 0.
// Since the digits are kept, "5.0" and "5" are different Decimals to ==:
// compare numbers with Float64.
type Decimal struct {
	text string // the number as written, without quotes; "" when absent
}

// NewDecimal returns the Decimal for f. NaN and the infinities have no
// decimal form: sending one is an error.
func NewDecimal(f float64) Decimal {
	return Decimal{text: strconv.FormatFloat(f, 'f', -1, 64)}
}

// ParseDecimal reads a decimal number such as "18.50", "-3e2" or "1e400",
// keeping its digits. Forms JSON does not write, such as ".5", "5." and
// "+5", are read too and kept in their shortest JSON form.
func ParseDecimal(s string) (Decimal, error) {
	s = strings.TrimSpace(s)
	if s != "" && (s[0] == '-' || ('0' <= s[0] && s[0] <= '9')) && json.Valid([]byte(s)) {
		return Decimal{text: s}, nil // a JSON number, however large
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || strings.ContainsAny(s, "xXnN_") {
		return Decimal{}, &ArgumentError{Name: "decimal", Reason: fmt.Sprintf("%q is not a decimal number", s)}
	}
	return Decimal{text: strconv.FormatFloat(f, 'f', -1, 64)}, nil
}

// Valid reports whether d holds a number, as opposed to being absent.
func (d Decimal) Valid() bool { return d.text != "" }

// Float64 returns d as a float64: 0 when absent, ±Inf beyond float64's range.
func (d Decimal) Float64() float64 {
	f, _ := strconv.ParseFloat(d.text, 64)
	return f
}

// String returns the number as the API wrote it, or "" when absent.
func (d Decimal) String() string { return d.text }

// MarshalJSON writes d as a JSON number, or null when absent.
func (d Decimal) MarshalJSON() ([]byte, error) {
	if d.text == "" {
		return []byte("null"), nil
	}
	if err := d.check("decimal"); err != nil {
		return nil, err
	}
	return []byte(d.text), nil
}

// check refuses the forms NewDecimal gives NaN and the infinities; name
// says which value it is.
func (d Decimal) check(name string) error {
	if !json.Valid([]byte(d.text)) {
		return &ArgumentError{Name: name, Reason: d.text + " is not a finite decimal number"}
	}
	return nil
}

// UnmarshalJSON reads a JSON number, a string holding one, or null or "" for
// an absent value. Anything else is an error.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*d = Decimal{}
		return nil
	}
	if !numeric(b) { // refused before anything is allocated but the error
		return &valueError{format: "workforce: %.40q is not a decimal number", value: string(b)}
	}
	s, quoted, err := unquote(b)
	if err != nil {
		return err
	}
	if quoted && strings.TrimSpace(s) == "" {
		*d = Decimal{}
		return nil
	}
	v, err := ParseDecimal(s)
	if err != nil { // an answer's value, not the caller's argument
		return &valueError{format: "workforce: %.40q is not a decimal number", value: s}
	}
	*d = v
	return nil
}

// EncodeValues writes d as a query parameter, leaving an absent d out.
func (d Decimal) EncodeValues(key string, v *url.Values) error {
	if !d.Valid() {
		return nil
	}
	if err := d.check(key); err != nil {
		return err
	}
	v.Set(key, d.text)
	return nil
}

// unquote returns the text of the JSON string b, or b itself when it is not
// a string. Strings without escapes, all that numbers and timestamps hold,
// take a fast path.
func unquote(b []byte) (s string, quoted bool, err error) {
	if len(b) < 2 || b[0] != '"' {
		return string(b), false, nil
	}
	inner := b[1 : len(b)-1]
	if bytes.IndexByte(inner, '\\') < 0 && bytes.IndexByte(inner, '"') < 0 {
		return string(inner), true, nil
	}
	err = json.Unmarshal(b, &s)
	return s, true, err
}

// numeric tells whether b, a JSON value, may hold a number: it is written
// with the characters of numbers only (digits, signs, '.', 'e', 'E' and
// spaces), or is a JSON string of them, plain or escaped (\u0031). It
// rules out cheaply most of what fits no form of a number, which a hostile
// answer may send by the thousand.
func numeric(b []byte) bool {
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		b = b[1 : len(b)-1]
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\\' && i+1 < len(b) {
			switch b[i+1] {
			case 't', 'n', 'r', 'f':
				c, i = ' ', i+1
			case 'u':
				if i+5 >= len(b) || string(b[i+2:i+4]) != "00" {
					return len(b) > i+5 // a Unicode space, perhaps: for the full reading to tell
				}
				v, ok := unhex(string(b[i+4 : i+6]))
				if !ok {
					return false
				}
				c, i = v, i+5
			}
		}
		switch {
		case '0' <= c && c <= '9', c == '+', c == '-', c == '.', c == 'e', c == 'E', c == ' ', c == '\t', c == '\n', c == '\r':
		case c >= 0x80 || c == '\v' || c == '\f':
			return true // Unicode spaces: for the full reading to tell
		default:
			return false
		}
	}
	return true
}

// Ptr returns a pointer to a copy of v, for the optional fields of
// parameters where the zero value is a value to send: Ptr(false).
func Ptr[T any](v T) *T { return &v }

// IDs is a list of record IDs, as the API writes them: a JSON array of
// numbers or of strings holding them, or one string of IDs separated by
// commas or spaces ("105,107" or "[105, 107]"). null and "" are an empty
// list.
type IDs []int64

// UnmarshalJSON reads the forms IDs describes. An element that is not an
// ID is an error.
func (ids *IDs) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	var items []json.RawMessage
	switch {
	case string(b) == "null":
		*ids = nil
		return nil
	case len(b) > 0 && b[0] == '[':
		if err := json.Unmarshal(b, &items); err != nil {
			return err
		}
	case len(b) > 0 && b[0] == '"':
		s, _, err := unquote(b)
		if err != nil {
			return err
		}
		for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == '[' || r == ']' || unicode.IsSpace(r) }) {
			items = append(items, json.RawMessage(f))
		}
	default:
		items = []json.RawMessage{b} // one ID
	}
	out := make(IDs, 0, len(items))
	for _, item := range items {
		if string(item) == "null" {
			continue
		}
		s, _, err := unquote(item)
		if err != nil {
			return err
		}
		id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return fmt.Errorf("workforce: %.40q is not an ID", s)
		}
		out = append(out, id)
	}
	*ids = out
	return nil
}

// Skills are the skills a Job Request asks for. The API takes them as one
// text, separated by "|", so a skill may not hold "|".
type Skills []string

// MarshalJSON writes the skills joined by "|".
func (s Skills) MarshalJSON() ([]byte, error) { return json.Marshal(strings.Join(s, "|")) }

// UnmarshalJSON reads "|"-separated text, an array of texts, or null.
func (s *Skills) UnmarshalJSON(b []byte) error {
	var list []string
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte("[")) || string(bytes.TrimSpace(b)) == "null" {
		if err := json.Unmarshal(b, &list); err != nil {
			return err
		}
		*s = list
		return nil
	}
	var text string
	if err := json.Unmarshal(b, &text); err != nil {
		return err
	}
	*s = nil
	for skill := range strings.SplitSeq(text, "|") {
		if skill = strings.TrimSpace(skill); skill != "" {
			*s = append(*s, skill)
		}
	}
	return nil
}

func (s Skills) check(name string) error {
	for i, skill := range s {
		if strings.Contains(skill, "|") || strings.TrimSpace(skill) == "" {
			return &ArgumentError{Name: fmt.Sprintf("%s[%d]", name, i), Reason: fmt.Sprintf("must be a text without %q, got %q", "|", skill)}
		}
	}
	return nil
}

// Switch is a setting sent as "on" or "off". Its zero value sends
// nothing, leaving the API's default.
type Switch string

// The settings of a Switch.
const (
	SwitchOn  Switch = "on"
	SwitchOff Switch = "off"
)

func (s Switch) check(name string) error {
	return checkOneOf(name, string(s), string(SwitchOn), string(SwitchOff), "")
}
