package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/errs"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
)

// A whole model as the package and the lab fit it: parse a CSV, fit (NTK
// random features; depth, preprocessing and λ chosen for the data), save
// the model file, load it and predict the rows of another CSV.
func Example() {
	var train strings.Builder
	train.WriteString("x,y,side\n")
	for i := range 60 { // two interleaved arcs: the class is the arc
		t := float64(i%30) / 30 * math.Pi
		if i < 30 {
			fmt.Fprintf(&train, "%.4f,%.4f,inner\n", math.Cos(t), math.Sin(t))
		} else {
			fmt.Fprintf(&train, "%.4f,%.4f,outer\n", 1-math.Cos(t), 0.5-math.Sin(t))
		}
	}
	ds, err := data.Parse([]byte(train.String()), data.Options{Task: data.Classification})
	if err != nil {
		log.Fatal(err)
	}
	model, err := pipeline.FitDataset(context.Background(), ds, pipeline.Config{
		Features: rf.Config{Dim: 256, Seed: 1},
	})
	if err != nil {
		log.Fatal(err)
	}
	file, err := json.Marshal(model) // the model file every host reads
	if err != nil {
		log.Fatal(err)
	}
	again, err := pipeline.Load(bytes.NewReader(file))
	if err != nil {
		log.Fatal(err)
	}
	labels, err := again.PredictCSV([]byte("x,y\n0,1\n2,0.5\n"), 0)
	if err != nil {
		log.Fatal(err)
	}
	classes := again.Classes()
	for _, l := range labels {
		fmt.Println(classes[int(l)])
	}
	// Output:
	// inner
	// outer
}

// Errors carry a code (ntkrf/core/errs) and, when one setting is at
// fault, its name: a caller can tell a setting to fix from data to fix.
// Here whole-number targets leave the task open (class labels or counts?),
// so Fit asks for Ridge.Task.
func Example_errors() {
	X := mat.NewDense(4, 2, []float64{0, 1, 1, 0, 1, 1, 0, 0})
	y := []float64{0, 1, 1, 0}
	_, err := pipeline.Fit(context.Background(), X, y, pipeline.Config{})
	var e *errs.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Option)
	}
	// Output:
	// ERR_OPTION task
}
