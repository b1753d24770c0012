package fitbeam

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/graph"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"ntkrf/core/data"
	"ntkrf/core/pipeline"
	"ntkrf/core/rf"
	"ntkrf/internal/fixture"
)

func TestMain(m *testing.M) { ptest.Main(m) } // prism, in-process

// writeShards writes rows of fixture data as CSV shards (each with its
// header) of the given sizes into dir and returns the whole file they
// make read as one, in the order of their names. Classification labels
// are words; a categorical column and missing cells (a feature, and a
// target, whose row is dropped) exercise the settled schema.
func writeShards(t *testing.T, dir string, k int, sizes ...int) []byte {
	t.Helper()
	n := 0
	for _, s := range sizes {
		n += s
	}
	X, y := fixture.Data(n, 4, k, 7)
	header := "a,b,c,d,color,target\n"
	whole := bytes.NewBufferString(header)
	i := 0
	for s, size := range sizes {
		shard := bytes.NewBufferString(header)
		for range size {
			x := X.RawRowView(i)
			cells := make([]string, 0, 6)
			for j, v := range x {
				c := strconv.FormatFloat(v, 'g', -1, 64)
				if (i+j)%97 == 0 {
					c = "NA"
				}
				cells = append(cells, c)
			}
			cells = append(cells, []string{"red", "green", "blue"}[int(math.Abs(x[0]*10))%3])
			label := strconv.FormatFloat(y[i], 'g', -1, 64)
			if k > 0 {
				label = []string{"apple", "banana", "cherry", "damson"}[int(y[i])]
			}
			if i%251 == 3 {
				label = ""
			}
			cells = append(cells, label)
			line := strings.Join(cells, ",") + "\n"
			shard.WriteString(line)
			whole.WriteString(line)
			i++
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%03d.csv", s)), shard.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return whole.Bytes()
}

// fitBeam fits the shards of dir on prism and loads the model file.
func fitBeam(t *testing.T, dir string, opt Options) *pipeline.Pipeline {
	t.Helper()
	out := filepath.Join(t.TempDir(), "model.json")
	p, s := beam.NewPipelineWithRoot()
	Write(s, out, FitFiles(s, filepath.Join(dir, "*.csv"), opt))
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := pipeline.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestFitLikeFitDataset: the Beam fit of shards and pipeline.FitDataset of
// the same rows as one file give the same model file, byte for byte, on
// any fan-in: the primal (sums, held-out rows picked by key across
// shards), the dual (rows collected) and the defaults' selection.
func TestFitLikeFitDataset(t *testing.T) {
	cases := []struct {
		name   string
		k      int // classes; 0: regression
		sizes  []int
		dim    int
		lambda float64
		fanIn  int  // 0: ⌊√shards⌋
		auto   bool // depth, preprocessing and λ chosen
		search pipeline.Search
	}{
		{"classification, fixed λ", 4, []int{300, 450, 250, 200}, 128, 1e-3, 2, false, pipeline.Search{}},
		{"classification, auto λ (holdout)", 4, []int{300, 450, 250, 200}, 128, 0, 0, false, pipeline.Search{}},
		{"regression, fixed λ", 0, []int{500, 200, 400, 100, 300}, 128, 1e-2, 0, false, pipeline.Search{}},
		{"regression, auto λ (gcv)", 0, []int{500, 200, 400}, 128, 0, 2, false, pipeline.Search{}},
		{"classification, dual (loo)", 3, []int{90, 60, 50}, 256, 0, 0, false, pipeline.Search{}},
		// The defaults (the zero Options, pipeline.Config{}'s fit but for
		// the smaller m): the depth and preprocessing chosen by the
		// core's selection (every row searched: fewer than 1,000).
		{"classification, defaults (all auto)", 4, []int{90, 130, 70, 110}, 128, 0, 0, true, pipeline.Search{}},
		{"regression, defaults (all auto)", 0, []int{150, 60, 120}, 128, 0, 0, true, pipeline.Search{}},
		// 'auto' on a sample: only the 150 rows the core names are
		// gathered from the shards.
		{"classification, auto on a sample", 3, []int{300, 450, 250, 200}, 128, 0, 2, true, pipeline.Search{Rows: 150, Depths: []int{1, 2}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			whole := writeShards(t, dir, c.k, c.sizes...)
			opt := Options{Prep: &data.Prep{}, Features: rf.Config{Method: "ntk", Depth: 2, Dim: c.dim, Seed: 5}, Lambda: c.lambda, FanIn: c.fanIn}
			if c.auto {
				opt = Options{Features: rf.Config{Dim: c.dim}, Search: c.search, FanIn: c.fanIn}
			}
			got := fitBeam(t, dir, opt)

			ds, err := data.Parse(whole, opt.Data)
			if err != nil {
				t.Fatal(err)
			}
			cfg := pipeline.Config{Preprocess: opt.Prep, Features: opt.Features, Search: opt.Search}
			cfg.Ridge.Lambda = c.lambda
			want, err := pipeline.FitDataset(context.Background(), ds, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := *got.Input(), ds.Schema(); fmt.Sprint(g) != fmt.Sprint(w) {
				t.Fatalf("schema\n got %+v\nwant %+v", g, w)
			}
			// The same bytes: the sums' and statistics' order is the
			// rows' (rowtree), whatever the shards, fan-in and bundles.
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(want)
			if !bytes.Equal(gj, wj) {
				t.Fatalf("the Beam model's bytes are not FitDataset's (λ %v, single process %v)", got.Lambda(), want.Lambda())
			}
			// Another fan-in: the same bytes again.
			opt.FanIn = 1 + len(c.sizes)%3
			if again, _ := json.Marshal(fitBeam(t, dir, opt)); !bytes.Equal(again, gj) {
				t.Fatalf("fan-in %d: other model bytes", opt.FanIn)
			}
		})
	}
}

// TestSideInputsOnCheapSteps: only the steps that hand the shards their
// share of the data set read side inputs. prism's scheduler polls without
// pause for as long as a stage with a side input runs, which doubled the
// CPU of a fit when the steps that read, featurize and solve took them.
func TestSideInputsOnCheapSteps(t *testing.T) {
	p, s := beam.NewPipelineWithRoot()
	Write(s, "model.json", Fit(s, beam.Create(s, "a.csv"), Options{Features: rf.Config{Method: "ntk", Depth: 1, Dim: 8}, Lambda: 1}))
	edges, _, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	cheap := map[string]bool{"withSettled": true, "withStats": true}
	seen := 0
	for _, e := range edges {
		if e.Op != graph.ParDo {
			continue
		}
		name := e.DoFn.Name()
		name = name[strings.LastIndexAny(name, ".*")+1:]
		for _, in := range e.Input[1:] {
			if in.Kind != graph.Main {
				if !cheap[name] {
					t.Errorf("%s reads a side input (%s)", e.DoFn.Name(), in.Kind)
				}
				seen++
			}
		}
	}
	if seen != 3 {
		t.Fatalf("%d side inputs, want 3 (the schema twice, the statistics once)", seen)
	}
}
