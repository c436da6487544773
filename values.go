package workforce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"
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

// Time is a timestamp as the API sends it: RFC 3339, with or without
// fractional seconds, with Z or a numeric offset. null and "" decode to the
// zero Time, which means "absent".
type Time struct {
	time.Time
}

// MarshalJSON writes t in RFC 3339, or null when zero.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return t.Time.MarshalJSON()
}

// UnmarshalJSON reads an RFC 3339 timestamp, or null or "" for none.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*t = Time{}
		return nil
	}
	if t.Time.UnmarshalJSON(b) == nil { // the common case, without allocating
		return nil
	}
	s, quoted, err := unquote(b)
	if err != nil || !quoted {
		return &valueError{format: "workforce: timestamp %.40s is not a string", value: string(b)}
	}
	if s = strings.TrimSpace(s); s == "" {
		*t = Time{}
		return nil
	}
	upper := strings.ToUpper(s) // RFC 3339 allows "t" and "z"
	for _, layout := range [...]string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z0700",
		"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999 -0700"} {
		if v, err := time.Parse(layout, upper); err == nil {
			*t = Time{v}
			return nil
		}
	}
	return &valueError{format: "workforce: %.40q is not an RFC 3339 timestamp", value: s}
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

// Ptr returns a pointer to a copy of v, for the optional fields of
// parameters where the zero value is a value to send: Ptr(false).
func Ptr[T any](v T) *T { return &v }

// wallClockLayout is how the API writes a wall-clock time.
const wallClockLayout = "2006-01-02 15:04"

// A WallClock is a date and a time of day to the minute, read off a clock
// on the wall at the place it concerns, in no time zone: the start time of
// a Job Request, which the API takes as "YYYY-MM-DD HH:MM" (24-hour) local
// to the venue. A WallClock carries no zone, so no conversion can shift
// it: 9:00 stays 9:00 whatever the zone of the program that sends it. The
// zero value means "not set".
type WallClock struct {
	t time.Time // in UTC, standing for the same reading on any clock
}

// NewWallClock returns the wall-clock reading of the given date and time of
// day. Out-of-range values are normalized as time.Date does: 24:00 on one
// day is 00:00 on the next.
func NewWallClock(year int, month time.Month, day, hour, minute int) WallClock {
	return WallClock{time.Date(year, month, day, hour, minute, 0, 0, time.UTC)}
}

// WallClockOf returns the reading of t's own clock, in t's own location,
// dropping the seconds: its zone is ignored, not converted. To post a Job
// Request at 9:00 in the venue's zone, pass a t in that zone (or any t
// showing 9:00).
func WallClockOf(t time.Time) WallClock {
	return NewWallClock(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute())
}

// ParseWallClock reads a wall-clock time written "YYYY-MM-DD HH:MM".
func ParseWallClock(s string) (WallClock, error) {
	t, err := time.Parse(wallClockLayout, strings.TrimSpace(s))
	if err != nil {
		return WallClock{}, &ArgumentError{Name: "wall clock", Reason: fmt.Sprintf("%q is not written YYYY-MM-DD HH:MM", s)}
	}
	return WallClock{t}, nil
}

// IsZero reports whether w is the zero WallClock, "not set".
func (w WallClock) IsZero() bool { return w.t.IsZero() }

// In returns the instant at which clocks in loc show w.
func (w WallClock) In(loc *time.Location) time.Time {
	return time.Date(w.t.Year(), w.t.Month(), w.t.Day(), w.t.Hour(), w.t.Minute(), 0, 0, loc)
}

// String writes w as the API takes it, "2026-11-23 09:00", or "" when zero.
func (w WallClock) String() string {
	if w.IsZero() {
		return ""
	}
	return w.t.Format(wallClockLayout)
}

// MarshalJSON writes w as a JSON string "YYYY-MM-DD HH:MM", or null when zero.
func (w WallClock) MarshalJSON() ([]byte, error) {
	if w.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(w.String())
}

// A Date is a day of the calendar in no time zone, as the API writes dates
// of birth: "1990-04-01". Its zero value means absent.
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// IsZero reports whether d is the zero Date, "absent".
func (d Date) IsZero() bool { return d == Date{} }

// String writes d as "YYYY-MM-DD", or "" when zero.
func (d Date) String() string {
	if d.IsZero() {
		return ""
	}
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// MarshalJSON writes d as "YYYY-MM-DD", or null when zero.
func (d Date) MarshalJSON() ([]byte, error) {
	if d.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(d.String())
}

// UnmarshalJSON reads "YYYY-MM-DD", or the day of an RFC 3339 timestamp
// (as written, not converted), or null or "" for none.
func (d *Date) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*d = Date{}
		return nil
	}
	s, quoted, err := unquote(b)
	if err != nil || !quoted {
		return fmt.Errorf("workforce: date %.40s is not a string", b)
	}
	if s = strings.TrimSpace(s); s == "" {
		*d = Date{}
		return nil
	}
	day := s
	if len(s) > 10 && (s[10] == 'T' || s[10] == 't' || s[10] == ' ') {
		day = s[:10]
	}
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return fmt.Errorf("workforce: %.40q is not a date written YYYY-MM-DD", s)
	}
	*d = Date{t.Year(), t.Month(), t.Day()}
	return nil
}

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
