//go:build !js

package internal_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
)

// nameFields are the struct fields that hold a name of core/names.
var nameFields = map[string]bool{"Method": true, "Sketch": true, "Sampler": true, "Name": true, "Task": true, "Criterion": true}

// TestNamesAreConstants: outside core/names, the Go code of the core, the
// bridge and every host (the CLI, Beam, the wasm entry) compares and assigns method, kernel, sketch, sampler, task
// and criterion names through the constants of core/names, never as
// string literals, so that a name is spelled once: a literal in a switch
// case, an ==/!= comparison, or a Method:/Sketch:/…: field is refused.
func TestNamesAreConstants(t *testing.T) {
	vocab := map[string]bool{}
	add := func(l ...string) {
		for _, n := range l {
			vocab[n] = true
		}
	}
	add(strs(rf.Methods())...)
	add(strs(kernel.Names())...)
	add(strs(rf.Sketches())...)
	add(strs(rf.Samplers())...)
	add(strs(krr.Tasks())...)
	add(strs(krr.Criteria())...)
	fset := token.NewFileSet()
	flag := func(e ast.Expr, where string) {
		lit, ok := e.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return
		}
		if s, err := strconv.Unquote(lit.Value); err == nil && vocab[s] {
			t.Errorf("%s: the name %q as a literal in %s; use the constant of ntkrf/core/names", fset.Position(lit.Pos()), s, where)
		}
	}
	for _, root := range []string{"../core", "../jsbridge", "../cmd", "../beam", "../wasm"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(path, "core/names") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CaseClause:
					for _, e := range n.List {
						flag(e, "a switch case")
					}
				case *ast.BinaryExpr:
					if n.Op == token.EQL || n.Op == token.NEQ {
						flag(n.X, "a comparison")
						flag(n.Y, "a comparison")
					}
				case *ast.KeyValueExpr:
					if k, ok := n.Key.(*ast.Ident); ok && nameFields[k.Name] {
						flag(n.Value, "the field "+k.Name)
					}
				case *ast.AssignStmt:
					for i, l := range n.Lhs {
						if s, ok := l.(*ast.SelectorExpr); ok && nameFields[s.Sel.Name] && i < len(n.Rhs) {
							flag(n.Rhs[i], "the field "+s.Sel.Name)
						}
					}
				case *ast.ReturnStmt:
					for _, e := range n.Results {
						flag(e, "a return")
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// strs is a list of names as strings.
func strs[T ~string](l []T) []string {
	s := make([]string, len(l))
	for i, v := range l {
		s[i] = string(v)
	}
	return s
}
