package workforce

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"time"
)

// How resources print. Every record type the API answers with has a Format
// method, below, that calls printRecord, so that fmt prints it readably in
// every verb: Job{ID:42 State:"filled" WorkerID:7 ... Raw:<2048 bytes of JSON>}.
// A JSON document (Raw) prints as its size, never as its bytes: a record
// whose text is wanted is printed with string(r.Raw).

// Bounds of a printed record, so that a typical one stays under a
// thousand characters: each list shows its first maxPrintedElems elements,
// each text its first maxPrintedText bytes, and a record inside another
// (a Job's Worker, its Transitions) its first maxNestedFields fields set,
// which name it (a User's ID, Type and FirstName).
const (
	maxPrintedElems = 3
	maxPrintedText  = 80
	maxNestedFields = 3
)

var (
	rawType       = reflect.TypeFor[json.RawMessage]()
	bytesType     = reflect.TypeFor[[]byte]()
	timeType      = reflect.TypeFor[Time]()
	stdTimeType   = reflect.TypeFor[time.Time]()
	stringerType  = reflect.TypeFor[fmt.Stringer]()
	formatterType = reflect.TypeFor[fmt.Formatter]()
)

// printRecord prints v, a record, as fmt's verb asks: %#v as Go syntax,
// workforce.Job{ID:42, State:"filled", Worker:&User{…}}; every other verb
// as Job{ID:42 State:"filled" Worker:User{…}}. Fields left zero or empty are left out,
// pointers are followed, texts quoted, times written in RFC 3339, lists,
// long texts and nested records cut short (an ellipsis says so), and JSON
// documents written as their size.
func printRecord(f fmt.State, verb rune, v any) {
	p := printer{sharp: verb == 'v' && f.Flag('#')}
	p.record(reflect.ValueOf(v), 0, "")
	_, _ = f.Write(p.buf.Bytes())
}

type printer struct {
	buf   bytes.Buffer
	sharp bool
}

func (p *printer) sep() string {
	if p.sharp {
		return ", "
	}
	return " "
}

// record prints the struct v, at depth within the record printed; in is
// the name of the field that holds the ID of the record v is nested in, such
// as "JobID" for a Job's Transitions, which is left out.
func (p *printer) record(v reflect.Value, depth int, in string) {
	t := v.Type()
	if p.sharp && depth == 0 {
		p.buf.WriteString(t.String())
	} else {
		p.buf.WriteString(t.Name())
	}
	p.buf.WriteByte('{')
	n := 0
	for i := range t.NumField() {
		field, fv := t.Field(i), v.Field(i)
		if !field.IsExported() || fv.IsZero() || (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.Len() == 0 ||
			field.Name == in {
			continue
		}
		if n > 0 {
			p.buf.WriteString(p.sep())
		}
		if n++; depth > 0 && n > maxNestedFields {
			p.buf.WriteString("…")
			break
		}
		p.buf.WriteString(field.Name)
		p.buf.WriteByte(':')
		p.value(fv, depth+1, t.Name()+"ID")
	}
	p.buf.WriteByte('}')
}

// value prints one field's value; in is as for record.
func (p *printer) value(v reflect.Value, depth int, in string) {
	t := v.Type()
	switch {
	case t == rawType:
		fmt.Fprintf(&p.buf, "<%d bytes of JSON>", v.Len())
		return
	case t == bytesType:
		fmt.Fprintf(&p.buf, "<%d bytes>", v.Len())
		return
	case t == timeType:
		p.buf.WriteString(v.Interface().(Time).Format(time.RFC3339Nano))
		return
	case t == stdTimeType:
		p.buf.WriteString(v.Interface().(time.Time).Format(time.RFC3339Nano))
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			p.buf.WriteString("nil")
			return
		}
		if p.sharp {
			p.buf.WriteByte('&')
		}
		p.value(v.Elem(), depth, in)
	case reflect.Struct:
		if t.Implements(stringerType) && !t.Implements(formatterType) { // Decimal, Date, WallClock
			p.text(v.Interface().(fmt.Stringer).String())
			return
		}
		p.record(v, depth, in)
	case reflect.String:
		p.text(v.String())
	case reflect.Slice, reflect.Array:
		p.list(v, depth, in)
	default: // numbers, booleans, maps
		fmt.Fprintf(&p.buf, "%v", v.Interface())
	}
}

// text prints s quoted, cut to maxPrintedText bytes.
func (p *printer) text(s string) {
	if len(s) <= maxPrintedText {
		p.buf.WriteString(strconv.Quote(s))
		return
	}
	cut := maxPrintedText
	for cut > 0 && s[cut]&0xc0 == 0x80 { // not inside a character
		cut--
	}
	p.buf.WriteString(strconv.Quote(s[:cut]))
	fmt.Fprintf(&p.buf, "…(%d bytes)", len(s))
}

// list prints the first elements of a slice, and how many it holds.
func (p *printer) list(v reflect.Value, depth int, in string) {
	p.buf.WriteByte('[')
	for i := range min(v.Len(), maxPrintedElems) {
		if i > 0 {
			p.buf.WriteString(p.sep())
		}
		p.value(v.Index(i), depth, in)
	}
	if v.Len() > maxPrintedElems {
		fmt.Fprintf(&p.buf, "%s…(%d in all)", p.sep(), v.Len())
	}
	p.buf.WriteByte(']')
}

// The records' Format methods. Each prints its record readably whatever
// the verb (see printRecord); %#v prints it as Go syntax.

// Format prints the Job readably: its fields set, Raw as its size.
func (r Job) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the Transition readably: its fields set, Raw as its size.
func (r Transition) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the JobRequest readably: its fields set, Raw as its size.
func (r JobRequest) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the BadgeRequirement readably: its fields set, Raw as its size.
func (r BadgeRequirement) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the Ranking readably: its fields set, Raw as its size.
func (r Ranking) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the MultiDayJobRequest readably: its fields set, Raw as its size.
func (r MultiDayJobRequest) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the Badge readably: its fields set, Raw as its size.
func (r Badge) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the Customer readably: its fields set, Raw as its size.
func (r Customer) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the TimesheetImport readably: its fields set, Raw as its size.
func (r TimesheetImport) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the TimesheetRejection readably: its fields set, Raw as its size.
func (r TimesheetRejection) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the Info readably: its fields set, Raw as its size.
func (r Info) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the Message readably: its fields set, Raw as its size.
func (r Message) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the SearchResult readably: its fields set, Raw as its size.
func (r SearchResult) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the User readably: its fields set, Raw as its size.
func (r User) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the UserBadge readably: its fields set, Raw as its size.
func (r UserBadge) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }

// Format prints the TrackingPoint readably: its fields set, Raw as its size.
func (r TrackingPoint) Format(f fmt.State, verb rune) { printRecord(f, verb, r) }
