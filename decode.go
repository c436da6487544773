package workforce

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/workforce-marketplace/workforce-go/internal/jsonscan"
)

// A document is a resource that keeps the JSON it was decoded from in its
// Raw field, so that fields the SDK does not model stay reachable.
type document interface{ setRaw(json.RawMessage) }

var documentType = reflect.TypeFor[document]()

// A finisher completes a resource once it is decoded: IDs the API sends
// only inside an embedded object (a Job's worker.id) fill the field that
// names them.
type finisher interface{ finish() }

// decodeEnvelope decodes data into out, a pointer. When key is set and data
// is an envelope (see unwrap), the value under key is decoded; otherwise
// the whole document is, so that unwrapped answers decode too. Resources
// decoded, alone or in a list, get their own JSON in Raw; a null where a
// resource is due is an error, so that no caller is handed a nil resource
// without one.
//
// The answer is decoded by json.Unmarshal, the fast path. When a value
// fits no field's Go type, it is decoded again record by record, leniently
// (see decodeLenient): a value that fits no form of its field leaves the
// field zero and is answered as a Warning, never failing the answer.
func decodeEnvelope(data []byte, key string, out any) ([]Warning, error) {
	unwrapped := false
	if key != "" {
		data, unwrapped = unwrap(data, key)
	}
	var warnings []Warning
	if err := json.Unmarshal(data, out); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return nil, err
		}
		var lenientErr error
		if warnings, lenientErr = decodeLenient(data, out); lenientErr == errShape {
			return nil, err
		} else if lenientErr != nil {
			return nil, lenientErr
		}
	}
	if key != "" && !unwrapped {
		// An unwrapped answer must be the resource: one with an ID has it.
		if r, ok := reflect.ValueOf(out).Elem().Interface().(listed); ok && r != nil && !reflect.ValueOf(r).IsNil() && r.listID() == 0 {
			return nil, fmt.Errorf("the answer holds no %q and is not one", key)
		}
	}
	return warnings, keepDocuments(reflect.ValueOf(out).Elem(), bytes.TrimSpace(data))
}

// unwrap returns the value under key when data is an envelope, else data.
// data is the resource itself, not an envelope, when it has an "id" (every
// resource has one) beside other members; or when its member key holds a
// string, number or boolean beside other members, which no envelope does:
// a flat /info answer holding "info": "API v2". Otherwise the member is
// unwrapped, whatever it holds, so that {"job": null} or {"jobs": "x"} is a
// decoding error rather than an empty resource.
func unwrap(data []byte, key string) ([]byte, bool) {
	v, ok, n := jsonscan.Find(data, key)
	switch {
	case !ok, n < 0: // no such member, or not a well-formed object: decoded whole, to its error
		return data, false
	case n == 1:
		return v, true
	}
	if _, hasID := jsonscan.Member(data, "id"); hasID {
		return data, false
	}
	if c := v[0]; c != '{' && c != '[' && c != 'n' {
		return data, false
	}
	return v, true
}

// keepDocuments hands each resource in v a copy of its part of data, in an
// allocation of its own: a resource the caller keeps keeps its own document
// alive, not the whole body it came in (a Job kept from a page of 50 would
// otherwise hold the page's 100 KB).
func keepDocuments(v reflect.Value, data []byte) error {
	switch {
	case v.Type().Implements(documentType):
		if v.Kind() == reflect.Pointer && v.IsNil() {
			return errors.New("null where a resource is due")
		}
		v.Interface().(document).setRaw(bytes.Clone(data))
		if f, ok := v.Interface().(finisher); ok {
			f.finish()
		}
	case v.Kind() == reflect.Slice && v.Type().Elem().Implements(documentType):
		parts := jsonscan.Elements(data)
		if len(parts) != v.Len() {
			return nil // null, or a shape the scan does not follow: nothing to hand out
		}
		for i, part := range parts {
			if err := keepDocuments(v.Index(i), part); err != nil {
				return fmt.Errorf("element %d: %w", i, err)
			}
		}
	}
	return nil
}
