package workforcetest

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// Page sizes of every list (CONTRACT §3).
const (
	defaultPer = 25
	maxPer     = 50
)

// page is the window of a list: 1-based page number and effective page size.
type page struct{ number, per int }

// readPage reads page (default 1) and per (default 25, capped at 50). Anything but a positive
// integer is a 422 on that field; one too large for an int is still a positive integer: as per,
// 50; as page, one past the end.
func readPage(p params, fe fieldErrors) page {
	pg := page{number: 1, per: defaultPer}
	for _, f := range []struct {
		name string
		dst  *int
	}{{"page", &pg.number}, {"per", &pg.per}} {
		s, ok := p.str(f.name)
		if !ok {
			continue
		}
		n, ok := new(big.Int).SetString(strings.TrimSpace(s), 10)
		if !ok || n.Sign() < 1 {
			fe.add(f.name, "must be a positive integer")
			continue
		}
		*f.dst = math.MaxInt
		if n.IsInt64() {
			*f.dst = int(min(n.Int64(), math.MaxInt))
		}
	}
	pg.per = min(pg.per, maxPer)
	return pg
}

// timeRange is the updated_after (inclusive) and updated_before (exclusive) filters; a zero bound
// is open.
type timeRange struct{ after, before time.Time }

// readUpdatedRange reads updated_after and updated_before as RFC 3339; an unparseable one is a 422.
func readUpdatedRange(p params, fe fieldErrors) timeRange {
	var tr timeRange
	for name, dst := range map[string]*time.Time{"updated_after": &tr.after, "updated_before": &tr.before} {
		s, ok := p.str(name)
		if !ok {
			continue
		}
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
		if err != nil {
			fe.add(name, "must be an RFC 3339 date-time")
			continue
		}
		*dst = t
	}
	return tr
}

// contains tells whether t falls in the range.
func (tr timeRange) contains(t time.Time) bool {
	return (tr.after.IsZero() || !t.Before(tr.after)) && (tr.before.IsZero() || t.Before(tr.before))
}

// commaList splits a filter value such as "filled,in_progress"; an absent filter is nil.
func commaList(p params, name string) []string {
	s, ok := p.str(name)
	if !ok {
		return nil
	}
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// listPage answers one page of items (oldest first, as a table keeps them) listed newest first:
// the ones keep accepts (nil keeps all), each rendered by render. It walks from the newest and
// stops once the page is full, so its cost grows with the page number, not with the table; with
// a nil keep it goes straight to the page. An empty page is an empty array, never null.
func listPage[T, J any](items []*T, pg page, keep func(*T) bool, render func(*T) J) []J {
	if pg.number-1 > len(items)/pg.per { // past the end; also keeps the product below from overflowing
		return []J{}
	}
	out := make([]J, 0, min(pg.per, len(items))) // one allocation, not one per doubling
	skip := (pg.number - 1) * pg.per
	if keep == nil {
		for i := len(items) - 1 - skip; i >= 0 && len(out) < pg.per; i-- {
			out = append(out, render(items[i]))
		}
		return out
	}
	for i := len(items) - 1; i >= 0 && len(out) < pg.per; i-- {
		switch {
		case !keep(items[i]):
		case skip > 0:
			skip--
		default:
			out = append(out, render(items[i]))
		}
	}
	return out
}

// optionalID reads an id filter: 0 when absent, a 422 when not a positive integer.
func optionalID(p params, fe fieldErrors, name string) int64 {
	if _, ok := p.str(name); !ok {
		return 0
	}
	return p.id(fe, name, name)
}

// readRateFilter reads the w2_hourly_rate filter: nil when absent, a 422 when not a number.
func readRateFilter(p params, fe fieldErrors) *float64 {
	s, ok := p.str("w2_hourly_rate")
	if !ok {
		return nil
	}
	rate, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		fe.add("w2_hourly_rate", "is not a number")
	}
	return &rate
}

// rateMatches tells whether the decimal value equals the filter (a nil filter matches all).
func rateMatches(filter *float64, value string) bool {
	if filter == nil {
		return true
	}
	rate, err := strconv.ParseFloat(value, 64)
	return err == nil && rate == *filter
}
