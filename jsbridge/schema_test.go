package jsbridge

import (
	"encoding/json"
	"slices"
	"testing"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
)

// sample returns a valid value of an option, for probing the decoders.
func sample(o Opt) any {
	if o.Default != nil {
		return o.Default
	}
	switch o.Kind {
	case "bool":
		return false
	case "enum":
		return o.Enum[0]
	case "char":
		return ";"
	case "int", "number", "nameOrIndex":
		if o.Min != nil {
			return *o.Min + 1
		}
		return 1
	case "object":
		return map[string]any{}
	case "array":
		return []any{}
	}
	return nil
}

// Every option of the schema is one the operations decode: none is
// refused as unknown, so the table and the decoders cannot drift apart.
func TestSchemaOptionsAreDecoded(t *testing.T) {
	takers := map[string]int{} // method.option → operations that decode it
	for op, method := range opSchema {
		for _, o := range Schema[method] {
			opts := map[string]any{o.Name: sample(o)}
			if op == "split" || op == "kfold" {
				opts["n"] = 10
			}
			args, _ := json.Marshal(opts)
			_, _, err := Dispatch(op, args, Input{Bytes: []byte("a,b\n1,2\n")}, nil)
			var code check.Code
			var opt, msg string
			if err != nil {
				_, code, opt, msg = JSError(err)
			}
			switch {
			case err != nil && code == check.UnknownOption && method == op:
				t.Errorf("%s refuses its option %s: %s", op, o.Name, msg)
			case err != nil && code != check.UnknownOption && opt == o.Name:
				t.Errorf("%s refuses %s = %v: %s", op, o.Name, sample(o), msg)
			case err == nil || code != check.UnknownOption:
				takers[method+"."+o.Name]++
			}
		}
	}
	for method, opts := range Schema {
		for _, o := range opts {
			if takers[method+"."+o.Name] == 0 {
				t.Errorf("no operation decodes %s.%s", method, o.Name)
			}
		}
	}
}

// The defaults the schema documents are the ones the core applies to an
// option not given: a feature map, a kernel and a preprocessing decoded
// from {} are compared, field by field, with the schema.
func TestSchemaDefaults(t *testing.T) {
	filled := func(v any) map[string]any {
		b, _ := json.Marshal(v)
		var m map[string]any
		json.Unmarshal(b, &m)
		return m
	}
	compare := func(what string, opts []Opt, got map[string]any) {
		for _, o := range opts {
			if o.Default == nil {
				continue
			}
			want := filled(map[string]any{"v": o.Default})["v"]
			if want == "auto" && o.Kind == "enum" {
				// The core resolves "auto" by the data's size (rf's
				// sketch) into one of the other values, and reports that.
				if g, ok := got[o.Name].(string); !ok || g == "auto" || !slices.Contains(o.Enum, g) {
					t.Errorf("%s.%s: schema default auto, core %v; want one of %v resolved", what, o.Name, got[o.Name], o.Enum)
				}
				continue
			}
			if got[o.Name] != want {
				t.Errorf("%s.%s: schema default %v, core %v", what, o.Name, want, got[o.Name])
			}
		}
	}
	var fa featureArgs
	json.Unmarshal([]byte(`{}`), &fa)
	f, err := rf.New(fa, 3)
	if err != nil {
		t.Fatal(err)
	}
	compare("features", Schema["features"], filled(f.Config()))
	var ks kernel.Spec
	json.Unmarshal([]byte(`{}`), &ks)
	k, err := ks.Filled(3)
	if err != nil {
		t.Fatal(err)
	}
	compare("kernel", Schema["kernel"], filled(k))
	var p data.Prep
	json.Unmarshal([]byte(`{}`), &p)
	compare("preprocess", Schema["fitRidge"][slices.IndexFunc(Schema["fitRidge"], func(o Opt) bool { return o.Name == "preprocess" })].Fields, filled(p))
}

func TestEncodeNonFinite(t *testing.T) {
	type point struct {
		Lambda float64 `json:"lambda"`
		Score  float64 `json:"score"`
		Skip   float64 `json:"-"`
		Omit   []int   `json:"omit,omitempty"`
	}
	v := struct {
		Curve []point         `json:"curve"`
		M     map[string]any  `json:"m"`
		Raw   json.RawMessage `json:"raw"`
		P     *float64        `json:"p"`
		Arr   [2]float64      `json:"arr"`
	}{
		Curve: []point{{Lambda: 1e-300, Score: posInf()}, {Lambda: 1, Score: 0.5}},
		M:     map[string]any{"x": negInf()},
		Raw:   json.RawMessage(`{"a":1}`),
		Arr:   [2]float64{nan(), 2},
	}
	b, err := encodeJSON(v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"arr":[{"$num":"NaN"},2],"curve":[{"lambda":1e-300,"score":{"$num":"Infinity"}},{"lambda":1,"score":0.5}],"m":{"x":{"$num":"-Infinity"}},"p":null,"raw":{"a":1}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	// Finite values encode exactly as encoding/json does.
	v.Curve[0].Score, v.M["x"], v.Arr[0] = 3, 4.0, 5
	b, _ = encodeJSON(v)
	std, _ := json.Marshal(v)
	if string(b) != string(std) {
		t.Errorf("finite: got %s, encoding/json %s", b, std)
	}
}

func posInf() float64 { return 1 / zero }
func negInf() float64 { return -1 / zero }
func nan() float64    { return zero / zero }

var zero = 0.0
