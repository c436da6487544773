package workforce

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"time"
)

// Settling a create whose outcome is unknown: each service's Settle finds
// the record that call could have made, and only it (see "Settle a write"
// in the package documentation, and docs/settling.md for why the bound
// holds).

// errNotSettled returns the error of a settle that found no record once
// the call could no longer be in flight: it matches ErrNotFound, which
// says the create was not done.
func errNotSettled(what string, horizon time.Duration) error {
	return fmt.Errorf("%w: no %s made since the call began, read more than %v after its last attempt was sent: the create was not done",
		ErrNotFound, what, horizon)
}

// DefaultSettleHorizon is how long after a create's last attempt that may
// have acted was sent a Settle still takes it to be possibly in flight, unless WithSettleHorizon says
// otherwise (docs/settling.md argues the figure).
const DefaultSettleHorizon = 2 * time.Minute

// WithSettleHorizon sets how long a server may go on working on a create
// after its last attempt that may have acted was sent (the caller gave up,
// the server did not): a Settle concludes that the create was not done
// only from a read begun this long after that attempt was sent; earlier it
// waits, re-reading, within its context.
// The default is DefaultSettleHorizon; 0 suits a server known to act on a
// request only while its client waits, and whose lists show a record as
// soon as its create is answered (0 concludes from the first read: a list
// served by a replica behind needs the horizon). d must not be negative.
func WithSettleHorizon(d time.Duration) Option {
	return func(s *settings) { s.settleHorizon, s.settleHorizonSet = d, true }
}

// ErrTooEarly is matched by the error of a Settle whose context ended
// before it could tell whether the create was done: no record of it yet,
// but the create may still be running on the server. It matches
// ErrOutcomeUnknown too; settle it again later (see *UnsettledError).
var ErrTooEarly = errors.New("workforce: too early to tell whether the create was done")

// ErrUndecided is matched by the error of a Settle that found a record the
// call may have made but cannot tell it apart: made since the call began,
// it no longer matches what was sent but has been changed since it was
// made (the call's record, edited?), or it is a Job whose answer carries
// no history from its creation. The error names the records in doubt. It
// matches ErrOutcomeUnknown too, never ErrNotFound: look at those records
// before creating again (docs/settling.md).
var ErrUndecided = errors.New("workforce: settle: a record may be the create's, and cannot be told apart")

// An UnsettledError is the error of a Settle that could not tell whether
// the create was done: it found no record the call made, and either the
// call may still be in flight on the server until Until, or a read of the
// settle failed, or a record found may be the call's and cannot be told
// apart (Err matches ErrUndecided). It matches ErrOutcomeUnknown, and
// ErrTooEarly unless Err matches ErrUndecided; never ErrNotFound (not even
// when a read was answered 404). It unwraps to why it stopped, and may be
// passed to a later Settle in place of the create's error.
type UnsettledError struct {
	// Started is when the create's call began, by the local clock.
	Started time.Time
	// Sent is when the last attempt of the create that may have done it
	// was sent, by the local clock (Started when not known).
	Sent time.Time
	// Until is when, by the local clock, a Settle can conclude that the
	// create was not done: Sent plus the settle horizon.
	Until time.Time
	// Err is why the Settle stopped: its context's error, the error of
	// its last read, which failed, or the doubt (ErrUndecided) its last
	// read left.
	Err error
}

func (e *UnsettledError) Error() string {
	if e == nil {
		return "workforce: settle: <nil>"
	}
	if errors.Is(e.Err, ErrUndecided) {
		return fmt.Sprintf("workforce: settle: could not tell whether the create was done: %v", e.Err)
	}
	return fmt.Sprintf("workforce: settle: no record of the create yet, and it may still be in flight on the server until %s (%v after its last attempt was sent): settle again then: %v",
		e.Until.Round(0).Format(time.RFC3339), e.Until.Sub(e.Sent).Round(time.Millisecond), e.Err)
}

// Is makes an UnsettledError match ErrOutcomeUnknown, and ErrTooEarly
// unless it holds a doubt (ErrUndecided), which waiting does not mend.
func (e *UnsettledError) Is(target error) bool {
	if e == nil {
		return false
	}
	return target == ErrOutcomeUnknown || (target == ErrTooEarly && !errors.Is(e.Err, ErrUndecided))
}

// Unwrap returns Err, unless Err matches ErrNotFound (a read answered
// 404), which would read as "not done": then nil.
func (e *UnsettledError) Unwrap() error {
	if e == nil || errors.Is(e.Err, ErrNotFound) {
		return nil
	}
	return e.Err
}

// The waits between a settle's reads while it waits out the horizon.
const (
	settleFirstPoll = 50 * time.Millisecond
	settleMaxPoll   = 5 * time.Second
)

// elapsedSince returns how long has passed since start: the larger of the
// monotonic and the wall-clock readings, so that a machine suspended
// meanwhile (whose monotonic clock may stand still) counts the time too.
func elapsedSince(start, now time.Time) time.Duration {
	return elapsed(now.Sub(start), now.Round(0).Sub(start.Round(0)))
}

// elapsed returns the larger of a monotonic and a wall-clock reading of
// the same span.
func elapsed(monotonic, wall time.Duration) time.Duration { return max(monotonic, wall) }

// settle settles the create that failed with callErr: find reads the
// records made at or after a floor (see settleFloor) and returns the
// call's, or ok false. Until the horizon has passed since the create's
// last attempt that may have acted was sent, it reads again and again (a
// read that fails counting as one that found nothing), within ctx; after,
// finding none returns an error matching ErrNotFound naming what. A read's
// error never matches ErrNotFound: only the settle's conclusion does.
func settle[T any](ctx context.Context, c *Client, callErr error, what string, find func(floor time.Time) (T, bool, error)) (T, error) {
	var zero T
	if err := c.ready(); err != nil {
		return zero, err
	}
	if ctx == nil {
		return zero, errNilContext()
	}
	started, sent, ok := callStarted(callErr)
	if !ok {
		return zero, &ArgumentError{Name: "err", Reason: "must be the error of a create, matching ErrOutcomeUnknown: only such a create needs settling"}
	}
	unsettled := func(err error) error {
		return &UnsettledError{Started: started, Sent: sent, Until: sent.Add(c.settleHorizon), Err: err}
	}
	wait := settleFirstPoll
	for {
		readAt := time.Now()
		floor, err := c.settleFloor(ctx, started)
		var r T
		if err == nil {
			r, ok, err = find(floor)
		}
		switch {
		case err != nil && (ctx.Err() != nil || errors.Is(err, ErrServerClock)): // waiting mends neither
			return zero, unsettled(err)
		case err == nil && ok:
			return r, nil
		}
		left := c.settleHorizon - elapsedSince(sent, readAt)
		switch {
		case left <= 0 && err != nil: // nothing concluded, and no more waiting
			return zero, unsettled(err)
		case left <= 0:
			return zero, errNotSettled(what, c.settleHorizon)
		}
		timer := time.NewTimer(min(wait, left))
		select {
		case <-ctx.Done():
			timer.Stop()
			switch {
			case errors.Is(err, ErrUndecided):
				return zero, unsettled(fmt.Errorf("%w, and its last read left a doubt: %w", ctx.Err(), err))
			case err != nil:
				return zero, unsettled(fmt.Errorf("%w (its last read failed: %v)", ctx.Err(), err))
			}
			return zero, unsettled(ctx.Err())
		case <-timer.C:
		}
		wait = min(2*wait, settleMaxPoll)
	}
}

// WithClockTolerance sets how far apart the clocks of the API's servers may
// be: the one that answers GET /info (or its Date header) and the ones that
// stamp records, for an API served by several nodes or behind a proxy that
// writes its own Date. A Settle allows that much: records made up to d
// before the call began then count as made since, which a Settle cannot
// tell apart from the call's (docs/settling.md). The default, 0, suits
// one clock. d must not be negative.
func WithClockTolerance(d time.Duration) Option { return func(s *settings) { s.clockTolerance = d } }

// settleFloor returns the earliest time, by the server's clock, at which
// the call that began at started could have made its record (see
// docs/settling.md): the server's time as it wrote it (cut to its
// precision, so never later than the truth), less the time elapsed since
// the call began, less the clock tolerance. A server clock more than
// MaxClockSkew from the client's, which a sync refuses too, is an error
// matching ErrServerClock: a floor from it would decide the verdict.
func (c *Client) settleFloor(ctx context.Context, started time.Time) (time.Time, error) {
	now, _, err := c.serverTime(ctx)
	if err != nil {
		return time.Time{}, err
	}
	local := time.Now()
	if skew := now.Sub(local); skew > MaxClockSkew || skew < -MaxClockSkew {
		return time.Time{}, fmt.Errorf("%w: the server says %s, the client %s", ErrServerClock, now.UTC().Format(time.RFC3339), local.UTC().Format(time.RFC3339))
	}
	return now.Add(-elapsedSince(started, local)).Add(-c.clockTolerance), nil
}

// madeSince tells whether a record stamped t was made at or after floor,
// allowing for the precision of t's text (a stamp may be cut to it): a
// second without a fraction, a millisecond with three digits, whether or
// not they are zeros. A Time not read from text is taken as cut to the
// second when on one, else to the millisecond. A record without a stamp
// was not made since.
func madeSince(t Time, floor time.Time) bool {
	if t.IsZero() {
		return false
	}
	precision := t.Precision()
	switch {
	case precision > 0:
	case t.Nanosecond() == 0:
		precision = time.Second
	default:
		precision = time.Millisecond
	}
	return t.Add(precision).After(floor)
}

// filterMargin is how far before the floor a settle asks the server's
// updated_after filter to start: the filter's bound may be exclusive, or
// its precision coarse; the floor itself is checked on each record.
const filterMargin = 2 * time.Second

// A verdict is what a settle makes of a record made since its call began.
type verdict int

const (
	notTheCall   verdict = iota // it does not match what the call sent
	maybeTheCall                // it may be the call's, changed since it was made, or its history does not tell
	theCall                     // it is what the call would have made, or became since
)

// settleIn returns the record of seq that judge takes for the call's: the
// earliest made (by made) at or after floor of those it does not rule out.
// When that earliest one is in doubt, or shares its instant with another
// (a clock that stands still, stamps cut to the second), or a record it
// does not rule out tells no time it was made, it answers an error
// matching ErrUndecided naming them (what names the kind): a doubt made
// before the record taken may be the call's, edited, and the record taken
// another's.
func settleIn[T listed](seq iter.Seq2[T, error], floor time.Time, what string, made func(T) Time, judge func(T) verdict) (_ T, ok bool, _ error) {
	var first []T // the earliest made of those not ruled out, all of one instant
	var firstAt Time
	var sure bool   // first is one record that judge takes for the call's
	var untimed []T // records not ruled out that tell no time they were made
	for r, err := range seq {
		if err != nil {
			var zero T
			return zero, false, err
		}
		at := made(r)
		if !at.IsZero() && !madeSince(at, floor) {
			continue
		}
		v := judge(r)
		switch {
		case v == notTheCall:
		case at.IsZero():
			untimed = append(untimed, r)
		case first == nil || at.Before(firstAt.Time):
			first, firstAt, sure = []T{r}, at, v == theCall
		case at.Equal(firstAt.Time):
			first, sure = append(first, r), false
		}
	}
	switch {
	case sure && untimed == nil:
		return first[0], true, nil
	case first == nil && untimed == nil:
		var zero T
		return zero, false, nil
	case untimed != nil:
		first = untimed
	}
	ids := make([]int64, len(first))
	for i, r := range first {
		ids[i] = r.listID()
	}
	slices.Sort(ids)
	var zero T
	return zero, false, fmt.Errorf("%w: %s %v, made since the call began or telling no time it was made, may be the call's: changed since it was made, without a history that tells, or made in one instant with another; look at it before creating again",
		ErrUndecided, what, ids)
}

// doubtIf returns maybeTheCall when a record that does not match what the
// call sent may still be the call's, else notTheCall.
func doubtIf(may bool) verdict {
	if may {
		return maybeTheCall
	}
	return notTheCall
}

// editedSince tells whether a record made at created may have been changed
// since it was made: its updated_at is not its created_at. A create stamps
// both alike, but the platform may touch a record just after (the real
// Jobs' updated_at are 1 to 4 s after their created_at), so this says
// "may": the settles ask it only of a record that shares something with
// what was sent. A record without both stamps counts as changed: nothing
// says it was not.
func editedSince(created, updated Time) bool {
	return created.IsZero() || updated.IsZero() || !updated.Equal(created.Time)
}
