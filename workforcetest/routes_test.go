package workforcetest_test

import (
	"io"
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
	assert.Equal(t, "GET, HEAD, PATCH", resp.Header.Get("Allow"))
	status, body := f.decode(resp)
	assert.Equal(t, http.StatusMethodNotAllowed, status)
	assert.NotEmpty(t, body["error"])
	status, _ = f.json(http.MethodPut, "/api_v2/jobs", with(f.private), nil)
	assert.Equal(t, http.StatusMethodNotAllowed, status)
}

// TestHeadIsAGetWithoutBody checks that HEAD is answered as Rails answers it, as the GET of the
// same path without its body, and that the Allow header of a 405 lists it wherever GET is.
func TestHeadIsAGetWithoutBody(t *testing.T) {
	t.Parallel()
	f := newFake(t)
	get := f.send(http.MethodGet, "/api_v2/jobs/1001", with(f.private), "", nil)
	require.NoError(t, get.Body.Close())
	head := f.send(http.MethodHead, "/api_v2/jobs/1001", with(f.private), "", nil)
	body, err := io.ReadAll(head.Body)
	require.NoError(t, err)
	require.NoError(t, head.Body.Close())
	assert.Equal(t, http.StatusOK, head.StatusCode)
	assert.Empty(t, body)
	assert.Equal(t, get.Header.Get("Content-Type"), head.Header.Get("Content-Type"))

	head = f.send(http.MethodHead, "/api_v2/jobs/1001", nil, "", nil) // no token: as a GET
	require.NoError(t, head.Body.Close())
	assert.Equal(t, http.StatusUnauthorized, head.StatusCode)
	head = f.send(http.MethodHead, "/api_v2/authenticate", nil, "", nil)
	require.NoError(t, head.Body.Close())
	assert.Equal(t, http.StatusMethodNotAllowed, head.StatusCode)
	assert.Equal(t, "POST", head.Header.Get("Allow"))
	for _, m := range []string{http.MethodPut, http.MethodHead} {
		resp := f.send(m, "/api_v2/badges", with(f.private), "", nil)
		require.NoError(t, resp.Body.Close())
		if m == http.MethodHead {
			assert.Equal(t, http.StatusOK, resp.StatusCode, m)
			continue
		}
		assert.Equal(t, "GET, HEAD, POST", resp.Header.Get("Allow"), m)
	}
}
