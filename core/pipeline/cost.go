package pipeline

import (
	"fmt"

	"ntkrf/core/krr"
	"ntkrf/core/names"
	"ntkrf/core/rf"
)

// Costs is the cost model of a fit: the work of each step, in multiply-add
// units of its formula (below), and how many units a second one core does
// natively and one WebAssembly worker does. It is the one table that the
// 'auto' selection (the method and m, see methodChoice), the lab's time
// estimate (through the bridge, jsbridge.Core) and the documentation read.
// The rates were measured on the 2-core machine of docs/PERFORMANCE.md
// (cost-model section), each step timed alone.
type Costs struct {
	// Features: the first layer's projection, per n·m·d.
	Features float64 `json:"features"`
	// Layers: each further layer of NTK features, per n·m²/2.
	Layers float64 `json:"layers"`
	// Gram: ΦᵀΦ (primal) or ΦΦᵀ (dual), per n·m·min(n, m).
	Gram float64 `json:"gram"`
	// Lambda: the λ search of a feature fit (an eigendecomposition of the
	// min(n, m)-square Gram and the criterion over the grid), per k³.
	Lambda float64 `json:"lambda"`
	// Kernel: an exact kernel matrix, per n²·(d + 2·depth).
	Kernel float64 `json:"kernel"`
	// Candidate: one candidate of the 'auto' selection, or an exact fit
	// with λ 'auto': the kernel's reduction to tridiagonal form with Q
	// (krr.KernelCurve), per s³.
	Candidate float64 `json:"candidate"`
	// LOO: the leave-one-out predictions of that curve, per
	// s²·outputs·λs.
	LOO float64 `json:"loo"`
	// Exact: an exact fit at a fixed λ (a Cholesky solve), per n³.
	Exact float64 `json:"exact"`
	// NativeRate is the units a second of one core natively, WasmRate of
	// one WebAssembly worker.
	NativeRate float64 `json:"nativeRate"`
	WasmRate   float64 `json:"wasmRate"`
	// Overhead is the seconds every fit takes whatever its size natively
	// (statistics, the plan, copies); WasmOverhead in the package (workers'
	// calls, copies between them): 0.15 s, from warm fits of the bundled
	// tables (iris, wine, Glass: 0.15–0.30 s measured with the package's 2
	// workers at load ~3, `node bench/cost-check.mjs`; 0.5 s, measured under
	// load, overestimated them 3–5×).
	Overhead     float64 `json:"overhead"`
	WasmOverhead float64 `json:"wasmOverhead"`
	// WasmWarmup is the seconds a page's first training run takes beyond
	// the rate, once: the engine optimising its hot code as it first runs
	// it, and its memory growing. Measured in the lab's first Train
	// after the playground had drawn (Glass +0.4 s, Boston housing +1.2 s)
	// and in a fresh engine's first fit (iris +1.2 s over its next two).
	WasmWarmup float64 `json:"wasmWarmup"`
	// Lambdas is the number of λ values a λ search scores by default
	// (krr.GridPoints), for hosts that model the LOO term.
	Lambdas int `json:"lambdas"`
	// ScreenRows, MinScreenRows and ScreenKeep are the selection's
	// successive halving (the package variables of the same names, see
	// screenPlan), for hosts that model the search: every candidate on
	// min(ScreenRows, s/2) rows when that is at least MinScreenRows and
	// there are more than ScreenKeep candidates, then ScreenKeep of them
	// on all s search rows.
	ScreenRows    int `json:"screenRows"`
	MinScreenRows int `json:"minScreenRows"`
	ScreenKeep    int `json:"screenKeep"`
}

// DefaultCosts returns the cost model (see Costs): rates measured on this
// project's 2-core machine; the exact-vs-features rule depends on the
// ratios of the coefficients only.
func DefaultCosts() Costs { return defaultCosts }

// defaultCosts is DefaultCosts.
var defaultCosts = Costs{
	Features:     2,
	Layers:       1,
	Gram:         0.5,
	Lambda:       1.5,
	Kernel:       1,
	Candidate:    3.5,
	LOO:          1,
	Exact:        0.3,
	NativeRate:   8e9,
	WasmRate:     2.7e9,
	Overhead:     0.02,
	WasmOverhead: 0.15,
	WasmWarmup:   1,
	Lambdas:      krr.GridPoints,

	ScreenRows:    ScreenRows,
	MinScreenRows: MinScreenRows,
	ScreenKeep:    ScreenKeep,
}

// Work is a fit's modelled work, by step, in the units of Costs.
type Work struct {
	Features float64 `json:"features"` // projections (all layers)
	Gram     float64 `json:"gram"`     // ΦᵀΦ or ΦΦᵀ
	Lambda   float64 `json:"lambda"`   // λ search of features
	Kernel   float64 `json:"kernel"`   // exact kernel matrices (fit and candidates)
	Search   float64 `json:"search"`   // the candidates' leave-one-out ('auto')
	Exact    float64 `json:"exact"`    // the exact fit's solve (with its λ search)
}

// Plus is the work of w and v together.
func (w Work) Plus(v Work) Work {
	return Work{Features: w.Features + v.Features, Gram: w.Gram + v.Gram, Lambda: w.Lambda + v.Lambda,
		Kernel: w.Kernel + v.Kernel, Search: w.Search + v.Search, Exact: w.Exact + v.Exact}
}

// Total is the sum of the steps.
func (w Work) Total() float64 {
	return w.Features + w.Gram + w.Lambda + w.Kernel + w.Search + w.Exact
}

// Seconds is w's time on workers cores natively (wasm false) or workers
// WebAssembly workers: the overhead plus the work at the rate, the
// parallel steps divided among the workers.
func (c Costs) Seconds(w Work, workers int, wasm bool) float64 {
	rate, over := c.NativeRate, c.Overhead
	if wasm {
		rate, over = c.WasmRate, c.WasmOverhead
	}
	return over + w.Total()/(rate*float64(max(workers, 1)))
}

// FeatureFit is the work of a feature fit of n rows of d columns, m
// features of the given depth, outputs targets (classes), λ searched.
func (c Costs) FeatureFit(n, d, m, depth, outputs int) Work {
	N, D, M, k := float64(n), float64(d), float64(m), float64(min(n, m))
	return Work{
		Features: c.Features*N*M*D + c.Layers*float64(max(depth-1, 0))*N*M*M/2,
		Gram:     c.Gram * N * M * k,
		Lambda:   c.Lambda*k*k*k + c.LOO*k*k*float64(outputs),
	}
}

// ExactFit is the work of an exact kernel fit of n rows, λ searched by
// leave-one-out over lambdas values (the dual's curve) or fixed (lambdas
// 0).
func (c Costs) ExactFit(n, d, depth, outputs, lambdas int) Work {
	N := float64(n)
	w := Work{Kernel: c.Kernel * N * N * float64(d+2*depth)}
	if lambdas > 0 {
		w.Exact = c.Candidate*N*N*N + c.LOO*N*N*float64(outputs*lambdas)
	} else {
		w.Exact = c.Exact * N * N * N
	}
	return w
}

// SearchWork is the work of scoring candidates candidates of the given
// depths' mean on s rows (krr.KernelCurve each).
func (c Costs) SearchWork(candidates, s, d, depth, outputs, lambdas int) Work {
	S, k := float64(s), float64(candidates)
	return Work{
		Kernel: k * c.Kernel * S * S * float64(d+2*depth),
		Search: k * (c.Candidate*S*S*S + c.LOO*S*S*float64(outputs*lambdas)),
	}
}

// ScreenedWork is SearchWork as the selection runs it (screenPlan): with
// successive halving, every candidate on the screen's rows, then the kept
// ones on all s.
func (c Costs) ScreenedWork(candidates, s, d, depth, outputs, lambdas int) Work {
	screen, keep := screenPlan(candidates, s)
	if screen == 0 {
		return c.SearchWork(candidates, s, d, depth, outputs, lambdas)
	}
	return c.SearchWork(candidates, screen, d, depth, outputs, lambdas).Plus(c.SearchWork(keep, s, d, depth, outputs, lambdas))
}

// Feature dimensions 'auto' chooses among (methodChoice): the default, and
// larger ones while the time allows.
const (
	// MaxAutoDim is the largest m 'auto' gives the features.
	MaxAutoDim = 4096
	// MaxExactRows bounds the rows 'auto' fits the exact kernel on: its
	// n×n matrix and Q (2·8·n² bytes, 0.8 GB at 7,000 rows).
	MaxExactRows = 7000
	// autoDimRows: m doubles only while there are at least this many rows
	// per feature (the paper's regime, n ≫ m, where m limits the
	// accuracy: LetterRecognition's 15,000 rows score 0.911 at m = 1,024,
	// 0.940 at 2,048, 0.959 at 4,096 on one 75/25 split).
	autoDimRows = 2
	// autoDimBudget: the fit at a larger m may cost this many times the
	// search (a cost that does not grow with the rows, so that m stays at
	// the default where the rows alone make the fit long, and grows
	// nowhere without a search).
	autoDimBudget = 8
)

// methodChoice is 'auto”s choice of the method (Selection.Method): the
// exact kernel where its fit costs no more than the greater of the
// default features' fit and the search of every candidate on all the
// search rows (so 'auto' at most doubles the time of such a search for it;
// the successive halving, ScreenRows, makes the search itself cheaper
// without changing this budget), features otherwise, with m doubled from
// rf.DefaultDim up to MaxAutoDim while the fit at the larger m costs no
// more than that same budget (the paper's regime, n ≫ m, where m is what
// limits the accuracy).
type methodChoice struct {
	Method Method  // MethodKernel or MethodFeatures
	Dim    int     // features: m
	Carry  bool    // kernel: fitted at the chosen candidate's λ (see chooseMethod)
	Reason string  // in words, with the modelled seconds
	Work   Work    // the chosen fit's modelled work (the search apart)
	Budget float64 // the work the choice was held to
}

// methodOpen reports whether cfg leaves the method to 'auto': no kernel,
// and NTK features (the default method) whose width nothing fixes (Dim,
// M0, M1, SketchDim, the sketch and the sampler unset). The depth, the
// seed and the precision may be given.
func methodOpen(cfg Config) bool {
	if cfg.Kernel != nil {
		return false
	}
	f := cfg.Features
	f.Depth, f.Seed, f.Precision = 0, 0, ""
	if f.Method == names.NTK {
		f.Method = ""
	}
	return f == rf.Config{}
}

// chooseMethod is methodChoice for a fit of rows rows of cols columns
// (after preprocessing) whose selection costs search. With carry, the
// selection's chosen candidate was scored on fewer rows than the fit's
// and λ is open: an exact fit then takes that candidate's λ (one Cholesky
// solve, Costs.Exact) instead of searching λ again on all the rows (a
// reduction of the n×n kernel, Costs.Candidate, 10× the work): where the
// search scored every row, the fit's λ search is the candidate's curve
// again and costs a search's candidate.
func (c Costs) chooseMethod(cfg Config, opt krr.Options, rows, cols int, search Work, carry bool) methodChoice {
	outputs := 1
	if opt.Task == krr.Classification {
		outputs = opt.Classes
	}
	depth := max(cfg.Features.Depth, 1)
	base := c.FeatureFit(rows, cols, rf.DefaultDim, depth, outputs)
	budget := max(base.Total(), search.Total())
	lambdas, at := lambdasOf(opt), ""
	if carry && lambdas > 0 {
		lambdas, at = 0, " at the search's λ"
	} else {
		carry = false
	}
	exact := c.ExactFit(rows, cols, depth, outputs, lambdas)
	if rows <= MaxExactRows && exact.Total() <= budget {
		return methodChoice{Method: names.MethodKernel, Carry: carry, Work: exact, Budget: budget,
			Reason: fmt.Sprintf("the exact kernel on %d rows%s (%s) costs no more than %d random features (%s) or every candidate on all the search rows (%s)",
				rows, at, c.cpuText(exact), rf.DefaultDim, c.cpuText(base), c.cpuText(search))}
	}
	m, w := rf.DefaultDim, base
	for next := 2 * m; next <= MaxAutoDim && rows >= autoDimRows*next; next *= 2 {
		nw := c.FeatureFit(rows, cols, next, depth, outputs)
		if nw.Total() > autoDimBudget*search.Total() {
			break
		}
		m, w = next, nw
	}
	why := fmt.Sprintf("the exact kernel on %d rows%s (%s) costs more than %d random features (%s) and every candidate on all the search rows (%s)",
		rows, at, c.cpuText(exact), rf.DefaultDim, c.cpuText(base), c.cpuText(search))
	if rows > MaxExactRows {
		why = fmt.Sprintf("%d rows are more than the exact kernel's %d", rows, MaxExactRows)
	}
	if m > rf.DefaultDim {
		why += fmt.Sprintf("; with %d rows per feature or more, m = %d costs at most %d× that search (%s)", autoDimRows, m, autoDimBudget, c.cpuText(w))
	}
	return methodChoice{Method: names.MethodFeatures, Dim: m, Work: w, Budget: budget, Reason: why}
}

// applyTo sets cfg's method as chosen.
func (mc methodChoice) applyTo(cfg Config) Config {
	if mc.Method == names.MethodKernel {
		k, _ := cfg.Features.Kernel()
		cfg.Kernel = &k
		cfg.Features = rf.Config{}
		cfg.carryLambda = mc.Carry
	} else {
		cfg.Features.Dim = mc.Dim
	}
	return cfg
}

// lambdasOf is the number of λ values the selection and a dual fit score.
func lambdasOf(opt krr.Options) int {
	if opt.Lambda > 0 {
		return 0
	}
	if len(opt.Grid) > 0 {
		return len(opt.Grid)
	}
	return krr.GridPoints
}

// cpuText is the modelled CPU seconds of w natively, in words.
func (c Costs) cpuText(w Work) string {
	return fmt.Sprintf("%.2g CPU-s", w.Total()/c.NativeRate)
}
