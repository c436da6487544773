package contract_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go"
	"github.com/workforce-marketplace/workforce-go/internal/contract"
)

// keptInRaw lists the properties of the document's records that the SDK keeps only in the Raw
// of the record holding them (reviewed: each must be reachable there, and the list may only
// shrink: a property the SDK gains a field for must leave it).
var keptInRaw = map[string]string{}

// recordTypes are the document's record schemas and the SDK type that keeps each.
var recordTypes = map[string]any{
	"Job": workforce.Job{}, "Transition": workforce.Transition{}, "User": workforce.User{},
	"UserBadge": workforce.UserBadge{}, "JobRequest": workforce.JobRequest{},
	"BadgeRequirement": workforce.BadgeRequirement{}, "MultiDayJobRequest": workforce.MultiDayJobRequest{},
	"Badge": workforce.Badge{}, "Customer": workforce.Customer{}, "Message": workforce.Message{},
	"Ranking": workforce.Ranking{}, "TrackingPoint": workforce.TrackingPoint{}, "Info": workforce.Info{},
	"Token": workforce.Token{}, "TimesheetImport": workforce.TimesheetImport{}, "SearchResult": workforce.SearchResult{},
}

// properties returns the properties of a schema, through allOf, by name.
func properties(s *openapi3.Schema) map[string]*openapi3.Schema {
	out := map[string]*openapi3.Schema{}
	for name, p := range s.Properties {
		out[name] = p.Value
	}
	for _, sub := range s.AllOf {
		for name, p := range properties(sub.Value) {
			out[name] = p
		}
	}
	return out
}

// fieldByTag returns the field of struct type typ whose json name is name.
func fieldByTag(typ reflect.Type, name string) (reflect.StructField, bool) {
	for i := range typ.NumField() {
		f := typ.Field(i)
		if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// TestSDKTypesCoverTheContract walks every property of every record schema of the document and
// finds the SDK field that keeps it by its json tag, or its line in keptInRaw.
func TestSDKTypesCoverTheContract(t *testing.T) {
	t.Parallel()
	c, err := contract.Load()
	require.NoError(t, err)
	schemas := c.Doc().Components.Schemas
	used := map[string]bool{}
	for name, v := range recordTypes {
		require.Contains(t, schemas, name)
		typ := reflect.TypeOf(v)
		for prop, ps := range properties(schemas[name].Value) {
			key := name + "." + prop
			used[key] = true
			f, ok := fieldByTag(typ, prop)
			if !ok {
				assert.Contains(t, keptInRaw, key, "no field of %s keeps %q, and it is not listed as kept in Raw", typ.Name(), prop)
				continue
			}
			assert.NotContains(t, keptInRaw, key, "%s has a field for %q now: take it off keptInRaw", typ.Name(), prop)
			if item := ps.Items; item != nil && len(properties(item.Value)) > 0 && f.Type.Kind() == reflect.Slice {
				if _, named := recordTypes[strings.TrimPrefix(item.Ref, "#/components/schemas/")]; !named {
					elem := f.Type.Elem()
					for sub := range properties(item.Value) {
						if _, ok := fieldByTag(elem, sub); !ok {
							t.Errorf("no field of %s keeps %s.%s", elem.Name(), key, sub)
						}
						used[key+"."+sub] = true
					}
				}
			}
		}
	}
	for key := range keptInRaw {
		if !used[key] {
			t.Errorf("keptInRaw lists %s, which the document does not have", key)
		}
	}
}

// decodable are the records whose every form TestEveryFormDecodes sends: how to wrap one in an
// answer, how to get it through the SDK, and the path of the record within the Raw it returns.
var decodable = map[string]struct {
	wrap func(record string) string
	get  func(c *workforce.Client, t *testing.T) (value any, raw json.RawMessage, err error)
	at   []any // the record's path within raw
}{
	"Job": {func(r string) string { return `{"job":` + r + `}` }, func(c *workforce.Client, t *testing.T) (any, json.RawMessage, error) {
		v, _, err := c.Jobs.Get(t.Context(), 1)
		return derefRaw(v, err, func() json.RawMessage { return v.Raw })
	}, nil},
	"Transition": {func(r string) string { return `{"job":{"id":1,"transitions":[` + r + `]}}` }, func(c *workforce.Client, t *testing.T) (any, json.RawMessage, error) {
		v, _, err := c.Jobs.Get(t.Context(), 1)
		if err != nil || len(v.Transitions) == 0 {
			return nil, nil, fmt.Errorf("no transition: %w", err)
		}
		return v.Transitions[0], v.Raw, nil
	}, []any{"transitions", 0}},
	"User": {func(r string) string { return `{"user":` + r + `}` }, func(c *workforce.Client, t *testing.T) (any, json.RawMessage, error) {
		v, _, err := c.Users.Get(t.Context(), 1)
		return derefRaw(v, err, func() json.RawMessage { return v.Raw })
	}, nil},
	"UserBadge": {func(r string) string { return `{"user":{"id":1,"type":"Worker","user_badges":[` + r + `]}}` }, func(c *workforce.Client, t *testing.T) (any, json.RawMessage, error) {
		v, _, err := c.Users.Get(t.Context(), 1)
		if err != nil || len(v.UserBadges) == 0 {
			return nil, nil, fmt.Errorf("no user badge: %w", err)
		}
		return v.UserBadges[0], v.Raw, nil
	}, []any{"user_badges", 0}},
	"JobRequest": {func(r string) string { return `{"job_request":` + r + `}` }, func(c *workforce.Client, t *testing.T) (any, json.RawMessage, error) {
		v, _, err := c.JobRequests.Get(t.Context(), 1)
		return derefRaw(v, err, func() json.RawMessage { return v.Raw })
	}, nil},
	"BadgeRequirement": {func(r string) string {
		return `{"job_request":{"id":1,"state":"posted","badge_requirements":[` + r + `]}}`
	}, func(c *workforce.Client, t *testing.T) (any, json.RawMessage, error) {
		v, _, err := c.JobRequests.Get(t.Context(), 1)
		if err != nil || len(v.BadgeRequirements) == 0 {
			return nil, nil, fmt.Errorf("no badge requirement: %w", err)
		}
		return v.BadgeRequirements[0], v.Raw, nil
	}, []any{"badge_requirements", 0}},
	"MultiDayJobRequest": {func(r string) string { return `{"multi_day_job_request":` + r + `}` }, func(c *workforce.Client, t *testing.T) (any, json.RawMessage, error) {
		v, _, err := c.MultiDayJobRequests.Get(t.Context(), 1)
		return derefRaw(v, err, func() json.RawMessage { return v.Raw })
	}, nil},
	"Badge": {func(r string) string { return `{"badge":` + r + `}` }, func(c *workforce.Client, t *testing.T) (any, json.RawMessage, error) {
		v, _, err := c.Badges.Get(t.Context(), 1)
		return derefRaw(v, err, func() json.RawMessage { return v.Raw })
	}, nil},
	"Customer": {func(r string) string { return `{"customer":` + r + `}` }, func(c *workforce.Client, t *testing.T) (any, json.RawMessage, error) {
		v, _, err := c.Customers.Get(t.Context(), 1)
		return derefRaw(v, err, func() json.RawMessage { return v.Raw })
	}, nil},
	"Message": {func(r string) string { return `{"message":` + r + `}` }, func(c *workforce.Client, t *testing.T) (any, json.RawMessage, error) {
		v, _, err := c.Messages.Get(t.Context(), 1)
		return derefRaw(v, err, func() json.RawMessage { return v.Raw })
	}, nil},
	"Ranking": {func(r string) string { return `{"rankings":[` + r + `]}` }, func(c *workforce.Client, t *testing.T) (any, json.RawMessage, error) {
		v, _, err := c.JobRequests.Rankings(t.Context(), 1)
		if err != nil || len(v) == 0 {
			return nil, nil, fmt.Errorf("no ranking: %w", err)
		}
		return *v[0], v[0].Raw, nil
	}, nil},
	"TrackingPoint": {func(r string) string { return `{"tracking":[` + r + `]}` }, func(c *workforce.Client, t *testing.T) (any, json.RawMessage, error) {
		v, _, err := c.Users.Tracking(t.Context(), 1)
		if err != nil || len(v) == 0 {
			return nil, nil, fmt.Errorf("no tracking point: %w", err)
		}
		return *v[0], v[0].Raw, nil
	}, nil},
	"Info": {func(r string) string { return r }, func(c *workforce.Client, t *testing.T) (any, json.RawMessage, error) {
		v, _, err := c.Info.Get(t.Context())
		return derefRaw(v, err, func() json.RawMessage { return v.Raw })
	}, nil},
}

// derefRaw returns *v and its Raw, or err.
func derefRaw[T any](v *T, err error, raw func() json.RawMessage) (any, json.RawMessage, error) {
	if err != nil {
		return nil, nil, err
	}
	return *v, raw(), nil
}

// forms returns one JSON value for each form that the property schema s allows, with whether
// the value means something (a typed field must then hold it) rather than "absent".
func forms(s *openapi3.Schema) map[string]bool {
	out := map[string]bool{}
	types := s.Type.Slice()
	for _, typ := range types {
		switch typ {
		case "null":
			out["null"] = false
		case "boolean":
			out["true"] = true
		case "integer":
			out["7"] = true
		case "number":
			out["12.5"] = true
		case "object":
			out[`{"id":7,"k":1}`] = true
		case "array":
			item := `7`
			if s.Items != nil && slices.Contains(s.Items.Value.Type.Slice(), "object") {
				item = `{"id":7,"badge_id":7}`
			}
			out["["+item+"]"] = true
		case "string":
			switch {
			case s.Format == "date-time":
				out[`"2017-09-13T11:34:36.820-07:00"`], out[`"2017-09-13T17:57:59Z"`] = true, true
			case s.Format == "date":
				out[`"1975-08-28"`] = true
			case s.Pattern != "":
				out[`"34.042019"`], out[`"5.0"`], out[`""`] = true, true, false
			case slices.Contains(types, "boolean"):
				out[`"true"`], out[`""`] = true, false
			case len(s.Examples) > 0:
				example, _ := json.Marshal(s.Examples[0])
				out[string(example)] = true
			default:
				out[`"some text"`] = true
				if slices.Contains(types, "null") {
					out[`""`] = false
				}
			}
		}
	}
	if len(types) == 0 { // a $ref's schema: the forms of the referenced one
		for _, sub := range s.AllOf {
			for v, meaningful := range forms(sub.Value) {
				out[v] = meaningful
			}
		}
	}
	return out
}

// TestEveryFormDecodes sends, for each property of each record, one answer per JSON form the
// document allows, and checks that the SDK decodes it without error and without loss: the Raw
// of the record keeps the value as sent, and the typed field holds a value that means something.
func TestEveryFormDecodes(t *testing.T) {
	t.Parallel()
	c, err := contract.Load()
	require.NoError(t, err)
	var body []byte // the answer of the next call
	client := newOverTransport(t, rtFunc(func(r *http.Request) (*http.Response, error) {
		return httpAnswer(r, http.StatusOK, string(body)), nil
	}))
	names := make([]string, 0, len(decodable))
	for name := range decodable {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		d := decodable[name]
		typ := reflect.TypeOf(recordTypes[name])
		for prop, ps := range properties(c.Doc().Components.Schemas[name].Value) {
			for value, meaningful := range forms(ps) {
				if prop == "id" && value != "null" {
					value = "1" // the SDK checks that the answer is the record asked for
				}
				record := map[string]json.RawMessage{"id": json.RawMessage("1"), "type": json.RawMessage(`"Worker"`),
					"state": json.RawMessage(`"posted"`), prop: json.RawMessage(value)}
				encoded, err := json.Marshal(record)
				require.NoError(t, err)
				body = []byte(d.wrap(string(encoded)))
				got, raw, err := d.get(client, t)
				what := fmt.Sprintf("%s.%s = %s", name, prop, value)
				if !assert.NoError(t, err, what) {
					continue
				}
				kept := rawAt(t, raw, append(slices.Clone(d.at), prop)...)
				assert.JSONEq(t, value, string(kept), "%s: the Raw keeps it as sent", what)
				f, ok := fieldByTag(typ, prop)
				if ok && meaningful {
					assert.False(t, reflect.ValueOf(got).FieldByIndex(f.Index).IsZero(), "%s: the field %s holds it", what, f.Name)
				}
			}
		}
	}
}

// rawAt returns the JSON value at path (keys and indexes) within raw.
func rawAt(t *testing.T, raw json.RawMessage, path ...any) json.RawMessage {
	t.Helper()
	var v any
	require.NoError(t, json.NewDecoder(bytes.NewReader(raw)).Decode(&v))
	for _, p := range path {
		switch p := p.(type) {
		case string:
			v = v.(map[string]any)[p]
		case int:
			v = v.([]any)[p]
		}
	}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// rtFunc is a RoundTripper made of a function.
type rtFunc func(*http.Request) (*http.Response, error)

func (f rtFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// httpAnswer is an answer to r with status and a JSON body.
func httpAnswer(r *http.Request, status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: r, ProtoMajor: 1, ProtoMinor: 1}
}

// newOverTransport returns a client with a made-up token whose requests
// go to rt.
func newOverTransport(t *testing.T, rt http.RoundTripper) *workforce.Client {
	t.Helper()
	c, err := workforce.New("", "", workforce.WithToken("made-up-token"), workforce.WithBaseURL("https://api.example.com"),
		workforce.WithHTTPClient(&http.Client{Transport: rt}), workforce.WithRetry(3, time.Millisecond, time.Millisecond))
	require.NoError(t, err)
	return c
}
