package workforcetest

import (
	"testing"
	"time"
)

// losAngeles is US Pacific time from the time zone database, the reference the fake's pacific
// rule is held to.
func losAngeles(t *testing.T) *time.Location {
	loc, err := time.LoadLocation("America/Los_Angeles")
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// The fake's Pacific rule gives the offset of the time zone database at every half hour from
// 2007, when the rule took effect, to 2040, around both changes of every year included.
func TestPacificMatchesTheTimeZoneDatabase(t *testing.T) {
	t.Parallel()
	la := losAngeles(t)
	end := time.Date(2041, 1, 1, 0, 0, 0, 0, time.UTC)
	for at := time.Date(2007, 1, 1, 0, 0, 0, 0, time.UTC); at.Before(end); at = at.Add(30 * time.Minute) {
		_, want := at.In(la).Zone()
		if _, got := at.In(pacific(at)).Zone(); got != want {
			t.Fatalf("%v: offset %d, the time zone database says %d", at, got, want)
		}
		if got, want := at.Add(-time.Second).In(pacific(at.Add(-time.Second))).Format(layoutLocal), at.Add(-time.Second).In(la).Format(layoutLocal); got != want {
			t.Fatalf("%v: %s, the time zone database writes %s", at, got, want)
		}
	}
}

// A wall-clock reading is the instant Pacific clocks show it, in either season.
func TestPacificWallClock(t *testing.T) {
	t.Parallel()
	la := losAngeles(t)
	for _, w := range []time.Time{
		time.Date(2026, 1, 15, 9, 0, 0, 0, time.UTC), time.Date(2026, 7, 15, 9, 0, 0, 0, time.UTC),
		time.Date(2026, 3, 8, 1, 59, 0, 0, time.UTC), time.Date(2026, 3, 8, 3, 0, 0, 0, time.UTC),
		time.Date(2026, 11, 1, 0, 59, 0, 0, time.UTC), time.Date(2026, 11, 1, 2, 0, 0, 0, time.UTC),
	} {
		want := time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), 0, 0, la)
		if got := pacificWallClock(w); !got.Equal(want) {
			t.Errorf("%s: %v, want %v", w.Format("2006-01-02 15:04"), got, want)
		}
	}
}
