package workforcetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// body is a request body as read, and decoded: a JSON object, a form, or neither.
type body struct {
	raw   []byte
	json  map[string]any
	form  url.Values
	files map[string][]byte // the file parts of a multipart/form-data body
}

// readBody reads at most limit bytes of the request body: a 413 beyond, a 422 on "body" when
// it cannot be read (the client left, or sent it too slowly).
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return raw, errorf(http.StatusRequestEntityTooLarge, "request body larger than %d bytes", limit)
	case err != nil:
		return raw, invalid("body", "cannot be read")
	}
	return raw, nil
}

// parseBody decodes raw by its Content-Type: JSON, a URL-encoded form, or multipart/form-data
// (its plain fields as a form, its files apart). Without a
// Content-Type, a body starting with "{" is JSON and any other is a form. Other types are ignored.
// A malformed body is a 422 on "body" (invalid parameters, CONTRACT §8).
func parseBody(contentType string, raw []byte) (body, error) {
	b := body{raw: raw}
	if len(bytes.TrimSpace(raw)) == 0 {
		return b, nil
	}
	mediaType, mediaParams, _ := mime.ParseMediaType(contentType)
	isJSON := mediaType == "application/json" || strings.HasSuffix(mediaType, "+json") ||
		(mediaType == "" && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")))
	switch {
	case isJSON:
		var err error
		b.json, err = decodeJSONObject(raw)
		return b, err
	case mediaType == "multipart/form-data":
		return parseMultipart(b, mediaParams["boundary"])
	case mediaType == "" || mediaType == "application/x-www-form-urlencoded":
		var err error
		if b.form, err = url.ParseQuery(string(raw)); err != nil {
			return b, invalid("body", "is not a valid URL-encoded form")
		}
	}
	return b, nil
}

// parseMultipart reads a multipart/form-data body into b: file parts into b.files, the others
// into b.form. A malformed one is a 422 on "body".
func parseMultipart(b body, boundary string) (body, error) {
	if boundary == "" {
		return b, invalid("body", "is multipart/form-data without a boundary")
	}
	b.form, b.files = url.Values{}, map[string][]byte{}
	r := multipart.NewReader(bytes.NewReader(b.raw), boundary)
	for {
		part, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			return b, nil
		}
		if err != nil {
			return b, invalid("body", "is not valid multipart/form-data")
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return b, invalid("body", "is not valid multipart/form-data")
		}
		if part.FileName() != "" {
			b.files[part.FormName()] = data
		} else {
			b.form.Add(part.FormName(), string(data))
		}
	}
}

// decodeJSONObject decodes raw as exactly one JSON object, keeping numbers as written. A body
// that is not one is a 400, as Rails answers a JSON body it cannot parse.
func decodeJSONObject(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, errorf(http.StatusBadRequest, "the body must be one JSON object")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errorf(http.StatusBadRequest, "the body has data after the JSON object")
	}
	return m, nil
}

// params are the merged parameters of a request, as a Rails application sees them: the query
// string overlaid by the body, with bracketed form keys (job[worker_id]) nested like JSON objects.
type params map[string]any

// newParams merges the query string and the decoded body.
func newParams(query url.Values, b body) params {
	p := params{}
	p.addForm(query)
	p.addForm(b.form)
	for k, v := range b.json {
		p[k] = v
	}
	return p
}

// addForm adds form values, nesting bracketed keys: a[b]=1 becomes {"a": {"b": "1"}} and
// a[]=1&a[]=2 becomes {"a": ["1", "2"]}.
func (p params) addForm(values url.Values) {
	for key, vals := range values {
		if len(vals) > 0 {
			setPath(p, splitKey(key), vals)
		}
	}
}

// maxNesting is the deepest bracketed form key the fake nests; a deeper one stays a plain key.
const maxNesting = 8

// splitKey splits "job[worker_id]" into ["job", "worker_id"]. A malformed key stays whole.
func splitKey(key string) []string {
	open := strings.IndexByte(key, '[')
	if open <= 0 || !strings.HasSuffix(key, "]") {
		return []string{key}
	}
	inner := strings.Split(key[open+1:len(key)-1], "][")
	if len(inner) > maxNesting {
		return []string{key}
	}
	return append([]string{key[:open]}, inner...)
}

// setPath stores vals at path in m, creating nested objects as needed.
func setPath(m map[string]any, path []string, vals []string) {
	switch {
	case len(path) == 1:
		m[path[0]] = vals[len(vals)-1]
	case len(path) == 2 && path[1] == "":
		list := make([]any, len(vals))
		for i, v := range vals {
			list[i] = v
		}
		m[path[0]] = list
	default:
		child, ok := m[path[0]].(map[string]any)
		if !ok {
			child = map[string]any{}
			m[path[0]] = child
		}
		setPath(child, path[1:], vals)
	}
}

// object returns the write parameters of the resource name: the object wrapped in its name
// ({"job": {…}}, or job[worker_id]=… in a form), or, when the request has none, the top level
// itself ({"worker_id": …}), which holds the token too. Rails wraps a flat JSON body in the
// resource's name, so the API takes all three forms (CONTRACT §10.1), and so does every write of
// the fake: its readers all find their parameters here.
func (p params) object(name string) map[string]any {
	if m, ok := p[name].(map[string]any); ok {
		return m
	}
	return p
}

// lookup returns the value at path (e.g. "job", "worker_id"), and whether it is present and not
// null. A path of two or more names finds its first name's parameters where object does.
func (p params) lookup(path ...string) (any, bool) {
	var cur any = map[string]any(p)
	if len(path) > 1 {
		cur, path = p.object(path[0]), path[1:]
	}
	for _, key := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[key]; !ok {
			return nil, false
		}
	}
	return cur, cur != nil
}

// str returns the value at path as a string. Numbers and booleans are written as in JSON; an
// object or an array is "". The boolean tells whether the value is present and not blank
// (only spaces is blank).
func (p params) str(path ...string) (string, bool) {
	v, ok := p.lookup(path...)
	if !ok {
		return "", false
	}
	var s string
	switch v := v.(type) {
	case string:
		s = v
	case json.Number:
		s = v.String()
	case bool:
		s = strconv.FormatBool(v)
	}
	return s, strings.TrimSpace(s) != ""
}

// id reads a positive integer id at path into fe's field: "can't be blank" when absent,
// "must be a positive integer" when malformed.
func (p params) id(fe fieldErrors, field string, path ...string) int64 {
	s, ok := p.str(path...)
	if !ok {
		fe.add(field, "can't be blank")
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 1 {
		fe.add(field, "must be a positive integer")
		return 0
	}
	return n
}
