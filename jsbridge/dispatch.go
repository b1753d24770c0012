package jsbridge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core"
)

// Error is an error with the JavaScript class it should become.
type Error struct {
	Name    string // "TypeError", "RangeError" or "Error"
	Message string
}

func (e *Error) Error() string { return e.Message }

func typeErr(format string, a ...any) error {
	return &Error{Name: "TypeError", Message: fmt.Sprintf(format, a...)}
}

func rangeErr(format string, a ...any) error {
	return &Error{Name: "RangeError", Message: fmt.Sprintf(format, a...)}
}

// JSError returns the JavaScript class and message for err.
func JSError(err error) (name, message string) {
	var e *Error
	if errors.As(err, &e) {
		return e.Name, e.Message
	}
	return "Error", err.Error()
}

// Progress reports done of total units of work in a named stage.
type Progress func(done, total int, stage string)

// MatrixRef is how a matrix appears in the JSON of a call or a result.
type MatrixRef struct {
	Rows  int `json:"rows"`
	Cols  int `json:"cols"`
	Array int `json:"array"`
}

// ArrayRef is how a plain Float64Array appears in a result.
type ArrayRef struct {
	Array int `json:"array"`
}

// call holds what one Dispatch works with.
type call struct {
	op       string
	arrays   [][]float64
	bytes    []byte
	out      [][]float64
	progress Progress
}

func (c *call) matrix(name string, r *MatrixRef) (*mat.Dense, error) {
	if r == nil {
		return nil, typeErr("%s: %s is required: a matrix {rows, cols, data}", c.op, name)
	}
	if r.Array < 0 || r.Array >= len(c.arrays) {
		return nil, typeErr("%s: %s refers to array %d, but the call has %d", c.op, name, r.Array, len(c.arrays))
	}
	data := c.arrays[r.Array]
	if r.Rows <= 0 || r.Cols <= 0 {
		return nil, rangeErr("%s: %s is %d×%d; it needs at least one row and one column", c.op, name, r.Rows, r.Cols)
	}
	if r.Rows*r.Cols != len(data) || len(data)/r.Cols != r.Rows {
		return nil, rangeErr("%s: %s.data has %d values but rows×cols = %d×%d = %d", c.op, name, len(data), r.Rows, r.Cols, r.Rows*r.Cols)
	}
	return mat.NewDense(r.Rows, r.Cols, data), nil
}

func (c *call) putMatrix(M *mat.Dense) MatrixRef {
	r, k := M.Dims()
	raw := M.RawMatrix()
	data := raw.Data
	if raw.Stride != k {
		data = mat.DenseCopyOf(M).RawMatrix().Data
	}
	c.out = append(c.out, data[:r*k])
	return MatrixRef{Rows: r, Cols: k, Array: len(c.out) - 1}
}

func (c *call) putArray(a []float64) ArrayRef {
	c.out = append(c.out, a)
	return ArrayRef{Array: len(c.out) - 1}
}

// decode reads args into v (a pointer to a struct) and rejects unknown keys,
// naming the known ones.
func (c *call) decode(args []byte, v any) error {
	if len(bytes.TrimSpace(args)) == 0 {
		args = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var ute *json.UnmarshalTypeError
		switch {
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			field := strings.TrimPrefix(err.Error(), "json: unknown field ")
			return typeErr("%s: unknown option %s; known options: %s", c.op, field, strings.Join(jsonFields(v), ", "))
		case errors.As(err, &ute):
			return typeErr("%s: option %q must be %s, not %s", c.op, ute.Field, jsType(ute.Type), ute.Value)
		}
		return typeErr("%s: options are not valid JSON: %v", c.op, err)
	}
	if dec.More() {
		return typeErr("%s: options have trailing data", c.op)
	}
	return nil
}

func jsonFields(v any) []string {
	t := reflect.TypeOf(v).Elem()
	var names []string
	for i := 0; i < t.NumField(); i++ {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

func jsType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int64, reflect.Uint64, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice:
		return "an array"
	}
	return "an object"
}

type opFunc func(c *call, args []byte) (any, error)

// ops is the table of operations the JavaScript package can call.
var ops = map[string]opFunc{}

// Ops lists the operation names Dispatch knows.
func Ops() []string {
	names := make([]string, 0, len(ops))
	for k := range ops {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Input is what a call brings besides its options: the numbers its
// matrices refer to, and raw bytes (the text of a CSV file).
type Input struct {
	Arrays [][]float64
	Bytes  []byte
}

// Dispatch runs one operation. args is the JSON of its options. It returns
// the JSON of the result and the arrays that result refers to. Errors are
// *Error values or core errors; see JSError. Dispatch never panics on bad
// input.
func Dispatch(op string, args []byte, in Input, progress Progress) (result []byte, out [][]float64, err error) {
	f, ok := ops[op]
	if !ok {
		return nil, nil, typeErr("unknown operation %q; known: %s", op, strings.Join(Ops(), ", "))
	}
	if progress == nil {
		progress = func(int, int, string) {}
	}
	c := &call{op: op, arrays: in.Arrays, bytes: in.Bytes, progress: progress}
	v, err := f(c, args)
	if err != nil {
		return nil, nil, err
	}
	result, err = json.Marshal(v)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: encoding the result: %v", op, err)
	}
	return result, c.out, nil
}

// checkAlloc turns core's memory estimate into a RangeError.
func checkAlloc(op, what string, rows, cols int) error {
	if err := core.CheckAlloc(what, rows, cols); err != nil {
		return rangeErr("%s: %s", op, strings.TrimPrefix(err.Error(), "core: "))
	}
	return nil
}
