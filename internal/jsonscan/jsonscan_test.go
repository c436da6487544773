package jsonscan

import (
	"bytes"
	"encoding/json"
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

// FuzzScan checks the scanner against encoding/json on any input: it never
// panics, and on valid JSON it finds exactly what encoding/json finds.
func FuzzScan(f *testing.F) {
	for _, s := range []string{`{"jobs": [{"id": 1}, {"id": 2}]}`, `[1, "a\"]", {"b": [null]}]`, `{"job": {"x": "}"}}`, `[`, `"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		elems := Elements(data)
		var raws []json.RawMessage
		if json.Unmarshal(data, &raws) == nil && raws != nil {
			require.Len(t, elems, len(raws))
			for i := range raws {
				assert.True(t, jsonEqual(raws[i], elems[i]), "%s vs %s", raws[i], elems[i])
			}
		}
		v, ok := Member(data, "jobs")
		fv, fok, fn := Find(data, "jobs")
		assert.Equal(t, ok, fok)
		assert.Equal(t, Len(data), fn, "Find counts the members Len counts")
		if ok && fn >= 0 {
			assert.Equal(t, v, fv, "Find finds what Member finds")
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
