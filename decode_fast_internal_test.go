package workforce

import (
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fastTypes are the types plans holds, in a fixed order.
var fastTypes = func() []reflect.Type {
	var types []reflect.Type
	for t := range plans {
		types = append(types, t)
	}
	slices.SortFunc(types, func(a, b reflect.Type) int { return strings.Compare(a.String(), b.String()) })
	return types
}()

// decodeBothWays decodes data into a new value of t the fast way and the
// usual way (answerLimits.check, then decodeEnvelope), under l, and fails
// t when the fast way took data and the two differ in anything: the
// value, Raw included, warnings, or the error. It reports whether the fast
// way took data.
func decodeBothWays(t *testing.T, data []byte, typ reflect.Type, l answerLimits) bool {
	t.Helper()
	key := envelopeOf(typ)
	fast := reflect.New(typ)
	_, fw, ok, fastErr := decodeFast(data, key, fast.Interface(), l, MaxWarnings)
	if !ok {
		require.True(t, fast.Elem().IsZero(), "%s: a decoding given up leaves its value zero", typ)
		require.NoError(t, fastErr)
		require.Zero(t, fw)
		return false
	}
	slow := reflect.New(typ)
	err := l.check(data, key)
	var w warnings
	if err == nil {
		w, err = decodeEnvelope(data, key, slow.Interface(), MaxWarnings)
	}
	if fastErr != nil || err != nil {
		require.Error(t, err, "%s: the usual way takes %q", typ, data)
		require.EqualError(t, fastErr, err.Error(), "%s: %q", typ, data)
		require.Equal(t, w, fw, "%s: %q", typ, data)
		return true
	}
	require.Equal(t, w, fw, "%s: the warnings of %q", typ, data)
	require.True(t, reflect.DeepEqual(fast.Elem().Interface(), slow.Elem().Interface()),
		"%s: %q\nfast: %+v\nslow: %+v", typ, data, fast.Elem().Interface(), slow.Elem().Interface())

	// Decode: the same, with no limits.
	fast, slow = reflect.New(typ), reflect.New(typ)
	fdw, fastErr := Decode(data, fast.Interface())
	sdw, err := decodeSlowly(data, key, slow.Interface())
	require.Equal(t, err, fastErr, "%s: Decode %q", typ, data)
	require.Equal(t, sdw, fdw)
	require.True(t, reflect.DeepEqual(fast.Elem().Interface(), slow.Elem().Interface()), "%s: Decode %q", typ, data)
	return true
}

// fastSeeds are answers in the forms the fast decoder takes and in forms
// next to them that it must leave to the usual way.
var fastSeeds = []string{
	`{"jobs": [{"id": 2, "state": "filled", "worker": {"id": 7, "rating": "4.5", "user_badges": [{"id": 1}]}, "transitions": [{"id": 9, "name": "filled", "created_at": "2017-09-13T17:57:59Z", "latitude": "34.1"}]}, {"id": 1}], "meta": {"x": [1, 2.5e3, true, null]}}`,
	`{"job": {"id": 4, "state": "filled", "hours_worked": 8, "w2_hourly_rate": "", "actual_duration": null, "requestor_notes": "caf\u00e9 \"x\" é", "worker": null}}`,
	`{"job": {"id": 4, "worker": {"drug_tested": "true", "verified_phone": "0", "suspended": false}}}`,
	`{"user": {"id": 4, "drug_tested": "1", "verified_phone": "no", "customer_id": "12", "synced_worker_id": 1.0}}`,
	`{"users": [{"id": 1, "drug_tested": "maybe"}]}`,
	`{"job": {"id": 4, "ID": 5}}`, `{"job": {"id": 4, "id": 5}}`, `{"job": {"id": 4}, "id": 5}`, `{"job": {"id": 4}, "JOB": {"id": 5}}`,
	`{"job": {"id": 4}, "job": {"id": 5}}`, `{"id": 4, "state": "filled"}`, `{"job": {"id": 0}}`, `{"job": {}}`, `{}`,
	`{"job": null}`, `null`, `[{"id": 3}]`, ` {"jobs": []} `, `{"jobs": null}`, `{"jobs": [null]}`, `{"jobs": [{"id": 1}, 2]}`,
	`{"jobs": [{"id": 1}]} x`, `{"jobs": [{"id": 1}],}`, `{"jobs": [{"id": 1,}]}`, `{"jobs": [{"id": 01}]}`, `{"jobs": [{"id": -0}]}`,
	`{"jobs": [{"id": 9223372036854775807}, {"id": 9223372036854775808}]}`, `{"jobs": [{"id": -9223372036854775808}]}`,
	`{"jobs": [{"id": 1, "state": "a\tb"}]}`, `{"jobs": [{"id": 1, "state": "\ud800"}]}`, "{\"jobs\": [{\"id\": 1, \"state\": \"\xff\"}]}",
	`{"jobs": [{"id": 1, "worker": ""}]}`, `{"jobs": [{"id": 1, "transitions": ""}]}`, `{"jobs": [{"id": 1, "transitions": [null, {}]}]}`,
	`{"jobs": [{"id": 1, "created_at": 5}]}`, `{"jobs": [{"id": 1, "created_at": "2017-09-13 11:34:36.820-07:00"}]}`,
	`{"jobs": [{"id": 1, "created_at": "yesterday"}]}`, `{"jobs": [{"id": "1"}]}`, `{"jobs": [{"id": 1e2}]}`,
	`{"jobs": [{"id": 1, "x": {"a": [{"b": {}}], "c": "\\\""}}]}`, `{"jobs": [{"id": 1, "\u0069d": 2}]}`,
	`{"jobs": [{"id": 1, "é": 2}]}`, `{"jobs": [{"id": 1, "State": "x"}]}`, `{"job_requests": [{"id": 1, "skills": "a|b"}]}`,
	`{"search": {"jobs": [{"id": 1}], "users": [{"id": 2}]}}`, `{"rankings": [{"worker": {"id": 3}, "worker_id": 0}]}`,
	`{"info": {"utc_time_now": "2026-11-27T10:00:00Z"}}`, `{"timesheet_import": {"errors": [{"row": 1}]}}`,
	`{"jobs": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
}

// smallLimits make every limit count on small answers.
var smallLimits = answerLimits{body: maxPageBody, items: 12, members: 30, records: 3}

func FuzzFastDecode(f *testing.F) {
	for i, s := range fastSeeds {
		f.Add([]byte(s), uint8(i))
	}
	if page, err := os.ReadFile("testdata/jobs_page_2017.json"); err == nil {
		f.Add(page, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		// Jobs, and one other type: every type for every input would make
		// an input of a page take seconds, which the fuzzer takes for a hang.
		other := fastTypes[int(which)%len(fastTypes)]
		for _, typ := range []reflect.Type{reflect.TypeFor[[]*Job](), reflect.TypeFor[*Job](), other} {
			for _, l := range []answerLimits{pageLimits, smallLimits} {
				decodeBothWays(t, data, typ, l)
			}
		}
	})
}

// pageLimits are the limits of a page of a list.
var pageLimits = answerLimits{body: maxPageBody, items: maxPageItems, members: maxPageMembers, records: MaxPerPage}

// The captured page of the live API, and the forms next to it, take the
// fast way where they should, and the usual way elsewhere.
func TestFastDecodeTakesWhatTheAPISends(t *testing.T) {
	t.Parallel()
	page, err := os.ReadFile("testdata/jobs_page_2017.json")
	require.NoError(t, err)
	jobs := reflect.TypeFor[[]*Job]()
	assert.True(t, decodeBothWays(t, page, jobs, pageLimits), "the captured page")
	assert.False(t, decodeBothWays(t, page, jobs, smallLimits), "past the limits")
	taken := map[string]bool{
		`{"job": {"id": 4, "worker": {"drug_tested": "true", "verified_phone": "0", "suspended": false}}}`:              true,
		`{"user": {"id": 4, "drug_tested": "1", "verified_phone": "no", "customer_id": "12", "synced_worker_id": 1.0}}`: true,
		`{"job": {"id": 4, "ID": 5}}`:                    false,
		`{"job": {"id": 4}, "id": 5}`:                    false,
		`{"jobs": [{"id": 1, "state": "\ud800"}]}`:       true,
		`{"jobs": [{"id": 1, "x": {"a": [{"b": {}}]}}]}`: true,
		`{"jobs": [{"id": 1, "worker": ""}, {"id": 2, "created_at": "yesterday"}, {"id": 3, "worker": {"suspended": "maybe"}}]}`: true,
		`{"id": 4, "state": "filled", "worker": {"id": 7}}`:                                                                      true,
		`{"state": "filled", "id": 4}`:   true,
		`{"jobs": [{"id": 1}], "id": 2}`: false,
	}
	for s, want := range taken {
		typ := jobs
		if strings.HasPrefix(s, `{"job"`) || strings.HasPrefix(s, `{"id"`) || strings.HasPrefix(s, `{"state"`) {
			typ = reflect.TypeFor[*Job]()
		} else if strings.HasPrefix(s, `{"user"`) {
			typ = reflect.TypeFor[*User]()
		}
		assert.Equal(t, want, decodeBothWays(t, []byte(s), typ, pageLimits), s)
	}
	for _, s := range fastSeeds {
		for _, typ := range fastTypes {
			decodeBothWays(t, []byte(s), typ, pageLimits)
			decodeBothWays(t, []byte(s), typ, smallLimits)
		}
	}
}

// BenchmarkFastDecode decodes the captured page of 50 Jobs the fast way
// and the usual way (answerLimits.check, then decodeEnvelope), as the
// client reads an answer:
//
//	go test -run '^$' -bench FastDecode .
func BenchmarkFastDecode(b *testing.B) {
	page, err := os.ReadFile("testdata/jobs_page_2017.json")
	require.NoError(b, err)
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			var jobs []*Job
			if _, _, ok, err := decodeFast(page, "jobs", &jobs, pageLimits, MaxWarnings); !ok || err != nil || len(jobs) != 50 {
				b.Fatal(ok, err)
			}
		}
	})
	b.Run("usual", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			var jobs []*Job
			if err := pageLimits.check(page, "jobs"); err != nil {
				b.Fatal(err)
			}
			if _, err := decodeEnvelope(page, "jobs", &jobs, MaxWarnings); err != nil || len(jobs) != 50 {
				b.Fatal(err)
			}
		}
	})
}

// Every type the client decodes answers into has a plan of its own: a
// field of a type the fast decoder does not know (planOther) would make it
// give up on every answer holding one, unnoticed.
func TestEveryAnswerTypeHasAPlan(t *testing.T) {
	t.Parallel()
	for _, typ := range fastTypes {
		assert.NotEqual(t, planOther, plans[typ].kind, "%s", typ)
	}
}
