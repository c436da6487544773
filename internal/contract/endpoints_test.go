package contract_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/internal/contract"
)

// contractEndpoints are the endpoints of docs/CONTRACT.md §2 and §6 that an SDK method calls, in
// its order: the README's table. TestEndpointsAreTheDocument holds them to the OpenAPI document.
var contractEndpoints = []string{
	"POST /authenticate", "GET /info",
	"GET /jobs", "POST /jobs", "POST /jobs/assign", "PATCH /jobs/:id", "GET /jobs/:id",
	"GET /job_requests", "POST /job_requests", "PATCH /job_requests/:id", "GET /job_requests/:id",
	"GET /job_requests/:id/rankings", "POST /job_requests/:id/resend_notifications", "POST /job_requests/:id/re_rank_workers",
	"POST /multi_day_job_requests", "PATCH /multi_day_job_requests/:id", "GET /multi_day_job_requests/:id",
	"GET /badges", "POST /badges", "PATCH /badges/:id", "GET /badges/:id", "DELETE /badges/:id",
	"GET /customers", "GET /customers/:id", "POST /customers", "PATCH /customers/:id", "GET /customers/exists",
	"POST /customers/timesheet_import",
	"GET /messages", "POST /messages", "GET /messages/:id",
	"GET /users", "POST /users", "POST /users/invite", "PATCH /users/:id", "GET /users/:id", "GET /users/:id/tracking",
	"GET /search",
}

var apiLine = regexp.MustCompile(`\b(GET|POST|PUT|PATCH|DELETE) (/[a-z_/:]+)`)

// endpointMethods reads the package's sources and returns, for each
// endpoint named in a service method's "API:" doc line, the methods that
// call it, as "Jobs.Get".
func endpointMethods(t *testing.T) map[string][]string {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	var files []*ast.File
	for _, e := range entries {
		if name := e.Name(); strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			f, err := parser.ParseFile(fset, filepath.Join(root, name), nil, parser.ParseComments)
			require.NoError(t, err)
			files = append(files, f)
		}
	}
	out := map[string][]string{}
	for _, f := range files {
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Doc == nil || !fn.Name.IsExported() {
				continue
			}
			recv := fn.Recv.List[0].Type
			if star, ok := recv.(*ast.StarExpr); ok {
				recv = star.X
			}
			id, ok := recv.(*ast.Ident)
			if !ok {
				continue
			}
			name := strings.TrimSuffix(id.Name, "Service") + "." + fn.Name.Name
			if id.Name == "Client" {
				continue // Do calls whatever it is given
			}
			for _, line := range strings.Split(fn.Doc.Text(), "\n") {
				if rest, ok := strings.CutPrefix(line, "API: "); ok {
					for _, m := range apiLine.FindAllStringSubmatch(rest, -1) {
						ep := m[1] + " " + m[2]
						if !slices.Contains(out[ep], name) {
							out[ep] = append(out[ep], name)
						}
					}
				}
			}
		}
	}
	return out
}

// endpointTable renders the table of every endpoint in docs/endpoints.md.
func endpointTable(methods map[string][]string) string {
	var b strings.Builder
	b.WriteString("| Endpoint | Method |\n|---|---|\n")
	for _, ep := range contractEndpoints {
		ms := slices.Clone(methods[ep])
		slices.Sort(ms)
		for i, m := range ms {
			ms[i] = "`" + m + "`"
		}
		fmt.Fprintf(&b, "| `%s` | %s |\n", ep, strings.Join(ms, ", "))
	}
	return b.String()
}

// TestEveryEndpointHasAMethodAndTheREADMESaysSo checks that every endpoint
// of the contract is called by a method whose doc names it, that no method
// names an endpoint the contract lacks, and that the table of
// docs/endpoints.md (which the README links to) is the one the code gives.
func TestEveryEndpointHasAMethodAndTheREADMESaysSo(t *testing.T) {
	t.Parallel()
	methods := endpointMethods(t)
	for _, ep := range contractEndpoints {
		assert.NotEmpty(t, methods[ep], "no method calls %s", ep)
	}
	for ep, ms := range methods {
		assert.Contains(t, contractEndpoints, ep, "%v name an endpoint the contract lacks", ms)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "endpoints.md"))
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(doc), "<!-- endpoints -->\n")
	require.True(t, ok, "docs/endpoints.md has an <!-- endpoints --> marker")
	table, _, ok := strings.Cut(rest, "<!-- /endpoints -->")
	require.True(t, ok, "docs/endpoints.md has an <!-- /endpoints --> marker")
	want := endpointTable(methods)
	assert.Equal(t, want, table, "the table of docs/endpoints.md, as the code gives it:\n%s", want)
}

// withoutMethod are the operations of the OpenAPI document that no SDK method calls, each with
// the reason (reviewed).
var withoutMethod = map[string]string{
	"PUT /customers/:id": "PATCH does the same; Client.Do sends a PUT",
	"PUT /users/:id":     "PATCH does the same; Client.Do sends a PUT",
}

// TestEndpointsAreTheDocument checks that the endpoints the README's table and the "API:" doc
// lines are held to are the operations of the OpenAPI document: all 40 of them, less those
// without an SDK method.
func TestEndpointsAreTheDocument(t *testing.T) {
	t.Parallel()
	c, err := contract.Load()
	require.NoError(t, err)
	var documented []string
	for _, op := range c.Operations() {
		ep := op.Method + " " + regexp.MustCompile(`\{(\w+)\}`).ReplaceAllString(op.Path, ":$1")
		if _, ok := withoutMethod[ep]; !ok {
			documented = append(documented, ep)
		}
	}
	assert.Len(t, c.Operations(), 40, "the operations of CONTRACT.md §6 with /authenticate")
	assert.ElementsMatch(t, documented, contractEndpoints, "the document's operations with an SDK method")
	for ep := range withoutMethod {
		assert.Empty(t, endpointMethods(t)[ep], "%s has a method now: take it off withoutMethod", ep)
	}
}

// root is the repository's root, where the SDK's sources and docs are.
const root = "../.."
