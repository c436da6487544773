package workforce

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"

	"github.com/workforce-marketplace/workforce-go/internal/jsonscan"
)

// The fast decoder decodes an answer in one pass: it checks the JSON,
// counts what answerLimits bounds, unwraps the envelope, decodes the
// records and finds the part of each, where encoding/json and the scans
// around it read an answer five times. It takes the answers the API
// writes: member names as written (no escape, ASCII), each once, the
// envelope's key once. A record holding a value of another type than its
// field's is decoded again by the lenient decoder, as the usual way
// decodes it (with its warnings). On anything else the fast decoder gives
// up, leaving out as it found it, and the answer is read the usual way,
// which decides what it means. So it decodes nothing differently, only
// faster: FuzzFastDecode holds it to the usual way.

// noLimits are the limits of a decoding that has none: Decode's.
var noLimits = answerLimits{items: math.MaxInt, members: math.MaxInt}

// maxFastDepth is the deepest nesting the fast decoder follows; deeper
// answers are read the usual way.
const maxFastDepth = 64

// A fastDecoder is one fast decoding of data.
type fastDecoder struct {
	data           []byte
	items, members int // as jsonscan.Count counts them
	limits         answerLimits
	depth          int
	lenient        *lenient // of the records decoded again, made for the first
	most           int      // the most warnings kept, 0 for all
}

// decodeFast is answerLimits.check under l, then decodeEnvelope and its
// warnings, for an answer the fast decoder takes, in one pass: out must
// point to a zero value of a type plans holds. It returns the part of data
// decoded (the value under key, or the whole answer, spaces cut); ok is
// false when it gave up, out then left zero.
func decodeFast(data []byte, key string, out any, l answerLimits, most int) (doc []byte, w warnings, ok bool, err error) {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return nil, warnings{}, false, nil
	}
	v = v.Elem()
	p := plans[v.Type()]
	if p == nil || !v.IsZero() {
		return nil, warnings{}, false, nil
	}
	d := &fastDecoder{data: data, limits: l, most: most}
	doc, parts, ok := d.envelope(key, v, p)
	if ok && key != "" && &doc[0] == &data[jsonscan.SkipSpace(data, 0)] {
		// Not unwrapped: the answer must be the resource, as decodeEnvelope checks.
		if r, isRecord := v.Interface().(listed); isRecord && r != nil && !reflect.ValueOf(r).IsNil() && r.listID() == 0 {
			ok = false
		}
	}
	if !ok {
		v.SetZero()
		return nil, warnings{}, false, nil
	}
	if d.lenient != nil {
		w = d.lenient.warnings
	}
	if parts != nil {
		return doc, w, true, keepElements(v, parts)
	}
	return doc, w, true, keepDocuments(v, doc)
}

// envelope decodes the answer: the value of its member key when it is an
// envelope holding one, else the whole answer, as unwrap reads it: a
// document holding an "id" is the record itself.
func (d *fastDecoder) envelope(key string, v reflect.Value, p *plan) ([]byte, [][]byte, bool) {
	start := jsonscan.SkipSpace(d.data, 0)
	if key == "" || start >= len(d.data) || d.data[start] != '{' {
		return d.top(start, v, p)
	}
	var doc []byte
	var parts [][]byte
	record := false // it holds an "id"
	i := start + 1
	if !d.item() {
		return nil, nil, false
	}
	for first := true; ; first = false {
		i = jsonscan.SkipSpace(d.data, i)
		if first && i < len(d.data) && d.data[i] == '}' {
			i++
			break
		}
		name, end := d.name(i)
		if end < 0 || !d.member() {
			return nil, nil, false
		}
		if i = jsonscan.SkipSpace(d.data, end); i >= len(d.data) || d.data[i] != ':' {
			return nil, nil, false
		}
		i = jsonscan.SkipSpace(d.data, i+1)
		switch {
		case string(name) == "id" && first: // the record itself, as a record is written
			d.items, d.members = 0, 0
			return d.top(start, v, p)
		case string(name) == key && (doc != nil || record):
			return nil, nil, false // a key twice, or beside an "id": the usual way decides
		case string(name) == key:
			if i >= len(d.data) || d.data[i] != '{' && d.data[i] != '[' {
				return nil, nil, false
			}
			var ok bool
			if doc, parts, end, ok = d.decode(i, v, p); !ok {
				return nil, nil, false
			}
		case strings.EqualFold(string(name), key):
			return nil, nil, false
		default:
			record = record || string(name) == "id"
			if end = d.skip(i); end < 0 {
				return nil, nil, false
			}
		}
		i = jsonscan.SkipSpace(d.data, end)
		if i >= len(d.data) {
			return nil, nil, false
		}
		if d.data[i] == '}' {
			i++
			break
		}
		if d.data[i] != ',' {
			return nil, nil, false
		}
		i++
	}
	switch {
	case jsonscan.SkipSpace(d.data, i) != len(d.data), doc != nil && record:
		return nil, nil, false
	case doc == nil: // no envelope: the answer is the record
		d.items, d.members = 0, 0
		return d.top(start, v, p)
	}
	return doc, parts, true
}

// top decodes the whole answer, from its first value at start.
func (d *fastDecoder) top(start int, v reflect.Value, p *plan) ([]byte, [][]byte, bool) {
	if start >= len(d.data) || d.data[start] == 'n' {
		return nil, nil, false // null where a resource is due: the usual way says so
	}
	doc, parts, end, ok := d.decode(start, v, p)
	if !ok || jsonscan.SkipSpace(d.data, end) != len(d.data) {
		return nil, nil, false
	}
	return doc, parts, true
}

// decode decodes the record or list at i into v, and returns its part of
// the data, each element's part for a list, and where it ends.
func (d *fastDecoder) decode(i int, v reflect.Value, p *plan) (doc []byte, parts [][]byte, end int, ok bool) {
	if p.kind == planSlice && d.data[i] == '[' {
		parts = [][]byte{}
		end = d.slice(i, v, p, &parts)
	} else {
		end = d.record(i, v, p, 0)
	}
	if end < 0 {
		return nil, nil, giveUp, false
	}
	return d.data[i:end:end], parts, end, true
}

// record decodes the value at data[i] into v with p; when that is a
// record (a struct, or a pointer to one) holding a value of another type
// than its field's, it decodes it again as the usual way does: with the
// lenient decoder, which warns of each value that fits no form. index is
// the record's place in the answer's list.
func (d *fastDecoder) record(i int, v reflect.Value, p *plan, index int) int {
	items, members := d.items, d.members
	end := d.value(i, v, p)
	if end != mismatch || !isObject(v.Type()) {
		return end
	}
	d.items, d.members = items, members // counted again, whole
	if end = d.skip(i); end < 0 {
		return giveUp
	}
	if d.lenient == nil {
		d.lenient = &lenient{tables: map[reflect.Type]*fieldTable{}, most: d.most}
	}
	v.SetZero()
	d.lenient.index = index
	d.lenient.record(d.data[i:end:end], v, path{})
	if d.lenient.err != nil {
		return giveUp // not an object: the usual way says so
	}
	return end
}

// item counts an object, array or array element; false past the limit.
func (d *fastDecoder) item() bool {
	d.items++
	return d.items <= d.limits.items
}

// member counts an object member; false past the limit.
func (d *fastDecoder) member() bool {
	d.members++
	return d.members <= d.limits.members
}

// What value returns instead of an index: it gives up (malformed JSON,
// a limit passed, names it does not take), or the value, well formed, is
// of another type than v's (a string for an integer): a field or an
// element of a scalar type then reads it as the lenient decoder does
// (leaf), and a record holding one is decoded again (record).
const (
	giveUp   = -1
	mismatch = -2
)

// value decodes the value at data[i] into v, and returns the index after
// it, giveUp or mismatch.
func (d *fastDecoder) value(i int, v reflect.Value, p *plan) int {
	if i >= len(d.data) {
		return giveUp
	}
	c := d.data[i]
	if c == 'n' && p.kind != planUnmarshaler && p.kind != planOther { // null: a pointer or list is nil, else nothing changes
		end := literal(d.data, i, "null")
		if end >= 0 && (p.kind == planPointer || p.kind == planSlice) {
			v.SetZero()
		}
		return end
	}
	switch p.kind {
	case planStruct:
		if c == '{' {
			return d.object(i, v, p)
		}
	case planPointer:
		if v.IsNil() {
			v.Set(reflect.New(p.typ))
		}
		return d.value(i, v.Elem(), p.elem)
	case planSlice:
		if c == '[' {
			return d.slice(i, v, p, nil)
		}
	case planString:
		if c == '"' {
			return d.text(i, v)
		}
	case planInt:
		return d.integer(i, v)
	case planBool:
		end := mismatch
		if c == 't' {
			end = literal(d.data, i, "true")
		} else if c == 'f' {
			end = literal(d.data, i, "false")
		}
		if end >= 0 {
			v.SetBool(c == 't')
		}
		return end
	case planUnmarshaler:
		end := d.skip(i)
		if end >= 0 && v.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(d.data[i:end:end]) != nil {
			return mismatch // a form its type does not take
		}
		return end
	case planOther:
		return giveUp
	}
	return mismatch
}

// leaf decodes the value at data[i] into v, a field or a list element of
// a scalar type (planString, planInt, planBool), when value found it of
// another type: as the lenient decoder reads it, without a warning (the
// text "true" for a boolean), or not at all. A record that the usual way
// finds a value of another type in is decoded leniently, every field, and
// the lenient decoder reads a value of the field's type as encoding/json
// does; so this is what the usual way makes of the record.
func (d *fastDecoder) leaf(i int, v reflect.Value, p *plan, end int) int {
	if end != mismatch || p.kind < planString {
		return end
	}
	if end = d.skip(i); end < 0 {
		return giveUp
	}
	var l lenient
	if !l.value(d.data[i:end:end], v, path{}) {
		return mismatch // a warning: its record is decoded again, to give it
	}
	return end
}

// object decodes the object at data[i] into v, a struct.
func (d *fastDecoder) object(i int, v reflect.Value, p *plan) int {
	if !d.item() || !d.enter() {
		return giveUp
	}
	defer d.leave()
	var seen uint64
	i = jsonscan.SkipSpace(d.data, i+1)
	if i < len(d.data) && d.data[i] == '}' {
		return i + 1
	}
	for {
		name, end := d.name(i)
		if end < 0 || !d.member() {
			return giveUp
		}
		if i = jsonscan.SkipSpace(d.data, end); i >= len(d.data) || d.data[i] != ':' {
			return giveUp
		}
		i = jsonscan.SkipSpace(d.data, i+1)
		if f := p.field(name); f != nil {
			if seen&f.bit != 0 {
				return giveUp // a member twice: encoding/json merges them
			}
			seen |= f.bit
			field := v.Field(f.index)
			end = d.leaf(i, field, f.plan, d.value(i, field, f.plan))
		} else if p.otherCase(name) {
			return giveUp // a field's name in another case
		} else {
			end = d.skip(i)
		}
		if end < 0 {
			return end
		}
		var done bool
		if i, done = d.after(end, '}'); done {
			return i
		}
	}
}

// after reads what follows a member or an element ending at end, in an
// object or array that closes with closing: the index after the closing
// and true, or the index of the next member or element and false after a
// comma, or giveUp and true.
func (d *fastDecoder) after(end int, closing byte) (int, bool) {
	i := jsonscan.SkipSpace(d.data, end)
	switch {
	case i >= len(d.data):
		return giveUp, true
	case d.data[i] == closing:
		return i + 1, true
	case d.data[i] == ',':
		return jsonscan.SkipSpace(d.data, i+1), false
	}
	return giveUp, true
}

// slice decodes the array at data[i] into v, a slice, and adds each
// element's part to parts when parts is not nil.
func (d *fastDecoder) slice(i int, v reflect.Value, p *plan, parts *[][]byte) int {
	if !d.item() || !d.enter() {
		return giveUp
	}
	defer d.leave()
	v.Set(reflect.MakeSlice(v.Type(), 0, 0))
	i = jsonscan.SkipSpace(d.data, i+1)
	if i < len(d.data) && d.data[i] == ']' {
		return i + 1
	}
	for n := 0; ; n++ {
		if !d.item() || parts != nil && d.limits.records > 0 && n == d.limits.records {
			return giveUp
		}
		if n == v.Cap() {
			v.Grow(max(4, n))
		}
		v.SetLen(n + 1)
		elem := v.Index(n)
		var end int
		if parts != nil { // the answer's list: each element a record
			end = d.record(i, elem, p.elem, n)
		} else {
			end = d.leaf(i, elem, p.elem, d.value(i, elem, p.elem))
		}
		if end < 0 {
			return end
		}
		if parts != nil {
			*parts = append(*parts, d.data[i:end:end])
		}
		var done bool
		if i, done = d.after(end, ']'); done {
			return i
		}
	}
}
