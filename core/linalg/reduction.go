package linalg

import "runtime"

// Reduction is the tridiagonal form T = QᵀCQ of a symmetric matrix C
// together with Q, kept as the reflectors that built it, so that solutions
// computed in T's basis can be brought back: (C+λI)⁻¹R = Q(T+λI)⁻¹QᵀR costs
// a tridiagonal solve and one application of Q for every λ, instead of a
// Cholesky factorization of C+λI each.
type Reduction struct {
	D, E []float64 // T's diagonal and off-diagonal (E[m−1] = 0)

	a    []float64 // the reduced matrix, holding the reflectors
	m    int
	off  int       // reflector i starts at column i+off of row i of a
	tau  []float64 // τ of the reflectors above the diagonal of a
	ts   []float64 // the T of their blocks (applyReflectors)
	nb   int       // two-stage: the band's half-width; 0 for one stage
	tau2 []float64 // two-stage: τ of the bulge-chasing reflectors (chaseLog)
}

// Reduce is Tridiagonalize keeping Q: it reduces the symmetric m×m matrix
// whose upper triangle is in a (row-major, stride m) and returns the
// Reduction and QᵀR for the m×l matrix R in rhs (not modified). a is
// overwritten with Q's reflectors and belongs to the Reduction until its
// last ApplyQ: the one-stage reduction's above the diagonal, the two-stage
// reduction's first stage above the band and its bulge chasing's (m²/2
// values, LAPACK keeps them apart in dsytrd_2stage's HOUS2) in the strict
// lower triangle, which neither stage reads. T and QᵀR are those of
// Tridiagonalize, bit for bit.
func Reduce(a []float64, m int, rhs []float64, l int, progress Progress) (*Reduction, []float64) {
	w := append([]float64(nil), rhs[:m*l]...)
	r := &Reduction{a: a, m: m, off: 1}
	s := scaleUpper(a, m) // see EigSym: the reflectors do not change
	if m >= twoStageMin && twoStage {
		r.off, r.nb = bandWidth, bandWidth
		r.D, r.E, r.tau, r.tau2, r.ts = twoStageReduce(a, m, bandWidth, w, l, true, progress)
	} else {
		r.D, r.E, r.tau, r.ts = oneStageReduce(a, m, w, l, true, progress)
	}
	unscale(s, r.D, r.E)
	return r, w
}

// oneStageReduce is Tridiagonalize for small m: tridiag, then QᵀR; with
// keep, ts holds the T of the reflectors' blocks.
func oneStageReduce(a []float64, m int, w []float64, l int, keep bool, progress Progress) (d, e, tau, ts []float64) {
	d = make([]float64, m)
	e = make([]float64, m)
	tau = make([]float64, max(m-1, 1))
	if tridiag(a, m, d, e, tau, progress) {
		return d, e, tau, nil // stopped: the caller reads its context
	}
	e[m-1] = 0
	if keep {
		ts = make([]float64, tsLen(m, 1))
	}
	applyReflectors(a, m, 1, tau, w, l, true, ts, 0)
	return d, e, tau, ts
}

// ApplyQ overwrites the m×l row-major x with Qx.
func (r *Reduction) ApplyQ(x []float64, l int) {
	if len(x) < r.m*l {
		panic("linalg: ApplyQ: x is shorter than m×l")
	}
	if r.nb > 0 {
		// Q = Q₁Q₂: Q₂ first.
		applyChaseQ(r.a, r.m, r.nb, r.tau2, x, l)
	}
	if r.m-r.off-1 > 0 {
		applyReflectors(r.a, r.m, r.off, r.tau, x, l, false, r.ts, 0)
	}
}

// chaseLog records the reflectors of sb2st: sweep s's, in the order its
// blocks apply them, fill the m−1−s values of row m−1−s of a left of the
// diagonal (the reflector of the block at row i0 at column i0−s−1, its
// leading 1 included), and their τ go to tau from tOff[s] on.
type chaseLog struct {
	a      []float64
	m, nb  int
	tau    []float64
	tOff   []int
	blocks []int // blocks per sweep
}

func newChaseLog(a []float64, m, nb int) *chaseLog {
	sweeps := max(m-2, 0)
	g := &chaseLog{a: a, m: m, nb: nb, tOff: make([]int, sweeps+1), blocks: make([]int, sweeps)}
	for s := range sweeps {
		g.blocks[s] = (m - 1 - s + nb - 1) / nb
		g.tOff[s+1] = g.tOff[s] + g.blocks[s]
	}
	g.tau = make([]float64, g.tOff[sweeps])
	return g
}

// put records the reflector (v, τ) of block j of sweep s, at row i0.
func (g *chaseLog) put(s, j, i0 int, v []float64, tau float64) {
	row := (g.m - 1 - s) * g.m
	copy(g.a[row+i0-s-1:], v)
	g.tau[g.tOff[s]+j] = tau
}

// applyChaseQ overwrites the m×l x with Q₂x, Q₂ the product of the
// reflectors chaseLog recorded, which x meets in the reverse of the order
// sb2st applied them: in compact WY blocks on the AddAtA kernel read in
// place where Q₁'s products run on the AddAtA kernel and the CPU has the
// in-place one (applyOnTile, tileStride; see applyChaseQWY), else one
// reflector at a time (applyChaseQEach).
func applyChaseQ(a []float64, m, nb int, tau2 []float64, x []float64, l int) {
	if applyOnTile && tileStride != nil && chaseQWY {
		applyChaseQWY(tileStride, a, m, nb, tau2, x, l)
		return
	}
	applyChaseQEach(a, m, nb, tau2, x, l)
}

// chaseQWY lets applyChaseQ take applyChaseQWY where it can; benchmarks
// turn it off to compare.
var chaseQWY = true

// applyChaseQEach is applyChaseQ one reflector at a time (WebAssembly and
// the portable build, where the products would run on the scalar tile).
// Columns are independent: x is transposed so that each is contiguous,
// and the cores take groups of chaseGroup columns, to which every
// reflector is applied in turn (a reflector acts on nb rows or fewer, and
// the group's rows stay in cache while the reflectors, m²/2 numbers,
// stream past once per group).
func applyChaseQEach(a []float64, m, nb int, tau2 []float64, x []float64, l int) {
	sweeps := max(m-2, 0)
	if sweeps == 0 || l == 0 {
		return
	}
	xt := make([]float64, l*m)
	for i := range m {
		for c, v := range x[i*l : (i+1)*l] {
			xt[c*m+i] = v
		}
	}
	starts := chaseStarts(m, nb)
	// At least one group per core while groups keep chaseMin columns:
	// the 110 columns of the held-out bracket are 4 groups of chaseGroup,
	// which would leave 12 of 16 cores idle.
	groups := max((l+chaseGroup-1)/chaseGroup, min(runtime.GOMAXPROCS(0), l/chaseMin))
	ParallelFor(groups, func(g int) {
		// Columns c0 … c1−1 of x are rows of xt.
		c0, c1 := l*g/groups, l*(g+1)/groups
		if chase64Host != nil {
			chase64Host(m, nb, a, tau2, xt[c0*m:c1*m], c1-c0)
			return
		}
		chaseRows(a, m, nb, tau2, starts, xt[c0*m:c1*m], c1-c0)
	})
	for i := range m {
		for c := range l {
			x[i*l+c] = xt[c*m+i]
		}
	}
}

// chaseRows applies Q₂ᵀ's reflectors, in applyChaseQ's order, to the
// rows rows of xt (m values each: columns of x), starts[s] the offset of
// sweep s's first τ in tau2.
func chaseRows(a []float64, m, nb int, tau2 []float64, starts []int, xt []float64, rows int) {
	for s := m - 3; s >= 0; s-- {
		row := a[(m-1-s)*m:]
		t := tau2[starts[s]:starts[s+1]]
		// Block j ≥ 1 starts at s+1+n1+(j−1)·nb, block 0 at s+1.
		n1 := min(nb, m-1-s)
		for j := len(t) - 1; j >= 0; j-- {
			if t[j] == 0 {
				continue
			}
			i0, n := s+1, n1
			if j > 0 {
				i0 = s + 1 + n1 + (j-1)*nb
				n = min(nb, m-i0)
			}
			reflectEach(xt[i0:], m, rows, row[i0-s-1:i0-s-1+n], t[j])
		}
	}
}

// chaseStarts returns the offset in tau2 of each of the m−2 sweeps' first
// τ (sweep s has ⌈(m−1−s)/nb⌉), and their total last.
func chaseStarts(m, nb int) []int {
	sweeps := max(m-2, 0)
	starts := make([]int, sweeps+1)
	for s := range sweeps {
		starts[s+1] = starts[s] + (m-1-s+nb-1)/nb
	}
	return starts
}

// chaseGroup is how many columns of x share one pass of applyChaseQ over
// the reflectors.
const chaseGroup = 32

// chaseMin is the fewest columns of a group of applyChaseQ when groups are
// added to keep the cores busy: each group reads all the reflectors.
const chaseMin = 4
