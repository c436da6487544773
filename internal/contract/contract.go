// Package contract holds the SDK, its fake server and real captured answers to the OpenAPI
// document of package openapi. It validates requests and answers with kin-openapi, and offers an
// http.Handler middleware that records every violation of the exchanges it sees.
//
// Only tests import it: it keeps kin-openapi out of what importing the root package builds.
package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"

	"github.com/workforce-marketplace/workforce-go/openapi"
)

// Prefix is the path under which the API lives, before the document's paths.
const Prefix = "/api_v2"

// Contract is the loaded document and its operations. It is safe for concurrent use.
type Contract struct {
	doc *openapi3.T
	ops []Operation
}

// Operation is one method and path pair of the document.
type Operation struct {
	Method string // e.g. "GET"
	Path   string // the document's path, e.g. "/jobs/{id}"
	ID     string // its operationId
	item   *openapi3.PathItem
	op     *openapi3.Operation
}

// Load parses the document of package openapi and validates it as OpenAPI 3.1.
func Load() (*Contract, error) {
	return LoadData(openapi.YAML())
}

// LoadData parses and validates the document data.
func LoadData(data []byte) (*Contract, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("contract: loading the document: %w", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		return nil, fmt.Errorf("contract: the document is OpenAPI %s, not 3.1", doc.OpenAPI)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("contract: the document is not valid OpenAPI: %w", err)
	}
	c := &Contract{doc: doc}
	for path, item := range doc.Paths.Map() {
		for method, op := range item.Operations() {
			c.ops = append(c.ops, Operation{Method: method, Path: path, ID: op.OperationID, item: item, op: op})
		}
	}
	// Literal segments first, so that /customers/exists wins over /customers/{id}.
	sort.Slice(c.ops, func(i, j int) bool {
		a, b := c.ops[i], c.ops[j]
		if pa, pb := strings.Count(a.Path, "{"), strings.Count(b.Path, "{"); pa != pb {
			return pa < pb
		}
		return a.Path+" "+a.Method < b.Path+" "+b.Method
	})
	return c, nil
}

// Doc returns the loaded document, which the caller must not change.
func (c *Contract) Doc() *openapi3.T { return c.doc }

// Operations returns every operation of the document.
func (c *Contract) Operations() []Operation { return append([]Operation(nil), c.ops...) }

// Find returns the operation that serves method and path (a path under Prefix, such as
// "/api_v2/jobs/7"), with its path parameters.
func (c *Contract) Find(method, path string) (Operation, map[string]string, bool) {
	rest, ok := strings.CutPrefix(path, Prefix)
	if !ok {
		return Operation{}, nil, false
	}
	got := strings.Split(rest, "/")
	for _, op := range c.ops {
		if op.Method != method {
			continue
		}
		want := strings.Split(op.Path, "/")
		if len(want) != len(got) {
			continue
		}
		params := map[string]string{}
		for i := range want {
			switch {
			case strings.HasPrefix(want[i], "{") && got[i] != "":
				params[strings.Trim(want[i], "{}")] = got[i]
			case want[i] != got[i]:
				params = nil
			}
			if params == nil {
				break
			}
		}
		if params != nil {
			return op, params, true
		}
	}
	return Operation{}, nil, false
}

// Operation returns the operation as the document describes it.
func (o Operation) Operation() *openapi3.Operation { return o.op }

// ErrNoOperation is the error of a request the document has no operation for.
var ErrNoOperation = errors.New("contract: no operation of the document serves this request")

// input returns the validation input of req, whose body is body, for op.
func (c *Contract) input(op Operation, params map[string]string, req *http.Request, body []byte) *openapi3filter.RequestValidationInput {
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	return &openapi3filter.RequestValidationInput{
		Request:    r,
		PathParams: params,
		Route:      &routers.Route{Spec: c.doc, Path: op.Path, PathItem: op.item, Method: op.Method, Operation: op.op},
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
			AuthenticationFunc:    tokenIn(body),
		},
	}
}

// tokenIn checks the document's one security scheme, the token: in the query string, or in the
// request's body, which is body, as the scheme's description says the platform takes it.
func tokenIn(body []byte) openapi3filter.AuthenticationFunc {
	return func(_ context.Context, in *openapi3filter.AuthenticationInput) error {
		scheme := in.SecurityScheme
		if scheme == nil || scheme.Type != "apiKey" || scheme.In != "query" {
			return fmt.Errorf("unknown security scheme %q", in.SecuritySchemeName)
		}
		r := in.RequestValidationInput.Request
		if r.URL.Query().Get(scheme.Name) != "" || bodyHas(r.Header.Get("Content-Type"), body, scheme.Name) {
			return nil
		}
		return fmt.Errorf("no %s in the query string or the body", scheme.Name)
	}
}

// bodyHas tells whether a JSON object or form body of contentType holds a non-empty key.
func bodyHas(contentType string, body []byte, key string) bool {
	mediaType, _, _ := mime.ParseMediaType(contentType)
	switch mediaType {
	case "application/json":
		var fields map[string]any
		if json.Unmarshal(body, &fields) == nil {
			v, ok := fields[key].(string)
			return ok && v != ""
		}
	case "application/x-www-form-urlencoded":
		form, err := url.ParseQuery(string(body))
		return err == nil && form.Get(key) != ""
	}
	return false
}

// CheckRequest validates req, whose body is body, against its operation.
func (c *Contract) CheckRequest(req *http.Request, body []byte) error {
	op, params, ok := c.Find(req.Method, req.URL.Path)
	if !ok {
		return ErrNoOperation
	}
	return openapi3filter.ValidateRequest(req.Context(), c.input(op, params, req, body))
}

// CheckResponse validates the answer to req (whose body was reqBody): its status, header and
// body. An answer of an API path that no operation serves must be the document's 404.
func (c *Contract) CheckResponse(req *http.Request, reqBody []byte, status int, header http.Header, body []byte) error {
	op, params, ok := c.Find(req.Method, req.URL.Path)
	if !ok {
		return c.checkUnrouted(status, header, body)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: c.input(op, params, req, reqBody),
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	return openapi3filter.ValidateResponse(req.Context(), in)
}

// checkUnrouted validates the answer to a request that no operation serves: a 404 must be the
// NotFound response; other statuses (405 for a known path) are not described.
func (c *Contract) checkUnrouted(status int, header http.Header, body []byte) error {
	if status != http.StatusNotFound {
		return nil
	}
	return c.CheckSchema("NotFoundError", body)
}

// CheckSchema validates the JSON body against the named schema of the document's components.
func (c *Contract) CheckSchema(name string, body []byte) error {
	ref := c.doc.Components.Schemas[name]
	if ref == nil {
		return fmt.Errorf("contract: no schema %q", name)
	}
	v, err := decodeJSON(body)
	if err != nil {
		return err
	}
	return ref.Value.VisitJSON(v, openapi3.EnableJSONSchema2020(), openapi3.MultiErrors())
}

// CheckWebhook validates a webhook delivery, its header and its JSON body, against the document's
// webhook whose body schema it matches: a Job's or a Job Request's.
func (c *Contract) CheckWebhook(header http.Header, body []byte) error {
	v, err := decodeJSON(body)
	if err != nil {
		return err
	}
	fields, _ := v.(map[string]any)
	var errs []error
	for name, item := range c.doc.Webhooks {
		op := item.Post
		if op == nil || op.RequestBody == nil {
			continue
		}
		key := strings.TrimSuffix(name, "s")
		if _, ok := fields[key]; !ok {
			continue
		}
		for _, p := range op.Parameters {
			if p.Value.In == "header" && p.Value.Required && header.Get(p.Value.Name) == "" {
				errs = append(errs, fmt.Errorf("contract: webhook %s: no %s header", name, p.Value.Name))
			}
		}
		schema := op.RequestBody.Value.Content.Get("application/json").Schema.Value
		if err := schema.VisitJSON(v, openapi3.EnableJSONSchema2020(), openapi3.MultiErrors()); err != nil {
			errs = append(errs, fmt.Errorf("contract: webhook %s: %w", name, err))
		}
		return errors.Join(errs...)
	}
	return errors.New("contract: the body is no webhook of the document")
}
