package contract

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
)

// Describe returns the failures of a validation error, one short line each: the JSON pointer of
// the value, what the document wants, and the value as sent (for a scalar). The lines are sorted
// and distinct.
func Describe(err error) []string {
	seen := map[string]bool{}
	describe(err, "", seen)
	lines := make([]string, 0, len(seen))
	for l := range seen {
		lines = append(lines, l)
	}
	sort.Strings(lines)
	return lines
}

// describe adds the lines of err, whose values lie under prefix, to seen.
func describe(err error, prefix string, seen map[string]bool) {
	var multi openapi3.MultiError
	var schema *openapi3.SchemaError
	var request *openapi3filter.RequestError
	var response *openapi3filter.ResponseError
	switch {
	case err == nil:
	case errors.As(err, &multi):
		for _, e := range multi {
			describe(e, prefix, seen)
		}
	case errors.As(err, &schema):
		at := prefix + "/" + strings.Join(schema.JSONPointer(), "/")
		if schema.Origin != nil {
			before := len(seen)
			describe(schema.Origin, strings.TrimSuffix(at, "/"), seen)
			if len(seen) > before {
				return
			}
		}
		line := fmt.Sprintf("%s: %s", at, schema.Reason)
		switch v := schema.Value.(type) {
		case string, bool, float64, nil:
			line += fmt.Sprintf(" (got %#v)", v)
		}
		seen[line] = true
	case errors.As(err, &response) && response.Err != nil:
		describe(response.Err, prefix, seen)
	case errors.As(err, &request) && request.Err != nil:
		describe(request.Err, prefix, seen)
	default:
		seen[oneLine(err.Error())] = true
	}
}
