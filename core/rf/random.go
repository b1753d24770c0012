package rf

import (
	"math"
	"math/rand/v2"

	"ntkrf/core/linalg"
	"ntkrf/internal/pmath"
)

// Stream tags: every random object draws from its own stream, derived from
// the seed and a tag, so that it does not depend on which other objects a
// configuration builds or in which order.
const (
	tagA0       = 1 // a0 (Step) directions of a layer
	tagA1       = 2 // a1 (ReLU) directions of a layer
	tagSk0      = 3 // sketch applied to Λ
	tagSk1      = 4 // sketch applied to Φ of the previous layer
	tagBias     = 5 // RFF phases
	tagHead     = 6 // output weights of the "grad" network
	tagSigns    = 7 // second set of signs inside a sketch
	tagHadamard = 8 // sign diagonals of the "hadamard" sampler
)

// splitmix64 is a bijective mixer: streams from nearby seeds and tags start
// from unrelated PCG states.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// newStream returns the random stream for object tag of layer layer.
func newStream(seed uint64, layer, tag int) *rand.Rand {
	k := splitmix64(uint64(layer)<<8 | uint64(tag))
	return rand.New(rand.NewPCG(splitmix64(seed^k), splitmix64(seed+k)))
}

// gauss draws standard normal numbers with Marsaglia's polar method on the
// portable logarithm, so the same stream gives the same numbers on every
// platform (rand.NormFloat64 uses math.Exp and math.Log in its tails).
type gauss struct {
	r     *rand.Rand
	spare float64
	has   bool
}

func (g *gauss) next() float64 {
	if g.has {
		g.has = false
		return g.spare
	}
	for {
		u := 2*g.r.Float64() - 1
		v := 2*g.r.Float64() - 1
		s := float64(u*u) + float64(v*v)
		if s >= 1 || s == 0 {
			continue
		}
		f := math.Sqrt(-2 * pmath.Log(s) / s)
		g.spare, g.has = v*f, true
		return u * f
	}
}

// uniformOpen returns a uniform number in the open interval (0, 1).
func uniformOpen(r *rand.Rand) float64 {
	return (float64(r.Uint64()>>11) + 0.5) / (1 << 53)
}

// gaussianRows returns m rows of d standard normal numbers (row-major m×d).
func gaussianRows(g *gauss, m, d int) []float64 {
	w := make([]float64, m*d)
	for i := range w {
		w[i] = g.next()
	}
	return w
}

// directions returns m unit vectors in R^d (row-major m×d) drawn by
// sampler: "exact" normalizes Gaussian vectors (v/‖v‖ for v ~ q is uniform
// on the sphere, REFERENCE.md), "gibbs" runs the paper's Gibbs chain for
// q(v) ∝ ‖v‖² N(v; 0, I) and normalizes, "orthogonal" orthonormalizes
// blocks of d Gaussian vectors (Haar-distributed rows, each uniform).
func directions(sampler Sampler, r *rand.Rand, m, d, sweeps int) []float64 {
	g := &gauss{r: r}
	var w []float64
	switch sampler {
	case Exact:
		w = gaussianRows(g, m, d)
	case Gibbs:
		w = gaussianRows(g, m, d)
		for i := 0; i < m; i++ {
			gibbsChain(r, w[i*d:(i+1)*d], sweeps)
		}
	case Orthogonal:
		w = gaussianRows(g, m, d)
		for lo := 0; lo < m; lo += d {
			orthonormalize(w[lo*d:min(lo+d, m)*d], d)
		}
		return w
	default:
		panic("rf: directions called with sampler " + sampler)
	}
	for i := 0; i < m; i++ {
		normalize(w[i*d : (i+1)*d])
	}
	return w
}

// normalize scales v to unit norm; a zero vector (probability zero for a
// Gaussian draw) is left zero.
func normalize(v []float64) {
	var s float64
	for _, x := range v {
		s += float64(x * x)
	}
	if s > 0 {
		inv := 1 / math.Sqrt(s)
		for i := range v {
			v[i] *= inv
		}
	}
}

// orthonormalize applies modified Gram–Schmidt to the k ≤ d rows of the
// row-major k×d block b. For Gaussian rows this is QR with a positive
// diagonal of R, so the rows are the first k rows of a Haar-distributed
// orthogonal matrix.
//
// Every row i goes through the same operations as in the textbook loop —
// p = Σ_t v_i[t]·v_j[t] summed in increasing t, then v_i −= p·v_j, for
// j = 0 … i−1 in order, then normalization — so the bits are those of
// the plain loop (orthonormalizeMGS in the tests), on every platform and
// for any number of cores. Only the schedule differs: once a panel of
// orthoPanel rows is final, the rows below it take their projections on
// that panel in groups of 16 (independent sums in flight instead of one
// latency-bound chain; on AVX four rows to a vector, the groups kept
// packed until their own panel comes), and the groups run on all cores.
// The textbook loop took 18 s for a depth-2 map at d = 784, m = 4096 on
// two cores.
func orthonormalize(b []float64, d int) {
	k := len(b) / d
	full := 0 // groups of 16 rows held packed (pack16) until their panel
	if packed16 {
		full = k / 16
		orthoEach(full, k*d, func(g int) { pack16(b[16*g*d:16*(g+1)*d], d) })
	}
	for j0 := 0; j0 < k; j0 += orthoPanel {
		j1 := min(j0+orthoPanel, k)
		for g := j0 / 16; g < min(full, (j1+15)/16); g++ {
			unpack16(b[16*g*d:16*(g+1)*d], d)
		}
		// The panel itself, right-looking: once row i is final, the rows
		// after it take its projection, four at a time.
		for i := j0; i < j1; i++ {
			vi := b[i*d : (i+1)*d]
			normalize(vi)
			r := i + 1
			for ; r+4 <= j1; r += 4 {
				project4(b[r*d:(r+1)*d], b[(r+1)*d:(r+2)*d], b[(r+2)*d:(r+3)*d], b[(r+3)*d:(r+4)*d], vi, 1)
			}
			for ; r < j1; r++ {
				project1(b[r*d:(r+1)*d], vi)
			}
		}
		panel := b[j0*d : j1*d]
		nj := j1 - j0
		// Rows j1 … k−1: whole packed groups g0 … full−1, then the
		// others (unpacked) in groups of 16.
		g0 := min(j1/16, full)
		lo := max(j1, 16*full)
		packedGroups := full - g0
		update := func(g int) {
			if g < packedGroups {
				i0 := 16 * (g0 + g)
				projectPacked16(b[i0*d:(i0+16)*d], panel, nj, d)
				return
			}
			i0 := lo + 16*(g-packedGroups)
			i1 := min(i0+16, k)
			if i1-i0 == 16 {
				projectGroup16Portable(b[i0*d:i1*d], panel, nj, d)
				return
			}
			for ; i0+4 <= i1; i0 += 4 {
				project4(b[i0*d:(i0+1)*d], b[(i0+1)*d:(i0+2)*d], b[(i0+2)*d:(i0+3)*d], b[(i0+3)*d:(i0+4)*d], panel, nj)
			}
			for j := range nj {
				for i := i0; i < i1; i++ {
					project1(b[i*d:(i+1)*d], panel[j*d:(j+1)*d])
				}
			}
		}
		orthoEach(packedGroups+(k-lo+15)/16, (k-j1)*nj*d, update)
	}
}

// orthoEach calls f(0 … n−1), on all cores when the work (multiply–adds)
// is large enough to pay for it.
func orthoEach(n, work int, f func(int)) {
	if work < orthoParallel {
		for i := range n {
			f(i)
		}
		return
	}
	linalg.ParallelFor(n, f)
}

// orthoPanel is the number of final rows whose projections a row takes in
// one pass: 32 rows of d = 1672 (a depth-2 layer) are 428 KiB, which stay
// in L2 while each group of rows passes over them.
const orthoPanel = 32

// orthoParallel is the number of multiply–adds below which a panel's
// update runs on one goroutine.
const orthoParallel = 1 << 16

// project1 sets v −= (v·u)·u, the dot product summed in increasing index.
func project1(v, u []float64) {
	u = u[:len(v)]
	var p float64
	for t := range v {
		p += float64(v[t] * u[t])
	}
	for t := range v {
		v[t] -= float64(p * u[t])
	}
}

// projectGroup16Portable applies the nj×d panel's projections to the 16
// consecutive rows of length d in v: project4 on each four.
func projectGroup16Portable(v, panel []float64, nj, d int) {
	for r := 0; r < 16; r += 4 {
		project4(v[r*d:(r+1)*d], v[(r+1)*d:(r+2)*d], v[(r+2)*d:(r+3)*d], v[(r+3)*d:(r+4)*d], panel, nj)
	}
}

// project4 applies project1 with each of the nj rows of panel (nj×d) in
// turn to four rows at once. The update by one panel row and the dot
// product with the next share one pass over the rows (each v[t] is
// updated, then multiplied: the operations and order of project1), with
// four independent sums in flight.
func project4(v0, v1, v2, v3, panel []float64, nj int) {
	n := len(v0)
	v0, v1, v2, v3 = v0[:n], v1[:n], v2[:n], v3[:n]
	var p0, p1, p2, p3 float64
	for t, w := range panel[:n] {
		p0 += float64(v0[t] * w)
		p1 += float64(v1[t] * w)
		p2 += float64(v2[t] * w)
		p3 += float64(v3[t] * w)
	}
	for j := 0; j+1 < nj; j++ {
		u := panel[j*n : (j+1)*n]
		x := panel[(j+1)*n : (j+2)*n]
		var q0, q1, q2, q3 float64
		for t, w := range u {
			a0 := v0[t] - float64(p0*w)
			a1 := v1[t] - float64(p1*w)
			a2 := v2[t] - float64(p2*w)
			a3 := v3[t] - float64(p3*w)
			v0[t], v1[t], v2[t], v3[t] = a0, a1, a2, a3
			y := x[t]
			q0 += float64(a0 * y)
			q1 += float64(a1 * y)
			q2 += float64(a2 * y)
			q3 += float64(a3 * y)
		}
		p0, p1, p2, p3 = q0, q1, q2, q3
	}
	for t, w := range panel[(nj-1)*n : nj*n] {
		v0[t] -= float64(p0 * w)
		v1[t] -= float64(p1 * w)
		v2[t] -= float64(p2 * w)
		v3[t] -= float64(p3 * w)
	}
}

// gibbsChain runs sweeps Gibbs sweeps over the coordinates of v targeting
// q(v) ∝ ‖v‖² N(v; 0, I) (paper Algorithm 2). Each coordinate is redrawn
// from its conditional by inverting its CDF.
func gibbsChain(r *rand.Rand, v []float64, sweeps int) {
	for t := 0; t < sweeps; t++ {
		var total float64
		for _, x := range v {
			total += float64(x * x)
		}
		for j := range v {
			z := math.Max(total-float64(v[j]*v[j]), 0)
			v[j] = conditionalQuantile(uniformOpen(r), z)
			total = z + float64(v[j]*v[j])
		}
	}
}

const invSqrt2Pi = 0.398942280401432677939946059934381868 // 1/√(2π)

// conditionalCDF is the CDF of q(x | rest) ∝ (z + x²) φ(x), with z the sum
// of squares of the other coordinates (the paper's footnote):
// Φ(x) − x φ(x)/(1+z). It is evaluated for x ≤ 0 only, where both terms
// are positive and the lower tail keeps full relative precision.
func conditionalCDF(x, z float64) float64 {
	phi := invSqrt2Pi * pmath.Exp(-0.5*float64(x*x))
	return 0.5*pmath.Erfc(-x/math.Sqrt2) - float64(x*phi)/(1+z)
}

// conditionalQuantile returns x with conditionalCDF(x, z) = u for u in
// (0, 1). The density is even, so u > 1/2 is solved as −x(1−u). The root is
// bracketed in [lo, 0] and found by Newton steps that fall back to
// bisection whenever they leave the bracket.
func conditionalQuantile(u, z float64) float64 {
	if u > 0.5 {
		return -conditionalQuantile(1-u, z)
	}
	lo, hi := -1.0, 0.0
	for conditionalCDF(lo, z) > u && lo > -64 {
		hi, lo = lo, 2*lo
	}
	x := 0.5 * (lo + hi)
	for it := 0; it < 200; it++ {
		f := conditionalCDF(x, z) - u
		if f == 0 {
			return x
		}
		if f > 0 {
			hi = x
		} else {
			lo = x
		}
		dens := (z + float64(x*x)) / (1 + z) * invSqrt2Pi * pmath.Exp(-0.5*float64(x*x))
		next := x - f/dens
		if !(next > lo && next < hi) {
			next = 0.5 * (lo + hi)
		}
		if math.Abs(next-x) <= 1e-15*math.Max(1, math.Abs(x)) || hi-lo <= 1e-15*math.Max(1, math.Abs(lo)) {
			return next
		}
		x = next
	}
	return x
}
