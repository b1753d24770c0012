package rf

import (
	"encoding/binary"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// FuzzFeatures: any tiny input and configuration gives finite features of
// the promised shape, or an error; never a panic or a NaN.
func FuzzFeatures(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint8(2), uint8(2), uint8(0), uint8(2), uint16(16), uint64(1), false)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0x7f}, uint8(1), uint8(1), uint8(1), uint8(1), uint16(8), uint64(2), true)
	f.Add([]byte{}, uint8(3), uint8(3), uint8(6), uint8(3), uint16(64), uint64(3), false)
	methods := []Method{"ntk", "nngp", "arccos0", "arccos1", "naive", "grad", "rff"}
	samplers := []Sampler{"exact", "gibbs", "orthogonal", "gaussian", "hadamard"}
	f.Fuzz(func(t *testing.T, b []byte, rows, cols, method, depth uint8, dim uint16, seed uint64, srht bool) {
		r, c := int(rows%6)+1, int(cols%6)+1
		X := mat.NewDense(r, c, nil)
		raw := X.RawMatrix().Data
		for i := range raw {
			if len(b) >= 8 {
				raw[i] = math.Float64frombits(binary.LittleEndian.Uint64(b))
				b = b[8:]
			} else if len(b) > 0 {
				raw[i] = float64(int8(b[0])) / 16
				b = b[1:]
			}
		}
		cfg := Config{Method: methods[int(method)%len(methods)], Depth: int(depth % 5), Dim: int(dim % 300),
			Sampler: samplers[int(seed>>60)%len(samplers)], Seed: seed, Normalize: seed&1 == 1}
		if srht {
			cfg.Sketch = "tensorsrht"
		}
		fm, err := New(cfg, c)
		if err != nil {
			return
		}
		F, err := fm.Transform(nil, X)
		if err != nil {
			return
		}
		if fr, fc := F.Dims(); fr != r || fc != fm.Dim() {
			t.Fatalf("%+v: %d×%d output, want %d×%d", cfg, fr, fc, r, fm.Dim())
		}
		for _, v := range F.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("%+v: non-finite feature %v for X = %v", cfg, v, raw)
			}
		}
	})
}
