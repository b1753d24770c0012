//go:build !js

package jsbridge

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ntkrf/core/errs"
	"ntkrf/core/rf"
)

// TestCoreNamesAreCoreNames: Core.Names holds every string constant of
// core/names, by its Go name and with its value, and nothing else, so the
// package and the lab can read any name the core spells (a name added to
// core/names and missed here fails this test).
func TestCoreNamesAreCoreNames(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, "../core/names", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok || g.Tok != token.CONST {
					continue
				}
				for _, s := range g.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if !n.IsExported() || i >= len(vs.Values) {
							continue
						}
						lit, ok := vs.Values[i].(*ast.BasicLit)
						if !ok || lit.Kind != token.STRING {
							t.Errorf("names.%s is not a string literal; Core.Names cannot be checked", n.Name)
							continue
						}
						want[n.Name], _ = strconv.Unquote(lit.Value)
					}
				}
			}
		}
	}
	if len(want) == 0 {
		t.Fatal("no constants found in core/names")
	}
	for _, k := range slices.Sorted(maps.Keys(want)) {
		if got, ok := Core.Names[k]; !ok || got != want[k] {
			t.Errorf("Core.Names[%q] = %q (present %v), want names.%s = %q", k, got, ok, k, want[k])
		}
	}
	for k := range Core.Names {
		if _, ok := want[k]; !ok {
			t.Errorf("Core.Names has %q, which is no constant of core/names", k)
		}
	}
}

// TestCoreJSON: the package reads every name and limit from CoreJSON; the
// limits are positive (a zero chunk size would cut nothing).
func TestCoreJSON(t *testing.T) {
	var got struct {
		Names  map[string]string `json:"names"`
		Limits map[string]any    `json:"limits"`
	}
	if err := json.Unmarshal(CoreJSON(), &got); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got.Names, Core.Names) {
		t.Errorf("names do not round-trip: %v", got.Names)
	}
	keys := []string{"chunkBytes", "splitSelectBytes", "minBlockRows", "startTimeoutMs", "maxRestarts", "maxArrayValues", "quoteChars", "listChars", "messageChars"}
	for _, k := range keys {
		if v, _ := got.Limits[k].(float64); !(v > 0) {
			t.Errorf("limits.%s = %v, want > 0", k, got.Limits[k])
		}
	}
	// The memory of a feature value, by method and sampler: float32's 4
	// bytes by default, float64's 8 for grad and the hadamard sampler.
	fb, _ := got.Limits["featureBytes"].(map[string]any)
	at := func(m rf.Method, sm rf.Sampler) any { by, _ := fb[string(m)].(map[string]any); return by[string(sm)] }
	for _, m := range rf.Methods() {
		for _, sm := range rf.Samplers() {
			if want := float64(rf.ValueBytes(rf.DefaultPrecision(m, sm))); at(m, sm) != want {
				t.Errorf("limits.featureBytes[%s][%s] = %v, want %v", m, sm, at(m, sm), want)
			}
		}
	}
	if at(rf.NTK, rf.Exact) != 4.0 || at(rf.Grad, rf.Exact) != 8.0 {
		t.Errorf("limits.featureBytes: ntk %v, grad %v; want float32's 4 and float64's 8", at(rf.NTK, rf.Exact), at(rf.Grad, rf.Exact))
	}
	// The advice verbs, in the order the package's copy is compared in, and
	// each one the grammar's: a message advising with it splits.
	verbs, _ := got.Limits["adviceVerbs"].([]any)
	if len(verbs) == 0 {
		t.Errorf("limits.adviceVerbs = %v, want the grammar's verbs", got.Limits["adviceVerbs"])
	}
	for i, v := range verbs {
		w, _ := v.(string)
		if i > 0 && verbs[i-1].(string) >= w {
			t.Errorf("limits.adviceVerbs not sorted at %q", w)
		}
		if e := errs.New(errs.Value, "", "x: it failed; %s it", w); e.Advice() != w+" it" {
			t.Errorf("limits.adviceVerbs has %q, which the grammar does not split by", w)
		}
	}
	keys = append(keys, "featureBytes", "adviceVerbs")
	if len(got.Limits) != len(keys) {
		t.Errorf("limits = %v: a limit without a test", got.Limits)
	}
}

// TestPackageCopiesAreTheCore's: the limits the package needs before any
// instance can send it Core (an error's caps, the start timeout) are
// written in its sources; each copy equals the core's constant, so that
// changing one without the other fails here (test/core-facts.test.js
// checks the same against a running engine, and that no other limit is
// written in www/pkg).
func TestPackageCopiesAreTheCores(t *testing.T) {
	for _, tc := range []struct {
		file, name string
		want       int
	}{
		{"errors.js", "QUOTE_CHARS", Core.Limits.QuoteChars},
		{"errors.js", "LIST_CHARS", Core.Limits.ListChars},
		{"errors.js", "MESSAGE_CHARS", Core.Limits.MessageChars},
		{"pool.js", "START_TIMEOUT_MS", Core.Limits.StartTimeoutMillis},
	} {
		src, err := os.ReadFile(filepath.Join("..", "www", "pkg", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`(?m)^export const ` + tc.name + ` = ([0-9_]+);`).FindSubmatch(src)
		if m == nil {
			t.Errorf("www/pkg/%s declares no %s as a number", tc.file, tc.name)
			continue
		}
		if got, err := strconv.Atoi(strings.ReplaceAll(string(m[1]), "_", "")); err != nil || got != tc.want {
			t.Errorf("www/pkg/%s: %s = %s; the core's is %d", tc.file, tc.name, m[1], tc.want)
		}
	}
}

// TestCoreLimitsAreHostSizes: every host size core/protocol states
// (sizes.go) reaches the package: Core.Limits has a field of its name,
// set from it, so a size added there and missed here fails this test, as
// a name missed in Core.Names fails TestCoreNamesAreCoreNames.
func TestCoreLimitsAreHostSizes(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "../core/protocol/sizes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("core.go")
	if err != nil {
		t.Fatal(err)
	}
	limits := reflect.TypeOf(Core.Limits)
	var found int
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			for _, n := range s.(*ast.ValueSpec).Names {
				if !n.IsExported() {
					continue
				}
				found++
				if _, ok := limits.FieldByName(n.Name); !ok {
					t.Errorf("protocol.%s is a host size the package does not receive: add it to Limits", n.Name)
				}
				if !strings.Contains(string(src), n.Name+": ") || !strings.Contains(string(src), "protocol."+n.Name+",") {
					t.Errorf("Core.Limits.%s is not set from protocol.%s", n.Name, n.Name)
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no constants found in core/protocol/sizes.go")
	}
}
