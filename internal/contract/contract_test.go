package contract_test

import (
	"testing"

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
