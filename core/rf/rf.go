package rf

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"ntkrf/core/kernel"
	"ntkrf/core/linalg"
	"ntkrf/internal/check"
)

// MaxDim bounds every feature and sketch dimension: far beyond any useful
// size, and small enough that index arithmetic cannot overflow.
const MaxDim = 1 << 24

// DefaultDim is the number of features m when Config.Dim is 0 and no
// widths are given.
const DefaultDim = 1024

// MaxSeed is the largest Config.Seed, check.MaxSeed (2^53−1): a larger
// seed would draw another map once it crossed to a JavaScript host, so
// every host refuses it (ERR_OPTION; in a model file, the file's error).
const MaxSeed = check.MaxSeed

// DefaultGibbsSweeps is what a zero Config.GibbsSweeps means.
const DefaultGibbsSweeps = 1

// MaxGibbsSweeps bounds Config.GibbsSweeps.
const MaxGibbsSweeps = 1000

// Config selects a feature map. The zero value is the documented default
// (NTK features of depth 1, DefaultDim columns, seed 0): every zero field
// means its default, and Map.Config returns the configuration with the
// defaults written out. The JSON names are those of the JavaScript API.
type Config struct {
	// Method is NTK (default), NNGP, ArcCos0, ArcCos1, Naive, Grad or
	// RFF.
	Method Method `json:"method"`
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
	// Sketch says how ntk builds its features: SketchSplit (the linear
	// part exact, see split.go), the paper's SketchTensorSketch or
	// SketchTensorSRHT, or SketchAuto (default; "" means it too): split
	// where it fits (the input has at most 3/4 of Dim columns and neither
	// M1 nor SketchDim is given), else tensorsketch. Map.Config reports
	// the one used.
	Sketch Sketch `json:"sketch"`
	// Sampler draws the directions of the ReLU features: Exact (default),
	// Gibbs, Orthogonal, Gaussian or Hadamard (which also draws the Step
	// directions).
	Sampler Sampler `json:"sampler"`
	// GibbsSweeps is the number T of Gibbs sweeps; 0 means DefaultGibbsSweeps.
	GibbsSweeps int `json:"gibbsSweeps"`
	// Normalize scales every output row to unit norm.
	Normalize bool `json:"normalize"`
	// Gamma is the rff scale γ of exp(−γ‖x−y‖²), > 0; 0 means
	// kernel.DefaultGamma(inputDim).
	Gamma float64 `json:"gamma"`
	// Seed determines every random draw: 0 … MaxSeed.
	Seed uint64 `json:"seed"`
	// Precision is the arithmetic of the projections Wx, the bulk of the
	// work: Float32, which rounds the weights and the projected rows to
	// float32 and sums in float32 (linalg.Mul32: twice the SIMD lanes, the
	// same bits on every host), or Float64 (the reference). The rest
	// (signs, magnitudes, sketches, output) stays float64. "" means
	// DefaultPrecision: float32 where the map has a float32 form, float64
	// for grad and the hadamard sampler, which have none (PrecisionRule).
	// Map.Config reports the one used.
	Precision Precision `json:"precision,omitempty"`
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
	w32         *linalg.Weights32 // Precision "float32": w rounded (laid out for this CPU), and w nil
	had         *hadamardProj
	s0, s1      float64 // scales of the Step and ReLU features
	sk          tensorSketcher
}

func oneOf[T ~string](field string, v T, allowed []T) error {
	if slices.Contains(allowed, v) {
		return nil
	}
	return check.New(check.Option, strings.ToLower(field[:1])+field[1:], "rf: Config.%s %s is unknown; use one of %q", field, check.Quote(v), allowed)
}

// fill validates cfg and fills in the defaults that do not depend on sizes.
func (c *Config) fill(inputDim int) error {
	if inputDim <= 0 || inputDim > MaxDim {
		return check.New(check.Shape, "", "rf: input dimension %d is out of range; X needs 1 … %d columns", inputDim, MaxDim)
	}
	if c.Method == "" {
		c.Method = NTK
	}
	if c.Sampler == "" {
		c.Sampler = Exact
	}
	if c.GibbsSweeps == 0 {
		c.GibbsSweeps = DefaultGibbsSweeps
	}
	for _, e := range []error{oneOf("Method", c.Method, Methods()), oneOf("Sketch", cmp.Or(c.Sketch, SketchAuto), Sketches()), oneOf("Sampler", c.Sampler, Samplers()),
		oneOf("Precision", cmp.Or(c.Precision, Float32), Precisions())} {
		if e != nil {
			return e
		}
	}
	if c.Precision == "" {
		c.Precision = DefaultPrecision(c.Method, c.Sampler)
	}
	if c.Float32() && !hasFloat32(c.Method, c.Sampler) {
		switch {
		case c.Method == Grad:
			return check.New(check.Option, "precision", "rf: Config.Precision \"float32\" has no form for Config.Method \"grad\"; use Config.Precision \"float64\" (its default) or another method")
		default:
			return check.New(check.Option, "precision", "rf: Config.Precision \"float32\" has no form for Config.Sampler \"hadamard\" (its transforms are float64); use Config.Precision \"float64\" (its default) or another sampler")
		}
	}
	ints := []struct {
		name string
		v    int
	}{{"Dim", c.Dim}, {"M0", c.M0}, {"M1", c.M1}, {"SketchDim", c.SketchDim}}
	for _, f := range ints {
		if f.v < 0 || f.v > MaxDim {
			return check.New(check.Option, strings.ToLower(f.name[:1])+f.name[1:], "rf: Config.%s %d is out of range; use 0 (default) … %d", f.name, f.v, MaxDim)
		}
	}
	if c.GibbsSweeps < 0 || c.GibbsSweeps > MaxGibbsSweeps {
		return check.New(check.Option, "gibbsSweeps", "rf: Config.GibbsSweeps %d is out of range; use 1 … %d (0 means %d)", c.GibbsSweeps, MaxGibbsSweeps, DefaultGibbsSweeps)
	}
	if err := checkSeed(c.Seed); err != nil {
		return err
	}
	if c.Dim == 0 && !(c.M1 > 0 && (c.SketchDim > 0 || c.Method == NNGP)) {
		c.Dim = DefaultDim
	}
	switch c.Method {
	case ArcCos0, ArcCos1, RFF:
		c.Depth = 0
	default:
		if c.Depth == 0 {
			c.Depth = kernel.DefaultDepth
		}
		if c.Depth < 0 || c.Depth > kernel.MaxDepth {
			return check.New(check.Option, "depth", "rf: Config.Depth %d is out of range; use 1 … %d (0 means %d)", c.Depth, kernel.MaxDepth, kernel.DefaultDepth)
		}
	}
	if c.Sketch == "" || c.Sketch == SketchAuto {
		c.Sketch = defaultSketch(c, inputDim)
	}
	if c.Method == RFF {
		if math.IsNaN(c.Gamma) || c.Gamma < 0 || math.IsInf(c.Gamma, 0) {
			return check.New(check.Option, "gamma", "rf: Config.Gamma %v is invalid; use a positive finite number (0 means 1/inputDim)", c.Gamma)
		}
		if c.Gamma == 0 {
			c.Gamma = kernel.DefaultGamma(inputDim)
		}
	}
	return nil
}

// PrecisionRule says in words, for the hosts' documentation, what an
// unset Config.Precision means (DefaultPrecision).
var PrecisionRule = fmt.Sprintf("%s where the features have a float32 form, %s (the reference) for method %s and sampler %s, which have none",
	Float32, Float64, Grad, Hadamard)

// DefaultPrecision is what an unset Config.Precision means for a method
// and sampler ("" meaning their defaults): float32, which holds the
// accuracy and kernel error of float64 at equal m (docs/PERFORMANCE.md,
// "Float32 features") at up to twice the speed, where the map has a
// float32 form; float64 for grad and the hadamard sampler, which have
// none.
func DefaultPrecision(method Method, sampler Sampler) Precision {
	if hasFloat32(method, sampler) {
		return Float32
	}
	return Float64
}

// ValueBytes is the memory of one feature value computed at precision
// ("" meaning the default): 4 bytes in float32, 8 in float64.
func ValueBytes(precision Precision) int {
	if precision == Float32 {
		return 4
	}
	return 8
}

// DefaultValueBytes is the memory of one feature value of method and
// sampler at their default precision (DefaultPrecision), for every
// method and sampler: what a host counts before a fit, by method, then
// sampler.
func DefaultValueBytes() map[Method]map[Sampler]int {
	methods, samplers := Methods(), Samplers()
	out := make(map[Method]map[Sampler]int, len(methods))
	for _, m := range methods {
		out[m] = make(map[Sampler]int, len(samplers))
		for _, s := range samplers {
			out[m][s] = ValueBytes(DefaultPrecision(m, s))
		}
	}
	return out
}

// hasFloat32 reports whether the features of method and sampler ("" for
// their defaults) have a float32 form: all but grad's, and those the
// hadamard sampler draws (a method that ignores the sampler, as rff does,
// is not drawn by it).
func hasFloat32(method Method, sampler Sampler) bool {
	method = cmp.Or(method, NTK)
	return method != Grad && !(sampler == Hadamard && slices.Contains(uses[method], "sampler"))
}

// Float32 reports whether c projects in float32 (Precision Float32).
func (c Config) Float32() bool { return c.Precision == Float32 }

// checkSeed refuses a seed above MaxSeed.
func checkSeed(seed uint64) error {
	if seed > MaxSeed {
		return check.New(check.Option, "seed", "rf: Config.Seed %d is above 2^53−1 = %d, the largest seed every host carries exactly (JavaScript numbers); use a seed in 0 … %d", seed, uint64(MaxSeed), uint64(MaxSeed))
	}
	return nil
}

// needDim returns an error if the default sizes need Dim and it is unset.
func needDim(c *Config) error {
	if c.Dim == 0 {
		return check.New(check.Option, "dim", "rf: Config.Dim is 0; set the number of output features (e.g. 4096)")
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
// an error naming the Config field; a map whose layers together would
// take more memory than check.MaxAllocBytes is refused before any is
// drawn (ERR_TOO_LARGE).
func New(cfg Config, inputDim int) (*Map, error) {
	p, err := plan(cfg, inputDim)
	if err != nil {
		return nil, err
	}
	f := &Map{cfg: p.cfg, inputDim: inputDim, dim: p.cfg.Dim, split: p.split}
	c := &f.cfg
	if c.Method == RFF {
		f.drawRFF()
		f.round32()
		return f, nil
	}
	for l, s := range p.layers {
		ly := f.newLayer(l+1, s)
		if s.mcs > 0 {
			if c.Sketch == SketchTensorSRHT {
				ly.sk = newTensorSRHT(s.m0, s.phiDim, s.mcs, c.Seed, l+1)
			} else {
				ly.sk = newTensorSketch(s.m0, s.phiDim, s.mcs, c.Seed, l+1)
			}
		}
		f.layers = append(f.layers, ly)
	}
	f.round32()
	if c.Method == Grad {
		f.head = gaussianRows(&gauss{r: newStream(c.Seed, 0, tagHead)}, c.M1, 1)
	}
	return f, nil
}

// Resolve returns the configuration New draws for inputs with inputDim
// columns — every default written out, Dim the output width, as
// Map.Config returns it — or the error New returns, the memory check
// included, without drawing anything.
func (c Config) Resolve(inputDim int) (Config, error) {
	p, err := plan(c, inputDim)
	return p.cfg, err
}

// layerPlan is the sizes of one layer: its input dimension, its Step and
// ReLU widths, and (ntk) the sketch of the m0 Step features ⊗ the phiDim
// columns of Φ into mcs columns (mcs 0: none).
type layerPlan struct {
	din, m0, m1 int
	phiDim, mcs int
	gain        float64 // the squared scales' numerator; 0 means 2
}

// mapPlan is a map before it is drawn: its filled configuration and the
// sizes of its layers.
type mapPlan struct {
	cfg    Config
	layers []layerPlan
	split  *splitPlan // ntk with Sketch "split": the layout of Φ
}

// plan checks cfg, fills it in and sizes every layer, then checks the
// memory the whole map would take: everything New checks, before it
// draws anything.
func plan(cfg Config, inputDim int) (mapPlan, error) {
	p := mapPlan{cfg: cfg}
	c := &p.cfg
	if err := c.fill(inputDim); err != nil {
		return p, err
	}
	var err error
	switch c.Method {
	case NTK, NNGP:
		if c.Method == NTK && c.Sketch == SketchSplit {
			err = p.sizeSplit(inputDim)
			break
		}
		err = p.sizeNTK(inputDim)
	case ArcCos0, ArcCos1:
		err = p.sizeArccos(inputDim)
	case RFF:
		err = needDim(c)
	case Naive:
		err = p.sizeNaive(inputDim)
	case Grad:
		err = p.sizeGrad(inputDim)
	}
	if err == nil {
		err = p.checkMemory(inputDim)
	}
	return p, err
}

// bytes is the memory the drawn map holds, with the scratch its drawing
// takes (the rows of directions before they are laid out in w).
func (p *mapPlan) bytes(inputDim int) float64 {
	c := &p.cfg
	if c.Method == RFF {
		return 8 * float64(c.Dim) * float64(inputDim+1)
	}
	var b, rows float64
	for _, s := range p.layers {
		st := float64(s.m0 + s.m1)
		if c.Sampler == Hadamard {
			q := float64(hadamardOrder(s.din))
			b += 3 * 8 * math.Ceil(st/q) * q
		} else {
			b += 8 * float64(s.din) * st
			rows = max(rows, 8*float64(s.din)*float64(max(s.m0, s.m1)))
		}
		if s.mcs > 0 {
			in := float64(s.m0 + s.phiDim)
			if c.Sketch == SketchTensorSRHT {
				b += 8*in + 8*float64(s.mcs)
			} else {
				b += 12*in + fftBytes(s.mcs)
			}
		}
	}
	if c.Method == Grad {
		b += 8 * float64(c.M1)
	}
	return b + rows
}

// fftBytes is the memory of an fftPlan of length n.
func fftBytes(n int) float64 {
	if n&(n-1) == 0 {
		return 12 * float64(n)
	}
	m := float64(nextPow2(2*n - 1))
	return 16*float64(n) + 28*m
}

// checkMemory refuses a map whose layers together exceed
// check.MaxAllocBytes.
func (p *mapPlan) checkMemory(inputDim int) error {
	if b := p.bytes(inputDim); b > check.MaxAllocBytes {
		return check.New(check.TooLarge, "", "rf: the feature map (%s, %d columns on %d inputs, %d layers) needs %s for its weights and sketches, over the %s limit; use a smaller Config.Dim or Config.Depth",
			p.cfg.Method, p.cfg.Dim, inputDim, max(len(p.layers), 1), check.FormatBytes(b), check.FormatBytes(check.MaxAllocBytes))
	}
	return nil
}

// round32 replaces the weights of every dense projection by their float32
// roundings when the map projects in float32: the same directions,
// rounded once, laid out for this CPU's kernel (linalg.Weights32), and
// half the memory.
func (f *Map) round32() {
	if !f.cfg.Float32() {
		return
	}
	for _, ly := range f.layers {
		if ly.w == nil {
			continue
		}
		ly.w32 = linalg.NewWeights32(ly.w, ly.din, ly.m0+ly.m1)
		ly.w = nil
	}
}

// newLayer draws the Step (m0) and ReLU (m1) directions of layer l.
func (f *Map) newLayer(l int, s layerPlan) *layer {
	c := f.cfg
	din, m0, m1 := s.din, s.m0, s.m1
	// The numerator of the squared scales: 2 for the arc-cosine features
	// a0 and a1, 1 for the sign and |·| features of the split form
	// (split.go), which carry half of each kernel.
	gain := cmp.Or(s.gain, 2)
	if c.Sampler == Hadamard {
		// Step and ReLU directions are consecutive rows of the structured
		// blocks; unit rows over p coordinates keep E‖u‖² = din/p on the
		// first din, hence √(2p/m1) where exact directions use √(2d/m1).
		p := hadamardOrder(din)
		ly := &layer{din: din, m0: m0, m1: m1, had: newHadamardProj(din, m0+m1, newStream(c.Seed, l, tagHadamard))}
		ly.s0 = math.Sqrt(gain / float64(max(m0, 1)))
		ly.s1 = math.Sqrt(gain * float64(p) / float64(max(m1, 1)))
		return ly
	}
	ly := &layer{din: din, m0: m0, m1: m1, w: make([]float64, din*(m0+m1))}
	stride := m0 + m1
	put := func(rows []float64, col0, count int) { // rows is count×din
		for i := 0; i < count; i += putRows {
			putBlock(ly.w[col0+i:], stride, rows[i*din:], min(putRows, count-i), din)
		}
	}
	if m0 > 0 {
		// Step(w·x) depends on the direction of w only, so Gaussian rows
		// serve every sampler except "orthogonal".
		r := newStream(c.Seed, l, tagA0)
		var rows []float64
		if c.Sampler == Orthogonal {
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
		if c.Sampler == Gaussian {
			rows = gaussianRows(&gauss{r: r}, m1, din)
			ly.s1 = math.Sqrt(gain / float64(m1))
		} else {
			// Algorithm 2: √(2d/m)·ReLU(x·v)/‖v‖ for v ~ q; only v/‖v‖ matters.
			rows = directions(c.Sampler, r, m1, din, c.GibbsSweeps)
			ly.s1 = math.Sqrt(gain * float64(din) / float64(m1))
		}
		put(rows, m0, m1)
	}
	return ly
}

// putRows is the number of drawn rows putBlock writes at a time.
const putRows = 16

// putBlock writes the count×din row-major rows as the first count
// columns of w (rows stride apart): a block of rows at a time, so that
// every write of a weight row is count contiguous values rather than
// one value a page apart, and a call of its own, not inlined, because
// WebAssembly engines swap optimized code in only at a function's next
// call (the transpose of a whole layer in one call ran in baseline code).
//
//go:noinline
func putBlock(w []float64, stride int, rows []float64, count, din int) {
	for j := range din {
		wj := w[j*stride : j*stride+count]
		for i := range wj {
			wj[i] = rows[i*din+j]
		}
	}
}

func (p *mapPlan) sizeNTK(d int) error {
	c := &p.cfg
	asked := c.Dim
	var m0, m1, mcs, dim int
	if c.Method == NNGP {
		if c.M1 == 0 {
			if err := needDim(c); err != nil {
				return err
			}
		}
		m1 = orDefault(c.M1, c.Dim)
		dim = m1
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
			return check.New(check.Option, "dim", "rf: Config.Dim %d is too small for ntk; use at least 2 (half ReLU features, half sketch)", c.Dim)
		}
		dim = m1 + mcs
		c.M0, c.SketchDim = m0, mcs
	}
	c.M1 = m1
	if dim > MaxDim {
		return check.New(check.Option, "sketchDim", "rf: Config.M1 + Config.SketchDim = %d is too large; use at most %d", dim, MaxDim)
	}
	if asked != 0 && dim != asked {
		// M1 or SketchDim given with a Dim they contradict: the map
		// would have another width than the one asked for (and callers
		// plan memory with Dim).
		if c.Method == NNGP {
			return check.New(check.Option, "m1", "rf: Config.M1 = %d columns, but Config.Dim is %d; give one of them", dim, asked)
		}
		return check.New(check.Option, "sketchDim", "rf: Config.M1 + Config.SketchDim = %d + %d = %d columns, but Config.Dim is %d; give Config.Dim alone (Config.M1 = ⌊Config.Dim/2⌋, Config.SketchDim the rest), or Config.M1 with Config.SketchDim and no Config.Dim",
			m1, mcs, dim, asked)
	}
	c.Dim = dim
	din, phiDim := d, d
	for range c.Depth {
		s := layerPlan{din: din, m0: m0, m1: m1}
		if m0 > 0 {
			s.phiDim, s.mcs = phiDim, mcs
		}
		p.layers = append(p.layers, s)
		din, phiDim = m1, m1+mcs
	}
	return nil
}

func (p *mapPlan) sizeArccos(d int) error {
	c := &p.cfg
	var m0, m1 int
	if c.Method == ArcCos0 {
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
	p.layers, c.Dim = []layerPlan{{din: d, m0: m0, m1: m1}}, m0+m1
	return nil
}

// drawRFF draws the random Fourier features: W ~ N(0, 2γI) makes
// E[cos(w·(x−y))] = exp(−γ‖x−y‖²), with phases b ~ U[0, 2π).
func (f *Map) drawRFF() {
	c := &f.cfg
	m, d := c.Dim, f.inputDim
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
	f.layers = []*layer{ly}
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
		n += len(ly.w)
		if ly.w32 != nil {
			k, m := ly.w32.Dims()
			n += k * m
		}
	}
	return n
}

// InputDim returns the number of input columns.
func (f *Map) InputDim() int { return f.inputDim }

// Config returns the configuration with every default filled in (Dim is
// the actual output dimension).
func (f *Map) Config() Config { return f.cfg }

// Float32 reports whether the map projects in float32: krr reads it to
// settle the Gram step's arithmetic (krr.DefaultGram).
func (f *Map) Float32() bool { return f.cfg.Float32() }

// uses lists, for every method, the options of Config it reads besides
// Dim, the widths, Normalize and Seed (by their JSON names); the others do
// not change a bit of its features (TestUses).
var uses = map[Method][]string{
	NTK:     {"depth", "sketch", "sampler", "gibbsSweeps"},
	NNGP:    {"depth", "sampler", "gibbsSweeps"},
	ArcCos0: {"sampler"},
	ArcCos1: {"sampler", "gibbsSweeps"},
	Naive:   {"depth", "sampler", "gibbsSweeps"},
	Grad:    {"depth"},
	RFF:     {"gamma"},
}

// Uses returns the options of Config that method reads besides Dim, the
// widths (M0, M1, SketchDim), Normalize and Seed, by their JSON names, so
// a host can grey out or leave unsent the ones it ignores; nil for an
// unknown method.
func Uses(method Method) []string { return slices.Clone(uses[method]) }

// Kernel returns the exact kernel the features of c approximate (their
// expected Gram), or false when there is none here (arccos0: the order-0
// arc-cosine kernel).
func (c Config) Kernel() (kernel.Spec, bool) {
	switch c.Method {
	case "", NTK, Naive, Grad:
		return kernel.Spec{Name: kernel.NameNTK, Depth: c.Depth}, true
	case NNGP:
		return kernel.Spec{Name: kernel.NameNNGP, Depth: c.Depth}, true
	case ArcCos1:
		return kernel.Spec{Name: kernel.NameNNGP, Depth: 1}, true
	case RFF:
		return kernel.Spec{Name: kernel.NameRBF, Gamma: c.Gamma}, true
	}
	return kernel.Spec{}, false
}
