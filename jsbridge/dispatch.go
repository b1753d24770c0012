package jsbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"ntkrf/core/errs"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/linalg"
	"ntkrf/internal/check"
)

// typeErr and rangeErr are the bridge's own faults: a wrong type, and a
// value or shape that does not fit. Every error leaves Dispatch as an
// *check.Error (see toJS).
func typeErr(format string, a ...any) error { return check.New(check.Type, "", format, a...) }

func shapeErr(format string, a ...any) error { return check.New(check.Shape, "", format, a...) }

func optErr(option, format string, a ...any) error {
	return check.New(check.Option, option, format, a...)
}

// JSError returns the JavaScript class, code, option and message of an
// error returned by Dispatch.
func JSError(err error) (class string, code check.Code, option, message string) {
	var e *check.Error
	if errors.As(err, &e) {
		return e.Code.Class(), e.Code, e.Option, e.Msg
	}
	return "Error", check.Internal, "", err.Error()
}

// JSAdvice returns the fault (what went wrong, without the operation's
// name) and the advice (what to do) of an error returned by Dispatch,
// which the package gives as the error's fields: a host shows them apart
// without parsing the message (errs.Error's grammar says where they are).
func JSAdvice(err error) (fault, advice string) {
	var e *check.Error
	if !errors.As(err, &e) {
		return err.Error(), ""
	}
	fault = e.Fault()
	if i := strings.Index(fault, ": "); i >= 0 {
		fault = fault[i+2:] // toJS put the operation first
	}
	return fault, e.Advice()
}

// goNames rewrites the Go spellings that core's messages use for options
// (Config.SketchDim, Options.MaxBytes) as the JavaScript API spells them;
// it is derived from the schema (goNamesOf), so no list is kept by hand.
var goNames = goNamesOf(Schema)

// toJS turns any error of an operation into an *check.Error whose message
// starts with the operation and speaks the JavaScript API. Errors without
// a code get fallback: ERR_PARSE for the CSV operations, else ERR_DATA.
func toJS(op string, err error, fallback check.Code) *check.Error {
	var e *check.Error
	out := &check.Error{Code: fallback, Msg: err.Error()}
	if errors.As(err, &e) {
		out.Code, out.Option = e.Code, e.Option
		if err.Error() == "" {
			out.Msg = e.Msg
		}
	}
	if errors.Is(err, context.Canceled) {
		out.Code = check.Aborted
	}
	msg := strings.TrimPrefix(out.Msg, op+": ")
	msg = errs.TrimPackages(msg)
	out.Msg = op + ": " + goNames.Replace(msg)
	return out
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
	peer     linalg.Peer
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
		return nil, shapeErr("%s: %s is %d×%d; it needs at least one row and one column", c.op, name, r.Rows, r.Cols)
	}
	if r.Rows*r.Cols != len(data) || len(data)/r.Cols != r.Rows {
		return nil, shapeErr("%s: %s.data has %d values but rows×cols = %d×%d = %d", c.op, name, len(data), r.Rows, r.Cols, r.Rows*r.Cols)
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
			field, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
			return check.New(check.UnknownOption, check.Cut(field), "%s: unknown option %s; known options: %s", c.op, check.Quote(field), strings.Join(c.known(v), ", "))
		case errors.As(err, &ute):
			return check.New(check.Type, ute.Field, "%s: %s must be %s, got a JSON %s", c.op, ute.Field, jsType(ute.Type), ute.Value)
		}
		return typeErr("%s: options are not valid JSON: %v", c.op, err)
	}
	if dec.More() {
		return typeErr("%s: options have trailing data", c.op)
	}
	return nil
}

// known lists the options an operation takes: those of its engine method
// when it is one (the package adds the matrices and internal fields), else
// the fields of v (the operations behind fitRidge each take a part).
func (c *call) known(v any) []string {
	if m, ok := opSchema[c.op]; ok && m == c.op && len(Schema[m]) > 0 {
		var names []string
		for _, o := range Schema[m] {
			names = append(names, o.Name)
		}
		return names
	}
	return jsonFields(v)
}

func jsonFields(v any) []string {
	t := reflect.TypeOf(v).Elem()
	var names []string
	for i := 0; i < t.NumField(); i++ {
		if f := t.Field(i); f.Anonymous && f.Type.Kind() == reflect.Struct {
			names = append(names, jsonFields(reflect.New(f.Type).Interface())...)
			continue
		}
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

// ops is the table of operations the JavaScript package can call: each a
// named function that converts its arguments, calls the core, and
// converts the answer. One table, filled before any init runs, so no
// registration depends on the order of files.
var ops = map[string]opFunc{
	// Data.
	"parseCSV": opParseCSV, "previewCSV": opPreviewCSV, "split": opSplit, "kfold": opKFold,
	"preprocess": opPreprocess,
	// Kernels and features.
	"kernel": opKernel, "features": opFeatures, "compare": opCompare, "selectActive": opSelectActive,
	// The fit (protocol.Plan's protocol; see ops_fit.go) and its 'auto' selection.
	"select": opSelect, "fitPlan": opFitPlan, "fitStats": opFitStats, "fitPart": opFitPart, "fitSolve": opFitSolve,
	"fitShip": opFitShip, "fitDrop": opFitDrop, "fitHelp": opFitHelp,
	// Text labels as class indices and names (fitRidge and score of names).
	"labels": opLabels,
	// Models.
	"loadModel": opLoadModel, "predict": opPredict, "predictCSV": opPredictCSV, "readCSV": opReadCSV, "score": opScore,
	// The instance.
	"stats": opStats,
}

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
// matrices refer to, raw bytes (the text of a CSV file), and a link to
// another instance (fitSolve's and fitHelp's: the factorization they
// share), whose messages the host carries.
type Input struct {
	Arrays [][]float64
	Bytes  []byte
	Peer   linalg.Peer
}

// Dispatch runs one operation. args is the JSON of its options. It returns
// the JSON of the result and the arrays that result refers to. Errors are
// *Error values or core errors; see JSError. Dispatch never panics on bad
// input.
func Dispatch(op string, args []byte, in Input, progress Progress) (result []byte, out [][]float64, err error) {
	f, ok := ops[op]
	if !ok {
		return nil, nil, typeErr("unknown operation %s; known: %s", check.Quote(op), strings.Join(Ops(), ", "))
	}
	fallback := check.Data
	if op == "parseCSV" || op == "previewCSV" {
		fallback = check.Parse
	}
	if progress == nil {
		progress = func(int, int, string) {}
	}
	if err := checkOptions(op, args); err != nil {
		return nil, nil, toJS(op, err, fallback)
	}
	c := &call{op: op, arrays: in.Arrays, bytes: in.Bytes, progress: progress, peer: in.Peer}
	v, err := f(c, args)
	if err != nil {
		return nil, nil, toJS(op, err, fallback)
	}
	if result, err = encodeJSON(v); err != nil {
		return nil, nil, toJS(op, fmt.Errorf("encoding the result: %v", err), check.Internal)
	}
	return result, c.out, nil
}
