package strict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"ntkrf/internal/check"
)

// Error is a value that is not what the writer writes: its code, the path
// of the value ("" for the whole) and what is wrong with it.
type Error struct {
	Code check.Code
	Path string
	Msg  string // a predicate: "is null; …"
}

func (e *Error) Error() string {
	if e.Path == "" {
		return "the JSON " + e.Msg
	}
	return e.Path + " " + e.Msg
}

// Unwrap makes the error a check.Error too, for hosts that map codes.
func (e *Error) Unwrap() error { return &check.Error{Code: e.Code, Msg: e.Error()} }

// At places an error of a part (an UnmarshalJSON) at path: an *Error's
// path is prefixed, a check.Error keeps its code, anything else is
// check.Type.
func At(path string, err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return &Error{Code: e.Code, Path: join(path, e.Path), Msg: e.Msg}
	}
	var c *check.Error
	code := check.Type
	if errors.As(err, &c) {
		code = c.Code
	}
	return &Error{Code: code, Path: path, Msg: "is wrong: " + err.Error()}
}

// join appends a field or index (".x" or "[3]") to a path.
func join(path, sub string) string {
	if path == "" || sub == "" || sub[0] == '[' {
		return path + sub
	}
	return path + "." + sub
}

// Unmarshal reads the JSON b into v (a non-nil pointer). See the package
// documentation for what it refuses.
func Unmarshal(b []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		panic("strict: Unmarshal needs a non-nil pointer")
	}
	d := &decoder{dec: json.NewDecoder(bytes.NewReader(b))}
	d.dec.UseNumber()
	if err := d.value(rv.Elem(), "", false); err != nil {
		return err
	}
	if _, err := d.dec.Token(); err != io.EOF {
		return &Error{Code: check.Type, Msg: "has data after its end"}
	}
	return nil
}

type decoder struct{ dec *json.Decoder }

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// syntax turns a JSON syntax error into an *Error.
func syntax(path string, err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &Error{Code: check.Type, Path: path, Msg: "ends early: the JSON is cut short (is the file truncated?)"}
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	var se *json.SyntaxError
	if errors.As(err, &se) {
		msg = fmt.Sprintf("%s (at byte %d)", msg, se.Offset)
	}
	return &Error{Code: check.Type, Path: path, Msg: "is not valid JSON: " + msg}
}

// value reads the next JSON value into v; nullable says whether null is
// what the writer writes for v's zero value.
func (d *decoder) value(v reflect.Value, path string, nullable bool) error {
	t := v.Type()
	if t.Kind() == reflect.Pointer && t.Implements(unmarshalerType) || t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(unmarshalerType) {
		var raw json.RawMessage
		if err := d.dec.Decode(&raw); err != nil {
			return syntax(path, err)
		}
		if string(raw) == "null" {
			return null(v, path, nullable)
		}
		if t.Kind() == reflect.Pointer {
			v.Set(reflect.New(t.Elem()))
		} else {
			v = v.Addr()
		}
		return At(path, v.Interface().(json.Unmarshaler).UnmarshalJSON(raw))
	}
	tok, err := d.dec.Token()
	if err != nil {
		return syntax(path, err)
	}
	if tok == nil {
		return null(v, path, nullable)
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		if tok != json.Delim('{') {
			return wrong(path, tok, "an object")
		}
		return d.object(v, path)
	case reflect.Slice:
		if tok != json.Delim('[') {
			return wrong(path, tok, "an array")
		}
		return d.array(v, path)
	case reflect.String:
		s, ok := tok.(string)
		if !ok {
			return wrong(path, tok, "a string")
		}
		v.SetString(s)
		return nil
	case reflect.Bool:
		b, ok := tok.(bool)
		if !ok {
			return wrong(path, tok, "true or false")
		}
		v.SetBool(b)
		return nil
	case reflect.Float64, reflect.Float32:
		n, ok := tok.(json.Number)
		if !ok {
			return wrong(path, tok, "a number")
		}
		x, err := strconv.ParseFloat(string(n), v.Type().Bits())
		if err != nil || math.IsInf(x, 0) {
			return &Error{Code: check.NonFinite, Path: path, Msg: fmt.Sprintf("is %s, beyond the range of a float64 (±Inf): every number is finite", clip(string(n)))}
		}
		v.SetFloat(x)
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return integer(v, path, tok)
	}
	panic("strict: cannot read into " + v.Type().String())
}

// integer sets v to the integer tok, which must be written as one (no
// fraction, no exponent) and fit v's type.
func integer(v reflect.Value, path string, tok json.Token) error {
	n, ok := tok.(json.Number)
	if !ok {
		return wrong(path, tok, "an integer")
	}
	s := string(n)
	if strings.ContainsAny(s, ".eE") {
		if x, err := strconv.ParseFloat(s, 64); err != nil || math.IsInf(x, 0) {
			return &Error{Code: check.NonFinite, Path: path, Msg: fmt.Sprintf("is %s, beyond the range of a float64 (±Inf): every number is finite", clip(s))}
		}
		return &Error{Code: check.Type, Path: path, Msg: fmt.Sprintf("is %s; it must be an integer written without a fraction or exponent", clip(s))}
	}
	if v.CanInt() {
		i, err := strconv.ParseInt(s, 10, v.Type().Bits())
		if err != nil {
			return &Error{Code: check.Value, Path: path, Msg: fmt.Sprintf("is %s, out of range for an integer", clip(s))}
		}
		v.SetInt(i)
		return nil
	}
	u, err := strconv.ParseUint(s, 10, v.Type().Bits())
	if err != nil {
		return &Error{Code: check.Value, Path: path, Msg: fmt.Sprintf("is %s; it must be an integer ≥ 0 within range", clip(s))}
	}
	v.SetUint(u)
	return nil
}

// null sets v to its zero value where the writer writes null for it.
func null(v reflect.Value, path string, nullable bool) error {
	if nullable {
		v.SetZero()
		return nil
	}
	if expected(v.Type()) == "a number" || expected(v.Type()) == "an integer" {
		return &Error{Code: check.NonFinite, Path: path, Msg: "is null, which is how JSON.stringify writes NaN and ±Inf: every number is finite"}
	}
	return &Error{Code: check.Type, Path: path, Msg: "is null; it must be " + expected(v.Type())}
}

// expected words what a value of type t is in JSON.
func expected(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		return "an object"
	case reflect.Slice:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "an integer"
}

// wrong is the error of a value of another JSON type than want.
func wrong(path string, tok json.Token, want string) error {
	var got string
	switch x := tok.(type) {
	case json.Delim:
		got = map[json.Delim]string{'{': "an object", '[': "an array"}[x]
	case string:
		got = "the string " + strconv.Quote(clip(x))
	case json.Number:
		got = "the number " + clip(string(x))
	case bool:
		got = strconv.FormatBool(x)
	}
	return &Error{Code: check.Type, Path: path, Msg: fmt.Sprintf("is %s; it must be %s", got, want)}
}

// clip shortens what a message quotes of the file, as every message does.
func clip(s string) string { return check.Cut(s) }

func (d *decoder) array(v reflect.Value, path string) error {
	et := v.Type().Elem()
	// Elements that are pointers, slices or maps are written as null when nil.
	nullable := et.Kind() == reflect.Pointer || et.Kind() == reflect.Slice || et.Kind() == reflect.Map
	s := reflect.MakeSlice(v.Type(), 0, 0)
	for i := 0; d.dec.More(); i++ {
		s = reflect.Append(s, reflect.Zero(et))
		if err := d.value(s.Index(i), fmt.Sprintf("%s[%d]", path, i), nullable); err != nil {
			return err
		}
	}
	if _, err := d.dec.Token(); err != nil { // ]
		return syntax(path, err)
	}
	v.Set(s)
	return nil
}

func (d *decoder) object(v reflect.Value, path string) error {
	fs := fieldsOf(v.Type())
	seen := make([]bool, len(fs.list))
	for d.dec.More() {
		tok, err := d.dec.Token()
		if err != nil {
			return syntax(path, err)
		}
		key := tok.(string) // the decoder only returns strings here
		i, ok := fs.index[key]
		if !ok {
			msg := fmt.Sprintf("has an unknown field %q", clip(key))
			for _, f := range fs.list {
				if strings.EqualFold(f.name, key) {
					msg += fmt.Sprintf(" (field names are case-sensitive: %q)", f.name)
				}
			}
			return &Error{Code: check.Type, Path: path, Msg: msg}
		}
		if seen[i] {
			return &Error{Code: check.Type, Path: path, Msg: fmt.Sprintf("has the field %q twice", key)}
		}
		seen[i] = true
		f := fs.list[i]
		if err := d.value(v.FieldByIndex(f.index), join(path, key), f.nullable); err != nil {
			return err
		}
	}
	if _, err := d.dec.Token(); err != nil { // }
		return syntax(path, err)
	}
	for i, f := range fs.list {
		if !seen[i] && !f.optional {
			return &Error{Code: check.Type, Path: path, Msg: fmt.Sprintf("has no field %q, which every file has", f.name)}
		}
	}
	return nil
}

// field is a JSON field of a struct: its name, where it is, whether it may
// be absent (omitempty) and whether null stands for its zero value.
type field struct {
	name               string
	index              []int
	optional, nullable bool
}

type fields struct {
	list  []field
	index map[string]int
}

var fieldCache sync.Map // reflect.Type → *fields

// fieldsOf lists the JSON fields of a struct type as encoding/json names
// them (embedded structs' fields are promoted).
func fieldsOf(t reflect.Type) *fields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*fields)
	}
	fs := &fields{index: map[string]int{}}
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(append([]int(nil), index...), i)
			if sf.Anonymous && name == "" && sf.Type.Kind() == reflect.Struct {
				walk(sf.Type, idx)
				continue
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			omit := strings.Contains(","+opts+",", ",omitempty,")
			k := sf.Type.Kind()
			fs.index[name] = len(fs.list)
			fs.list = append(fs.list, field{name: name, index: idx, optional: omit,
				nullable: !omit && (k == reflect.Pointer || k == reflect.Slice || k == reflect.Map)})
		}
	}
	walk(t, nil)
	f, _ := fieldCache.LoadOrStore(t, fs)
	return f.(*fields)
}
