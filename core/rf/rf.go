package rf

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"ntkrf/core/kernel"
	"ntkrf/internal/check"
)

// MaxDim bounds every feature and sketch dimension: far beyond any useful
// size, and small enough that index arithmetic cannot overflow.
const MaxDim = 1 << 24

// DefaultDim is the number of features m when Config.Dim is 0 and no
// widths are given.
const DefaultDim = 1024

// MaxGibbsSweeps bounds Config.GibbsSweeps.
const MaxGibbsSweeps = 1000

// The names Config accepts, each list's default first.
var (
	Methods  = []string{"ntk", "nngp", "arccos0", "arccos1", "naive", "grad", "rff"}
	Sketches = []string{"auto", "split", "tensorsketch", "tensorsrht"}
	Samplers = []string{"exact", "gibbs", "orthogonal", "gaussian", "hadamard"}
)

// Config selects a feature map. The zero value is the documented default
// (NTK features of depth 1, DefaultDim columns, seed 0): every zero field
// means its default, and Map.Config returns the configuration with the
// defaults written out. The JSON names are those of the JavaScript API.
type Config struct {
	// Method is "ntk" (default), "nngp", "arccos0", "arccos1", "naive",
	// "grad" or "rff".
	Method string `json:"method"`
	// Depth is the network depth L, 1 … kernel.MaxDepth, for ntk, nngp,
	// naive and grad; 0 means kernel.DefaultDepth (1). Ignored (reported
	// as 0) by arccos0, arccos1 and rff.
	Depth int `json:"depth"`
	// Dim is the number of output columns m; 0 means DefaultDim, or, when
	// M1 and SketchDim (nngp: M1) are given, the width they make. For ntk
	// in the split form the input's d columns come first and the random
	// blocks share the other m − d (split.go); in the paper's form
	// m1 = ⌊m/2⌋ and m_cs = m − m1; naive and grad pick the largest sizes
	// whose output fits in Dim (see the package documentation).
	Dim int `json:"dim"`
	// M0 and M1 override the widths of the Step (a0) and ReLU (a1)
	// features; SketchDim overrides m_cs. 0 means the default from Dim.
	// The split form takes M0 (sign features per layer, default the
	// last layer's |·| width) but neither M1 nor SketchDim.
	M0        int `json:"m0"`
	M1        int `json:"m1"`
	SketchDim int `json:"sketchDim"`
	// Sketch says how ntk builds its features: "split" (the linear part
	// exact, see split.go), the paper's "tensorsketch" or "tensorsrht", or
	// "auto" (default): split where it fits (the input has at most 3/4 of
	// Dim columns and neither M1 nor SketchDim is given), else
	// tensorsketch. Map.Config reports the one used.
	Sketch string `json:"sketch"`
	// Sampler draws the directions of the ReLU features: "exact"
	// (default), "gibbs", "orthogonal", "gaussian" or "hadamard" (which
	// also draws the Step directions).
	Sampler string `json:"sampler"`
	// GibbsSweeps is the number T of Gibbs sweeps (default 1).
	GibbsSweeps int `json:"gibbsSweeps"`
	// Normalize scales every output row to unit norm.
	Normalize bool `json:"normalize"`
	// Gamma is the rff scale γ of exp(−γ‖x−y‖²), > 0 (default 1/inputDim).
	Gamma float64 `json:"gamma"`
	// Seed determines every random draw.
	Seed uint64 `json:"seed"`
}

// Map is a feature map drawn once from a Config and applied with
// Transform. It is safe for concurrent use.
type Map struct {
	cfg      Config
	inputDim int
	dim      int
	layers   []*layer   // ntk, nngp, naive, grad, arccos0/1, rff: one per layer
	head     []float64  // grad: output weights w
	bias     []float64  // rff: phases b
	split    *splitPlan // ntk with Sketch "split": the layout of Φ
}

// layer holds the projection of one layer: w is din×(m0+m1), row-major, its
// first m0 columns the Step directions and the other m1 the ReLU
// directions, so one linalg.Mul serves both; or, for the "hadamard" sampler,
// had holds structured directions in the same order and w is nil.
type layer struct {
	din, m0, m1 int
	w           []float64
	had         *hadamardProj
	s0, s1      float64 // scales of the Step and ReLU features
	sk          tensorSketcher
}

func oneOf(field, v string, allowed []string) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	return fmt.Errorf("rf: Config.%s %q is unknown; use one of %q", field, v, allowed)
}

// fill validates cfg and fills in the defaults that do not depend on sizes.
func (c *Config) fill(inputDim int) error {
	if inputDim <= 0 || inputDim > MaxDim {
		return fmt.Errorf("rf: input dimension %d is out of range; X needs 1 … %d columns", inputDim, MaxDim)
	}
	if c.Method == "" {
		c.Method = Methods[0]
	}
	if c.Sampler == "" {
		c.Sampler = Samplers[0]
	}
	if c.GibbsSweeps == 0 {
		c.GibbsSweeps = 1
	}
	for _, e := range []error{oneOf("Method", c.Method, Methods), oneOf("Sketch", cmp.Or(c.Sketch, Sketches[0]), Sketches), oneOf("Sampler", c.Sampler, Samplers)} {
		if e != nil {
			return e
		}
	}
	ints := []struct {
		name string
		v    int
	}{{"Dim", c.Dim}, {"M0", c.M0}, {"M1", c.M1}, {"SketchDim", c.SketchDim}}
	for _, f := range ints {
		if f.v < 0 || f.v > MaxDim {
			return fmt.Errorf("rf: Config.%s %d is out of range; use 0 (default) … %d", f.name, f.v, MaxDim)
		}
	}
	if c.GibbsSweeps < 0 || c.GibbsSweeps > MaxGibbsSweeps {
		return fmt.Errorf("rf: Config.GibbsSweeps %d is out of range; use 1 … %d (0 means 1)", c.GibbsSweeps, MaxGibbsSweeps)
	}
	if c.Dim == 0 && !(c.M1 > 0 && (c.SketchDim > 0 || c.Method == "nngp")) {
		c.Dim = DefaultDim
	}
	switch c.Method {
	case "arccos0", "arccos1", "rff":
		c.Depth = 0
	default:
		if c.Depth == 0 {
			c.Depth = kernel.DefaultDepth
		}
		if c.Depth < 0 || c.Depth > kernel.MaxDepth {
			return fmt.Errorf("rf: Config.Depth %d is out of range; use 1 … %d (0 means %d)", c.Depth, kernel.MaxDepth, kernel.DefaultDepth)
		}
	}
	if c.Sketch == "" || c.Sketch == "auto" {
		c.Sketch = defaultSketch(c, inputDim)
	}
	if c.Method == "rff" {
		if math.IsNaN(c.Gamma) || c.Gamma < 0 || math.IsInf(c.Gamma, 0) {
			return fmt.Errorf("rf: Config.Gamma %v is invalid; use a positive finite number (0 means 1/inputDim)", c.Gamma)
		}
		if c.Gamma == 0 {
			c.Gamma = 1 / float64(inputDim)
		}
	}
	return nil
}

// needDim returns an error if the default sizes need Dim and it is unset.
func needDim(c *Config) error {
	if c.Dim == 0 {
		return fmt.Errorf("rf: Config.Dim is 0; set the number of output features (e.g. 4096)")
	}
	return nil
}

// orDefault returns v if it is set and def otherwise.
func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// New draws the feature map described by cfg for inputs with inputDim
// columns. Every random draw comes from cfg.Seed, so equal arguments give
// bit-identical maps natively and in WebAssembly. Invalid settings return
// an error naming the Config field.
func New(cfg Config, inputDim int) (*Map, error) {
	if err := cfg.fill(inputDim); err != nil {
		return nil, err
	}
	f := &Map{cfg: cfg, inputDim: inputDim}
	var err error
	switch cfg.Method {
	case "ntk", "nngp":
		if cfg.Method == "ntk" && cfg.Sketch == "split" {
			err = f.buildSplit()
			break
		}
		err = f.buildNTK()
		if err == nil && cfg.Depth > 0 && cfg.Dim != 0 && f.dim != cfg.Dim {
			// M1 or SketchDim given with a Dim they contradict: the map
			// would have another width than the one asked for (and callers
			// plan memory with Dim).
			err = check.New(check.Option, "sketchDim", "rf: Config.M1 + Config.SketchDim = %d + %d = %d columns, but Config.Dim is %d; give Config.Dim alone (Config.M1 = ⌊Config.Dim/2⌋, Config.SketchDim the rest), or Config.M1 with Config.SketchDim and no Config.Dim",
				f.cfg.M1, f.cfg.SketchDim, f.dim, cfg.Dim)
			if cfg.Method == "nngp" {
				err = check.New(check.Option, "m1", "rf: Config.M1 = %d columns, but Config.Dim is %d; give one of them", f.dim, cfg.Dim)
			}
		}
	case "arccos0", "arccos1":
		err = f.buildArccos()
	case "rff":
		err = f.buildRFF()
	case "naive":
		err = f.buildNaive()
	case "grad":
		err = f.buildGrad()
	}
	if err != nil {
		return nil, err
	}
	f.cfg.Dim = f.dim
	return f, nil
}

// newLayer draws the Step (m0) and ReLU (m1) directions of a layer with
// input dimension din. gain is the numerator of the squared scales: 2 for
// the arc-cosine features a0 and a1, 1 for the sign and |·| features of
// the split form (split.go), which carry half of each kernel.
func (f *Map) newLayer(l, din, m0, m1 int, gain float64) (*layer, error) {
	c := f.cfg
	if c.Sampler == "hadamard" {
		// Step and ReLU directions are consecutive rows of the structured
		// blocks; unit rows over p coordinates keep E‖u‖² = din/p on the
		// first din, hence √(2p/m1) where exact directions use √(2d/m1).
		p := hadamardOrder(din)
		if err := check.Alloc("Hadamard sign diagonals", 3*((m0+m1+p-1)/p), p); err != nil {
			return nil, rfError(err)
		}
		ly := &layer{din: din, m0: m0, m1: m1, had: newHadamardProj(din, m0+m1, newStream(c.Seed, l, tagHadamard))}
		ly.s0 = math.Sqrt(gain / float64(max(m0, 1)))
		ly.s1 = math.Sqrt(gain * float64(p) / float64(max(m1, 1)))
		return ly, nil
	}
	if err := check.Alloc("random-feature weight matrix", din, m0+m1); err != nil {
		return nil, rfError(err)
	}
	ly := &layer{din: din, m0: m0, m1: m1, w: make([]float64, din*(m0+m1))}
	stride := m0 + m1
	put := func(rows []float64, col0, count int) { // rows is count×din
		for i := range count {
			for j := range din {
				ly.w[j*stride+col0+i] = rows[i*din+j]
			}
		}
	}
	if m0 > 0 {
		// Step(w·x) depends on the direction of w only, so Gaussian rows
		// serve every sampler except "orthogonal".
		r := newStream(c.Seed, l, tagA0)
		var rows []float64
		if c.Sampler == "orthogonal" {
			rows = directions("orthogonal", r, m0, din, 0)
		} else {
			rows = gaussianRows(&gauss{r: r}, m0, din)
		}
		put(rows, 0, m0)
		ly.s0 = math.Sqrt(gain / float64(m0))
	}
	if m1 > 0 {
		r := newStream(c.Seed, l, tagA1)
		var rows []float64
		if c.Sampler == "gaussian" {
			rows = gaussianRows(&gauss{r: r}, m1, din)
			ly.s1 = math.Sqrt(gain / float64(m1))
		} else {
			// Algorithm 2: √(2d/m)·ReLU(x·v)/‖v‖ for v ~ q; only v/‖v‖ matters.
			rows = directions(c.Sampler, r, m1, din, c.GibbsSweeps)
			ly.s1 = math.Sqrt(gain * float64(din) / float64(m1))
		}
		put(rows, m0, m1)
	}
	return ly, nil
}

func (f *Map) buildNTK() error {
	c := &f.cfg
	d := f.inputDim
	var m0, m1, mcs int
	if c.Method == "nngp" {
		if c.M1 == 0 {
			if err := needDim(c); err != nil {
				return err
			}
		}
		m1 = orDefault(c.M1, c.Dim)
		f.dim = m1
	} else {
		if c.M1 == 0 || c.SketchDim == 0 {
			if err := needDim(c); err != nil {
				return err
			}
		}
		m1 = orDefault(c.M1, c.Dim/2)
		mcs = orDefault(c.SketchDim, c.Dim-m1)
		m0 = orDefault(c.M0, m1)
		if m1 < 1 || mcs < 1 || m0 < 1 {
			return fmt.Errorf("rf: Config.Dim %d is too small for ntk; use at least 2 (half ReLU features, half sketch)", c.Dim)
		}
		f.dim = m1 + mcs
		c.M0, c.SketchDim = m0, mcs
	}
	c.M1 = m1
	if f.dim > MaxDim {
		return fmt.Errorf("rf: Config.M1 + Config.SketchDim = %d is too large; use at most %d", f.dim, MaxDim)
	}
	if c.Sampler != "hadamard" {
		// Every layer's weights at once, before drawing any: a map too
		// large for memory is refused before it takes any.
		if err := check.Alloc("random-feature weight matrix (all layers)", d+(c.Depth-1)*m1, m0+m1); err != nil {
			return err
		}
	}
	din, phiDim := d, d
	for l := 1; l <= c.Depth; l++ {
		ly, err := f.newLayer(l, din, m0, m1, 2)
		if err != nil {
			return err
		}
		if m0 > 0 {
			if c.Sketch == "tensorsrht" {
				ly.sk = newTensorSRHT(m0, phiDim, mcs, c.Seed, l)
			} else {
				ly.sk = newTensorSketch(m0, phiDim, mcs, c.Seed, l)
			}
		}
		f.layers = append(f.layers, ly)
		din, phiDim = m1, m1+mcs
	}
	return nil
}

func (f *Map) buildArccos() error {
	c := &f.cfg
	var m0, m1 int
	if c.Method == "arccos0" {
		if c.M0 == 0 {
			if err := needDim(c); err != nil {
				return err
			}
		}
		m0 = orDefault(c.M0, c.Dim)
		c.M0 = m0
	} else {
		if c.M1 == 0 {
			if err := needDim(c); err != nil {
				return err
			}
		}
		m1 = orDefault(c.M1, c.Dim)
		c.M1 = m1
	}
	ly, err := f.newLayer(1, f.inputDim, m0, m1, 2)
	if err != nil {
		return err
	}
	f.layers, f.dim = []*layer{ly}, m0+m1
	return nil
}

func (f *Map) buildRFF() error {
	c := &f.cfg
	if err := needDim(c); err != nil {
		return err
	}
	m, d := c.Dim, f.inputDim
	if err := check.Alloc("random-feature weight matrix", d, m); err != nil {
		return rfError(err)
	}
	// W ~ N(0, 2γI) makes E[cos(w·(x−y))] = exp(−γ‖x−y‖²).
	g := &gauss{r: newStream(c.Seed, 1, tagA1)}
	ly := &layer{din: d, m1: m, w: make([]float64, d*m), s1: math.Sqrt(2 / float64(m))}
	sd := math.Sqrt(2 * c.Gamma)
	for i := range m {
		for j := range d {
			ly.w[j*m+i] = sd * g.next()
		}
	}
	r := newStream(c.Seed, 1, tagBias)
	f.bias = make([]float64, m)
	for i := range f.bias {
		f.bias[i] = 2 * math.Pi * r.Float64()
	}
	f.layers, f.dim = []*layer{ly}, m
	return nil
}

// Dim returns the number of output columns.
func (f *Map) Dim() int { return f.dim }

// ProjectionMACs returns the multiply-adds per row of the map's dense
// projections, Σ over layers din·(m0+m1) (the "hadamard" sampler's
// transforms count 0): what a cost model counts, whatever form laid the
// layers out.
func (f *Map) ProjectionMACs() int {
	n := 0
	for _, ly := range f.layers {
		if ly.w != nil {
			n += len(ly.w)
		}
	}
	return n
}

// InputDim returns the number of input columns.
func (f *Map) InputDim() int { return f.inputDim }

// Config returns the configuration with every default filled in (Dim is
// the actual output dimension).
func (f *Map) Config() Config { return f.cfg }

// Kernel returns the exact kernel the features of c approximate (their
// expected Gram), or false when there is none here (arccos0: the order-0
// arc-cosine kernel).
func (c Config) Kernel() (kernel.Spec, bool) {
	switch c.Method {
	case "", "ntk", "naive", "grad":
		return kernel.Spec{Name: "ntk", Depth: c.Depth}, true
	case "nngp":
		return kernel.Spec{Name: "nngp", Depth: c.Depth}, true
	case "arccos1":
		return kernel.Spec{Name: "nngp", Depth: 1}, true
	case "rff":
		return kernel.Spec{Name: "rbf", Gamma: c.Gamma}, true
	}
	return kernel.Spec{}, false
}
