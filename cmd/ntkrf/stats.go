// Summaries shared by the experiments: means with their errors over seeds,
// medians, and the relative error of a feature map against its kernel.

package main

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/linalg"
)

// meanSE returns the mean and its standard error.
func meanSE(v []float64) (mean, se float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, math.NaN()
	}
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)-1) / float64(len(v)))
}

// column returns v[i][j] for every i.
func column(v [][]float64, j int) []float64 {
	c := make([]float64, len(v))
	for i := range v {
		c[i] = v[i][j]
	}
	return c
}

// meanSD returns the mean and the sample standard deviation (NaN for one
// value): the spread over seeds, which is what the figure's bands show.
func meanSD(v []float64) (mean, sd float64) {
	mean, se := meanSE(v)
	return mean, se * math.Sqrt(float64(len(v)))
}

// relErr is ‖ΦΦᵀ − K‖_F/‖K‖_F (metrics.RelFrobenius) on the AddAtA
// kernel: K − ΦΦᵀ on the upper triangle, from Φᵀ. The n²·m product
// decides the run time, and this is several times faster than the gonum
// product metrics uses. It panics unless Phi is contiguous (stride m, as
// mat.NewDense and Transform make it).
func relErr(K, Phi *mat.Dense) float64 {
	n, m := Phi.Dims()
	if Phi.RawMatrix().Stride != m {
		panic("defaults: relErr needs a contiguous Phi")
	}
	g := make([]float64, n*n)
	for i := range n {
		copy(g[i*n:(i+1)*n], K.RawRowView(i))
	}
	linalg.SubAtAStride(g, n, linalg.Transpose(Phi.RawMatrix().Data, n, m), m, n)
	var diff, norm float64
	for i := range n {
		for j := i; j < n; j++ {
			w := 2.0 // an off-diagonal entry stands for two
			if j == i {
				w = 1
			}
			k := K.At(i, j)
			diff += w * g[i*n+j] * g[i*n+j]
			norm += w * k * k
		}
	}
	return math.Sqrt(diff / norm)
}

// median is the middle value of v (the mean of the two middle ones for an
// even count).
func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	return (s[(len(s)-1)/2] + s[len(s)/2]) / 2
}
