package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

// The hostile model files of testdata/models: two real saved models (a
// random-feature classifier with a schema, categories, missing cells and a
// selection; an exact-kernel regressor with its training rows), and
// mutations of every field of both. expect.json says, for each, what every
// host must do with the file's text and with the object JSON.parse makes
// of it: accept, or refuse with a code and a message fragment. This test
// checks native Go (Load); test/model-corpus.test.js runs the same files
// through the package, and TestCrossHost loads natively the objects the
// package was given.
//
// go test ./core/pipeline -run TestModelCorpus -update writes the files.
var update = flag.Bool("update", false, "rewrite testdata/models")

const corpusDir = "../../testdata/models"

// outcome is what a host does with a file.
type outcome struct {
	Accept   bool       `json:"accept"`
	Code     check.Code `json:"code,omitempty"`
	Fragment string     `json:"fragment,omitempty"`
}

// corpusCase is one file of the corpus: its outcome as text, and as the
// object JSON.parse makes of it (which loses a repeated field and the
// ".0" of 64.0, and turns 1e999 into Infinity, written as null).
type corpusCase struct {
	Name   string  `json:"name"`
	File   string  `json:"file"`
	Text   outcome `json:"text"`
	Object outcome `json:"object"`
	body   []byte
}

func accept() outcome { return outcome{Accept: true} }
func refuse(code check.Code, fragment string) outcome {
	return outcome{Code: code, Fragment: fragment}
}

// node is a JSON value that keeps its fields' order and its numbers' text.
type node struct {
	obj  []field
	arr  []*node
	kind byte // 'o' object, 'a' array, 'n' number, 's' string, 'b' bool, 'z' null
	text string
}

type field struct {
	key string
	val *node
}

func parseNode(dec *json.Decoder) *node {
	tok, err := dec.Token()
	if err != nil {
		panic(err)
	}
	switch x := tok.(type) {
	case json.Delim:
		if x == '{' {
			n := &node{kind: 'o'}
			for dec.More() {
				k, _ := dec.Token()
				n.obj = append(n.obj, field{k.(string), parseNode(dec)})
			}
			dec.Token()
			return n
		}
		n := &node{kind: 'a'}
		for dec.More() {
			n.arr = append(n.arr, parseNode(dec))
		}
		dec.Token()
		return n
	case json.Number:
		return &node{kind: 'n', text: string(x)}
	case string:
		b, _ := json.Marshal(x)
		return &node{kind: 's', text: string(b)}
	case bool:
		return &node{kind: 'b', text: strconv.FormatBool(x)}
	}
	return &node{kind: 'z', text: "null"}
}

func (n *node) write(b *bytes.Buffer) {
	switch n.kind {
	case 'o':
		b.WriteByte('{')
		for i, f := range n.obj {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(f.key)
			b.Write(k)
			b.WriteByte(':')
			f.val.write(b)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, v := range n.arr {
			if i > 0 {
				b.WriteByte(',')
			}
			v.write(b)
		}
		b.WriteByte(']')
	default:
		b.WriteString(n.text)
	}
}

func (n *node) clone() *node {
	c := *n
	c.obj = slices.Clone(n.obj)
	for i := range c.obj {
		c.obj[i].val = c.obj[i].val.clone()
	}
	c.arr = slices.Clone(n.arr)
	for i := range c.arr {
		c.arr[i] = c.arr[i].clone()
	}
	return &c
}

// at returns the node at a path of keys and indices.
func (n *node) at(path []any) *node {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			i := slices.IndexFunc(n.obj, func(f field) bool { return f.key == k })
			n = n.obj[i].val
		case int:
			n = n.arr[k]
		}
	}
	return n
}

func pathString(path []any) string {
	var b strings.Builder
	for _, p := range path {
		switch k := p.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(k)
		case int:
			fmt.Fprintf(&b, "[%d]", k)
		}
	}
	return b.String()
}

// intFields are the fields that hold integers (every other number is a
// float64).
var intFields = map[string]bool{"version": true, "rows": true, "cols": true, "depth": true, "dim": true, "m0": true, "m1": true,
	"sketchDim": true, "gibbsSweeps": true, "seed": true, "target": true, "missing": true, "column": true, "start": true, "width": true, "chosen": true, "best": true}

// optionalFields may be absent (omitempty; a preprocessing's fields have
// the documented defaults of the API's option, standardize true and
// unitNorm false), so deleting them is not a generic refusal.
var optionalFields = map[string]bool{"features": true, "kernel": true, "train": true, "selection": true, "accuracy": true, "stdErr": true, "best": true,
	"div": true, "mu": true, "inv": true, "standardize": true, "unitNorm": true}

// nullable are the fields whose null the writer writes (a nil slice or
// pointer): null there is not refused as such.
var nullable = map[string]bool{"classes": true, "input": true, "coef": true, "curve": true, "groups": true, "categories": true, "bias": true}

// mutations walks every value of base and returns the generic mutations
// of each with their outcomes.
func mutations(prefix string, base *node) []corpusCase {
	var out []corpusCase
	add := func(name string, edit func(root *node), text, object outcome) {
		root := base.clone()
		edit(root)
		var b bytes.Buffer
		root.write(&b)
		out = append(out, corpusCase{Name: prefix + " " + name, Text: text, Object: object, body: b.Bytes()})
	}
	var walk func(path []any, n *node)
	walk = func(path []any, n *node) {
		p := pathString(path)
		where := p
		if where == "" {
			where = "the JSON"
		}
		last := ""
		if len(path) > 0 {
			if k, ok := path[len(path)-1].(string); ok {
				last = k
			} else if len(path) > 1 {
				last, _ = path[len(path)-2].(string) // an element: its array's field
			}
		}
		set := func(text string) func(root *node) {
			return func(root *node) { *root.at(path) = node{kind: 'n', text: text} }
		}
		isElem := false
		if len(path) > 0 {
			_, isElem = path[len(path)-1].(int)
		}
		switch n.kind {
		case 'n':
			curveScore := last == "score" && path[0] == "curve" // null: a criterion that could not be evaluated
			if !(isElem && nullable[last]) && !curveScore {
				nf := refuse(check.NonFinite, p+" is null")
				add(p+" null", func(root *node) { *root.at(path) = node{kind: 'z', text: "null"} }, nf, nf)
			}
			nan := refuse(check.Type, p+" is ")
			add(p+` "NaN"`, func(root *node) { *root.at(path) = node{kind: 's', text: `"NaN"`} }, nan, nan)
			asObject := refuse(check.NonFinite, p+" is null")
			if curveScore {
				asObject = accept() // Infinity, written null
			}
			add(p+" 1e999", set("1e999"), refuse(check.NonFinite, p+" is 1e999, beyond the range"), asObject)
			if intFields[last] && !isElem {
				add(p+" with a fraction", set(n.text+".5"), refuse(check.Type, p+" is "+n.text+".5; it must be an integer"),
					refuse(check.Type, p+" is "+n.text+".5; it must be an integer"))
				add(p+" written as "+n.text+".0", set(n.text+".0"), refuse(check.Type, p+" is "+n.text+".0; it must be an integer"), accept())
			}
		case 's':
			if !isElem || last == "classes" {
				add(p+" null", func(root *node) { *root.at(path) = node{kind: 'z', text: "null"} }, refuse(check.Type, p+" is null"), refuse(check.Type, p+" is null"))
			}
			add(p+" a number", set("1"), refuse(check.Type, p+" is the number 1"), refuse(check.Type, p+" is the number 1"))
		case 'b':
			add(p+" null", func(root *node) { *root.at(path) = node{kind: 'z', text: "null"} }, refuse(check.Type, p+" is null"), refuse(check.Type, p+" is null"))
			add(p+` "true"`, func(root *node) { *root.at(path) = node{kind: 's', text: `"true"`} }, refuse(check.Type, p+` is the string "true"`), refuse(check.Type, p+` is the string "true"`))
		case 'o':
			add(where+" with an extra field", func(root *node) {
				o := root.at(path)
				o.obj = append(o.obj, field{"extra", &node{kind: 'n', text: "1"}})
			}, refuse(check.Type, where+` has an unknown field "extra"`), refuse(check.Type, where+` has an unknown field "extra"`))
			if len(n.obj) > 0 {
				k := n.obj[0].key
				add(where+" with "+k+" twice", func(root *node) {
					o := root.at(path)
					o.obj = append(o.obj, field{k, o.obj[0].val.clone()})
				}, refuse(check.Type, where+` has the field "`+k+`" twice`), accept())
				upper := strings.ToUpper(k[:1]) + k[1:]
				add(where+" with "+upper+" for "+k, func(root *node) { root.at(path).obj[0].key = upper },
					refuse(check.Type, where+` has an unknown field "`+upper+`" (field names are case-sensitive`), refuse(check.Type, where+` has an unknown field "`+upper+`" (field names are case-sensitive`))
			}
			for i, f := range n.obj {
				if !optionalFields[f.key] {
					add(where+" without "+f.key, func(root *node) {
						o := root.at(path)
						o.obj = slices.Delete(o.obj, i, i+1)
					}, refuse(check.Type, where+` has no field "`+f.key+`"`), refuse(check.Type, where+` has no field "`+f.key+`"`))
				}
				if f.val.kind != 'z' {
					walk(append(slices.Clone(path), f.key), f.val)
				}
			}
		case 'a':
			// The first and last elements stand for all.
			idx := []int{0}
			if len(n.arr) > 1 {
				idx = append(idx, len(n.arr)-1)
			}
			if len(n.arr) == 0 {
				idx = nil
			}
			for _, i := range idx {
				walk(append(slices.Clone(path), i), n.arr[i])
			}
		}
	}
	walk(nil, base)
	return out
}

// corpusBases returns the two real models the corpus mutates: those saved
// in testdata/models, or, with -update, fitted anew. (A fit whose λ is
// chosen may differ in the last bits between platforms, so the corpus is
// built from the saved files.)
func corpusBases(t *testing.T) (features, kernelModel []byte) {
	if !*update {
		var err error
		if features, err = os.ReadFile(filepath.Join(corpusDir, "features.json")); err == nil {
			kernelModel, err = os.ReadFile(filepath.Join(corpusDir, "kernel.json"))
		}
		if err != nil {
			t.Fatalf("%v (go test -run TestModelCorpus -update writes it)", err)
		}
		return features, kernelModel
	}
	ds := parse(t, mixed)
	// float64, as the saved files were written (before float32 became the
	// default): the corpus also stands for the files users hold.
	p, err := FitDataset(context.Background(), ds, Config{Features: rf.Config{Dim: 8, Seed: 3, Precision: "float64"}})
	if err != nil {
		t.Fatal(err)
	}
	features, _ = json.Marshal(p)
	X, y := fixture.Data(6, 2, 0, 4)
	q, err := Fit(context.Background(), X, y, Config{Kernel: &kernel.Spec{Name: "ntk", Depth: 2}, Preprocess: nil})
	if err != nil {
		t.Fatal(err)
	}
	kernelModel, _ = json.Marshal(q)
	return features, kernelModel
}

// corpus builds every case: the generic mutations of both bases, and the
// contradictions and sizes no generic mutation makes.
func corpus(t *testing.T) []corpusCase {
	fb, kb := corpusBases(t)
	root := func(b []byte) *node {
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		return parseNode(dec)
	}
	fr, kr := root(fb), root(kb)
	cases := []corpusCase{
		{Name: "features model", Text: accept(), Object: accept(), body: fb},
		{Name: "kernel model", Text: accept(), Object: accept(), body: kb},
	}
	cases = append(cases, mutations("features:", fr)...)
	cases = append(cases, mutations("kernel:", kr)...)
	edit := func(name string, base *node, f func(m *node), text, object outcome) {
		n := base.clone()
		f(n)
		var b bytes.Buffer
		n.write(&b)
		cases = append(cases, corpusCase{Name: name, Text: text, Object: object, body: b.Bytes()})
	}
	num := func(text string) *node { return &node{kind: 'n', text: text} }
	str := func(s string) *node { b, _ := json.Marshal(s); return &node{kind: 's', text: string(b)} }
	set := func(path []any, v *node) func(m *node) { return func(m *node) { *m.at(path) = *v } }
	both := func(code check.Code, fragment string) (outcome, outcome) {
		return refuse(code, fragment), refuse(code, fragment)
	}
	classes := fr.at([]any{"classes"})
	a, b := both(check.Value, "empty or a repeat")
	edit("features: a repeated class name", fr, func(m *node) {
		m.at([]any{"classes"}).arr[1] = classes.arr[0].clone()
		m.at([]any{"input", "classes"}).arr[1] = classes.arr[0].clone()
	}, a, b)
	edit("features: an empty class name", fr, func(m *node) {
		*m.at([]any{"classes", 0}) = *str("")
		*m.at([]any{"input", "classes", 0}) = *str("")
	}, a, b)
	a, b = both(check.Value, "has -5 missing cells")
	edit("features: missing -5", fr, set([]any{"input", "columns", 0, "missing"}, num("-5")), a, b)
	a, b = both(check.Value, "preprocess.groups differ from input.groups")
	edit("features: preprocess groups that contradict the schema", fr, func(m *node) {
		*m.at([]any{"preprocess", "groups", 0, "column"}) = *num("2")
	}, a, b)
	a, b = both(check.Value, "distinct categories")
	edit("features: a repeated category", fr, func(m *node) {
		cats := m.at([]any{"input", "columns", 1, "categories"})
		cats.arr[1] = cats.arr[0].clone()
	}, a, b)
	a, b = both(check.NonFinite, "lambda is 1e99999, beyond the range")
	edit("features: lambda 1e99999", fr, set([]any{"lambda"}, num("1e99999")), a, refuse(check.NonFinite, "lambda is null"))
	a, b = both(check.Value, "9007199254740992 is above 2^53−1")
	edit("features: seed 2^53", fr, set([]any{"features", "seed"}, num("9007199254740992")), a, b)
	edit("features: seed 2^53+1", fr, set([]any{"features", "seed"}, num("9007199254740993")),
		refuse(check.Value, "9007199254740993 is above 2^53−1"), b) // JSON.parse rounds it to 2^53
	edit("features: seed 2^53−1", fr, set([]any{"features", "seed"}, num("9007199254740991")), accept(), accept())
	a, b = both(check.Value, "a scale is positive")
	edit("features: div 0", fr, set([]any{"preprocess", "div", 0}, num("0")), a, b)
	a, b = both(check.Value, "features.depth is 0")
	edit("features: depth 0", fr, set([]any{"features", "depth"}, num("0")), a, b)
	a, b = both(check.Value, "the chosen candidate")
	edit("features: a selection that chose another preprocessing", fr, func(m *node) {
		sel := m.at([]any{"selection"})
		ch, _ := strconv.Atoi(sel.at([]any{"chosen"}).text)
		*sel.at([]any{"chosen"}) = *num(strconv.Itoa((ch + 5) % 10))
	}, a, b)
	// Sizes: the coefficients' shape and the map's memory are checked
	// before anything is drawn (TestCorpusRefusesBeforeDrawing times them).
	a, b = both(check.Shape, "coef has 8 rows, but the features make 16777216 columns")
	edit("features: dim 2^24 with 8 coefficient rows", fr, func(m *node) {
		f := m.at([]any{"features"})
		*f.at([]any{"dim"}), *f.at([]any{"m0"}), *f.at([]any{"m1"}), *f.at([]any{"sketchDim"}) = *num("16777216"), *num("8388608"), *num("8388608"), *num("8388608")
	}, a, b)
	a, b = both(check.TooLarge, "the feature map (ntk, 16777216 columns")
	edit("features: hadamard depth 64 at 2^24 columns", fr, func(m *node) {
		f := m.at([]any{"features"})
		*f.at([]any{"dim"}), *f.at([]any{"m0"}), *f.at([]any{"m1"}), *f.at([]any{"sketchDim"}) = *num("16777216"), *num("8388608"), *num("8388608"), *num("8388608")
		*f.at([]any{"depth"}), *f.at([]any{"sampler"}) = *num("64"), *str("hadamard")
	}, a, b)
	a, b = both(check.Shape, "train is 6×2 but holds 11 numbers")
	edit("kernel: train missing a number", kr, func(m *node) {
		d := m.at([]any{"train", "data"})
		d.arr = d.arr[:len(d.arr)-1]
	}, a, b)
	a, b = both(check.Shape, "train is 1000000000×2 but holds 12 numbers")
	edit("kernel: train claiming 10^9 rows", kr, set([]any{"train", "rows"}, num("1000000000")), a, b)
	a, b = both(check.Value, "a saved kernel has every default written out")
	edit("kernel: depth 0", kr, set([]any{"kernel", "depth"}, num("0")), a, b)
	for i := range cases {
		cases[i].File = fmt.Sprintf("bad/%03d.json", i)
	}
	cases[0].File, cases[1].File = "features.json", "kernel.json"
	return cases
}

// loadOutcome is what Load does with a file.
func loadOutcome(b []byte) (outcome, string) {
	_, err := Load(bytes.NewReader(b))
	if err == nil {
		return accept(), ""
	}
	return outcome{Code: codeOf(err)}, err.Error()
}

// matches reports whether got (and its message) is the outcome want.
func (want outcome) matches(got outcome, msg string) bool {
	return got.Accept == want.Accept && got.Code == want.Code && strings.Contains(msg, want.Fragment)
}

func TestModelCorpus(t *testing.T) {
	cases := corpus(t)
	if *update {
		os.RemoveAll(corpusDir)
		os.MkdirAll(filepath.Join(corpusDir, "bad"), 0o755)
		for _, c := range cases {
			if err := os.WriteFile(filepath.Join(corpusDir, c.File), c.body, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		table, _ := json.MarshalIndent(cases, "", " ")
		os.WriteFile(filepath.Join(corpusDir, "expect.json"), append(table, '\n'), 0o644)
	}
	// The files on disk are the corpus this code makes.
	table, err := os.ReadFile(filepath.Join(corpusDir, "expect.json"))
	if err != nil {
		t.Fatalf("%v (go test -run TestModelCorpus -update writes it)", err)
	}
	var saved []corpusCase
	json.Unmarshal(table, &saved)
	if len(saved) != len(cases) {
		t.Fatalf("expect.json has %d cases, the generator %d: run with -update", len(saved), len(cases))
	}
	for i, c := range cases {
		body, err := os.ReadFile(filepath.Join(corpusDir, c.File))
		if err != nil || !bytes.Equal(body, c.body) || saved[i].Name != c.Name || saved[i].Text != c.Text || saved[i].Object != c.Object {
			t.Fatalf("%s: testdata/models differs from the generator: run with -update", c.Name)
		}
		got, msg := loadOutcome(body)
		if !c.Text.matches(got, msg) {
			t.Errorf("%s (%s): %v %q; want %+v", c.Name, c.File, got, msg, c.Text)
		}
	}
	t.Logf("%d files", len(cases))
}

// TestCorpusRefusesBeforeDrawing: the files naming a huge map are refused
// without drawing it: quickly, allocating about the file's size.
func TestCorpusRefusesBeforeDrawing(t *testing.T) {
	for _, c := range corpus(t) {
		if c.Text.Code != check.Shape && c.Text.Code != check.TooLarge {
			continue
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		t0 := time.Now()
		got, msg := loadOutcome(c.body)
		took := time.Since(t0)
		runtime.ReadMemStats(&after)
		if !c.Text.matches(got, msg) {
			t.Errorf("%s: %q", c.Name, msg)
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > 4<<20 || took > time.Second {
			t.Errorf("%s: refused after allocating %d bytes in %v", c.Name, a, took)
		}
	}
	// And Decode, the hosts' path, likewise.
	X, y := fixture.Data(6, 2, 0, 4)
	// float64: the hadamard sampler set below has no float32 form.
	p, err := Fit(context.Background(), X, y, Config{Features: rf.Config{Dim: 8, Depth: 1, Precision: "float64"}, Preprocess: nil, Ridge: krr.Options{Lambda: 1, Task: krr.Regression}})
	if err != nil {
		t.Fatal(err)
	}
	h, coef, _, _ := p.Split()
	var m map[string]any
	json.Unmarshal(h, &m)
	f := m["features"].(map[string]any)
	f["dim"], f["m0"], f["m1"], f["sketchDim"], f["depth"], f["sampler"], f["sketch"] = 1<<24, 1<<23, 1<<23, 1<<23, 64, "hadamard", "tensorsketch"
	h, _ = json.Marshal(m)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = Decode(h, coef, nil)
	runtime.ReadMemStats(&after)
	if codeOf(err) != check.TooLarge || after.TotalAlloc-before.TotalAlloc > 4<<20 {
		t.Errorf("Decode: %v after %d bytes", err, after.TotalAlloc-before.TotalAlloc)
	}
}
