//go:build !js

package jsbridge

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"ntkrf/core/rf"
)

// docNumber is a number other than 0 and 1 in a doc ("1000", "3/4").
var docNumber = regexp.MustCompile(`\b([2-9]|1[0-9])[0-9.]*\b`)

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
		if ok && key.Name == "Doc" {
			// A doc states no rule of its own: a number in it (beyond 0
			// and 1) comes from the core (krr.CriterionRule, …).
			ast.Inspect(kv.Value, func(m ast.Node) bool {
				if lit, ok := m.(*ast.BasicLit); ok && lit.Kind == token.STRING && docNumber.MatchString(lit.Value) {
					t.Errorf("%s: the doc %.60s… writes the number %q; take the rule from the core", fset.Position(lit.Pos()), lit.Value, docNumber.FindString(lit.Value))
				}
				return true
			})
			return true
		}
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

// TestGoNamesCoverTheConfig: every field of rf.Config, which messages
// name as Config.Field, is read as the option the schema names after its
// JSON tag: the replacer is derived from the schema, and this is the rule
// it rests on (the Go field is the option's name, capitalized).
func TestGoNamesCoverTheConfig(t *testing.T) {
	typ := reflect.TypeFor[rf.Config]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag := strings.Split(f.Tag.Get("json"), ",")[0]
		if got := goNames.Replace("Config." + f.Name); got != tag {
			t.Errorf("Config.%s reads as %q in a message; its option is %q", f.Name, got, tag)
		}
	}
	for goName, js := range map[string]string{"Options.MaxBytes": "maxBytes", "Options.Classes": "classes", "Options.Lambda": "lambda", "Options.Missing": "missing", "Config.SketchDim": "sketchDim"} {
		if got := goNames.Replace(goName); got != js {
			t.Errorf("%s reads as %q, want %q", goName, got, js)
		}
	}
}
