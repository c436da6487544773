package workforcetest

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// fields reads the write parameters of one resource, the object under its singular name (e.g.
// customer[name]) or the flat top level of a body that has none (params.object), into a record: each reader sets its destination only when the parameter is
// present, and collects a 422 message when it is malformed. A null parameter clears an optional
// value.
type fields struct {
	p      params
	prefix string // the singular name the parameters are wrapped in
	fe     fieldErrors
	pool   pool // the access level of the call's token, for readers that check what it may name
}

// value returns the parameter name and whether it is present (null counts as present): under
// the prefix, or at the top level of a flat body (params.object).
func (f fields) value(name string) (any, bool) {
	v, ok := f.p.object(f.prefix)[name]
	return v, ok
}

// any tells whether any parameter but the token is present under the prefix (or, flat, at the
// top level).
func (f fields) any() bool {
	for name := range f.p.object(f.prefix) {
		if name != "token" {
			return true
		}
	}
	return false
}

// str returns the parameter as a string (numbers and booleans as in JSON) and whether it is
// present and not blank.
func (f fields) str(name string) (string, bool) { return f.p.str(f.prefix, name) }

// scalar returns the parameter trimmed and whether the reader goes on: not when it is absent,
// nor when it is null (then clear runs), nor when it is an object or an array (a 422).
func (f fields) scalar(name string, clear func()) (string, bool) {
	v, present := f.value(name)
	switch v.(type) {
	case nil:
		if present {
			clear()
		}
		return "", false
	case map[string]any, []any:
		f.fe.add(name, "must be a single value")
		return "", false
	}
	s, _ := f.str(name)
	return strings.TrimSpace(s), true
}

// notBlank adds "can't be blank" for each required field whose value (after reading, so on
// create and update alike) is empty, unless its reading already failed.
func (f fields) notBlank(values map[string]string) {
	for name, v := range values {
		if v == "" && len(f.fe[name]) == 0 {
			f.fe.add(name, "can't be blank")
		}
	}
}

// text reads a string of minLen to maxLen characters (maxLen 0: no limit). null clears it.
func (f fields) text(dst *string, name string, minLen, maxLen int) {
	s, ok := f.scalar(name, func() { *dst = "" })
	if !ok {
		return
	}
	n := utf8.RuneCountInString(s)
	switch {
	case n < minLen:
		f.fe.add(name, "is too short (minimum is "+strconv.Itoa(minLen)+" characters)")
	case maxLen > 0 && n > maxLen:
		f.fe.add(name, "is too long (maximum is "+strconv.Itoa(maxLen)+" characters)")
	default:
		*dst = s
	}
}

// oneOf reads a string that must be one of values.
func (f fields) oneOf(dst *string, name string, values ...string) {
	if _, present := f.value(name); !present {
		return
	}
	s, _ := f.str(name)
	s = strings.TrimSpace(s)
	for _, v := range values {
		if s == v {
			*dst = s
			return
		}
	}
	f.fe.add(name, "must be one of "+strings.Join(values, ", "))
}

// boolean reads true/false, 1/0, on/off or yes/no (a JSON boolean or a string). null is false.
func (f fields) boolean(dst *bool, name string) {
	v, present := f.value(name)
	if !present {
		return
	}
	if b, ok := v.(bool); ok {
		*dst = b
		return
	}
	s, _ := f.str(name)
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1", "on", "yes":
		*dst = true
	case "false", "0", "off", "no", "":
		*dst = false
	default:
		f.fe.add(name, "must be true or false")
	}
}

// integer reads a whole number of at least lowest. null clears it to 0.
func (f fields) integer(dst *int, name string, lowest int) {
	s, ok := f.scalar(name, func() { *dst = 0 })
	if !ok {
		return
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lowest {
		f.fe.add(name, "must be a whole number of at least "+strconv.Itoa(lowest))
		return
	}
	*dst = n
}

// decimal reads a number from lo to hi, kept as written ("18.50"). null clears it.
func (f fields) decimal(dst *string, name string, lo, hi float64) {
	s, ok := f.scalar(name, func() { *dst = "" })
	if !ok {
		return
	}
	if s == "" {
		*dst = ""
		return
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x < lo || x > hi {
		f.fe.add(name, "must be a number from "+formatFloat(lo)+" to "+formatFloat(hi))
		return
	}
	*dst = s
}

// formatFloat writes a bound in a message.
func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// idList reads a list of positive ids: a JSON array of numbers or strings, a form list (a[]=1),
// or a comma-separated string. null clears it.
func (f fields) idList(dst *[]int64, name string) {
	v, present := f.value(name)
	if !present {
		return
	}
	items, ok := listItems(v)
	if !ok {
		f.fe.add(name, "must be a list of positive integer ids")
		return
	}
	out := []int64{}
	for _, item := range items {
		id, ok := idValue(item)
		if !ok {
			f.fe.add(name, "must be a list of positive integer ids")
			return
		}
		out = append(out, id)
	}
	*dst = out
}

// listItems returns the items of a list parameter: a JSON array, a form's indexed hash
// (a[0]=…&a[1]=…, in key order), a comma-separated string, or one value; null is empty.
func listItems(v any) ([]any, bool) {
	switch v := v.(type) {
	case nil:
		return nil, true
	case []any:
		return v, true
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, k int) bool { // a[2] before a[10]; numbers before other keys
			a, errA := strconv.Atoi(keys[i])
			b, errB := strconv.Atoi(keys[k])
			switch {
			case errA == nil && errB == nil:
				return a < b
			case (errA == nil) != (errB == nil):
				return errA == nil
			}
			return keys[i] < keys[k]
		})
		items := make([]any, len(keys))
		for i, k := range keys {
			items[i] = v[k]
		}
		return items, true
	case string:
		var items []any
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				items = append(items, s)
			}
		}
		return items, true
	}
	return []any{v}, true
}

// id reads one positive id; null clears it to 0.
func (f fields) id(dst *int64, name string) {
	s, ok := f.scalar(name, func() { *dst = 0 })
	if !ok {
		return
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		f.fe.add(name, "must be a positive integer id")
		return
	}
	*dst = n
}

// idValue reads one positive id from a JSON number or a string.
func idValue(v any) (int64, bool) {
	var s string
	switch v := v.(type) {
	case json.Number:
		s = v.String()
	case string:
		s = v
	default:
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n, err == nil && n > 0
}
