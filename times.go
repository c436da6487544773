package workforce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The API's times: timestamps (Time), dates of birth (Date) and the
// wall-clock start of a Job Request (WallClock).

// Time is a timestamp as the API sends it: RFC 3339, with or without
// fractional seconds, with Z or a numeric offset. null and "" decode to the
// zero Time, which means "absent".
type Time struct {
	time.Time

	// precision is how finely the text t was read from told the time: a
	// second when it had no fraction, a millisecond for three digits; 0
	// for a Time not read from text.
	precision time.Duration
}

// Precision returns how finely the text t was read from told the time: a
// second for a timestamp without a fraction ("…T09:00:05Z", perhaps cut
// to the second), a millisecond for "…T09:00:05.000Z" (a whole second
// told to the millisecond), and so on; 0 for a Time not read from text.
func (t Time) Precision() time.Duration { return t.precision }

// textPrecision returns the precision of an RFC 3339 text: a second with
// no fraction, else 10^-n s for n digits of it.
func textPrecision[S string | []byte](s S) time.Duration {
	i := 0
	for i < len(s) && s[i] != '.' && s[i] != ',' {
		i++
	}
	if i == len(s) {
		return time.Second
	}
	p := time.Second
	for i++; i < len(s) && s[i] >= '0' && s[i] <= '9' && p > time.Nanosecond; i++ {
		p /= 10
	}
	return p
}

// String writes t as the API writes it: RFC 3339 in the offset it came in,
// with as many digits of fraction as its text had, such as
// "2026-11-28T15:43:16.000-08:00"; "" for the zero Time. (A time.Time read
// from such text has a zone named by no name, which its own String prints
// as the offset twice: "2026-11-28 15:43:16 -0800 -0800"; t.Time still
// does.)
func (t Time) String() string {
	if t.IsZero() {
		return ""
	}
	b, err := t.MarshalJSON()
	if err != nil { // a year past 9999: as Go writes it
		return t.Time.String()
	}
	return string(b[1 : len(b)-1])
}

// MarshalJSON writes t in RFC 3339, or null when zero: a Time read from
// text with as many digits of fraction as that text had, so that it reads
// back the same, precision included.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	b, err := t.Time.MarshalJSON()
	if err != nil || t.precision <= 0 {
		return b, err
	}
	layout := "2006-01-02T15:04:05"
	if t.precision < time.Second {
		layout += "."
		for p := t.precision; p < time.Second; p *= 10 {
			layout += "0"
		}
	}
	return t.AppendFormat(b[:0], `"`+layout+`Z07:00"`), nil
}

// UnmarshalJSON reads an RFC 3339 timestamp, or null or "" for none.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		*t = Time{}
		return nil
	}
	if t.Time.UnmarshalJSON(b) == nil { // the common case, without allocating
		t.precision = textPrecision(b)
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
			*t = Time{Time: v, precision: textPrecision(upper)}
			return nil
		}
	}
	return &valueError{format: "workforce: %.40q is not an RFC 3339 timestamp", value: s}
}

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
