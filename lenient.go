package workforce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/workforce-marketplace/workforce-go/internal/jsonscan"
)

// A Warning is a value of an answer that fits none of the forms its field
// takes: the field was left at its zero value and the record kept, its Raw
// still holding the value. Response.Warnings lists them for List and Get
// calls; the client also logs them at Debug level (iterators included).
type Warning struct {
	// Index is the record's place in the list the answer holds, from 0; 0
	// for an answer holding one record.
	Index int
	// ID is the record's ID, or 0 when it has none that could be read.
	ID int64
	// Field is the value's path in the record, by JSON names, such as
	// "drug_tested", "worker.rating" or "transitions[1].latitude".
	Field string
	// Value is the value as sent, in JSON, cut to 64 bytes, with the keys,
	// token and secrets the client knows replaced; empty in the answer to
	// POST /authenticate, whose values may hold the token it issues.
	Value string
	// Want names the kind of value the field takes, such as "boolean",
	// "integer", "decimal" or "timestamp".
	Want string
}

// String describes w in one line, such as
// `record 3 (id 1007): worker.drug_tested: "maybe" is not a boolean`.
func (w Warning) String() string {
	field := w.Field
	if field == "" {
		field = "the record"
	}
	article := "a"
	if w.Want != "" && strings.IndexByte("aeiouAEIOU", w.Want[0]) >= 0 {
		article = "an" // "an integer"
	}
	return fmt.Sprintf("record %d (id %d): %s: %s is not %s %s", w.Index, w.ID, field, w.Value, article, w.Want)
}

// maxWarningValue bounds the part of a value a Warning keeps before the
// client redacts it and cuts it to 64 bytes: longer than any key or token,
// so that none is cut before it is recognized.
const maxWarningValue = 256

// errShape is decodeLenient's answer when the answer is not the shape out
// has (an object where a list is due): the strict decoder's error says it
// best.
var errShape = errors.New("the answer does not have the shape of the result")

// decodeLenient decodes data, valid JSON that json.Unmarshal could not
// decode into out (a value of a field fits no form of its Go type), record
// by record: each record that json.Unmarshal decodes is decoded so, the
// others field by field, taking the plausible forms of each scalar (see
// lenient.value) and leaving a value that fits none at its zero value,
// with a Warning. A list element that is not an object, where a record is
// due, is an error.
func decodeLenient(data []byte, out any, most int) (warnings, error) {
	d := &lenient{tables: map[reflect.Type]*fieldTable{}, most: most}
	v := reflect.ValueOf(out).Elem()
	data = bytes.TrimSpace(data)
	if v.Kind() == reflect.Slice && v.Type().Elem().Kind() != reflect.Uint8 {
		if len(data) == 0 || data[0] != '[' {
			return warnings{}, errShape
		}
		parts := jsonscan.Elements(data)
		s := reflect.MakeSlice(v.Type(), len(parts), len(parts))
		for i, part := range parts {
			d.index = i
			d.record(part, s.Index(i), path{})
			if d.err != nil {
				return warnings{}, fmt.Errorf("element %d: %w", i, d.err)
			}
		}
		v.Set(s)
		return d.warnings, nil
	}
	v.SetZero() // what json.Unmarshal made of it before it failed
	d.record(data, v, path{})
	return d.warnings, d.err
}

// warnings are the warnings of one decoding: the first ones, and how many
// more there were.
type warnings struct {
	list []Warning
	more int
}

// lenient is one lenient decoding: the field tables of the types it met,
// and what it found.
type lenient struct {
	tables   map[reflect.Type]*fieldTable
	warnings warnings
	most     int   // the most warnings kept; 0 for all
	index    int   // the place of the record being decoded in the answer's list
	err      error // the first record that is not an object
	// refused counts the records in a row json.Unmarshal refused; from
	// strictTries on, the answer's records are decoded leniently at once,
	// as an API that sends a form once sends it in every record.
	refused int
}

// strictTries is how many records in a row json.Unmarshal may refuse
// before the rest of the answer is decoded leniently without trying it.
const strictTries = 2

// A path names a value in a record: the path of the object or list that
// holds it, written out, and its own step, written only when a warning
// names it, so that decoding a field allocates no path.
type path struct {
	parent string // the holder's path, "" for the record
	member string // the member's JSON name; "" for a list element
	index  int    // the element's place, for a list element
	elem   bool
}

// String writes p, such as "worker.user_badges[0].badge_id", cut to
// maxPath bytes and marked "…" where it was cut: a member name may be as
// long as the answer, and each path below it would repeat it.
func (p path) String() string {
	if len(p.parent) > maxPath {
		return p.parent // already cut
	}
	member := p.member[:min(len(p.member), maxPath)]
	var s string
	switch {
	case p.elem:
		s = p.parent + "[" + strconv.Itoa(p.index) + "]"
	case p.parent == "":
		s = member
	case member == "":
		s = p.parent
	default:
		s = p.parent + "." + member
	}
	if len(s) > maxPath || len(member) < len(p.member) {
		s = strings.ToValidUTF8(s[:min(len(s), maxPath)], "") + "…"
	}
	return s
}

// maxPath bounds the paths of Warning.Field, before the client redacts
// them: longer than any key or token, so that none is cut before it is
// recognized.
const maxPath = maxWarningValue

// to returns the path of p's member name.
func (p path) to(name string) path { return path{parent: p.String(), member: name} }

// A lenientDecoder decodes itself with d, leniently: the types whose
// UnmarshalJSON does more than decode fields (Ranking hands its Worker a
// document; SearchResult decodes records).
type lenientDecoder interface {
	decodeLenient(d *lenient, data []byte, at path)
}

// record decodes data, one record, into v: with json.Unmarshal, the common
// case, or else field by field. Warnings it adds get the record's ID,
// unless a record inside it named theirs. A v that holds a record already
// (the same list's member sent twice) is decoded into field by field, as
// encoding/json decodes into what is there.
func (d *lenient) record(data []byte, v reflect.Value, at path) {
	if string(data) == "null" {
		v.SetZero() // keepDocuments refuses a null record
		return
	}
	fresh := v.IsZero()
	if fresh && d.refused < strictTries {
		if err := json.Unmarshal(data, v.Addr().Interface()); err == nil {
			d.refused = 0
			return
		}
		d.refused++
	}
	if isObject(v.Type()) && data[0] != '{' {
		if d.err == nil {
			d.err = fmt.Errorf("%.40s is not an object", data)
		}
		return
	}
	if fresh {
		v.SetZero() // what json.Unmarshal made of it before it failed
	}
	before := len(d.warnings.list)
	d.value(data, v, at)
	id := recordID(v)
	for i := before; i < len(d.warnings.list); i++ {
		if d.warnings.list[i].ID == 0 {
			d.warnings.list[i].ID = id
		}
	}
}

// isObject tells whether t is decoded from a JSON object: a struct, or a
// pointer to one.
func isObject(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct
}

// recordID returns the ID of the record v, or 0.
func recordID(v reflect.Value) int64 {
	var r any
	switch {
	case v.Kind() == reflect.Pointer && !v.IsNil():
		r = v.Interface()
	case v.CanAddr():
		r = v.Addr().Interface()
	}
	if l, ok := r.(listed); ok {
		return l.listID()
	}
	return 0
}

// value decodes data into v, which path names, and reports whether the
// value fit: the plausible forms of each kind are taken (see the parse
// functions), null and "" are "absent" (the zero value) wherever text is
// not due, objects and arrays are decoded member by member. A value that
// fits no form leaves v zero and adds a Warning. Types with an
// UnmarshalJSON of their own decode themselves; their error is such a
// warning. As encoding/json does, it decodes into what v holds (a member
// sent twice): an object into the struct, map or pointer there, an array's
// elements into the slice's, and null leaves a struct or scalar alone.
func (d *lenient) value(data []byte, v reflect.Value, at path) bool {
	if v.CanAddr() {
		switch u := v.Addr().Interface().(type) {
		case lenientDecoder:
			u.decodeLenient(d, data, at)
			return true
		case json.Unmarshaler:
			if u.UnmarshalJSON(data) != nil {
				return d.warn(data, v, at)
			}
			return true
		}
	}
	null := string(data) == "null"
	absent := null || isBlank(data)
	if k := v.Kind(); null && k != reflect.Pointer && k != reflect.Slice && k != reflect.Map && k != reflect.Interface {
		return true // as encoding/json: null sets only what can be nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if absent {
			v.SetZero()
			return true
		}
		p := v
		if v.IsNil() {
			p = reflect.New(v.Type().Elem())
		}
		if !d.value(data, p.Elem(), at) {
			v.SetZero()
			return false
		}
		v.Set(p)
		return true
	case reflect.Struct:
		switch {
		case data[0] == '{':
			d.object(data, v, at)
			return true
		case absent:
			return true
		}
	case reflect.Slice:
		switch {
		case data[0] == '"' && v.Type().Elem().Kind() == reflect.Uint8:
			if json.Unmarshal(data, v.Addr().Interface()) == nil { // base64, as encoding/json writes bytes
				return true
			}
		case data[0] == '[':
			parts := jsonscan.Elements(data)
			if len(parts) == 0 || v.IsNil() {
				v.Set(reflect.MakeSlice(v.Type(), 0, len(parts)))
			}
			list := at.String()
			for i, part := range parts { // into the elements there, as encoding/json does
				if i == v.Cap() {
					v.Grow(1)
				}
				v.SetLen(i + 1)
				d.value(part, v.Index(i), path{parent: list, index: i, elem: true})
			}
			return true
		case absent:
			v.SetZero()
			return true
		}
	case reflect.Map:
		switch {
		case data[0] == '{' && v.Type().Key().Kind() == reflect.String:
			m := v
			if m.IsNil() {
				m = reflect.MakeMap(v.Type())
			}
			object := at.String()
			jsonscan.Members(data, func(name, member []byte) bool {
				key := memberName(name)
				elem := reflect.New(v.Type().Elem()).Elem()
				d.value(member, elem, path{parent: object, member: key})
				m.SetMapIndex(reflect.ValueOf(key).Convert(v.Type().Key()), elem)
				return true
			})
			v.Set(m)
			return true
		case absent:
			v.SetZero()
			return true
		}
	case reflect.Bool:
		if b, ok := parseBool(data); ok {
			v.SetBool(b)
			return true
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n, ok := parseInt(data, v.Type().Bits()); ok {
			v.SetInt(n)
			return true
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if n, ok := parseInt(data, 64); ok && n >= 0 && !v.OverflowUint(uint64(n)) {
			v.SetUint(uint64(n))
			return true
		}
	case reflect.Float32, reflect.Float64:
		if f, ok := parseFloat(data); ok && !v.OverflowFloat(f) {
			v.SetFloat(f)
			return true
		}
	case reflect.String:
		if s, ok := parseString(data); ok {
			v.SetString(s)
			return true
		}
	default: // an interface, an array: as encoding/json decodes it
		if v.CanAddr() && json.Unmarshal(data, v.Addr().Interface()) == nil {
			return true
		}
	}
	return d.warn(data, v, at)
}

// warn leaves v zero and records that data, at at, fits no form of v's
// type. It returns false, for value to return.
func (d *lenient) warn(data []byte, v reflect.Value, at path) bool {
	v.SetZero()
	if d.most > 0 && len(d.warnings.list) >= d.most {
		d.warnings.more++ // counted, not kept: nothing of it is allocated
		return false
	}
	value := data[:min(len(data), maxWarningValue)]
	d.warnings.list = append(d.warnings.list, Warning{Index: d.index, Field: at.String(), Value: string(value), Want: want(v.Type())})
	return false
}

// object decodes the members of the JSON object data into the struct v,
// each into the field of its name (the exact name, else one that differs
// in case only, as encoding/json matches them); the last of duplicate
// members wins, and unknown members are skipped.
func (d *lenient) object(data []byte, v reflect.Value, at path) {
	table := d.table(v.Type())
	object := at.String()
	jsonscan.Members(data, func(name, member []byte) bool {
		if f, ok := table.find(name); ok {
			at := path{parent: object, member: f.name}
			if field, ok := fieldByIndex(v, f.index); ok {
				d.value(member, field, at)
			} else {
				d.warn(member, reflect.New(v.Type().FieldByIndex(f.index).Type).Elem(), at)
			}
		}
		return true
	})
}
