package workforcetest_test

import (
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/workforcetest"
)

// contractEndpoint finds an endpoint in the text of docs/CONTRACT.md: one or more methods ("PUT or
// PATCH", "GET and DELETE") and a path, whose last segment may be optional ("POST and PATCH
// /badges[/:id]": the collection for POST, the member for the others).
var contractEndpoint = regexp.MustCompile(`\b((?:GET|POST|PUT|PATCH|DELETE)(?:(?:,| and| or) (?:GET|POST|PUT|PATCH|DELETE))*) ((?:/(?:[a-z_0-9]+|:id))+)(\[/:id\])?`)

// contractEndpoints reads the endpoints of docs/CONTRACT.md §2 to §6, as "GET /jobs/:id".
func contractEndpoints(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile("../docs/CONTRACT.md")
	require.NoError(t, err)
	text := string(raw)
	start, end := strings.Index(text, "\n## 2."), strings.Index(text, "\n## 7.")
	require.True(t, start > 0 && end > start, "CONTRACT.md has sections 2 to 7")
	var out []string
	for _, m := range contractEndpoint.FindAllStringSubmatch(text[start:end], -1) {
		path := strings.TrimPrefix(m[2], "/api_v2")
		for _, method := range regexp.MustCompile(`[A-Z]+`).FindAllString(m[1], -1) {
			ep := method + " " + path
			if m[3] != "" && method != "POST" {
				ep += "/:id"
			}
			if !slices.Contains(out, ep) {
				out = append(out, ep)
			}
		}
	}
	return out
}

// TestRoutesAreTheContractsEndpoints checks that the fake serves every endpoint of the contract
// and nothing else, besides its own control API under /_fake/.
func TestRoutesAreTheContractsEndpoints(t *testing.T) {
	t.Parallel()
	want := contractEndpoints(t)
	require.Len(t, want, 40, "the endpoints read from the contract: %v", want)
	var api []string
	for _, pattern := range workforcetest.NewServer(t).RoutePatterns() {
		method, path, _ := strings.Cut(pattern, " ")
		if strings.HasPrefix(path, "/_fake/") {
			continue
		}
		require.True(t, strings.HasPrefix(path, "/api_v2/"), pattern)
		api = append(api, method+" "+strings.ReplaceAll(strings.TrimPrefix(path, "/api_v2"), "{id}", ":id"))
	}
	assert.ElementsMatch(t, want, api)
}

func TestRoutingErrors(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	for _, path := range []string{"/", "/api_v2", "/api_v2/workers", "/api_v2/jobs/1/extra", "/jobs"} {
		status, body := f.get(path, f.private)
		assert.Equal(t, http.StatusNotFound, status, path)
		assert.NotEmpty(t, body["error"], path)
	}
	resp := f.send(http.MethodDelete, "/api_v2/jobs/5", with(f.private), "", nil)
	assert.Equal(t, "GET, PATCH", resp.Header.Get("Allow"))
	status, body := f.decode(resp)
	assert.Equal(t, http.StatusMethodNotAllowed, status)
	assert.NotEmpty(t, body["error"])
	status, _ = f.json(http.MethodPut, "/api_v2/jobs", with(f.private), nil)
	assert.Equal(t, http.StatusMethodNotAllowed, status)
}
