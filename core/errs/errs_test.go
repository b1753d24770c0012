package errs

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// The codes and their classes are written here once; the package's
// index.d.ts tables them and errors.js (the package) maps them to classes. This test ties
// the three together.
func TestCodesMatchThePackage(t *testing.T) {
	dts, err := os.ReadFile("../../www/pkg/index.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile("../../www/pkg/errors.js")
	if err != nil {
		t.Fatal(err)
	}
	var tabled []Code
	for _, m := range regexp.MustCompile(`(?m)^ \* \| (ERR_[A-Z_]+) \|`).FindAllSubmatch(dts, -1) {
		tabled = append(tabled, Code(m[1]))
	}
	if !slices.Equal(tabled, Codes) {
		t.Errorf("index.d.ts tables %v; the codes are %v", tabled, Codes)
	}
	classOf := regexp.MustCompile(`(ERR_[A-Z_]+): (TypeError|RangeError|Error)\b`)
	seen := map[Code]string{}
	for _, m := range classOf.FindAllSubmatch(js, -1) {
		seen[Code(m[1])] = string(m[2])
	}
	for _, c := range Codes {
		if c == Aborted {
			continue // a DOMException named AbortError, made by abortError()
		}
		if seen[c] != c.Class() {
			t.Errorf("errors.js CLASS_OF maps %s to %q; Go says %s", c, seen[c], c.Class())
		}
	}
}

// TestAdvice: the advice is the last clause after "; " that starts with
// an imperative verb; a message without one has none.
func TestAdvice(t *testing.T) {
	for _, tc := range []struct{ msg, fault, advice string }{
		{"krr: y[2] = 2 is not a class index in 0…1; encode classes as 0…k−1 or raise classes", "y[2] = 2 is not a class index in 0…1", "encode classes as 0…k−1 or raise classes"},
		{"pipeline: task \"regression\", but the data set's target is a \"classification\" target; leave the task unset or parse with task \"regression\"", "task \"regression\", but the data set's target is a \"classification\" target", "leave the task unset or parse with task \"regression\""},
		{"data: 3 columns; the header has 4", "3 columns; the header has 4", ""},
		{"no advice at all", "no advice at all", ""},
		{"trailing; ", "trailing; ", ""},
		{"a; b; Use a smaller file", "a; b", "Use a smaller file"},
	} {
		e := New(Value, "", "%s", tc.msg)
		if e.Fault() != tc.fault || e.Advice() != tc.advice {
			t.Errorf("%q: fault %q advice %q, want %q and %q", tc.msg, e.Fault(), e.Advice(), tc.fault, tc.advice)
		}
	}
}

// TestFaultDropsPackageNames: the names of the Go packages that wrapped a
// message are not part of its fault.
func TestFaultDropsPackageNames(t *testing.T) {
	e := New(Data, "", "krr: featurizing the rows: rf: the features of row 0 are not finite; rescale the data")
	if got, want := e.Fault(), "featurizing the rows: the features of row 0 are not finite"; got != want {
		t.Errorf("fault %q, want %q", got, want)
	}
	if got := New(Data, "", "a ratio: 3: rf: x").Fault(); got != "a ratio: 3: x" {
		t.Errorf("fault %q", got)
	}
}
