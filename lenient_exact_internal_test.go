package workforce

import (
	"math/big"
	"regexp"
	"testing"
)

// decimalNumber is the form wholeNumber reads: a sign, digits with a
// fraction, an exponent.
var decimalNumber = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

// hugeExponent matches an exponent big.Rat would take long to apply.
var hugeExponent = regexp.MustCompile(`[eE][+-]?0*[0-9]{5,}$`)

// FuzzWholeNumber checks wholeNumber against exact rational arithmetic:
// a whole number within int64 is read exactly, anything else refused.
func FuzzWholeNumber(f *testing.F) {
	for _, s := range []string{"1234567890123456789.0", "1.2345678901234567e18", "9223372036854775807.000",
		"-9223372036854775808e0", "9223372036854775808.0", "1.5", "12.50e1", "0e99999999", "1e-3", "+5", ".5e1", "5."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := wholeNumber(s, 64)
		if !decimalNumber.MatchString(s) || len(s) > 200 {
			if ok && !decimalNumber.MatchString(s) {
				t.Fatalf("%q read as %d", s, got)
			}
			return
		}
		if hugeExponent.MatchString(s) {
			return // read, or refused, without rational arithmetic to check it by
		}
		r, valid := new(big.Rat).SetString(s)
		want := valid && r.IsInt() && r.Num().IsInt64()
		if ok != want || (ok && got != r.Num().Int64()) {
			t.Fatalf("%q: got %d, %v; exact value %v", s, got, ok, r)
		}
	})
}
