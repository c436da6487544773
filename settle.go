package workforce

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"time"
	"unicode"

	"github.com/workforce-marketplace/workforce-go/internal/jsonscan"
)

// Settling a create whose outcome is unknown: each service's Settle finds
// the record that call could have made, and only it (see "Settle a write"
// in the package documentation, and docs/settling.md for why the bound
// holds).

// errNotSettled returns the error of a settle that found no record: it
// matches ErrNotFound, which says the create was not done.
func errNotSettled(what string) error {
	return fmt.Errorf("%w: no %s made since the call began: the create was not done", ErrNotFound, what)
}

// settleFloor returns the earliest time, by the server's clock, at which
// the call that failed with callErr could have made its record (see
// above).
func (c *Client) settleFloor(ctx context.Context, callErr error) (time.Time, error) {
	if err := c.ready(); err != nil {
		return time.Time{}, err
	}
	if ctx == nil {
		return time.Time{}, errNilContext()
	}
	started, ok := callStarted(callErr)
	if !ok {
		return time.Time{}, &ArgumentError{Name: "err", Reason: "must be the error of a create, matching ErrOutcomeUnknown: only such a create needs settling"}
	}
	now, coarse, err := c.serverTime(ctx)
	if err != nil {
		return time.Time{}, err
	}
	return now.Add(-coarse).Add(-time.Since(started)), nil
}

// madeSince tells whether a record stamped t was made at or after floor,
// allowing for the precision of t: a stamp without a fraction of a second
// may be cut to the second, one with milliseconds to the millisecond. A
// record without a stamp was not.
func madeSince(t Time, floor time.Time) bool {
	if t.IsZero() {
		return false
	}
	precision := time.Millisecond
	if t.Nanosecond() == 0 {
		precision = time.Second
	}
	return t.Add(precision).After(floor)
}

// filterMargin is how far before the floor a settle asks the server's
// updated_after filter to start: the filter's bound may be exclusive, or
// its precision coarse; the floor itself is checked on each record.
const filterMargin = 2 * time.Second

// settleIn returns the earliest-made record of seq that match accepts and
// that was made (by made) at or after floor, or an error matching
// ErrNotFound naming what.
func settleIn[T listed](seq iter.Seq2[T, error], floor time.Time, made func(T) Time, match func(T) bool, what string) (T, error) {
	var found T
	var foundAt Time
	ok := false
	for r, err := range seq {
		if err != nil {
			var zero T
			return zero, err
		}
		at := made(r)
		if !match(r) || !madeSince(at, floor) {
			continue
		}
		if !ok || at.Before(foundAt.Time) || (at.Equal(foundAt.Time) && r.listID() < found.listID()) {
			found, foundAt, ok = r, at, true
		}
	}
	if !ok {
		var zero T
		return zero, errNotSettled(what)
	}
	return found, nil
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
