package active_test

import (
	"math"
	"math/rand/v2"
	"ntkrf/core/active"
	"ntkrf/core/data"
	"ntkrf/core/krr"
	"ntkrf/core/metrics"
	"ntkrf/internal/fixture"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// designJ evaluates J(S) = −tr(K_{:,S}(K_{S,S}+λI)⁻¹K_{:,S}ᵀ) from its
// definition with K = ΦΦᵀ formed explicitly.
func designJ(K *mat.Dense, S []int, lambda float64) float64 {
	n, _ := K.Dims()
	ks := mat.NewDense(n, len(S), nil)
	for i := 0; i < n; i++ {
		for a, s := range S {
			ks.Set(i, a, K.At(i, s))
		}
	}
	kss := mat.NewDense(len(S), len(S), nil)
	for a, s := range S {
		for b, r := range S {
			kss.Set(a, b, K.At(s, r))
		}
		kss.Set(a, a, kss.At(a, a)+lambda)
	}
	var sol, prod mat.Dense
	if err := sol.Solve(kss, ks.T()); err != nil {
		panic(err)
	}
	prod.Mul(ks, &sol)
	return -mat.Trace(&prod)
}

func TestSelectActiveMatchesBruteForce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n, m, k int
		lambda  float64
	}{
		{30, 6, 8, 0.5},    // k > m: A⁻¹ keeps shrinking past rank m
		{30, 45, 8, 0.5},   // m > n
		{25, 10, 25, 0.05}, // the whole pool
	} {
		phi, _ := fixture.Data(tc.n, tc.m, 0, uint64(tc.n+tc.m))
		var K mat.Dense
		K.Mul(phi, phi.T())
		got, err := active.SelectActive(phi, tc.k, tc.lambda)
		if err != nil {
			t.Fatal(err)
		}
		var S []int
		used := make([]bool, tc.n)
		for len(S) < tc.k {
			best, bi := math.Inf(1), -1
			for i := 0; i < tc.n; i++ {
				if !used[i] {
					if j := designJ(&K, append(S[:len(S):len(S)], i), tc.lambda); j < best {
						best, bi = j, i
					}
				}
			}
			used[bi] = true
			S = append(S, bi)
		}
		for i := range S {
			if got[i] != S[i] {
				t.Errorf("n=%d m=%d: picks %v, brute force %v", tc.n, tc.m, got, S)
				break
			}
		}
	}
}

func TestSelectActiveErrors(t *testing.T) {
	t.Parallel()
	phi, _ := fixture.Data(5, 3, 0, 1)
	bad := mat.DenseCopyOf(phi)
	bad.Set(2, 0, math.Inf(-1))
	for _, tc := range []struct {
		phi    *mat.Dense
		k      int
		lambda float64
		want   string
	}{
		{phi, 0, 1, "cannot select 0 rows from a pool of 5"},
		{phi, 6, 1, "cannot select 6 rows"},
		{phi, 2, -1, "lambda -1 is invalid"},
		{phi, 2, math.NaN(), "lambda NaN is invalid"},
		{bad, 2, 1, "Phi has -Inf at row 2, column 0"},
	} {
		_, err := active.SelectActive(tc.phi, tc.k, tc.lambda)
		if err == nil || !strings.HasPrefix(err.Error(), "active: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("k=%d λ=%v: error %v, want active: …%s…", tc.k, tc.lambda, err, tc.want)
		}
	}
}

// TestActiveBeatsRandom labels k rows of a digits pool chosen greedily or
// at random and compares test accuracy, averaged over seeds (feature map,
// pool/test split and random picks all change with the seed). This setup
// measures greedy 0.76/0.85 against random 0.52/0.74 at 20/40 labels
// (0.80/0.87 against 0.53/0.73 with m = 512 and 4 seeds); the test asserts
// only that greedy wins on average.
func TestActiveBeatsRandom(t *testing.T) {
	t.Parallel()
	X, y := fixture.SharedCSV(t, "digits.csv")
	n, d := X.Dims()
	for i := 0; i < n; i++ {
		r := X.RawRowView(i)
		s := math.Sqrt(mat.Dot(X.RowView(i), X.RowView(i)))
		for j := range r {
			r[j] /= s
		}
	}
	const (
		pool, m, seeds = 1200, 256, 3
		selLambda      = 0.01 // K entries are O(1) on unit rows
		fitLambda      = 0.01
	)
	labels := []int{20, 40}
	greedy := make([]float64, len(labels))
	random := make([]float64, len(labels))
	for seed := uint64(1); seed <= seeds; seed++ {
		perm := rand.New(rand.NewPCG(seed, 3)).Perm(n)
		Xp, yp := data.Rows(X, perm[:pool]), data.Take(y, perm[:pool])
		Xt, yt := data.Rows(X, perm[pool:]), data.Take(y, perm[pool:])
		f := fixture.NewReLU(d, m, seed)
		phi, _ := f.Transform(nil, Xp)
		// Greedy and random designs are nested, so one of each serves all k.
		sel, err := active.SelectActive(phi, labels[len(labels)-1], selLambda)
		if err != nil {
			t.Fatal(err)
		}
		rnd := rand.New(rand.NewPCG(seed, 5)).Perm(pool)
		accuracy := func(idx []int) float64 {
			model, err := krr.FitFeatures(f, data.Rows(Xp, idx), data.Take(yp, idx), krr.Options{Classes: 10, Lambda: fitLambda})
			if err != nil {
				t.Fatal(err)
			}
			p, _ := model.PredictLabels(Xt)
			a, _ := metrics.Accuracy(yt, p)
			return a
		}
		for i, k := range labels {
			greedy[i] += accuracy(sel[:k]) / seeds
			random[i] += accuracy(rnd[:k]) / seeds
		}
	}
	for i, k := range labels {
		t.Logf("%d labels: greedy %.3f, random %.3f", k, greedy[i], random[i])
		if greedy[i] <= random[i] {
			t.Errorf("%d labels: greedy design %.3f does not beat random %.3f", k, greedy[i], random[i])
		}
	}
}
