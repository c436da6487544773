package contract_test

import (
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/workforce-marketplace/workforce-go/internal/contract"
)

// TestDocumentIsValidOpenAPI31 loads the document with kin-openapi and validates it as
// OpenAPI 3.1.
func TestDocumentIsValidOpenAPI31(t *testing.T) {
	t.Parallel()
	c, err := contract.Load()
	require.NoError(t, err)
	require.Equal(t, "3.1.0", c.Doc().OpenAPI)
}

// TestEveryOperationSaysItsSource checks the document's x-source marks: every operation and
// every component schema that is a record or an envelope says observed, spec or choice.
func TestEveryOperationSaysItsSource(t *testing.T) {
	t.Parallel()
	c, err := contract.Load()
	require.NoError(t, err)
	sources := []any{"observed", "spec", "choice"}
	require.Len(t, c.Operations(), 40)
	for _, op := range c.Operations() {
		require.NotNil(t, op.Operation(), op.ID)
		assert.Contains(t, sources, op.Operation().Extensions["x-source"], "%s %s", op.Method, op.Path)
	}
	for name, s := range c.Doc().Components.Schemas {
		if len(s.Value.Properties) > 0 || len(s.Value.AllOf) > 0 {
			assert.Contains(t, sources, s.Value.Extensions["x-source"], name)
		}
	}
	assert.Len(t, c.Doc().Webhooks, 2)
}

// TestRootPackageDoesNotBuildTheValidator checks that importing the SDK, its fake or the
// document's package builds no part of kin-openapi: only tests use it.
func TestRootPackageDoesNotBuildTheValidator(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps",
		"github.com/workforce-marketplace/workforce-go",
		"github.com/workforce-marketplace/workforce-go/workforcetest",
		"github.com/workforce-marketplace/workforce-go/openapi",
		"github.com/workforce-marketplace/workforce-go/cmd/workforce-fake").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.NotContains(t, string(out), "kin-openapi")
	assert.NotContains(t, string(out), "internal/contract")
}
