package workforcetest

import "time"

// The two offsets of US Pacific time, the zone the API writes its local timestamps in.
var (
	pacificStandard = time.FixedZone("PST", -8*60*60)
	pacificDaylight = time.FixedZone("PDT", -7*60*60)
)

// pacific returns the offset of US Pacific time in force at t: daylight time (-07:00) from the
// second Sunday of March at 02:00 standard time to the first Sunday of November at 02:00
// daylight time, standard time (-08:00) otherwise. That is the rule since 2007 (America/
// Los_Angeles in the time zone database), applied to every year: computed here rather than
// read from the system's zoneinfo, which a machine may lack, or from time/tzdata, which would
// add 450 KB to every program that imports the fake.
func pacific(t time.Time) *time.Location {
	year := t.UTC().Year()                                                                         // the switches are far from New Year, where UTC and Pacific years differ
	start := time.Date(year, time.March, nthSunday(year, time.March, 2), 10, 0, 0, 0, time.UTC)    // 02:00 PST
	end := time.Date(year, time.November, nthSunday(year, time.November, 1), 9, 0, 0, 0, time.UTC) // 02:00 PDT
	if !t.Before(start) && t.Before(end) {
		return pacificDaylight
	}
	return pacificStandard
}

// nthSunday returns the day of the month of the n-th Sunday of month in year.
func nthSunday(year int, month time.Month, n int) int {
	first := time.Date(year, month, 1, 0, 0, 0, 0, time.UTC).Weekday()
	return 1 + (7-int(first))%7 + 7*(n-1)
}

// pacificWallClock returns the instant at which clocks in US Pacific time show the wall-clock
// reading w (given in UTC as a reading, not an instant). A reading that the spring change skips
// or the autumn change repeats is taken in standard time.
func pacificWallClock(w time.Time) time.Time {
	t := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), pacificStandard)
	if pacific(t) == pacificDaylight {
		if d := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), pacificDaylight); pacific(d) == pacificDaylight {
			return d
		}
	}
	return t
}

// Layouts of the timestamp styles the fake writes, as the API does (CONTRACT §10). Each field
// always uses the same one.
const (
	// layoutLocal is a record's own times (created_at, updated_at, confirmed_at, started_at,
	// completed_at, finished_at, ...): US Pacific time with milliseconds and its offset.
	layoutLocal = "2006-01-02T15:04:05.000Z07:00"
	// layoutUTC is a transition's created_at, a check-in's time and a token's expires_at: UTC,
	// seconds and Z.
	layoutUTC = time.RFC3339
	// layoutDate is a date of birth.
	layoutDate = time.DateOnly
)

// localTime formats t as a record's own times are written.
func localTime(t time.Time) string { return t.In(pacific(t)).Format(layoutLocal) }

// optLocal formats t as localTime does, or answers nil (JSON null) for the zero time.
func optLocal(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := localTime(t)
	return &s
}

// utcTime formats t as a transition's created_at and a token's expires_at are written.
func utcTime(t time.Time) string { return t.UTC().Format(layoutUTC) }

// minTime returns the earlier of a and b.
func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// maxTime returns the later of a and b.
func maxTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return b
	}
	return a
}
