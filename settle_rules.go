package workforce

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/workforce-marketplace/workforce-go/internal/jsonscan"
)

// What each settle takes for the record its call made: a Job by its
// history, a Job Request by its start as the server stores it, texts and
// phones as the platform compares them (see docs/settling.md).

// madeByCreate judges a Job by the first state its transitions record: a
// create makes a filled Job, a Worker's application a pending one.
func madeByCreate(j *Job) verdict {
	if j.State == JobPending || j.State == JobRejected {
		return notTheCall // an application, decided or not, whatever its history
	}
	first, ok := firstTransition(j.Transitions)
	switch {
	case !ok:
		return maybeTheCall // no history: nothing tells
	case first.Name == JobPending:
		return notTheCall // the Worker's own application, granted since
	case first.Name != JobFilled:
		return maybeTheCall // a history that does not reach back to the creation
	}
	return theCall
}

// jobMade returns when a Job was made: its created_at, else the time of
// its first transition.
func jobMade(j *Job) Time {
	if !j.CreatedAt.IsZero() {
		return j.CreatedAt
	}
	first, _ := firstTransition(j.Transitions)
	return first.CreatedAt
}

// firstTransition returns the earliest of a Job's transitions: the one
// with the lowest id when every one has an id (two may share a second),
// else the one made first when their times tell it alone; ok is false
// when nothing tells (the API lists them newest first, but an answer that
// leaves out ids may not).
func firstTransition(ts []Transition) (_ Transition, ok bool) {
	switch len(ts) {
	case 0:
		return Transition{}, false
	case 1:
		return ts[0], true
	}
	byID, byTime, tie := ts[0], ts[0], false
	for _, t := range ts[1:] {
		if t.ID < byID.ID {
			byID = t
		}
		switch {
		case t.CreatedAt.Before(byTime.CreatedAt.Time):
			byTime, tie = t, false
		case t.CreatedAt.Equal(byTime.CreatedAt.Time):
			tie = true
		}
	}
	switch {
	case !slices.ContainsFunc(ts, func(t Transition) bool { return t.ID <= 0 }):
		return byID, true
	case !tie && !byTime.CreatedAt.IsZero():
		return byTime, true
	}
	return Transition{}, false
}

// sharesContact tells whether c has one of the address, phones and emails
// that p sets, or p sets none: a Customer renamed keeps them.
func (p *CustomerParams) sharesContact(c *Customer) bool {
	set := false
	for _, f := range [][2]string{{p.Address, c.Address}, {p.Phone, c.Phone}, {p.ContactEmail, c.ContactEmail},
		{p.BillingEmail, c.BillingEmail}, {p.BillingPhone, c.BillingPhone}} {
		if strings.TrimSpace(f[0]) != "" {
			if sameText(f[0], f[1]) {
				return true
			}
			set = true
		}
	}
	return !set
}

// sameText tells whether two texts are the same once trimmed, in any case.
func sameText(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }

// samePhone tells whether two phone numbers have the same digits, or one
// is the other with a country code before it.
func samePhone(a, b string) bool {
	digits := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return r
			}
			return -1
		}, s)
	}
	a, b = digits(a), digits(b)
	if len(a) < len(b) {
		a, b = b, a
	}
	return b != "" && (a == b || (len(b) >= 10 && strings.HasSuffix(a, b)))
}

// userMadeKnown tells whether a User's answer says when it was made: a
// created_at that reads as a time.
func userMadeKnown(u *User) bool {
	v, ok := jsonscan.Member(u.Raw, "created_at")
	var t Time
	return ok && t.UnmarshalJSON(v) == nil && !t.IsZero()
}

// userMade returns when a User was made: its created_at when the API sends
// one (the documented fields do not hold it), else its updated_at, the
// latest time it could have been made.
func userMade(u *User) Time {
	if v, ok := jsonscan.Member(u.Raw, "created_at"); ok {
		var t Time
		if t.UnmarshalJSON(v) == nil && !t.IsZero() {
			return t
		}
	}
	return u.UpdatedAt
}

// startsAt tells whether jr starts at w as the server stores it: an instant
// at which clocks in jr's time zone show w, whatever offset the answer
// wrote it in; for a reading that the spring change of clocks skips
// (02:30), the instant either offset around the change gives (03:30 or
// 01:30 by the clocks after it). When jr's zone is unknown to this machine
// (see zoneNamed), it matches when the offset the answer wrote shows w,
// and is unknown when some zone's offset could show it. zones caches the
// zones loaded.
func startsAt(jr *JobRequest, w WallClock, zones map[string]*time.Location) (match, unknown bool) {
	start := jr.StartTime.Time
	if start.IsZero() {
		return false, false
	}
	loc, ok := zones[jr.Timezone]
	if !ok {
		loc = zoneNamed(jr.Timezone)
		zones[jr.Timezone] = loc
	}
	if loc == nil {
		if WallClockOf(start) == w {
			return true, false
		}
		offset := w.In(time.UTC).Sub(start) // the offset at which start shows w
		return false, offset >= -12*time.Hour && offset <= 14*time.Hour && offset%(15*time.Minute) == 0
	}
	naive := w.In(time.UTC) // the reading as if in UTC: less an offset, an instant
	at := w.In(loc)
	var instants []time.Time // by the offsets in force around w
	for _, near := range []time.Time{at.Add(-12 * time.Hour), at.Add(12 * time.Hour)} {
		_, offset := near.Zone()
		instants = append(instants, naive.Add(-time.Duration(offset)*time.Second))
	}
	shown := false // whether the zone's clocks show w at all
	for _, t := range instants {
		if WallClockOf(t.In(loc)) == w {
			shown = true
			if start.Equal(t) {
				return true, false
			}
		}
	}
	return !shown && (start.Equal(instants[0]) || start.Equal(instants[1])), false
}

// railsZones maps the names Rails gives the US time zones (ActiveSupport's
// TimeZone::MAPPING), in lower case, to the IANA zones they stand for.
var railsZones = map[string]string{
	"eastern time (us & canada)":  "America/New_York",
	"central time (us & canada)":  "America/Chicago",
	"mountain time (us & canada)": "America/Denver",
	"pacific time (us & canada)":  "America/Los_Angeles",
	"arizona":                     "America/Phoenix",
	"alaska":                      "America/Juneau",
	"hawaii":                      "Pacific/Honolulu",
	"indiana (east)":              "America/Indiana/Indianapolis",
	"puerto rico":                 "America/Puerto_Rico",
	"utc":                         "UTC",
}

// zoneNamed loads the time zone a Job Request names: an IANA name, in any
// case and with spaces around it, or a Rails name of a US zone; nil when
// this machine cannot load it (no zoneinfo, an unknown name). "Local" and
// "", which time.LoadLocation reads as this machine's zone and UTC, name
// no zone of the server's: nil.
func zoneNamed(name string) *time.Location {
	name = strings.TrimSpace(name)
	if name == "" || strings.EqualFold(name, "local") {
		return nil
	}
	if iana, ok := railsZones[strings.ToLower(name)]; ok {
		name = iana
	}
	for _, n := range []string{name, titleZone(name), strings.ToUpper(name)} {
		if loc, err := time.LoadLocation(n); err == nil {
			return loc
		}
	}
	return nil
}

// titleZone writes an IANA zone name as the database spells most of them:
// each word capitalized ("america/new_york" is "America/New_York").
func titleZone(name string) string {
	b := []byte(strings.ToLower(name))
	for i := range b {
		if (i == 0 || b[i-1] == '/' || b[i-1] == '_' || b[i-1] == '-') && b[i] >= 'a' && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}
