package strict

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"ntkrf/internal/check"
)

type inner struct {
	X float64   `json:"x"`
	N int       `json:"n"`
	S string    `json:"s"`
	B bool      `json:"b"`
	U uint64    `json:"u"`
	P *float64  `json:"p"`           // written as null when nil
	L []string  `json:"l"`           // written as null when nil
	O *float64  `json:"o,omitempty"` // never written as null
	F []float64 `json:"f,omitempty"`
}

type outer struct {
	In    inner   `json:"in"`
	Items []inner `json:"items"`
	Nums  nums    `json:"nums"`
}

// nums reads itself with Floats, as a model file's matrices do.
type nums []float64

func (n *nums) UnmarshalJSON(b []byte) (err error) {
	*n, err = Floats(b)
	return err
}

const good = `{"in":{"x":1.5,"n":3,"s":"a","b":true,"u":7,"p":null,"l":null},"items":[{"x":-2e-3,"n":-1,"s":"","b":false,"u":0,"p":2,"l":["q"],"o":1,"f":[1]}],"nums":[1, 2.5 ,-3e2]}`

func TestGood(t *testing.T) {
	var got outer
	if err := Unmarshal([]byte(good), &got); err != nil {
		t.Fatal(err)
	}
	var want outer
	if err := json.Unmarshal([]byte(good), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("strict read %+v, encoding/json %+v", got, want)
	}
}

// TestRefused: every looseness of encoding/json is refused, at its path,
// with its code.
func TestRefused(t *testing.T) {
	edit := func(old, new string) string {
		if !strings.Contains(good, old) {
			t.Fatalf("%q is not in the good text", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	cases := []struct {
		name, text string
		code       check.Code
		path, msg  string
	}{
		{"null number", edit(`"x":1.5`, `"x":null`), check.NonFinite, "in.x", "is null"},
		{"null int", edit(`"n":3`, `"n":null`), check.NonFinite, "in.n", "is null"},
		{"null string", edit(`"s":"a"`, `"s":null`), check.Type, "in.s", "must be a string"},
		{"null bool", edit(`"b":true`, `"b":false,"b2":1`), check.Type, "in", `unknown field "b2"`},
		{"null struct", edit(`"in":{`, `"in":null,"x":{`), check.Type, "in", "is null; it must be an object"},
		{"null omitempty pointer", edit(`"o":1`, `"o":null`), check.NonFinite, "items[0].o", "is null"},
		{"null omitempty slice", edit(`"f":[1]`, `"f":null`), check.Type, "items[0].f", "must be an array"},
		{"null in numbers", edit(`[1, 2.5`, `[1, null`), check.NonFinite, "nums[1]", "is null"},
		{"text in numbers", edit(`[1, 2.5`, `[1, "2"`), check.Type, "nums[1]", "must be a number"},
		{"huge in numbers", edit(`-3e2]`, `-3e999]`), check.NonFinite, "nums[2]", "beyond the range"},
		{"huge", edit(`"x":1.5`, `"x":1e99999`), check.NonFinite, "in.x", "1e99999, beyond the range"},
		{"huge int", edit(`"n":3`, `"n":1e999`), check.NonFinite, "in.n", "beyond the range"},
		{"fraction int", edit(`"n":3`, `"n":3.0`), check.Type, "in.n", "3.0; it must be an integer"},
		{"exponent int", edit(`"n":3`, `"n":3e0`), check.Type, "in.n", "3e0; it must be an integer"},
		{"negative uint", edit(`"u":7`, `"u":-7`), check.Value, "in.u", "-7; it must be an integer ≥ 0"},
		{"int overflow", edit(`"n":3`, `"n":99999999999999999999`), check.Value, "in.n", "out of range"},
		{"string for number", edit(`"x":1.5`, `"x":"NaN"`), check.Type, "in.x", `the string "NaN"; it must be a number`},
		{"number for string", edit(`"s":"a"`, `"s":1`), check.Type, "in.s", "must be a string"},
		{"object for number", edit(`"x":1.5`, `"x":{}`), check.Type, "in.x", "is an object; it must be a number"},
		{"unknown field", edit(`"s":"a"`, `"s":"a","extra":1`), check.Type, "in", `unknown field "extra"`},
		{"case", edit(`"s":"a"`, `"S":"a"`), check.Type, "in", `case-sensitive: "s"`},
		{"duplicate", edit(`"s":"a"`, `"s":"a","s":"b"`), check.Type, "in", `field "s" twice`},
		{"missing", edit(`"s":"a",`, ``), check.Type, "in", `no field "s"`},
		{"trailing", good + "{}", check.Type, "", "data after its end"},
		{"truncated", good[:40], check.Type, "", "cut short"},
		{"syntax", edit(`"x":1.5`, `"x":1.5.`), check.Type, "", "not valid JSON"},
		{"top null", "null", check.Type, "", "is null; it must be an object"},
	}
	for _, tc := range cases {
		var v outer
		err := Unmarshal([]byte(tc.text), &v)
		var e *Error
		if !errors.As(err, &e) || e.Code != tc.code || (tc.path != "" && e.Path != tc.path) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v (%#v), want %s at %q containing %q", tc.name, err, e, tc.code, tc.path, tc.msg)
		}
	}
}

func TestFloats(t *testing.T) {
	for _, text := range []string{"[]", " [ ] ", "[0]", "[1,-2.5e-3, 4E+2]"} {
		got, err := Floats([]byte(text))
		var want []float64
		json.Unmarshal([]byte(text), &want)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %v, %v; want %v", text, got, err, want)
		}
	}
	for _, text := range []string{"", "1", "{}", "[1,]", "[,1]", "[1 2]", "[[1]]", "[true]", `["1"]`, "[0x10]", "[Infinity]", "[NaN]", "[.5]", "[01]"} {
		if _, err := Floats([]byte(text)); err == nil {
			t.Errorf("%q was read", text)
		}
	}
}

// FuzzUnmarshal: whatever strict reads, encoding/json reads too, to the
// same value; strict never panics.
func FuzzUnmarshal(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(`{"in":null}`))
	f.Add([]byte(`[1,2]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var s outer
		if err := Unmarshal(b, &s); err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code == "" {
				t.Fatalf("an error without a code: %v", err)
			}
			return
		}
		var j outer
		if err := json.Unmarshal(b, &j); err != nil {
			t.Fatalf("strict read %q, encoding/json refuses it: %v", b, err)
		}
		if !reflect.DeepEqual(s, j) {
			t.Fatalf("%q: strict %+v, encoding/json %+v", b, s, j)
		}
	})
}
