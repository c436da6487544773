package workforce

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The lenient decoder's tables of a struct's JSON fields, and the readers
// of the forms a scalar may take.

// memberName returns a member's name as the JSON text it is written as
// means it.
func memberName(name []byte) string {
	if bytes.IndexByte(name, '\\') < 0 {
		return string(name)
	}
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, name...), '"'), &s) != nil {
		return string(name)
	}
	return s
}

// fieldTable maps the JSON names of a struct's fields to the fields.
type fieldTable struct {
	exact map[string]jsonField
	names []string // in field order, for the case-insensitive match
}

// A jsonField is a struct field as JSON names it: its name and its index.
type jsonField struct {
	name  string
	index []int
}

// find returns the field of the member name (as written in JSON), or else
// one whose name differs in case only.
func (t *fieldTable) find(name []byte) (jsonField, bool) {
	if f, ok := t.exact[string(name)]; ok {
		return f, true
	}
	key := memberName(name)
	if f, ok := t.exact[key]; ok { // written with escapes
		return f, true
	}
	for _, n := range t.names {
		if strings.EqualFold(n, key) {
			return t.exact[n], true
		}
	}
	return jsonField{}, false
}

// table returns the field table of the struct type t, built once per
// decoding.
func (d *lenient) table(t reflect.Type) *fieldTable {
	if ft, ok := d.tables[t]; ok {
		return ft
	}
	ft := &fieldTable{exact: map[string]jsonField{}}
	collectFields(t, nil, ft, nil)
	d.tables[t] = ft
	return ft
}

// collectFields adds the fields of t, whose index in the outer struct is
// index, to ft as encoding/json names them: the tag's name, else the Go
// name; "-" and unexported fields skipped; the fields of an untagged
// embedded struct, or pointer to one, promoted, after (so behind) the
// outer ones.
func collectFields(t reflect.Type, index []int, ft *fieldTable, outer []reflect.Type) {
	if slices.Contains(outer, t) {
		return // embedded in itself, through a pointer
	}
	outer = append(outer, t)
	var embedded []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if t := f.Type; f.Anonymous && name == "" && (t.Kind() == reflect.Struct || t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct) {
			embedded = append(embedded, f)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, taken := ft.exact[name]; !taken {
			ft.exact[name] = jsonField{name: name, index: append(append([]int(nil), index...), i)}
			ft.names = append(ft.names, name)
		}
	}
	for _, f := range embedded {
		t := f.Type
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		collectFields(t, append(append([]int(nil), index...), f.Index...), ft, outer)
	}
}

// want names what values of t are, for a Warning.
func want(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[Decimal]():
		return "decimal"
	case reflect.TypeFor[Time]():
		return "timestamp"
	case reflect.TypeFor[Date]():
		return "date"
	case reflect.TypeFor[IDs]():
		return "list of IDs"
	case reflect.TypeFor[Skills]():
		return "text or list of texts"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "integer"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer of at least 0"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "text"
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return "base64 text"
		}
		return "list"
	case reflect.Pointer:
		return want(t.Elem())
	}
	return t.String()
}

// isBlank tells whether data is a JSON string of spaces only, such as "".
func isBlank(data []byte) bool {
	if len(data) < 2 || data[0] != '"' {
		return false
	}
	return len(bytes.TrimSpace(data[1:len(data)-1])) == 0
}

// text returns the content of the JSON string data, and whether it is one.
func text(data []byte) (string, bool) {
	if len(data) < 2 || data[0] != '"' {
		return "", false
	}
	if inner := data[1 : len(data)-1]; bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	var s string
	err := json.Unmarshal(data, &s) // escapes, and invalid UTF-8 replaced as encoding/json does
	return s, err == nil
}

// parseBool reads a boolean: true or false; the numbers 1 and 0; the
// strings "true", "t", "yes", "y", "on", "1" and "false", "f", "no", "n",
// "off", "0" in any case; null and "" are false.
func parseBool(data []byte) (bool, bool) {
	switch string(data) {
	case "true":
		return true, true
	case "false", "null":
		return false, true
	}
	s, ok := text(data)
	if !ok {
		switch f, err := strconv.ParseFloat(string(data), 64); {
		case err == nil && f == 1:
			return true, true
		case err == nil && f == 0:
			return false, true
		}
		return false, false
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "t", "yes", "y", "on", "1":
		return true, true
	case "false", "f", "no", "n", "off", "0", "":
		return false, true
	}
	return false, false
}

// parseInt reads a whole number of bits bits: a JSON number, or a JSON
// string holding one with spaces around it or a leading '+'; a fraction of
// zeros or an exponent is taken when the number is whole (12.0, 1e3,
// 1.5e1), read exactly whatever its size; null and "" are 0.
func parseInt(data []byte, bits int) (int64, bool) {
	if !numeric(data) && string(data) != "null" {
		return 0, false
	}
	s := string(data)
	if t, ok := text(data); ok {
		s = strings.TrimSpace(t)
	}
	switch s {
	case "null":
		if data[0] == '"' {
			return 0, false
		}
		return 0, true
	case "":
		return 0, true
	}
	if n, err := strconv.ParseInt(s, 10, bits); err == nil {
		return n, true
	}
	return wholeNumber(s, bits)
}

// wholeNumber reads s, a decimal number with a fraction or an exponent
// (-1.20e3), exactly: digit by digit, never through a float64, which
// would round an ID above 2^53. It returns false for a number that is not
// whole or does not fit in bits bits.
func wholeNumber(s string, bits int) (int64, bool) {
	sign := ""
	if s != "" && (s[0] == '+' || s[0] == '-') {
		sign, s = s[:1], s[1:]
	}
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			return 0, false
		}
		exp, s = e, s[:i]
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole+frac == "" || !allDigits(whole) || !allDigits(frac) {
		return 0, false
	}
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return 0, true
	}
	// digits × 10^(exp-len(frac)): drop the trailing zeros a negative
	// power takes away, then add the zeros a positive one adds.
	if exp < -1<<20 || exp > 1<<20 {
		return 0, false
	}
	exp -= len(frac)
	for exp < 0 && strings.HasSuffix(digits, "0") {
		digits, exp = digits[:len(digits)-1], exp+1
	}
	if exp < 0 || len(digits)+exp > 19 {
		return 0, false // a fraction, or beyond any int64
	}
	n, err := strconv.ParseInt(sign+digits+strings.Repeat("0", exp), 10, bits)
	return n, err == nil
}

// allDigits tells whether s holds digits only.
func allDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseFloat reads a number: a JSON number, or a string holding a finite
// one; null and "" are 0.
func parseFloat(data []byte) (float64, bool) {
	if !numeric(data) && string(data) != "null" {
		return 0, false
	}
	s := string(data)
	if t, ok := text(data); ok {
		s = strings.TrimSpace(t)
	} else if s == "null" {
		return 0, true
	}
	if s == "" {
		return 0, true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || strings.ContainsAny(s, "xXnN_") {
		return 0, false
	}
	return f, true
}

// parseString reads text: a JSON string, or a number or boolean as
// written; null is "".
func parseString(data []byte) (string, bool) {
	if s, ok := text(data); ok {
		return s, true
	}
	switch c := data[0]; {
	case string(data) == "null":
		return "", true
	case c == 't' || c == 'f' || c == '-' || ('0' <= c && c <= '9'):
		return string(data), true
	}
	return "", false
}

// fieldByIndex returns the field of the struct v at index, allocating the
// embedded structs it is promoted from through nil pointers, as
// encoding/json does; false when one is a pointer to an unexported type,
// which cannot be set.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !v.CanSet() {
					return reflect.Value{}, false
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}
