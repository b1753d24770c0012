//go:build !js

package internal_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestImportRules checks the import rules of ARCHITECTURE.md.
func TestImportRules(t *testing.T) {
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-json", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		var ours []string
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, "ntkrf/") {
				ours = append(ours, imp)
			}
		}
		forbid := func(why string, bad func(string) bool) {
			for _, imp := range ours {
				if bad(imp) {
					t.Errorf("%s imports %s: %s", p.ImportPath, imp, why)
				}
			}
		}
		switch {
		case p.ImportPath == "ntkrf/core/errs", p.ImportPath == "ntkrf/core/names", p.ImportPath == "ntkrf/internal/rowtree", p.ImportPath == "ntkrf/internal/pmath":
			forbid("it must import nothing of ntkrf", func(string) bool { return true })
		case p.ImportPath == "ntkrf/internal/check", p.ImportPath == "ntkrf/core/linalg":
			forbid("it must import nothing of ntkrf but the error codes", func(s string) bool { return s != "ntkrf/core/errs" })
		case p.ImportPath == "ntkrf/core/metrics", p.ImportPath == "ntkrf/core/active":
			forbid("scoring and active learning stay apart from ridge regression", func(s string) bool { return s == "ntkrf/core/krr" || s == "ntkrf/core/pipeline" })
		}
		if strings.HasPrefix(p.ImportPath, "ntkrf/core") {
			forbid("the core does not know its hosts", func(s string) bool {
				return s == "ntkrf/jsbridge" || strings.HasPrefix(s, "ntkrf/cmd") || s == "ntkrf/wasm"
			})
			if slices.Contains(p.Imports, "syscall/js") {
				t.Errorf("%s imports syscall/js", p.ImportPath)
			}
		}
	}
}

// TestRootWithoutBeam: Apache Beam lives in the nested module beam/ (its
// own go.mod), never in the root: no package of the root depends on it,
// and go.mod and go.sum do not name it, so go build, go mod tidy and the
// WebAssembly build of the root never see it.
func TestRootWithoutBeam(t *testing.T) {
	cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-deps", "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if strings.HasPrefix(p, "github.com/apache/beam") || strings.HasPrefix(p, "ntkrf/beam") {
			t.Errorf("the root module depends on %s; only the nested module beam/ may use Beam", p)
		}
	}
	for _, f := range []string{"../go.mod", "../go.sum"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "apache/beam") {
			t.Errorf("%s names Apache Beam; its requirements belong in beam/go.mod", f)
		}
	}
	b, err := os.ReadFile("../beam/go.mod")
	if err != nil || !strings.HasPrefix(string(b), "module ntkrf/beam\n") {
		t.Errorf("beam/go.mod must declare the nested module ntkrf/beam (so that beam/ stays out of the root module): %v", err)
	}
}

// TestBridgeDoesNotFit: the bridge converts, the core fits. Its fit ops
// call core/protocol's Plan; krr's fitting internals (the fits,
// the accumulator, the held-out rule, the primal/dual choice) are out of
// its reach, so that how a model is fitted is decided in one place. The
// bridge may read krr's names (tasks, criteria and their types, limits)
// and its options.
func TestBridgeDoesNotFit(t *testing.T) {
	allowed := map[string]bool{
		"Options": true, "TaskOf": true, "Task": true, "Tasks": true, "Criterion": true, "Criteria": true, "Classification": true, "Regression": true,
		"GCV": true, "LOO": true, "Holdout": true, "MaxClasses": true,
		// Limits and the rules in words, which the schema publishes.
		"MaxGrid": true, "GridRule": true, "CriterionRule": true, "GramRule": true, "MinClasses": true,
		// The posterior variance of the infinitely wide ensemble: a kernel
		// computation the playground draws, not a fit.
		"EnsembleVariance": true,
	}
	files, err := filepath.Glob(filepath.Join("..", "jsbridge", "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no bridge files (%v)", err)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		krr := ""
		for _, imp := range file.Imports {
			if imp.Path.Value == `"ntkrf/core/krr"` {
				krr = "krr"
				if imp.Name != nil {
					krr = imp.Name.Name
				}
			}
		}
		if krr == "" {
			continue
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == krr && !allowed[sel.Sel.Name] {
					t.Errorf("%s: the bridge uses krr.%s; fit through core/protocol's Plan (the bridge converts, the core fits)", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
}
