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

// skip returns how many records come before the page, and false when that is more than an int
// holds (the page is past the end of any list).
func (pg page) skip() (int, bool) {
	if pg.number-1 > math.MaxInt/pg.per {
		return 0, false
	}
	return (pg.number - 1) * pg.per, true
}

// A filter is one parameter of a list's query, or the pair updated_after and updated_before.
// Each list declares its filters once, in a slice, and the one list code (listed) reads every
// filter of the slice and keeps a record only when each filter present in the query keeps it:
// a filter cannot be read and not applied. A filter selects by a key of the record (key, the
// same function for the test and for the index), by updated_at (time), or by a test of its own.
type filter[T any] struct {
	names []string // the query parameters it reads
	// key is the record's value the parameter selects by; keys reads the parameter's text into
	// the keys it selects (several: any of them), adding to fe when it is malformed.
	key  func(*T) string
	keys func(text string, fe fieldErrors) []string
	// time is the record's updated_at, for updated_after (inclusive) and updated_before
	// (exclusive).
	time func(*T) time.Time
	// test reads the parameter's text into a test of the records, for a filter of neither kind.
	test func(text string, fe fieldErrors) func(*T) bool
}

// byKey declares a filter that keeps the records whose key is one of the keys the parameter
// name selects: parse reads one value (adding to fe when it is malformed); with several, the
// parameter holds several comma-separated values.
func byKey[T any](name string, key func(*T) string, several bool, parse func(v string, fe fieldErrors) string) filter[T] {
	return filter[T]{names: []string{name}, key: key, keys: func(text string, fe fieldErrors) []string {
		values := []string{text}
		if several {
			values = commaList(text)
		}
		keys := make([]string, 0, len(values))
		for _, v := range values {
			keys = append(keys, parse(v, fe))
		}
		return keys
	}}
}

// byTest declares a filter on the parameter name that keeps the records test keeps.
func byTest[T any](name string, test func(text string, fe fieldErrors) func(*T) bool) filter[T] {
	return filter[T]{names: []string{name}, test: test}
}

// byUpdated declares updated_after (inclusive) and updated_before (exclusive) on updatedAt, read
// as RFC 3339 date-times.
func byUpdated[T any](updatedAt func(*T) time.Time) filter[T] {
	return filter[T]{names: []string{"updated_after", "updated_before"}, time: updatedAt}
}

// Parsers of filter values.
var (
	// asText takes the value as it is.
	asText = func(v string, _ fieldErrors) string { return v }
	// asLower takes the value in lower case, for keys compared case-insensitively.
	asLower = func(v string, _ fieldErrors) string { return strings.ToLower(v) }
)

// asID reads a positive integer id, named name in a 422.
func asID(name string) func(v string, fe fieldErrors) string {
	return func(v string, fe fieldErrors) string {
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil || n < 1 {
			fe.add(name, "must be a positive integer")
		}
		return itoa(n)
	}
}

// asRate reads a decimal as rateKey writes it; one that is not a number is a 422.
func asRate(v string, fe fieldErrors) string {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil {
		fe.add("w2_hourly_rate", "is not a number")
	}
	return strconv.FormatFloat(f, 'g', -1, 64) // NaN is "NaN", which no rateKey answers
}

// rateKey is the key of a stored decimal for asRate: the number in its shortest form, so that
// "22.75" and "22.750" are one key; "" for no number.
func rateKey(s string) string {
	if s == "" {
		return ""
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != f {
		return ""
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// selection is a filter present in a query: what it selects.
type selection[T any] struct {
	name    string   // the filter's first parameter: the name of its index key
	keys    []string // a key filter's keys
	between timeRange
	byTime  bool
	keep    func(*T) bool // the test of the records, whatever the kind
}

// readFilters reads every filter of filters that the query p holds, adding to fe what is
// malformed.
func readFilters[T any](filters []filter[T], p params, fe fieldErrors) []selection[T] {
	var out []selection[T]
	for _, f := range filters {
		s := selection[T]{name: f.names[0]}
		switch {
		case f.time != nil:
			tr, ok := readUpdatedRange(p, fe)
			if !ok {
				continue
			}
			s.between, s.byTime = tr, true
			s.keep = func(v *T) bool { return tr.contains(f.time(v)) }
		case f.key != nil:
			text, ok := p.str(s.name)
			if !ok {
				continue
			}
			if s.keys = f.keys(text, fe); len(s.keys) == 0 {
				continue // only commas: no value
			}
			keys := map[string]bool{}
			for _, k := range s.keys {
				keys[k] = true
			}
			s.keep = func(v *T) bool { return keys[f.key(v)] }
		default:
			text, ok := p.str(s.name)
			if !ok {
				continue
			}
			s.keep = f.test(text, fe)
		}
		out = append(out, s)
	}
	return out
}

// whose returns a selection of the records whose key name (of ix) is key: the access limit of a
// list, which is no query parameter.
func whose[T any](ix *index[T], name, key string) selection[T] {
	k := ix.keys[name]
	return selection[T]{name: name, keys: []string{key}, keep: func(v *T) bool { return k(v) == key }}
}

// only returns a selection of the records keep keeps: the access limit of a list without an index.
func only[T any](keep func(*T) bool) selection[T] { return selection[T]{keep: keep} }

// listed returns the ids of one page of t's records, newest first (id descending), that every
// selection keeps: the one list code. With an index, each selection it serves takes its ids from
// it, and the others test the records those leave; without, each tests the records from the
// newest until the page is full.
func listed[T any](t *table[T], ix *index[T], sels []selection[T], pg page) []int64 {
	skip, ok := pg.skip()
	if !ok {
		return []int64{}
	}
	var sets []*idSet
	var tests []func(*T) bool
	for _, s := range sels {
		switch {
		case ix != nil && s.byTime && ix.updated != nil:
			sets = append(sets, ix.times.between(s.between.after, s.between.before))
		case ix != nil && s.keys != nil && ix.keys[s.name] != nil:
			parts := make([]*idSet, len(s.keys))
			for i, k := range s.keys {
				parts[i] = ix.set(s.name, k)
			}
			if len(parts) > 1 || parts[0] == nil {
				parts[0] = union(parts)
			}
			sets = append(sets, parts[0])
		default:
			tests = append(tests, s.keep)
		}
	}
	keep := func(id int64) bool {
		for _, test := range tests {
			if !test(t.at(id)) {
				return false
			}
		}
		return true
	}
	out := make([]int64, 0, pg.per)
	take := func(id int64) bool {
		switch {
		case !keep(id):
		case skip > 0:
			skip--
		default:
			out = append(out, id)
		}
		return len(out) < pg.per
	}
	switch {
	case len(sets) > 0 && len(tests) == 0:
		return intersect(sets).page(skip, pg.per)
	case len(sets) > 0:
		intersect(sets).descending(take)
	case len(tests) == 0:
		for i := len(t.ids) - 1 - skip; i >= 0 && len(out) < pg.per; i-- {
			out = append(out, t.ids[i])
		}
	default:
		for i := len(t.ids) - 1; i >= 0; i-- {
			if !take(t.ids[i]) {
				break
			}
		}
	}
	return out
}

// timeRange is the updated_after (inclusive) and updated_before (exclusive) filters; a zero bound
// is open.
type timeRange struct{ after, before time.Time }

// readUpdatedRange reads updated_after and updated_before as RFC 3339, and tells whether either is
// present; an unparseable one is a 422.
func readUpdatedRange(p params, fe fieldErrors) (timeRange, bool) {
	var tr timeRange
	present := false
	for name, dst := range map[string]*time.Time{"updated_after": &tr.after, "updated_before": &tr.before} {
		s, ok := p.str(name)
		if !ok {
			continue
		}
		present = true
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
		if err != nil {
			fe.add(name, "must be an RFC 3339 date-time")
			continue
		}
		*dst = t
	}
	return tr, present
}

// contains tells whether t falls in the range.
func (tr timeRange) contains(t time.Time) bool {
	return (tr.after.IsZero() || !t.Before(tr.after)) && (tr.before.IsZero() || t.Before(tr.before))
}

// commaList splits a filter value such as "filled,in_progress" into its values, trimmed.
func commaList(text string) []string {
	var out []string
	for _, v := range strings.Split(text, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}
