package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/rf"
	"ntkrf/internal/check"
	"ntkrf/internal/fixture"
)

// biasRows are four rows standardized with a bias input (data.Prep.Bias):
// the rows' columns, then the constant.
func biasRows(t *testing.T) (X, Xs *mat.Dense, b float64) {
	t.Helper()
	X = mat.NewDense(4, 2, []float64{0.3, -1.2, 1.1, 0.4, -0.7, -0.2, 0.9, 1.5})
	s, err := data.Fit(X, nil, data.Prep{Bias: data.DefaultBias})
	if err != nil {
		t.Fatal(err)
	}
	if Xs, err = s.Apply(nil, X); err != nil {
		t.Fatal(err)
	}
	return X, Xs, s.BiasInput()
}

// biasedNTK is the NTK of depth L of a ReLU network whose first layer has
// biases of variance b², written from the network (not from package
// kernel): the first layer's pre-activations have covariance
// Σ₀ = ⟨x,z⟩ + b²; each layer maps it through the arc-cosine kernels of
// orders 1 (Σ) and 0 (Σ̇, the derivative's), and Θ_l = Σ_l + Θ_{l−1}·Σ̇_l.
func biasedNTK(x, z []float64, b float64, L int) float64 {
	dot := func(u, v []float64) float64 {
		s := b * b
		for i := range u {
			s += u[i] * v[i]
		}
		return s
	}
	sxz, sxx, szz := dot(x, z), dot(x, x), dot(z, z)
	theta := sxz
	for range L {
		c := sxz / math.Sqrt(sxx*szz)
		a := math.Acos(math.Max(-1, math.Min(1, c)))
		f1 := math.Sqrt(sxx*szz) * (math.Sin(a) + (math.Pi-a)*c) / math.Pi
		f0 := (math.Pi - a) / math.Pi
		sxz = f1 // E[relu(u)relu(v)]·2; the diagonals stay: F1(x,x) = Σ(x,x)
		theta = f1 + theta*f0
	}
	return theta
}

// TestBiasIsTheNTKOfANetworkWithBiases checks the bias input two ways
// against the exact kernel of the preprocessed rows: the closed form
// written from the network above (depths 1–3, to rounding), and, at
// depth 1, the mean over random finite networks with biases of their
// gradient inner products (the empirical NTK, unbiased at any width), to
// within 4 standard errors estimated from the same draws.
func TestBiasIsTheNTKOfANetworkWithBiases(t *testing.T) {
	t.Parallel()
	X, Xs, b := biasRows(t)
	sc, _ := data.Fit(X, nil, data.Prep{}) // the same rows without the bias
	Z, _ := sc.Apply(nil, X)
	n, _ := X.Dims()
	if _, c := Xs.Dims(); c != 3 {
		t.Fatalf("the bias input makes %d columns, want 3", c)
	}
	for L := 1; L <= 3; L++ {
		K, err := kernel.NTK(Xs, L)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n {
			for j := range n {
				want := biasedNTK(Z.RawRowView(i), Z.RawRowView(j), b, L)
				if i == j {
					// Σ̇(x,x) = 1 and Σ_l(x,x) = Σ₀(x,x): (L+1)(‖x‖² + b²),
					// which arccos near 1 would blur in the form above.
					x := Z.RawRowView(i)
					want = float64(L+1) * (x[0]*x[0] + x[1]*x[1] + b*b)
				}
				if got := K.At(i, j); math.Abs(got-want) > 1e-12*math.Abs(want) {
					t.Errorf("L=%d (%d,%d): kernel %.15g, network %.15g", L, i, j, got, want)
				}
			}
		}
	}

	// f(x) = √(2/m)·Σₖ aₖ ReLU(wₖ·x + b·βₖ), every parameter N(0, 1): the
	// gradient inner product is (2/m)Σₖ [ReLU(uₖ)ReLU(vₖ) + aₖ²·1[uₖ>0]1[vₖ>0]·(⟨x,z⟩ + b²)].
	const (
		width = 32
		nets  = 4000
		nSE   = 4.0
	)
	K, _ := kernel.NTK(Xs, 1)
	r := rand.New(rand.NewPCG(7, 8))
	pairs := [][2]int{{0, 1}, {0, 3}, {1, 2}, {2, 3}, {1, 1}}
	est := make([][]float64, len(pairs))
	w := make([]float64, 2)
	for range nets {
		sums := make([]float64, len(pairs))
		for range width {
			w[0], w[1] = r.NormFloat64(), r.NormFloat64()
			beta, a := r.NormFloat64(), r.NormFloat64()
			for k, p := range pairs {
				x, z := Z.RawRowView(p[0]), Z.RawRowView(p[1])
				u := w[0]*x[0] + w[1]*x[1] + b*beta
				v := w[0]*z[0] + w[1]*z[1] + b*beta
				if u > 0 && v > 0 {
					sums[k] += u*v + a*a*(x[0]*z[0]+x[1]*z[1]+b*b)
				}
			}
		}
		for k := range pairs {
			est[k] = append(est[k], 2*sums[k]/width)
		}
	}
	for k, p := range pairs {
		mean, se := meanSE(est[k])
		want := K.At(p[0], p[1])
		if scale := math.Sqrt(K.At(p[0], p[0]) * K.At(p[1], p[1])); nSE*se > 0.05*scale {
			t.Fatalf("pair %v: SE %.4f cannot resolve 5 %% of %.4f; use more networks", p, se, scale)
		}
		if math.Abs(mean-want) > nSE*se {
			t.Errorf("pair %v: networks give %.5f ± %.5f, kernel %.5f (%.1f SE)", p, mean, se, want, math.Abs(mean-want)/se)
		}
	}
}

// meanSE returns the sample mean and its standard error.
func meanSE(v []float64) (mean, se float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)-1) / float64(len(v)))
}

// TestBiasFeaturesAreUnbiased checks that every feature method and
// sampler estimates the exact kernel of rows with a bias input: over 64
// seeds the mean of Φ(x)·Φ(z) lies within 4 standard errors (from the same
// samples) of the kernel, as package rf's TestUnbiased does for rows
// without one (whose comments explain the tolerance of the deep and
// structured estimators).
func TestBiasFeaturesAreUnbiased(t *testing.T) {
	t.Parallel()
	const (
		seeds = 64
		nSE   = 4.0
	)
	_, Xs, _ := biasRows(t)
	cases := []rf.Config{
		{Method: "ntk", Sketch: "tensorsketch", Dim: 256},
		{Method: "ntk", Sketch: "tensorsrht", Dim: 256},
		// One Gibbs sweep is biased in few dimensions (rf's package doc);
		// enough sweeps are not.
		{Method: "ntk", Sampler: "gibbs", GibbsSweeps: 20, Dim: 256},
		{Method: "ntk", Sampler: "orthogonal", Dim: 256},
		{Method: "ntk", Sampler: "gaussian", Dim: 256},
		{Method: "ntk", Sampler: "hadamard", Dim: 256},
		{Method: "nngp", Dim: 128},
		{Method: "arccos1", Dim: 128},
		{Method: "naive", Dim: 2048},
		{Method: "grad", Dim: 2048},
	}
	pairs := [][2]int{{0, 1}, {0, 3}, {1, 2}, {2, 2}}
	for _, cfg := range cases {
		for _, depth := range []int{1, 2} {
			if depth > 1 && (cfg.Method == "arccos1" || cfg.GibbsSweeps > 1) {
				continue // no depth; 20 sweeps over m1 inputs take minutes
			}
			cfg.Depth = depth
			t.Run(fmt.Sprintf("%s/%s/%s/L%d", cfg.Method, cfg.Sketch, cfg.Sampler, depth), func(t *testing.T) {
				spec, _ := cfg.Kernel()
				K, err := spec.Gram(Xs, nil)
				if err != nil {
					t.Fatal(err)
				}
				est := make([][]float64, len(pairs))
				for s := range seeds {
					cfg.Seed = uint64(1000 + s)
					f, err := rf.New(cfg, 3)
					if err != nil {
						t.Fatal(err)
					}
					F, err := f.Transform(nil, Xs)
					if err != nil {
						t.Fatal(err)
					}
					for k, p := range pairs {
						est[k] = append(est[k], mat.Dot(F.RowView(p[0]), F.RowView(p[1])))
					}
				}
				for k, p := range pairs {
					mean, se := meanSE(est[k])
					if want := K.At(p[0], p[1]); math.Abs(mean-want) > nSE*se+1e-12 {
						t.Errorf("pair %v: features %.5f ± %.5f, kernel %.5f (%.1f SE)", p, mean, se, want, math.Abs(mean-want)/se)
					}
				}
			})
		}
	}
}

// spiral is the playground's spiral (www/lab/toy.js): two interleaved arms
// of n/2 points each, classes alternating, with Gaussian noise.
func spiral(n int, noise float64, seed uint64) (*mat.Dense, []float64) {
	r := rand.New(rand.NewPCG(seed, 0))
	X, y := mat.NewDense(n, 2, nil), make([]float64, n)
	for i := range n {
		c, t := i%2, float64(i/2)/float64(n/2)
		rad, a := 0.05+0.95*t, 3.5*math.Pi*t+float64(c)*math.Pi
		X.Set(i, 0, rad*math.Sin(a)+0.25*noise*r.NormFloat64())
		X.Set(i, 1, rad*math.Cos(a)+0.25*noise*r.NormFloat64())
		y[i] = float64(c)
	}
	return X, y
}

// TestDefaultFitOnASpiral: a positively homogeneous NTK cannot separate
// a spiral (its predictions depend on the angle of x, about 55 % before
// the bias input); the default fit ('auto' everything, only the task
// given) chooses the bias input and separates it, and the model keeps it
// through a save and load. A kernel other than the ReLU ones gets no bias
// candidate.
func TestDefaultFitOnASpiral(t *testing.T) {
	t.Parallel()
	X, y := spiral(200, 0.1, 1)
	Xt, yt := spiral(200, 0.1, 2)
	p, err := Fit(context.Background(), X, y, Config{Ridge: class})
	if err != nil {
		t.Fatal(err)
	}
	if p.Preprocess().Bias != data.DefaultBias {
		t.Errorf("the default fit chose %+v; want the bias input", p.Preprocess())
	}
	biased := 0
	for _, c := range p.Selection().Candidates {
		if c.Preprocess.Bias > 0 {
			biased++
		}
	}
	if want := len(defaultDepths); biased != want {
		t.Errorf("%d candidates with the bias input; want one per depth (%d)", biased, want)
	}
	pred, err := p.Predict(Xt)
	if err != nil {
		t.Fatal(err)
	}
	if acc := accuracy(pred, yt); acc < 0.95 {
		t.Errorf("default fit: %.1f %% on fresh spiral points; want ≥ 95 %%", 100*acc)
	}
	roundTrip(t, p, Xt)

	k, err := Fit(context.Background(), X, y, Config{Kernel: &kernel.Spec{Name: "ntk"}, Ridge: class})
	if err != nil {
		t.Fatal(err)
	}
	if k.Preprocess().Bias == 0 {
		t.Errorf("the exact NTK's default fit chose %+v; want the bias input", k.Preprocess())
	}
	roundTrip(t, k, Xt)

	r, err := Fit(context.Background(), X, y, Config{Kernel: &kernel.Spec{Name: "rbf"}, Ridge: class})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Selection().Candidates {
		if c.Preprocess.Bias > 0 {
			t.Errorf("rbf searched %+v: a constant column does not change distances", c.Preprocess)
		}
	}
}

func accuracy(pred, y []float64) float64 {
	ok := 0
	for i := range y {
		if pred[i] == y[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(y))
}

// TestBiasSearchChecked: a search candidate with a bias out of range is
// refused before any work, with the option named.
func TestBiasSearchChecked(t *testing.T) {
	t.Parallel()
	X, y := fixture.Data(30, 3, 2, 1)
	for _, b := range []float64{-1, math.NaN(), math.Inf(1), 2 * data.MaxBias} {
		_, err := Fit(context.Background(), X, y, Config{Ridge: krr.Options{Task: krr.Classification}, Search: Search{Preprocess: []data.Prep{{Bias: b}}}})
		if err == nil || codeOf(err) != check.Option {
			t.Errorf("search bias %v: %v, want ERR_OPTION", b, err)
		}
		_, err = Fit(context.Background(), X, y, Config{Ridge: class, Preprocess: &data.Prep{Bias: b}})
		if err == nil || codeOf(err) != check.Option {
			t.Errorf("bias %v: %v, want ERR_OPTION", b, err)
		}
	}
}

// TestBiasFileVersion: a model with a bias input is written as version 3,
// which older readers refuse instead of reading it without the bias; one
// without any bias stays version 2; a file that names a bias under an
// older version is refused.
func TestBiasFileVersion(t *testing.T) {
	t.Parallel()
	X, y := spiral(60, 0.1, 1)
	fixed := func(p data.Prep) *Pipeline {
		t.Helper()
		// float64: float32 features make a file version 4 (TestFloat32FileVersion).
		m, err := Fit(context.Background(), X, y, Config{Preprocess: &p, Features: rf.Config{Depth: 1, Dim: 64, Seed: 1, Precision: "float64"}, Ridge: krr.Options{Lambda: 1e-3, Task: krr.Classification}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	version := func(p *Pipeline) (map[string]any, float64) {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m, m["version"].(float64)
	}
	if _, v := version(fixed(data.Prep{})); v != 2 {
		t.Errorf("a model without a bias is version %v; want 2", v)
	}
	m, v := version(fixed(data.Prep{Bias: 1}))
	if v != 3 {
		t.Errorf("a model with a bias is version %v; want 3", v)
	}
	m["version"] = 2
	b, _ := json.Marshal(m)
	if _, err := Load(bytes.NewReader(b)); codeOf(err) != check.Value || !strings.Contains(err.Error(), "version 3 added it") {
		t.Errorf("a biased file labelled version 2: %v; want ERR_VALUE naming version 3", err)
	}
}

// TestFloat32FileVersion: a model whose features project in float32 is
// written as version 4 (older readers refuse it rather than redraw float64
// features), loads back with the same predictions bit for bit, and is
// refused when labelled with an older version.
func TestFloat32FileVersion(t *testing.T) {
	t.Parallel()
	X, y := spiral(60, 0.1, 1)
	m, err := Fit(context.Background(), X, y, Config{Features: rf.Config{Depth: 1, Dim: 64, Seed: 1, Precision: "float32"}, Ridge: krr.Options{Lambda: 1e-3, Task: krr.Classification}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if v := f["version"].(float64); v != 4 {
		t.Errorf("a float32 model is version %v; want 4", v)
	}
	back, err := Load(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Features().Precision; got != "float32" {
		t.Errorf("loaded precision %q, want float32", got)
	}
	p1, err := m.Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := back.Predict(X)
	if err != nil {
		t.Fatal(err)
	}
	for i := range p1 {
		if math.Float64bits(p1[i]) != math.Float64bits(p2[i]) {
			t.Fatalf("row %d: the loaded float32 model predicts %v, the fitted one %v", i, p2[i], p1[i])
		}
	}
	f["version"] = 3
	b, _ = json.Marshal(f)
	if _, err := Load(bytes.NewReader(b)); codeOf(err) != check.Value || !strings.Contains(err.Error(), "version 4 added them") {
		t.Errorf("a float32 file labelled version 3: %v; want ERR_VALUE naming version 4", err)
	}
}

// TestOldFileFloat64: a file written before float32 became the default
// (testdata/v3-float64.json: version 3, a bias input, no
// features.precision, saved by ntkrf at e2d8c08 with the scores of its
// training rows beside it) loads with float64 features and scores as it
// did, bit for bit; saved again it is the same file, still without a
// precision, so older readers read it as before. The same file with
// "precision": "float64" written out means the same; with "float32" it
// is refused at version 3.
func TestOldFileFloat64(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/v3-float64.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []float64
	if sb, err := os.ReadFile("testdata/v3-float64.scores.json"); err != nil || json.Unmarshal(sb, &want) != nil {
		t.Fatal("testdata/v3-float64.scores.json:", err)
	}
	X, _ := spiral(60, 0.1, 1)
	for _, tc := range []struct {
		name, from, to string
		ok             bool
	}{
		{"as saved", "", "", true},
		{"float64 written out", `"seed":3}`, `"seed":3,"precision":"float64"}`, true},
		{"float32 at version 3", `"seed":3}`, `"seed":3,"precision":"float32"}`, false},
	} {
		text := b
		if tc.from != "" {
			if !bytes.Contains(b, []byte(tc.from)) {
				t.Fatalf("%s: %s is not in the file", tc.name, tc.from)
			}
			text = bytes.Replace(b, []byte(tc.from), []byte(tc.to), 1)
		}
		p, err := Load(bytes.NewReader(text))
		if !tc.ok {
			if codeOf(err) != check.Value || !strings.Contains(err.Error(), "version 4 added them") {
				t.Errorf("%s: %v; want ERR_VALUE naming version 4", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := p.Features().Precision; got != "float64" {
			t.Errorf("%s: loaded precision %q, want float64", tc.name, got)
		}
		S, err := p.Scores(X)
		if err != nil {
			t.Fatal(err)
		}
		got := S.RawMatrix().Data
		if len(got) != len(want) {
			t.Fatalf("%s: %d scores, want %d", tc.name, len(got), len(want))
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%s: score %d is %v, was %v when saved", tc.name, i, got[i], want[i])
			}
		}
		again, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, b) {
			t.Errorf("%s: saved again, the file differs from the one loaded", tc.name)
		}
	}
}

// TestDefaultFileVersion: a model fitted with the default precision
// records the one used in its file: float32 (version 4) where the map has
// a float32 form; float64 (left out, the lowest version) for the hadamard
// sampler, which has none, as for an explicit float64.
func TestDefaultFileVersion(t *testing.T) {
	t.Parallel()
	X, y := spiral(60, 0.1, 1)
	for _, tc := range []struct {
		cfg       rf.Config
		version   float64
		precision any // nil: left out
	}{
		{rf.Config{Depth: 1, Dim: 64, Seed: 1}, 4, "float32"},
		{rf.Config{Depth: 1, Dim: 64, Seed: 1, Sketch: "tensorsketch", Sampler: "orthogonal"}, 4, "float32"},
		{rf.Config{Depth: 1, Dim: 64, Seed: 1, Sampler: "hadamard"}, 2, nil},
		{rf.Config{Depth: 1, Dim: 64, Seed: 1, Precision: "float64"}, 2, nil},
	} {
		m, err := Fit(context.Background(), X, y, Config{Preprocess: &data.Prep{}, Features: tc.cfg, Ridge: krr.Options{Lambda: 1e-3, Task: krr.Classification}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Version  float64        `json:"version"`
			Features map[string]any `json:"features"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			t.Fatal(err)
		}
		if f.Version != tc.version || f.Features["precision"] != tc.precision {
			t.Errorf("%+v: version %v, features.precision %v; want %v, %v", tc.cfg, f.Version, f.Features["precision"], tc.version, tc.precision)
		}
		back, err := Load(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if *back.Features() != *m.Features() {
			t.Errorf("%+v: loaded features %+v, fitted %+v", tc.cfg, *back.Features(), *m.Features())
		}
	}
}
