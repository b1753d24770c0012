package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestArccosIsMathAcos holds arccos to math.Acos bit for bit: at the ends,
// at every branch boundary of Go's asin and satan and beside it, and on
// random values over [−1, 1] with many near ±1 and 0.
func TestArccosIsMathAcos(t *testing.T) {
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 0.7, -0.7, 0.5, -0.5, 1e-300, -1e-300, 5e-324}
	// Go's asin branches at |x| = 0.7; satan at 0.66 and tan(3π/8), reached
	// through x/√(1−x²) and √(1−x²)/x: their preimages and the next floats.
	for _, r := range []float64{0.66, 2.41421356237309504880} {
		u := r / math.Sqrt(1+r*r)
		xs = append(xs, u, math.Sqrt(1-u*u))
	}
	for _, x := range append([]float64(nil), xs...) {
		for _, d := range []float64{math.Inf(1), math.Inf(-1)} {
			xs = append(xs, math.Nextafter(x, d))
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	for range 200000 {
		xs = append(xs, 2*r.Float64()-1, 1-math.Ldexp(r.Float64(), -r.IntN(50)), math.Ldexp(r.Float64()-0.5, -r.IntN(60)))
	}
	for _, x := range xs {
		if x < -1 || x > 1 {
			continue
		}
		if got, want := arccos(x), math.Acos(x); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("arccos(%v) = %v, math.Acos gives %v", x, got, want)
		}
	}
}

// reluOracle is the recursion as it was before reluRow, one call per
// entry through math.Acos, math.Max and math.Min: the bits every kernel
// path must keep.
func reluOracle(g, a, b float64, x, z []float64, depth int, ntk bool) float64 {
	if depth == 0 {
		if a == 0 || b == 0 {
			return 0
		}
		return g
	}
	if a == 0 || b == 0 {
		return 0
	}
	ab := a * b
	c := math.Max(-1, math.Min(1, g/ab))
	var theta, omc, opc float64
	if math.Abs(c) > nearParallel {
		theta = kahanAngle(x, a, z, b)
		s, co := math.Sincos(theta / 2)
		omc, opc = 2*s*s, 2*co*co
		c = 1 - omc
	} else {
		theta = math.Acos(c)
		omc, opc = 1-c, 1+c
	}
	k, nngp := g, 0.0
	for l := 0; l < depth; l++ {
		sin := math.Sqrt(omc * opc)
		f0 := 1 - theta/math.Pi
		var cn, omcn, thetan float64
		if theta < 0.1 {
			t2 := theta * theta
			series := -theta * t2 * (1.0/3 - t2*(1.0/30-t2*(1.0/840-t2*(1.0/45360-t2/3991680))))
			omcn = omc + series/math.Pi
			cn = 1 - omcn
			if l+1 < depth {
				thetan = 2 * math.Asin(math.Sqrt(omcn/2))
			}
		} else {
			cn = (sin + (math.Pi-theta)*c) / math.Pi
			omcn = 1 - cn
			if l+1 < depth {
				thetan = math.Acos(cn)
			}
		}
		nngp = ab * cn
		k = nngp + k*f0
		c, omc, opc, theta = cn, omcn, 1+cn, thetan
	}
	if ntk {
		return k
	}
	return nngp
}

// angleRows returns rows whose pairs cover every branch of the recursion:
// random directions, zero rows, parallel and opposite rows, rows a tiny
// angle apart (the near-parallel branch, θ < 0.1 and the series), and
// angles either side of θ = 0.1 and of |c| = nearParallel.
func angleRows(r *rand.Rand, n, d int) *mat.Dense {
	X := mat.NewDense(n, d, nil)
	base := make([]float64, d)
	for j := range base {
		base[j] = r.NormFloat64()
	}
	for i := range n {
		row := X.RawRowView(i)
		switch i % 6 {
		case 0: // random
			for j := range row {
				row[j] = r.NormFloat64()
			}
		case 1: // zero row (one in a few hundred stays random)
			if r.IntN(50) == 0 {
				for j := range row {
					row[j] = r.NormFloat64()
				}
			}
		case 2, 3: // base turned by a small angle, scaled; opposite for case 3
			eps := math.Ldexp(1, -r.IntN(30)) * 0.2
			s := (0.5 + r.Float64()) * float64(1-2*(i%6-2))
			for j := range row {
				row[j] = s * (base[j] + eps*r.NormFloat64())
			}
		case 4: // angles near 0.1 and near acos(nearParallel)
			th := []float64{0.1, math.Acos(nearParallel), math.Pi - 0.1}[r.IntN(3)] * (1 + 1e-3*(r.Float64()-0.5))
			row[0], row[1] = math.Cos(th), math.Sin(th)
			for j := 2; j < d; j++ {
				row[j] = 0
			}
		default: // exactly base (parallel)
			copy(row, base)
		}
	}
	// The rows of case 4 pair with the x-axis: put it in.
	X.RawRowView(n - 1)[0] = 1
	for j := 1; j < d; j++ {
		X.RawRowView(n - 1)[j] = 0
	}
	return X
}

// TestKernelsKeepTheRecursionsBits: NTK, NNGP and their Cross forms at every
// depth, and Depths, give reluOracle's bits entry for entry.
func TestKernelsKeepTheRecursionsBits(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, d := range []int{2, 3, 17} {
		X := angleRows(r, 97, d)
		Z := angleRows(r, 61, d)
		G := innerProducts(X, X, true)
		C := innerProducts(X, Z, false)
		norm := func(M *mat.Dense, i int) float64 { return math.Sqrt(sq(M.RawRowView(i))) }
		for depth := 1; depth <= MaxDepth; depth++ {
			for _, ntk := range []bool{true, false} {
				sym := map[bool]func(*mat.Dense, int) (*mat.Dense, error){true: NTK, false: NNGP}[ntk]
				cross := map[bool]func(*mat.Dense, *mat.Dense, int) (*mat.Dense, error){true: NTKCross, false: NNGPCross}[ntk]
				K, err := sym(X, depth)
				if err != nil {
					t.Fatal(err)
				}
				KZ, err := cross(X, Z, depth)
				if err != nil {
					t.Fatal(err)
				}
				name := map[bool]Name{true: NameNTK, false: NameNNGP}[ntk]
				all, err := Spec{Name: name}.Depths(t.Context(), X, []int{depth})
				if err != nil {
					t.Fatal(err)
				}
				n, m := X.RawMatrix().Rows, Z.RawMatrix().Rows
				for i := range n {
					for j := range m {
						want := reluOracle(C.At(i, j), norm(X, i), norm(Z, j), X.RawRowView(i), Z.RawRowView(j), depth, ntk)
						if got := KZ.At(i, j); math.Float64bits(got) != math.Float64bits(want) {
							t.Fatalf("d %d, depth %d, ntk %v: cross (%d, %d) = %v, the recursion gives %v", d, depth, ntk, i, j, got, want)
						}
					}
					for j := i + 1; j < n; j++ {
						want := reluOracle(G.At(i, j), norm(X, i), norm(X, j), X.RawRowView(i), X.RawRowView(j), depth, ntk)
						if got := K.At(i, j); math.Float64bits(got) != math.Float64bits(want) {
							t.Fatalf("d %d, depth %d, ntk %v: (%d, %d) = %v, the recursion gives %v", d, depth, ntk, i, j, got, want)
						}
						if got := all[0].At(i, j); math.Float64bits(got) != math.Float64bits(want) {
							t.Fatalf("d %d, depth %d, ntk %v: Depths (%d, %d) = %v, the recursion gives %v", d, depth, ntk, i, j, got, want)
						}
					}
				}
			}
		}
	}
}

func sq(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return s
}
