//go:build !js

package jsbridge

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// TestOpsTable: every operation is registered in the one table of ops.go,
// under the name of its function (op + Name), and no init function adds
// to it (the test hook of the crashtest build aside), so that what an
// operation is does not depend on file order.
func TestOpsTable(t *testing.T) {
	for name, f := range ops {
		fn := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
		if want := "op" + strings.ToUpper(name[:1]) + name[1:]; !strings.HasSuffix(fn, "."+want) {
			t.Errorf("operation %q is served by %s, want %s", name, fn, want)
		}
	}
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") || file == "testhook_crash.go" {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "init" && fd.Recv == nil {
				t.Errorf("%s has an init function; register operations in the table of ops.go", file)
			}
		}
	}
}
