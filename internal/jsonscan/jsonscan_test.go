package jsonscan

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMember(t *testing.T) {
	t.Parallel()
	cases := []struct {
		data, key, want string
		ok              bool
	}{
		{`{"jobs": [1, 2]}`, "jobs", `[1, 2]`, true},
		{` { "a" : "x\"}" , "job" : {"id": 1, "s": "]}"} } `, "job", `{"id": 1, "s": "]}"}`, true},
		{`{"a": null, "b": true, "c": -1.5e3}`, "c", `-1.5e3`, true},
		{`{"id": 1}`, "job", ``, false},
		{`[{"job": 1}]`, "job", ``, false},
		{`{"job": `, "job", ``, false},
		{`{"job" 1}`, "job", ``, false},
		{``, "job", ``, false},
	}
	for _, tc := range cases {
		got, ok := Member([]byte(tc.data), tc.key)
		assert.Equal(t, tc.ok, ok, tc.data)
		assert.Equal(t, tc.want, string(got), tc.data)
	}
}

func TestLen(t *testing.T) {
	t.Parallel()
	cases := map[string]int{
		`{}`: 0, ` { } `: 0, `{"job": {"id": 1}}`: 1, `{"info": "API v2", "utc_time_now": "x", "a": [1, {"b": 2}]}`: 3,
		`[]`: -1, `{"a": 1`: -1, `{"a": 1,}`: -1, `{"a" 1}`: -1, ``: -1, `"s"`: -1,
	}
	for data, want := range cases {
		assert.Equal(t, want, Len([]byte(data)), data)
	}
}

func TestElements(t *testing.T) {
	t.Parallel()
	got := Elements([]byte(` [ {"a": "[\"]"}, [1, [2]], "s", 3 , null ] `))
	require.Len(t, got, 5)
	assert.Equal(t, `{"a": "[\"]"}`, string(got[0]))
	assert.Equal(t, `[1, [2]]`, string(got[1]))
	assert.Equal(t, `null`, string(got[4]))
	assert.Equal(t, cap(got[0]), len(got[0]), "capacity is capped")
	assert.Equal(t, [][]byte{}, Elements([]byte(`[ ]`)))
	for _, bad := range []string{``, `{}`, `[1,`, `[1 2]`, `["x]`, `[{]`} {
		assert.Nil(t, Elements([]byte(bad)), bad)
	}
}

func TestArrayLen(t *testing.T) {
	t.Parallel()
	cases := map[string]int{
		`[]`: 0, ` [ ] `: 0, `[{"a": "[\"]"}, [1, [2]], "s", 3 , null]`: 5, `[{},{},{}]`: 3,
		``: -1, `{}`: -1, `[1,`: -1, `[1 2]`: -1, `["x]`: -1, `[{]`: -1, `[1,]`: -1,
	}
	for data, want := range cases {
		assert.Equal(t, want, ArrayLen([]byte(data)), data)
	}
	big := []byte(`[` + strings.Repeat(`{},`, 100000) + `{}]`)
	assert.Equal(t, 100001, ArrayLen(big))
}

func TestCount(t *testing.T) {
	t.Parallel()
	cases := map[string][2]int{
		`1`: {0, 0}, `"[{:"`: {0, 0}, `{}`: {1, 0}, `[]`: {1, 0}, `[1]`: {2, 0}, `[1, 2, 3]`: {4, 0}, `{"a": 1, "b": 2}`: {1, 2},
		`{"jobs": [{}, {}, {}]}`: {1 + 1 + 3 + 3, 1}, `[[], [1], {"x": [null, "a,b"]}]`: {1 + 3 + 1 + 2 + 1 + 1 + 2, 1},
		`{"s": "\"[,:]\"", "t": ["]", "["]}`: {1 + 1 + 2, 2},
	}
	for data, want := range cases {
		items, members := Count([]byte(data), 1000, 1000)
		assert.Equal(t, want, [2]int{items, members}, data)
	}
	big := []byte(`{"jobs": [` + strings.Repeat(`{"a":1},`, 100000) + `{}]}`)
	items, _ := Count(big, 50, 1<<20)
	assert.Equal(t, 51, items, "stops past the bound of items")
	_, members := Count(big, 1<<20, 50)
	assert.Equal(t, 51, members, "stops past the bound of members")
	items, members = Count(big, 1<<20, 1<<20)
	assert.Equal(t, [2]int{2 + 2*100001, 1 + 100000}, [2]int{items, members})
	deep := []byte(strings.Repeat(`[`, MaxDepth+1) + strings.Repeat(`]`, MaxDepth+1))
	items, _ = Count(deep, 1<<30, 1<<30)
	assert.Equal(t, 1<<30+1, items, "deeper than encoding/json goes")
}

// FuzzScan checks the scanner against encoding/json on any input: it never
// panics, and on valid JSON it finds exactly what encoding/json finds.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{"jobs": [{"id": 1}, {"id": 2}]}`, `[1, "a\"]", {"b": [null]}]`, `{"job": {"x": "}"}}`, `[`, `"`,
		`{"a": [], "a": [{}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		elems := Elements(data)
		if elems == nil {
			assert.Equal(t, -1, ArrayLen(data))
		} else {
			assert.Equal(t, len(elems), ArrayLen(data))
		}
		if json.Valid(data) {
			items, members := countValues(t, data)
			gotItems, gotMembers := Count(data, 1<<30, 1<<30)
			assert.Equal(t, [2]int{items, members}, [2]int{gotItems, gotMembers}, "%s", data)
		}
		var raws []json.RawMessage
		if json.Unmarshal(data, &raws) == nil && raws != nil {
			require.Len(t, elems, len(raws))
			for i := range raws {
				assert.True(t, jsonEqual(raws[i], elems[i]), "%s vs %s", raws[i], elems[i])
			}
		}
		v, ok := Member(data, "jobs")
		fv, at, fn := Envelope(data, "jobs")
		if fn >= 0 {
			assert.Equal(t, Len(data), fn, "Envelope counts the members Len counts")
		}
		if ok && fn >= 0 && countKey(data) == 1 && !bytes.Contains(data, []byte(`\`)) {
			assert.Equal(t, v, fv, "Envelope finds what Member finds")
			assert.Equal(t, v, data[at:at+len(fv)], "where it says")
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(data, &obj) == nil && obj != nil && !bytes.Contains(data, []byte(`\`)) {
			assert.True(t, Len(data) >= len(obj), "Len %d, encoding/json %d members", Len(data), len(obj))
		}
		if json.Unmarshal(data, &obj) == nil && ok {
			if want, has := obj["jobs"]; has && !bytes.Contains(data, []byte(`\`)) {
				assert.True(t, jsonEqual(want, v) || countKey(data) > 1, "%s vs %s", want, v)
			}
		}
	})
}

func jsonEqual(a, b []byte) bool {
	var x, y bytes.Buffer
	return json.Compact(&x, a) == nil && json.Compact(&y, b) == nil && bytes.Equal(x.Bytes(), y.Bytes())
}

// countKey counts "jobs" keys: with duplicates encoding/json keeps the
// last, the scanner the first.
func countKey(data []byte) int { return bytes.Count(data, []byte(`"jobs"`)) }

// countValues counts what Count counts, from encoding/json's tokens (so
// that repeated keys count as often as they are written).
func countValues(t *testing.T, data []byte) (items, members int) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var value func()
	value = func() {
		tok, err := dec.Token()
		require.NoError(t, err)
		switch tok {
		case json.Delim('{'):
			items++
			for dec.More() {
				_, err := dec.Token() // the key
				require.NoError(t, err)
				members++
				value()
			}
		case json.Delim('['):
			items++
			for dec.More() {
				items++
				value()
			}
		default:
			return
		}
		_, err = dec.Token() // the closing delimiter
		require.NoError(t, err)
	}
	value()
	return items, members
}

// BenchmarkScanPage scans a page of 50 hostile-sized records as the client
// does before decoding it: 0 allocs/op.
func BenchmarkScanPage(b *testing.B) {
	page := []byte(`{"jobs": [` + strings.Repeat(`{"id": 1, "worker": {"user_badges": [{"id": 2}]}, "transitions": [{}, {}]},`, 49) + `{}]}`)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		v, _ := Member(page, "jobs")
		if items, _ := Count(page, 20000, 100000); ArrayLen(v) != 50 || items == 0 {
			b.Fatal("miscounted")
		}
	}
}
