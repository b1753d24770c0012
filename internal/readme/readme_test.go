//go:build !js

// Package readme runs the README's Go example, so it cannot rot.
package readme

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"
)

var goBlock = regexp.MustCompile("(?s)```go\n(.*?)```")

// TestGoSnippet compiles and runs every Go block of README.md as a main
// package inside the module, from the repository root.
func TestGoSnippet(t *testing.T) {
	root, _ := filepath.Abs("../..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := goBlock.FindAllSubmatch(readme, -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no Go example")
	}
	for i, b := range blocks {
		dir, err := os.MkdirTemp(filepath.Join(root, "internal", "readme"), "snippet-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		if err := os.WriteFile(filepath.Join(dir, "main.go"), b[1], 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "run", "./"+filepath.Join("internal", "readme", filepath.Base(dir)))
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("README Go block %d: %v\n%s", i+1, err, out)
		}
		t.Logf("block %d printed %s", i+1, out)
	}
}
