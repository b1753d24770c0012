//go:build !js

package readme

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFuzzList: the README's fuzz list names every fuzz target of the
// module with its package, and build.sh's short fuzz runs reach each one
// (its directories cover every target's package).
func TestFuzzList(t *testing.T) {
	root, _ := filepath.Abs("../..")
	found := map[string]string{} // target → package directory
	fuzzFunc := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "dist" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range fuzzFunc.FindAllSubmatch(src, -1) {
			dir, _ := filepath.Rel(root, filepath.Dir(path))
			found[string(m[1])] = filepath.ToSlash(dir)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatal("no fuzz targets found")
	}

	build, err := os.ReadFile(filepath.Join(root, "build.sh"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`grep -rl --include='\*_test\.go' '\^func Fuzz' ([\w/ ]+) \|`).FindSubmatch(build)
	if m == nil {
		t.Fatal("build.sh: no fuzz_short grep line found")
	}
	dirs := strings.Fields(string(m[1]))
	for target, dir := range found {
		if !slices.ContainsFunc(dirs, func(d string) bool { return dir == d || strings.HasPrefix(dir, d+"/") }) {
			t.Errorf("%s (%s) is not run by build.sh, which fuzzes %v", target, dir, dirs)
		}
	}

	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	para := regexp.MustCompile(`(?s)\nFuzz targets.*?\n\n`).Find(readme)
	if para == nil {
		t.Fatal("README.md has no paragraph starting \"Fuzz targets\"")
	}
	listed := map[string]string{}
	for _, m := range regexp.MustCompile("`(Fuzz\\w+)`\\s+\\(([\\w/]+)").FindAllSubmatch(para, -1) {
		listed[string(m[1])] = string(m[2])
	}
	for target, dir := range found {
		if listed[target] != dir {
			t.Errorf("README's fuzz list: %s in %q, want it listed in (%s", target, listed[target], dir)
		}
	}
	for target := range listed {
		if found[target] == "" {
			t.Errorf("README's fuzz list names %s, which is no fuzz target", target)
		}
	}
}
