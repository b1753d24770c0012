//go:build !js

package jsbridge

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"
)

// TestSchemaWritesNoLimit: the schema only spells the core's limits and
// defaults; it writes none of its own. Every Min, Max and Default in
// schema.go is a named constant of a core package (or of this file, for
// the few bounds that only keep a number an int), a name, or one of the
// trivial values 0, 1, true, false: a number written here would be a
// limit the core does not apply, or one written twice.
func TestSchemaWritesNoLimit(t *testing.T) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "schema.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	trivial := map[string]bool{"0": true, "1": true}
	ast.Inspect(file, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok || (key.Name != "Min" && key.Name != "Max" && key.Name != "Default") {
			return true
		}
		v := kv.Value
		if c, ok := v.(*ast.CallExpr); ok && len(c.Args) == 1 {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "f" {
				v = c.Args[0]
			}
		}
		ast.Inspect(v, func(m ast.Node) bool {
			lit, ok := m.(*ast.BasicLit)
			if !ok {
				return true
			}
			if lit.Kind == token.STRING {
				if s, _ := strconv.Unquote(lit.Value); s == "auto" {
					t.Errorf("%s: %s %s: use names.Auto", fset.Position(lit.Pos()), key.Name, lit.Value)
				}
				return true
			}
			if !trivial[lit.Value] {
				t.Errorf("%s: %s is the number %s, written in the bridge; take it from the core package that applies it", fset.Position(lit.Pos()), key.Name, lit.Value)
			}
			return true
		})
		return true
	})
}
