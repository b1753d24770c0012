package jsbridge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/names"
	"ntkrf/internal/check"
)

// A fit of one row with 'auto' settings is refused as the data's fault,
// by select's own error: it was lost (a shadowed err) and the nil plan
// panicked, which the package reported as an internal error.
func TestSelectOfOneRowIsRefused(t *testing.T) {
	X := mat.NewDense(1, 2, []float64{1, 2})
	_, _, err := dispatchOneSelect(X, []float64{0.5})
	if err == nil {
		t.Fatal("a one-row fit was accepted")
	}
	if _, code, _, msg := JSError(err); code == check.Internal || strings.Contains(msg, "panic") {
		t.Errorf("one row: %s %s", code, msg)
	}
}

// dispatchOneSelect runs fitPlan, fitStats and one whole select (no parts).
func dispatchOneSelect(X *mat.Dense, y []float64) (json.RawMessage, [][]float64, error) {
	n, d := X.Dims()
	base := fmt.Sprintf(`"rows":%d,"cols":%d,"task":%q`, n, d, names.Regression)
	res, planArrays, err := Dispatch("fitPlan", []byte(fmt.Sprintf(`{%s,"y":{"array":0}}`, base)), Input{Arrays: [][]float64{y}}, nil)
	if err != nil {
		return nil, nil, err
	}
	var plan struct {
		Plan   WireRef               `json:"plan"`
		Search *struct{ Rows []int } `json:"search"`
	}
	if err := json.Unmarshal(res, &plan); err != nil {
		return nil, nil, err
	}
	if plan.Search == nil {
		return nil, nil, fmt.Errorf("no search for 'auto'")
	}
	form := planArrays[plan.Plan.Wire.Array]
	planArg := fmt.Sprintf(`"plan":{"wire":{"array":3},"bytes":%d}`, plan.Plan.Bytes)
	res, arrays, err := Dispatch("fitStats", []byte(fmt.Sprintf(`{%s,"X":{"rows":%d,"cols":%d,"array":0}}`, planArg, n, d)), Input{Arrays: [][]float64{X.RawMatrix().Data, nil, nil, form}}, nil)
	if err != nil {
		return nil, nil, err
	}
	var st map[string]WireRef
	if err := json.Unmarshal(res, &st); err != nil {
		return nil, nil, err
	}
	stats := arrays[st["stats"].Wire.Array]
	args := fmt.Sprintf(`{%s,"stats":[{"wire":{"array":0},"bytes":%d}],"X":{"rows":%d,"cols":%d,"array":1},"y":{"array":2}}`, planArg, st["stats"].Bytes, n, d)
	return Dispatch("select", []byte(args), Input{Arrays: [][]float64{stats, X.RawMatrix().Data, y, form}}, nil)
}

// score of class labels carries accuracy, the confusion matrix and each
// class's figures, not the squared error of class indices; of values,
// MSE and R². Whole numbers without a task are refused with the calls
// that settle them.
func TestScoreByTask(t *testing.T) {
	yt, yp := []float64{0, 0, 1, 1, 1, 2}, []float64{0, 0, 1, 0, 2, 1}
	res, _, err := Dispatch("score", []byte(fmt.Sprintf(`{"yTrue":{"array":0},"yPred":{"array":1},"task":%q}`, names.Classification)), Input{Arrays: [][]float64{yt, yp}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(res, &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"accuracy", "confusion", "perClass"} {
		if got[k] == nil {
			t.Errorf("classification scores lack %s: %s", k, res)
		}
	}
	for _, k := range []string{"mse", "r2"} {
		if got[k] != nil {
			t.Errorf("classification scores carry %s: %s", k, res)
		}
	}
	res, _, err = Dispatch("score", []byte(`{"yTrue":{"array":0},"yPred":{"array":1}}`), Input{Arrays: [][]float64{{0.5, 1.5}, {0.4, 1.2}}}, nil)
	if err != nil || !strings.Contains(string(res), `"r2"`) || strings.Contains(string(res), "accuracy") {
		t.Errorf("regression scores: %s, %v", res, err)
	}
	_, _, err = Dispatch("score", []byte(`{"yTrue":{"array":0},"yPred":{"array":1}}`), Input{Arrays: [][]float64{yt, yp}}, nil)
	if _, code, opt, msg := JSError(err); code != check.Option || opt != "task" || !strings.Contains(msg, fmt.Sprintf("score(yTrue, yPred, { task: %q })", names.Classification)) {
		t.Errorf("whole numbers without a task: %s %s %s", code, opt, msg)
	}
	_, _, err = Dispatch("fitPlan", []byte(`{"rows":3,"cols":1,"y":{"array":0},"chunkBytes":8388608}`), Input{Arrays: [][]float64{{0, 1, 1}}}, nil)
	if _, code, opt, msg := JSError(err); code != check.Option || opt != "task" || !strings.Contains(msg, fmt.Sprintf("fitRidge(X, y, { task: %q })", names.Classification)) {
		t.Errorf("fitPlan of whole numbers without a task: %s %s %s", code, opt, msg)
	}
}

// Text labels become class indices and names by the CSV rule
// (data.TextLabels), and those names are the model's classes.
func TestTextLabelsNameTheModel(t *testing.T) {
	res, arrays, err := Dispatch("labels", []byte(`{"labels":["hid","seen","hid","seen","hid","seen"]}`), Input{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var lab struct {
		Y       ArrayRef `json:"y"`
		Classes []string `json:"classes"`
	}
	if err := json.Unmarshal(res, &lab); err != nil {
		t.Fatal(err)
	}
	y := arrays[lab.Y.Array]
	if !slices.Equal(lab.Classes, []string{"hid", "seen"}) || !slices.Equal(y, []float64{0, 1, 0, 1, 0, 1}) {
		t.Fatalf("labels: %v %v", lab.Classes, y)
	}
	X := mat.NewDense(6, 2, []float64{0, 1, 1, 0, 1, 1, 0, 0, 2, 1, 1, 2})
	model, _, err := dispatchFitNamed(X, y, lab.Classes)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Classes []string `json:"classes"`
	}
	if err := json.Unmarshal(model, &m); err != nil || !slices.Equal(m.Classes, lab.Classes) {
		t.Errorf("the model's classes: %v (%v), want %v", m.Classes, err, lab.Classes)
	}
	if _, _, err := Dispatch("labels", []byte(`{"labels":["a",""]}`), Input{}, nil); err == nil {
		t.Error("an empty label was accepted")
	}
}

// dispatchFitNamed is dispatchFit with fixed settings and class names
// given to fitSolve.
func dispatchFitNamed(X *mat.Dense, y []float64, classes []string) (json.RawMessage, []float64, error) {
	named, _ := json.Marshal(classes)
	opts := fmt.Sprintf(`"task":%q,"classes":%d,"features":{"method":%q,"depth":1,"dim":16,"seed":1},"preprocess":{"standardize":true},"classNames":%s`, names.Classification, len(classes), names.NTK, named)
	return dispatchFit(X, y, opts, 1<<20, nil)
}
