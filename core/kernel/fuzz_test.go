package kernel

import (
	"encoding/binary"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// matrixFrom builds a small matrix from fuzz bytes: rows×cols float64s
// taken 8 bytes at a time (any bit pattern: NaN, ±Inf, subnormals, 1e308).
func matrixFrom(b []byte, rows, cols int) *mat.Dense {
	if rows <= 0 || cols <= 0 {
		return &mat.Dense{}
	}
	X := mat.NewDense(rows, cols, nil)
	raw := X.RawMatrix().Data
	for i := range raw {
		if len(b) >= 8 {
			raw[i] = math.Float64frombits(binary.LittleEndian.Uint64(b))
			b = b[8:]
		}
	}
	return X
}

// FuzzKernel: any tiny input gives a symmetric, finite kernel or an error;
// never a panic or a NaN. The ReLU kernels' diagonal is exact, as the
// package doc promises: NNGP_L(x,x) = ‖x‖² and NTK_L(x,x) = (L+1)‖x‖², with
// ‖x‖² summed here in row order.
func FuzzKernel(f *testing.F) {
	seed := func(vals ...float64) []byte {
		b := make([]byte, 8*len(vals))
		for i, v := range vals {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
		}
		return b
	}
	f.Add(seed(1, 2, 0, 0.5, -1, 3, -2, 0.25, 1), uint8(3), uint8(3), uint8(2), uint8(0), 0.5)
	f.Add(seed(0, 0, 1e308, -1e308, 5e-324, 1), uint8(3), uint8(2), uint8(4), uint8(1), 1.0)
	f.Add(seed(1, 1, 1, 1), uint8(2), uint8(2), uint8(64), uint8(2), 1e300)
	f.Add(seed(math.NaN(), math.Inf(1)), uint8(1), uint8(2), uint8(1), uint8(0), 0.0)
	f.Fuzz(func(t *testing.T, b []byte, rows, cols, depth, kind uint8, gamma float64) {
		X := matrixFrom(b, int(rows%9), int(cols%9))
		k := Spec{Name: Names()[int(kind)%len(Names())], Depth: int(depth % 70), Gamma: gamma}
		K, err := k.Gram(X, nil)
		if err != nil {
			return
		}
		k, _ = k.Filled(X.RawMatrix().Cols) // the depth the kernel used: 0 means the default
		n, _ := K.Dims()
		for i := 0; i < n && k.Name != "rbf"; i++ {
			var sq float64
			for _, v := range X.RawRowView(i) {
				sq += v * v
			}
			if k.Name == "ntk" {
				sq *= float64(k.Depth + 1)
			}
			if K.At(i, i) != sq {
				t.Fatalf("%+v: diagonal %d is %v, want exactly %v", k, i, K.At(i, i), sq)
			}
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				v := K.At(i, j)
				if math.IsNaN(v) {
					t.Fatalf("%+v: NaN at (%d,%d) for X = %v", k, i, j, X.RawMatrix().Data)
				}
				if v != K.At(j, i) {
					t.Fatalf("%+v: not symmetric at (%d,%d)", k, i, j)
				}
			}
		}
	})
}
