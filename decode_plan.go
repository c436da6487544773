package workforce

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
)

// A planKind says how the fast decoder decodes values of a Go type.
type planKind uint8

const (
	planOther       planKind = iota // none: the fast decoder gives up
	planUnmarshaler                 // the type's UnmarshalJSON, with the value's JSON
	planStruct
	planPointer
	planSlice
	planString
	planInt
	planBool
)

// A plan is how the fast decoder decodes a value of one Go type.
type plan struct {
	kind   planKind
	elem   *plan               // planPointer, planSlice: the element's
	fields []*planField        // planStruct: a hash table by JSON name (field)
	folded map[string]struct{} // planStruct: each JSON name lower-cased
	typ    reflect.Type        // planPointer: the element's type
}

// A planField is a struct field the fast decoder fills.
type planField struct {
	name  string // its JSON name
	index int    // in the struct
	bit   uint64
	plan  *plan
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// plans are the plans of the values the client decodes answers into: a
// record of every kind envelopes names, a pointer to one, and lists of
// either, but for containers (a SearchResult): one holding a value of
// another form would be decoded again whole, its records with it, where
// the records of a list are decoded again one by one. Built once, never
// changed.
var plans = func() map[reflect.Type]*plan {
	memo := map[reflect.Type]*plan{}
	for t := range envelopes {
		if reflect.PointerTo(t).Implements(reflect.TypeFor[container]()) {
			continue
		}
		planOf(t, memo)
		planOf(reflect.PointerTo(t), memo)
		planOf(reflect.SliceOf(t), memo)
		planOf(reflect.SliceOf(reflect.PointerTo(t)), memo)
	}
	return memo
}()

// planOf returns the plan of t, made with the plans of memo.
func planOf(t reflect.Type, memo map[reflect.Type]*plan) *plan {
	if p, ok := memo[t]; ok {
		return p
	}
	p := &plan{}
	memo[t] = p // before its elements: a type may hold itself
	pt := reflect.PointerTo(t)
	switch {
	case t.Kind() == reflect.Interface:
		p.kind = planOther
	case t.Kind() != reflect.Pointer && (pt.Implements(unmarshalerType) || t.Implements(unmarshalerType)):
		p.kind = planUnmarshaler
	case t.Kind() != reflect.Pointer && (pt.Implements(textUnmarshalerType) || t.Implements(textUnmarshalerType)),
		t == reflect.TypeFor[json.Number]():
		p.kind = planOther
	case t.Kind() == reflect.Struct:
		structPlan(t, p, memo)
	case t.Kind() == reflect.Pointer:
		p.kind, p.typ, p.elem = planPointer, t.Elem(), planOf(t.Elem(), memo)
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8:
		p.kind, p.elem = planSlice, planOf(t.Elem(), memo)
	case t.Kind() == reflect.String:
		p.kind = planString
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		p.kind = planInt
	case t.Kind() == reflect.Bool:
		p.kind = planBool
	}
	return p
}

// structPlan makes p the plan of the struct t: its fields by JSON name,
// or planOther for a struct whose fields encoding/json names by rules the
// fast decoder does not follow (embedded structs, ",string", a name twice,
// a name that is not plain).
func structPlan(t reflect.Type, p *plan, memo map[reflect.Type]*plan) {
	p.kind = planOther
	var fields []*planField
	folded := map[string]struct{}{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous || len(fields) == 64 {
			return
		}
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if strings.Contains(opts, "string") {
			return
		}
		if name == "" {
			name = f.Name
		}
		lower := strings.ToLower(name)
		if _, twice := folded[lower]; twice || !plainName(name) {
			return
		}
		folded[lower] = struct{}{}
		fields = append(fields, &planField{name: name, index: i, bit: 1 << len(fields), plan: planOf(f.Type, memo)})
	}
	size := 8
	for size < 4*len(fields) {
		size *= 2
	}
	p.fields = make([]*planField, size)
	for _, f := range fields {
		h := nameHash(f.name, size-1)
		for p.fields[h] != nil {
			h = (h + 1) & (size - 1)
		}
		p.fields[h] = f
	}
	p.kind, p.folded = planStruct, folded
}

// field returns the field of p, a struct's plan, named name, or nil.
func (p *plan) field(name []byte) *planField {
	mask := len(p.fields) - 1
	for h := nameHash(name, mask); ; h = (h + 1) & mask {
		if f := p.fields[h]; f == nil || f.name == string(name) {
			return f
		}
	}
}

// nameHash returns where the field named name lies in a plan's table of
// mask+1 places, a power of two, before collisions move it.
func nameHash[T string | []byte](name T, mask int) int {
	if len(name) == 0 {
		return 0
	}
	return (len(name)*131 + int(name[0])*31 + int(name[len(name)/2])*7 + int(name[len(name)-1])) & mask
}

// plainName tells whether name is made of ASCII letters, digits and
// underscores: a name that encoding/json takes as written and matches to
// another only in another case.
func plainName(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return name != ""
}

// otherCase tells whether name, ASCII, names a field of p, a struct's
// plan, in another case than the field's, as encoding/json matches names.
// It allocates only for a name with an upper-case letter.
func (p *plan) otherCase(name []byte) bool {
	for _, c := range name {
		if c >= 'A' && c <= 'Z' {
			_, ok := p.folded[strings.ToLower(string(name))]
			return ok
		}
	}
	_, ok := p.folded[string(name)]
	return ok
}
