package jsbridge

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"ntkrf/internal/fixture"
)

// TestSolveHoldoutPhi runs the package's distributed fit by hand: two
// chunks accumulated with keep, which leaves the held-out rows out of the
// parts and returns their features (those the features op computes), then
// solve with them (holdoutPhi); raw held-out rows instead of their
// features are refused, since the parts do not hold them.
func TestSolveHoldoutPhi(t *testing.T) {
	t.Parallel()
	const n, d, split = 60, 4, 35
	r := rand.New(rand.NewPCG(7, 8))
	X := make([]float64, n*d)
	y := make([]float64, n)
	for i := range n {
		for j := range d {
			X[i*d+j] = r.NormFloat64()
		}
		y[i] = float64(i % 3)
	}
	held := []int{3, 10, 34, 35, 50, 59} // both chunks, both edges of the split
	// Raw columns: the features op below sees the same rows.
	scaler, _, err := Dispatch("fitScaler", []byte(fmt.Sprintf(`{"X":{"rows":%d,"cols":%d,"array":0},"preprocess":{"standardize":false}}`, n, d)), Input{Arrays: [][]float64{X}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	feat := `"features":{"dim":16,"seed":3},"task":"classification","classes":3,"scaler":` + string(scaler)
	var parts []json.RawMessage
	var arrays [][]float64
	var phi []float64
	for _, c := range [][2]int{{0, split}, {split, n}} {
		var keep []int
		for _, h := range held {
			if h >= c[0] && h < c[1] {
				keep = append(keep, h-c[0])
			}
		}
		kj, _ := json.Marshal(keep)
		args := fmt.Sprintf(`{"X":{"rows":%d,"cols":%d,"array":0},"y":{"array":1},%s,"keep":%s}`, c[1]-c[0], d, feat, kj)
		res, out, err := Dispatch("accumulate", []byte(args), Input{Arrays: [][]float64{X[c[0]*d : c[1]*d], y[c[0]:c[1]]}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var p struct {
			Rows              int
			Mu, Ybar, C, D, E ArrayRef
			Phi               *ArrayRef
		}
		if err := json.Unmarshal(res, &p); err != nil || p.Phi == nil {
			t.Fatalf("accumulate: %s (%v)", res, err)
		}
		if want := c[1] - c[0] - len(keep); p.Rows != want {
			t.Errorf("accumulate of rows %d…%d with %d kept out summed %d rows, want %d", c[0], c[1]-1, len(keep), p.Rows, want)
		}
		phi = append(phi, out[p.Phi.Array]...)
		base := len(arrays)
		arrays = append(arrays, out[p.Mu.Array], out[p.Ybar.Array], out[p.C.Array], out[p.D.Array], out[p.E.Array])
		parts = append(parts, json.RawMessage(fmt.Sprintf(`{"rows":%d,"mu":{"array":%d},"ybar":{"array":%d},"C":{"array":%d},"D":{"array":%d},"E":{"array":%d}}`,
			p.Rows, base, base+1, base+2, base+3, base+4)))
	}
	// The kept rows are the features of the held-out rows.
	hx := make([]float64, 0, len(held)*d)
	hy := make([]float64, 0, len(held))
	for _, h := range held {
		hx = append(hx, X[h*d:(h+1)*d]...)
		hy = append(hy, y[h])
	}
	res, out, err := Dispatch("features", []byte(fmt.Sprintf(`{"X":{"rows":%d,"cols":%d,"array":0},"dim":16,"seed":3}`, len(held), d)), Input{Arrays: [][]float64{hx}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var fr MatrixRef
	if err := json.Unmarshal(res, &fr); err != nil {
		t.Fatalf("features: %s", res)
	}
	fixture.SameBits(t, "kept phi", phi, out[fr.Array])

	pj, _ := json.Marshal(parts)
	k := len(arrays)
	solve := func(holdout string, extra ...[]float64) ([]float64, error) {
		args := fmt.Sprintf(`{"parts":%s,"dim":16,%s,%s}`, pj, feat, holdout)
		res, out, err := Dispatch("solve", []byte(args), Input{Arrays: append(append([][]float64{}, arrays...), extra...)}, nil)
		if err != nil {
			return nil, err
		}
		var m modelRefs
		if err := json.Unmarshal(res, &m); err != nil || m.Coef == nil {
			t.Fatalf("solve: %s", res)
		}
		return out[m.Coef.Array], nil
	}
	coef, err := solve(fmt.Sprintf(`"holdout":{"y":{"array":%d}},"holdoutPhi":{"rows":%d,"cols":16,"array":%d}`, k, len(held), k+1), hy, phi)
	if err != nil || len(coef) != 16*3 {
		t.Fatalf("solve with holdoutPhi: %d coefficients, %v", len(coef), err)
	}
	if _, err := solve(fmt.Sprintf(`"holdout":{"X":{"rows":%d,"cols":%d,"array":%d},"y":{"array":%d}}`, len(held), d, k, k+1), hx, hy); err == nil || !strings.Contains(err.Error(), "holdoutPhi") {
		t.Errorf("solve with raw held-out rows: %v, want an error naming holdoutPhi", err)
	}
	// The criterion is holdout: without the held-out rows solve refuses.
	if _, _, err := Dispatch("solve", []byte(fmt.Sprintf(`{"parts":%s,"dim":16,%s}`, pj, feat)), Input{Arrays: arrays}, nil); err == nil {
		t.Error("solve without the held-out rows succeeded: the test does not reach the holdout path")
	}
}
