package jsbridge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/krr"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/fixture"
)

// TestPlaygroundOp: the playground op's scores are pipeline.Fit's models'
// Scores bit for bit (what fitRidge then predictScores give), the second
// call of the same settings fits nothing, and bad calls are coded errors.
func TestPlaygroundOp(t *testing.T) {
	X, y := fixture.Data(60, 2, 2, 7)
	P, _ := fixture.Data(50, 2, 2, 8)

	args := `{"models":[{"kernel":{"kernel":"ntk","depth":2}},{"features":{"method":"ntk","dim":128,"depth":2,"seed":1}},{"kernel":{"kernel":"rbf","gamma":10}}],` +
		`"lambda":0.01,"task":"classification","classes":2,"preprocess":{"standardize":true,"unitNorm":false,"bias":1},` +
		`"X":{"rows":60,"cols":2,"array":0},"y":{"array":1},"points":[{"rows":50,"cols":2,"array":2}]}`
	in := Input{Arrays: [][]float64{X.RawMatrix().Data, y, P.RawMatrix().Data}}
	prep := &data.Prep{Bias: 1}
	ridge := krr.Options{Lambda: 0.01, Task: krr.Classification, Classes: 2}
	cfgs := []pipeline.Config{
		{Kernel: &kernel.Spec{Name: "ntk", Depth: 2}, Preprocess: prep, Ridge: ridge},
		{Features: rf.Config{Method: "ntk", Dim: 128, Depth: 2, Seed: 1}, Preprocess: prep, Ridge: ridge},
		{Kernel: &kernel.Spec{Name: "rbf", Gamma: 10}, Preprocess: prep, Ridge: ridge},
	}
	type answer struct {
		Surfaces []struct {
			Lambda   float64     `json:"lambda"`
			Reused   bool        `json:"reused"`
			Computed int         `json:"computed"`
			Scores   []MatrixRef `json:"scores"`
		} `json:"surfaces"`
		Fits int `json:"fits"`
	}
	var fits0 int
	for round := 0; round < 2; round++ {
		res, out, err := Dispatch("playground", []byte(args), in, nil)
		if err != nil {
			t.Fatal(err)
		}
		var a answer
		if err := json.Unmarshal(res, &a); err != nil {
			t.Fatal(err)
		}
		if round == 0 {
			fits0 = a.Fits
		} else if a.Fits != fits0 || !a.Surfaces[0].Reused || a.Surfaces[1].Computed != 0 {
			t.Fatalf("the same call again fitted or scored anew: %+v", a)
		}
		for i, cfg := range cfgs {
			p, err := pipeline.Fit(context.Background(), X, y, cfg)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := p.Scores(P)
			r := a.Surfaces[i].Scores[0]
			got := mat.NewDense(r.Rows, r.Cols, out[r.Array])
			if !mat.Equal(got, want) {
				t.Fatalf("round %d, model %d: the scores differ from pipeline.Fit's", round, i)
			}
		}
	}
	bad := map[string]string{
		"ERR_OPTION":         strings.Replace(args, `"lambda":0.01`, `"lambda":-1`, 1),
		"ERR_UNKNOWN_OPTION": strings.Replace(args, `"dim":128`, `"dims":128`, 1),
	}
	for code, b := range bad {
		_, _, err := Dispatch("playground", []byte(b), in, nil)
		if _, c, _, msg := JSError(err); string(c) != code || !strings.HasPrefix(msg, "playground: ") {
			t.Fatalf("%s: got %v %q", code, c, msg)
		}
	}
	for _, b := range []string{
		strings.Replace(args, `"kernel":{"kernel":"ntk","depth":2}`, `"kernel":{"kernel":"ntk","depth":2},"features":{"dim":8}`, 1),
		strings.Replace(args, `"points":[{"rows":50,"cols":2,"array":2}]`, `"points":[{"rows":5,"cols":2,"array":2}]`, 1),
		strings.Replace(args, `"models":[`, `"models":[{},`, 1),
	} {
		if _, _, err := Dispatch("playground", []byte(b), in, nil); err == nil {
			t.Fatalf("no error for %s", b)
		}
	}
}
