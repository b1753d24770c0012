package jsbridge

import (
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/active"
	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/metrics"
	"ntkrf/core/names"
	"ntkrf/internal/check"
)

// prepArgs are the rows and the preprocessing options of a call
// (index.d.ts Preprocess, and a Dataset's groups).
type prepArgs struct {
	X          *MatrixRef   `json:"X"`
	Preprocess *data.Prep   `json:"preprocess"`
	Groups     []data.Group `json:"groups"`
}

// prep is the preprocessing asked for; none given means the default.
func (a prepArgs) prep() data.Prep {
	if a.Preprocess == nil {
		return data.Prep{}
	}
	return *a.Preprocess
}

// preprocessed fits the preprocessing on X and applies it when any was
// asked for; otherwise X is returned as it is.
func (a prepArgs) preprocessed(X *mat.Dense) (*mat.Dense, error) {
	if a.Preprocess == nil && a.Groups == nil {
		return X, nil
	}
	return data.Prepare(X, a.Groups, a.prep())
}

func seconds(t time.Time) float64 { return time.Since(t).Seconds() }

func opCompare(c *call, args []byte) (any, error) {
	var a struct {
		prepArgs
		Features featureArgs `json:"features"`
		Kernel   *kernelArgs `json:"kernel"`
		Lambda   float64     `json:"lambda"`
		Matrices bool        `json:"matrices"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	X, err := c.matrix("X", a.X)
	if err != nil {
		return nil, err
	}
	n, d := X.Dims()
	if _, ok := a.Features.Kernel(); !ok && a.Kernel == nil {
		return nil, optErr("kernel", "%s: arccos0 features approximate the order-0 arc-cosine kernel, which has no exact counterpart here; pass kernel: {...} to compare against", c.op)
	}
	if err := check.Alloc("kernel matrix", n, n); err != nil {
		return nil, err
	}
	if X, err = a.preprocessed(X); err != nil {
		return nil, err
	}
	_, d = X.Dims() // a bias input adds a column
	ka, _ := a.Features.Kernel()
	if a.Kernel != nil {
		ka = a.Kernel.Spec
	}
	k, err := kernelSpec(c.op, ka, d)
	if err != nil {
		return nil, err
	}
	f, err := newMap(c.op, a.Features, d)
	if err != nil {
		return nil, err
	}
	// K, Φ and (with matrices) ΦΦᵀ live together: check them together.
	held := n + f.Dim()
	if a.Matrices {
		held += n
	}
	if err := check.Alloc("kernel and feature matrices", n, held); err != nil {
		return nil, err
	}
	c.progress(0, 3, "kernel")
	t := time.Now()
	K, err := k.Gram(X, nil)
	if err != nil {
		return nil, err
	}
	exact := seconds(t)
	c.progress(1, 3, "features")
	t = time.Now()
	Phi, err := f.Transform(nil, X)
	if err != nil {
		return nil, err
	}
	feat := seconds(t)
	c.progress(2, 3, "metrics")
	rel, err := metrics.RelFrobenius(K, Phi)
	if err != nil {
		return nil, err
	}
	mse, err := metrics.EntryMSE(K, Phi)
	if err != nil {
		return nil, err
	}
	lambda := a.Lambda
	if lambda == 0 {
		lambda = metrics.DefaultSpectralLambda(n)
	}
	spec, err := metrics.Spectral(K, Phi, lambda)
	if err != nil {
		return nil, err
	}
	out := struct {
		RelFrobenius float64            `json:"relFrobenius"`
		MSE          float64            `json:"mse"`
		Spectral     float64            `json:"spectral"`
		Lambda       float64            `json:"lambda"`
		Dim          int                `json:"dim"`
		Seconds      map[string]float64 `json:"seconds"`
		K            *MatrixRef         `json:"K,omitempty"`
		Approx       *MatrixRef         `json:"approx,omitempty"`
	}{RelFrobenius: rel, MSE: mse, Spectral: spec, Lambda: lambda, Dim: f.Dim(),
		Seconds: map[string]float64{"exact": exact, "features": feat}}
	if a.Matrices {
		A := mat.NewDense(n, n, nil)
		A.Mul(Phi, Phi.T())
		kr, ar := c.putMatrix(K), c.putMatrix(A)
		out.K, out.Approx = &kr, &ar
	}
	c.progress(3, 3, "metrics")
	return out, nil
}

func opScore(c *call, args []byte) (any, error) {
	var a struct {
		YTrue   *ArrayRef `json:"yTrue"`
		YPred   *ArrayRef `json:"yPred"`
		Task    krr.Task  `json:"task"`
		Classes int       `json:"classes"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	yt, err := c.array("yTrue", a.YTrue)
	if err != nil {
		return nil, err
	}
	yp, err := c.array("yPred", a.YPred)
	if err != nil {
		return nil, err
	}
	// The task by the fit's rule (krr.TaskOf): whole-number labels are
	// never guessed, here as in fitRidge; the refusal names the calls.
	task, err := krr.TaskOf(a.Task, a.Classes, yt)
	if err != nil {
		return nil, fmt.Errorf("%w: score(yTrue, yPred, { task: %q }) for class labels, score(yTrue, yPred, { task: %q }) for values, or model.score(X, y), which knows its task", err, names.Classification, names.Regression)
	}
	// Classification scores labels (accuracy, the confusion matrix and
	// each class's figures), regression values (MSE, R²): never the
	// squared error of class indices.
	var out struct {
		Accuracy  *float64             `json:"accuracy,omitempty"`
		Confusion [][]int              `json:"confusion,omitempty"`
		PerClass  []metrics.ClassScore `json:"perClass,omitempty"`
		MSE       *float64             `json:"mse,omitempty"`
		R2        *float64             `json:"r2,omitempty"`
	}
	if task == krr.Classification {
		acc, err := metrics.Accuracy(yt, yp)
		if err != nil {
			return nil, err
		}
		out.Accuracy = &acc
		k := a.Classes
		if k == 0 {
			// Labels are checked before k is used to allocate anything.
			for _, y := range [2][]float64{yt, yp} {
				for i, v := range y {
					if v != math.Trunc(v) || v < 0 || v >= krr.MaxClasses {
						return nil, check.New(check.Value, "", "%s: label %v at row %d is not a class index in 0…%d", c.op, v, i, krr.MaxClasses-1)
					}
					k = max(k, int(v)+1)
				}
			}
		}
		if out.Confusion, err = metrics.Confusion(yt, yp, k); err != nil {
			return nil, err
		}
		if out.PerClass, err = metrics.PerClass(out.Confusion); err != nil {
			return nil, err
		}
		return out, nil
	}
	mse, err := metrics.MSE(yt, yp)
	if err != nil {
		return nil, err
	}
	r2, err := metrics.R2(yt, yp)
	if err != nil || math.IsNaN(r2) {
		r2 = 0 // JSON has no NaN; a constant target has no R².
	}
	out.MSE, out.R2 = &mse, &r2
	return out, nil
}

func opSelectActive(c *call, args []byte) (any, error) {
	var a struct {
		prepArgs
		Features featureArgs `json:"features"`
		K        int         `json:"k"`
		Lambda   *float64    `json:"lambda"`
	}
	if err := c.decode(args, &a); err != nil {
		return nil, err
	}
	X, err := c.matrix("X", a.X)
	if err != nil {
		return nil, err
	}
	n, d := X.Dims()
	if a.K < 1 || a.K > n {
		return nil, optErr("k", "%s: k must be an integer in 1…%d (the number of rows), got %d", c.op, n, a.K)
	}
	if X, err = a.preprocessed(X); err != nil {
		return nil, err
	}
	_, d = X.Dims() // a bias input adds a column
	f, err := newMap(c.op, a.Features, d)
	if err != nil {
		return nil, err
	}
	if err := check.Alloc("feature matrix", n, f.Dim()); err != nil {
		return nil, err
	}
	Phi, err := transform(c, f, X, "features")
	if err != nil {
		return nil, err
	}
	lambda := 0.0 // the default
	if a.Lambda != nil {
		lambda = *a.Lambda
	}
	c.progress(0, 1, "select")
	idx, err := active.SelectActive(Phi, a.K, lambda)
	if err != nil {
		return nil, err
	}
	c.progress(1, 1, "select")
	return idx, nil
}

// array returns the Float64Array a reference points to.
func (c *call) array(name string, r *ArrayRef) ([]float64, error) {
	if r == nil {
		return nil, typeErr("%s: %s is required: a Float64Array", c.op, name)
	}
	if r.Array < 0 || r.Array >= len(c.arrays) {
		return nil, typeErr("%s: %s refers to array %d, but the call has %d", c.op, name, r.Array, len(c.arrays))
	}
	return c.arrays[r.Array], nil
}
