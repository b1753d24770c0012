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
)

// coreFiles parses every non-test Go file under core/ and calls visit with
// each file's package directory (e.g. "rf") and syntax tree.
func coreFiles(t *testing.T, visit func(path, pkg string, fset *token.FileSet, f *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	err := filepath.WalkDir("../core", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		visit(path, filepath.Base(filepath.Dir(path)), fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCoreErrorsAreCoded: the core makes its errors with the coded
// constructors (check.New, errs.New, errs.Wrap, check.Stopped), never with
// errors.New, and fmt.Errorf only to wrap an error that carries its code
// (%w), so that every error a public function returns has a code.
func TestCoreErrorsAreCoded(t *testing.T) {
	coreFiles(t, func(path, _ string, fset *token.FileSet, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			switch {
			case x.Name == "errors" && sel.Sel.Name == "New":
				t.Errorf("%s: errors.New makes an error without a code; use check.New or errs.New", fset.Position(call.Pos()))
			case x.Name == "fmt" && sel.Sel.Name == "Errorf":
				if lit, ok := call.Args[0].(*ast.BasicLit); !ok || !strings.Contains(lit.Value, "%w") {
					t.Errorf("%s: fmt.Errorf without %%w makes an error without a code; use check.New", fset.Position(call.Pos()))
				}
			}
			return true
		})
	})
}

// TestMessagesNameTheirPackage: a message a core package writes starts
// with that package's name ("linalg: …", not "gram: …"), or "core: " for
// internal/check's shared checks, which the calling package re-prefixes.
func TestMessagesNameTheirPackage(t *testing.T) {
	coreFiles(t, func(path, pkg string, fset *token.FileSet, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var msg ast.Expr
			switch fun := call.Fun.(type) {
			case *ast.Ident:
				if fun.Name == "panic" {
					msg = call.Args[0]
				}
			case *ast.SelectorExpr:
				x, _ := fun.X.(*ast.Ident)
				switch {
				case x == nil:
				case (x.Name == "check" || x.Name == "errs") && fun.Sel.Name == "New" && len(call.Args) >= 3:
					msg = call.Args[2]
				case x.Name == "errs" && fun.Sel.Name == "Wrap" && len(call.Args) >= 2,
					x.Name == "check" && fun.Sel.Name == "Stopped":
					msg = call.Args[len(call.Args)-2]
				}
			}
			if c, ok := msg.(*ast.CallExpr); ok { // panic(fmt.Sprintf(…))
				if len(c.Args) > 0 {
					msg = c.Args[0]
				}
			}
			lit, ok := msg.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if !strings.HasPrefix(s, pkg+": ") && !strings.HasPrefix(s, "%s") && !strings.HasPrefix(s, "%v") {
				t.Errorf("%s: message %.60q does not start with %q", fset.Position(lit.Pos()), s, pkg+": ")
			}
			return true
		})
	})
}
