package jsbridge

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite ../testdata/checksums.json from this platform")

// checksumX is the input of the golden checksums: x_ij = ((7i + 3j) mod 11 − 5)/4,
// exact in binary, so every language builds the same bits.
func checksumX(rows, cols int) []float64 {
	x := make([]float64, rows*cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			x[i*cols+j] = float64((7*i+3*j)%11-5) / 4
		}
	}
	return x
}

// fnv64a is FNV-1a over the little-endian IEEE bits of the values, as
// the model cache keys them.
func fnv64a(v []float64) string { return fmt.Sprintf("%016x", bitsHash(v)) }

type goldenFile struct {
	About   string `json:"about"`
	Rows    int    `json:"rows"`
	Cols    int    `json:"cols"`
	Entries []struct {
		Options json.RawMessage `json:"options"`
		FNV64a  string          `json:"fnv64a"`
	} `json:"entries"`
}

// TestFeatureChecksums: the features op gives the bits pinned in
// testdata/checksums.json. The same file is checked by the Node and browser
// tests through the JS package, so passing everywhere means native Go, Go in
// wasm, Node and Chromium produce bit-identical features.
func TestFeatureChecksums(t *testing.T) {
	b, err := os.ReadFile("../testdata/checksums.json")
	if err != nil {
		t.Fatal(err)
	}
	var g goldenFile
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	x := checksumX(g.Rows, g.Cols)
	for i, e := range g.Entries {
		var opts map[string]any
		if err := json.Unmarshal(e.Options, &opts); err != nil {
			t.Fatal(err)
		}
		opts["X"] = MatrixRef{Rows: g.Rows, Cols: g.Cols, Array: 0}
		args, _ := json.Marshal(opts)
		res, out, err := Dispatch("features", args, Input{Arrays: [][]float64{append([]float64{}, x...)}}, nil)
		if err != nil {
			t.Fatalf("%s: %v", e.Options, err)
		}
		var ref MatrixRef
		_ = json.Unmarshal(res, &ref)
		got := fnv64a(out[ref.Array])
		if *update {
			g.Entries[i].FNV64a = got
		} else if got != e.FNV64a {
			t.Errorf("%s: checksum %s, want %s", e.Options, got, e.FNV64a)
		}
	}
	if *update {
		b, _ := json.MarshalIndent(g, "", "  ")
		if err := os.WriteFile("../testdata/checksums.json", append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
