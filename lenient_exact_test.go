package workforce_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
)

// An integer written with a fraction or an exponent is read exactly,
// however large, or is a warning: never rounded through a float64 (A15).
// The table is also the list of forms Decode documents for integers.
func TestLenientIntegersAreExact(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		json string
		want int64
		ok   bool
	}{
		{`1234567890123456789.0`, 1234567890123456789, true},
		{`"1234567890123456789.0"`, 1234567890123456789, true},
		{`9007199254740993.0`, 9007199254740993, true},
		{`1.2345678901234567e18`, 1234567890123456700, true},
		{`"18014398509481985.0"`, 18014398509481985, true},
		{`123456789012345678.5e1`, 1234567890123456785, true},
		{`9223372036854775807.000`, 9223372036854775807, true},
		{`-9223372036854775808e0`, -9223372036854775808, true},
		{`9223372036854775808.0`, 0, false},
		{`1e19`, 0, false},
		{`1e3`, 1000, true},
		{`"1e3"`, 1000, true},
		{`12.50e1`, 125, true},
		{`1.0`, 1, true},
		{`"+5"`, 5, true},
		{`" 12 "`, 12, true},
		{`-0.0`, 0, true},
		{`0e999999999999`, 0, true},
		{`""`, 0, true},
		{`null`, 0, true},
		{`1.5`, 0, false},
		{`1e-3`, 0, false},
		{`1e999999999999`, 0, false},
		{`"12abc"`, 0, false},
		{`"0x10"`, 0, false},
		{`"1_000"`, 0, false},
		{`"null"`, 0, false},
		{`true`, 0, false},
		{`"\u0031\u0032"`, 12, true},
		{`"\u2003 12\t"`, 12, true},
		{`"\u0031x"`, 0, false},
		{`"\u0078"`, 0, false},
	} {
		doc := fmt.Sprintf(`{"id":1,"state":"filled","job_request_id":%s}`, tc.json)
		var j workforce.Job
		w, err := workforce.Decode([]byte(doc), &j)
		require.NoError(t, err, doc)
		if tc.ok {
			assert.Empty(t, w, doc)
			assert.Equal(t, tc.want, j.JobRequestID, doc)
		} else {
			assert.Len(t, w, 1, doc)
			assert.Zero(t, j.JobRequestID, doc)
		}
	}
}

// The forms Decode documents for booleans, and nothing else.
func TestLenientBooleanForms(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		json      string
		want, bad bool
	}{
		{`true`, true, false}, {`false`, false, false}, {`null`, false, false}, {`""`, false, false},
		{`1`, true, false}, {`0`, false, false}, {`1.0`, true, false}, {`0e5`, false, false},
		{`"true"`, true, false}, {`"TRUE"`, true, false}, {`"t"`, true, false}, {`"Yes"`, true, false},
		{`"y"`, true, false}, {`"on"`, true, false}, {`"1"`, true, false}, {`" true "`, true, false},
		{`"false"`, false, false}, {`"F"`, false, false}, {`"no"`, false, false}, {`"N"`, false, false},
		{`"off"`, false, false}, {`"0"`, false, false},
		{`2`, false, true}, {`"maybe"`, false, true}, {`"1.0"`, false, true}, {`"2"`, false, true},
		{`[]`, false, true}, {`{}`, false, true},
	} {
		doc := fmt.Sprintf(`{"id":5,"suspended":%s}`, tc.json)
		var u workforce.User
		w, err := workforce.Decode([]byte(doc), &u)
		require.NoError(t, err, doc)
		assert.Equal(t, tc.want, u.Suspended, doc)
		assert.Equal(t, tc.bad, len(w) == 1, "%s: %v", doc, w)
	}
}
