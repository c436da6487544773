package workforcetest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"
)

// storeFiles are the files that reach a table's records by pointer: the store and its lists,
// indexes and render cache. Every other file reaches them through a view (copies) or a
// transaction (pointers its commit compares and files again).
var storeFiles = []string{"table.go", "store.go", "lists.go", "index.go", "cache.go"}

// TestRecordsAreReachedThroughViewsAndTransactions checks that no file but the store's reaches
// a table's records (rows, order, ids, at) by itself.
func TestRecordsAreReachedThroughViewsAndTransactions(t *testing.T) {
	t.Parallel()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || slices.Contains(storeFiles, name) {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				switch sel.Sel.Name {
				case "rows", "order", "ids", "at":
					t.Errorf("%s: %s reaches records by pointer: use a view or a transaction", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
}
