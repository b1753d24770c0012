//go:build !js

package internal_test

import (
	"encoding/json"
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
		case p.ImportPath == "ntkrf/core/errs", p.ImportPath == "ntkrf/core/names":
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
