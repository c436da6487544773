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

// A document is a resource that keeps the JSON it was decoded from in its
// Raw field, so that fields the SDK does not model stay reachable.
type document interface{ setRaw(json.RawMessage) }

var documentType = reflect.TypeFor[document]()

// A container is a document holding records of their own (a
// SearchResult): keepRecords hands each its part of the container's Raw.
type container interface{ keepRecords() error }

// A finisher completes a resource once it is decoded: IDs the API sends
// only inside an embedded object (a Job's worker.id) fill the field that
// names them.
type finisher interface{ finish() }

// decodeEnvelope decodes data into out, a pointer: the value under key when
// key is set and data is an envelope (see unwrap), else the whole document.
// Resources decoded get their own JSON in Raw; a null where a resource is
// due is an error. A value that fits no field's Go type is decoded again,
// record by record (decodeLenient), and returned as a warning, the first
// most kept (all of them when most is 0), the rest counted.
func decodeEnvelope(data []byte, key string, out any, most int) (warnings, error) {
	unwrapped := false
	if key != "" {
		var err error
		if data, unwrapped, err = unwrap(data, key); err != nil {
			return warnings{}, err
		}
	}
	var w warnings
	if err := json.Unmarshal(data, out); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return w, err
		}
		var lenientErr error
		if w, lenientErr = decodeLenient(data, out, most); lenientErr == errShape {
			return warnings{}, err
		} else if lenientErr != nil {
			return warnings{}, lenientErr
		}
	}
	if key != "" && !unwrapped {
		// An unwrapped answer must be the resource: one with an ID has it.
		if r, ok := reflect.ValueOf(out).Elem().Interface().(listed); ok && r != nil && !reflect.ValueOf(r).IsNil() && r.listID() == 0 {
			return warnings{}, fmt.Errorf("the answer holds no %q and is not one", key)
		}
	}
	return w, keepDocuments(reflect.ValueOf(out).Elem(), bytes.TrimSpace(data))
}

// unwrap returns the value under key when data is an envelope, else data.
// data is the resource itself, not an envelope, when it has an "id" (every
// resource has one) beside other members, so that {"job": {...}, "id": 6}
// is a record with a member "job"; or when its member key holds a string,
// number or boolean beside other members, which no envelope does: a flat
// /info answer holding "info": "API v2". Otherwise the member is
// unwrapped, whatever it holds, so that {"job": null} or {"jobs": "x"} is a
// decoding error rather than an empty resource. Member names are read as
// encoding/json reads them: escapes undone ("\u006aob" is "job"), the last
// of duplicates taken. The envelope is unwrapped only when the whole
// document is well formed (no trailing garbage, no second document, no
// malformed member beside key); else data is decoded whole, to its error.
// An envelope whose member key comes twice ({"job": {...}, "job": {...}})
// is an error: which record it answers is not known.
func unwrap(data []byte, key string) ([]byte, bool, error) {
	v, at, n := jsonscan.Envelope(data, key)
	switch {
	case v == nil, n < 0: // no such member, or not a well-formed object: decoded whole, to its error
		return data, false, nil
	case n > 1:
		if _, hasID := jsonscan.Member(data, "id"); hasID {
			return data, false, nil
		}
		if c := v[0]; c != '{' && c != '[' && c != 'n' {
			return data, false, nil
		}
		if namedFold(data, key) > 1 { // as encoding/json matches names: "JOB" is "job"
			return nil, false, fmt.Errorf("the answer holds %q more than once", key)
		}
	}
	// The value is checked by its decoding; the rest of the document here,
	// with the value taken out: a few bytes for an answer of the API.
	rest := make([]byte, 0, len(data)-len(v)+len("null"))
	rest = append(append(append(rest, data[:at]...), "null"...), data[at+len(v):]...)
	if !json.Valid(rest) {
		return data, false, nil
	}
	return v, true, nil
}

// keepDocuments hands each resource in v (a resource, a pointer to one, or
// a list of either) a copy of its part of data, in an allocation of its
// own: a resource the caller keeps keeps its own document alive, not the
// whole body it came in (a Job kept from a page of 50 would otherwise hold
// the page's 100 KB).
func keepDocuments(v reflect.Value, data []byte) error {
	switch {
	case isDocument(v.Type()):
		if v.Kind() == reflect.Pointer && v.IsNil() {
			return errors.New("null where a resource is due")
		}
		if v.Kind() != reflect.Pointer {
			if !v.CanAddr() {
				return nil
			}
			v = v.Addr()
		}
		v.Interface().(document).setRaw(bytes.Clone(data))
		if f, ok := v.Interface().(finisher); ok {
			f.finish()
		}
		if c, ok := v.Interface().(container); ok {
			return c.keepRecords()
		}
	case v.Kind() == reflect.Slice && isDocument(v.Type().Elem()):
		return keepElements(v, jsonscan.Elements(data))
	}
	return nil
}

// keepElements is keepDocuments for v, a list of resources, and parts,
// the part of data of each. An element of a list of records without an
// "id" (null and 0 are none) is an error, as a single record is: it is no
// record, and a page of them would read as records of ID 0.
func keepElements(v reflect.Value, parts [][]byte) error {
	if len(parts) != v.Len() {
		return nil // null, or a shape the scan does not follow: nothing to hand out
	}
	for i, part := range parts {
		err := keepDocuments(v.Index(i), part)
		if err == nil {
			err = checkIsRecord(v.Index(i), part)
		}
		if err != nil {
			return fmt.Errorf("element %d: %w", i, err)
		}
	}
	return nil
}

// isDocument tells whether values of t, or pointers to them, are
// documents: *Job and Job alike.
func isDocument(t reflect.Type) bool {
	return t.Implements(documentType) || (t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(documentType))
}

// envelopes are the keys the API wraps each kind of record in: one
// record, and a list of them.
var envelopes = map[reflect.Type][2]string{
	reflect.TypeFor[Job]():                {"job", "jobs"},
	reflect.TypeFor[JobRequest]():         {"job_request", "job_requests"},
	reflect.TypeFor[MultiDayJobRequest](): {"multi_day_job_request", "multi_day_job_requests"},
	reflect.TypeFor[Badge]():              {"badge", "badges"},
	reflect.TypeFor[Customer]():           {"customer", "customers"},
	reflect.TypeFor[User]():               {"user", "users"},
	reflect.TypeFor[Message]():            {"message", "messages"},
	reflect.TypeFor[Ranking]():            {"", "rankings"},
	reflect.TypeFor[TrackingPoint]():      {"", "tracking"},
	reflect.TypeFor[Info]():               {"info", ""},
	reflect.TypeFor[TimesheetImport]():    {"timesheet_import", ""},
	reflect.TypeFor[SearchResult]():       {"search", ""},
}

// envelopeOf returns the key the API wraps a value of t in, such as "job"
// for a Job and "jobs" for a list of them, or "".
func envelopeOf(t reflect.Type) string {
	list := 0
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Slice {
		list, t = 1, t.Elem()
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
	}
	return envelopes[t][list]
}

// lastMember returns the value of the last member of the object data named
// key, as encoding/json decodes duplicates, as a part of data.
func lastMember(data []byte, key string) ([]byte, bool) {
	var found []byte
	jsonscan.Members(data, func(name, value []byte) bool {
		if string(name) == key {
			found = value
		}
		return true
	})
	return found, found != nil
}

// Decode decodes data, the JSON document of a resource as the API writes
// it (a Job, a User, ...) or an array of them, bare or in its envelope
// ({"job": {...}}), into v, a non-nil pointer to the SDK's type for it
// (*Job, *[]*Job, ...), as the client decodes answers: every scalar in any
// of its plausible forms (docs/decoding.md lists them and how an envelope
// is read), Raw filled. A value that fits no form leaves its field zero
// and is returned as a Warning; only JSON that is not well formed
// (anything after the document included), not of v's shape, an envelope
// whose key comes twice, or a record without an "id" (null and 0 are
// none) is an error.
func Decode(data []byte, v any) ([]Warning, error) {
	if rv := reflect.ValueOf(v); rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil, &ArgumentError{Name: "v", Reason: "must be a non-nil pointer"}
	}
	key := envelopeOf(reflect.TypeOf(v).Elem())
	doc, w, fast, err := decodeFast(data, key, v, noLimits, 0)
	if fast {
		if err == nil {
			err = checkIsRecord(reflect.ValueOf(v).Elem(), doc)
		}
		return cutWarnings(w.list), err
	}
	return decodeSlowly(data, key, v)
}

// decodeSlowly is Decode for a document that decodeFast does not take.
func decodeSlowly(data []byte, key string, v any) ([]Warning, error) {
	if key != "" {
		var err error
		if data, _, err = unwrap(data, key); err != nil { // {"job": {...}} is a Job too
			return nil, err
		}
	}
	w, err := decodeEnvelope(data, "", v, 0)
	if err == nil {
		err = checkIsRecord(reflect.ValueOf(v).Elem(), data)
	}
	return cutWarnings(w.list), err
}

// cutWarnings cuts the value of each warning of list to 64 bytes, as
// Decode returns them.
func cutWarnings(list []Warning) []Warning {
	for i := range list {
		if v := list[i].Value; len(v) > 64 {
			list[i].Value = strings.ToValidUTF8(v[:64], "") + "…"
		}
	}
	return list
}

// checkIsRecord refuses a record decoded from a document that is not one:
// a JSON object without an "id", such as another kind's envelope, which
// would otherwise decode silently to an empty record.
func checkIsRecord(v reflect.Value, data []byte) error {
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if !reflect.PointerTo(v.Type()).Implements(reflect.TypeFor[listed]()) {
		return nil
	}
	if recordID(v) != 0 {
		return nil
	}
	// An "id" that fits no form is a Warning, its record kept; null or 0 is
	// no ID.
	if id, hasID := jsonscan.Member(data, "id"); hasID && !isZeroID(id) {
		return nil
	}
	return fmt.Errorf("the document is not a %s: it holds no \"id\"", v.Type().Name())
}

// isZeroID tells whether id, the JSON value of a member "id", says there
// is none: null, or a number (or a string holding one) equal to 0.
func isZeroID(id []byte) bool {
	s := strings.TrimSpace(strings.Trim(string(id), `"`))
	if s == "null" {
		return true
	}
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && f == 0
}
