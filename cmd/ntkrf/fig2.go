package main

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"ntkrf/core/data"
	"ntkrf/core/kernel"
	"ntkrf/core/metrics"
	"ntkrf/core/rf"
)

// fig2Method is one feature map of Figure 2.
type fig2Method struct {
	name   string
	method rf.Method
	sketch rf.Sketch
}

var fig2Methods = map[string]fig2Method{
	"tensorsketch": {"ntk-tensorsketch", "ntk", "tensorsketch"},
	"tensorsrht":   {"ntk-tensorsrht", "ntk", "tensorsrht"},
	"naive":        {"naive", "naive", ""},
	"grad":         {"grad", "grad", ""},
}

// reproFig2: the paper's Figure 2, the mean squared error of the entries of
// ΦΦᵀ against the exact NTK, for each method at the output dimensions it
// can reach within each requested m (naive and grad grow in steps, and
// below d or so they have no valid size: "-").
func reproFig2(args []string) error {
	fs := flag.NewFlagSet("repro fig2", flag.ContinueOnError)
	path := fs.String("images", fashionImages, "gzipped IDX image file")
	n := fs.Int("n", 2000, "rows (the first n images; the paper uses 10000)")
	depths := fs.String("depths", "1,2,4", "network depths")
	dims := fs.String("dims", "256,512,1024,2048,4096,8192", "feature dimensions m (upper bounds for naive and grad)")
	methods := fs.String("methods", "tensorsketch,tensorsrht,naive,grad", "feature maps")
	seed := fs.Uint64("seed", 1, "feature seed")
	out := fs.String("out", "repro-results", "directory for the CSV")
	if err := fs.Parse(args); err != nil {
		return err
	}
	Ls, err := parseInts(*depths)
	if err != nil {
		return fmt.Errorf("repro fig2: -depths: %v", err)
	}
	ms, err := parseInts(*dims)
	if err != nil {
		return fmt.Errorf("repro fig2: -dims: %v", err)
	}
	var meths []fig2Method
	for _, s := range strings.Split(*methods, ",") {
		m, ok := fig2Methods[s]
		if !ok {
			return fmt.Errorf("repro fig2: unknown method %q; use tensorsketch, tensorsrht, naive or grad", s)
		}
		meths = append(meths, m)
	}
	X, err := readIDXImages(*path, *n)
	if err != nil {
		return err
	}
	if X, err = data.Prepare(X, nil, data.Prep{Raw: true, UnitNorm: true}); err != nil {
		return err
	}
	_, d := X.Dims()
	fmt.Printf("Fashion-MNIST: n=%d unit rows, d=%d, seed %d\n", *n, d, *seed)
	long := &table{header: []string{"depth", "method", "m", "dim", "entry_mse", "rel_frobenius", "seconds"}}
	pivot := &table{header: []string{"depth", "m"}}
	for _, m := range meths {
		pivot.header = append(pivot.header, m.name+" (dim)")
	}
	for _, L := range Ls {
		K, err := kernel.NTK(X, L)
		if err != nil {
			return err
		}
		// ‖ΦΦᵀ − K‖_F² = n²·MSE, so one pass over ΦΦᵀ gives both errors.
		kNorm := mat.Norm(K, 2)
		for _, m := range ms {
			cells := []any{L, m}
			for _, me := range meths {
				t0 := time.Now()
				f, err := rf.New(rf.Config{Method: me.method, Depth: L, Dim: m, Sketch: me.sketch, Seed: *seed}, d)
				if err != nil {
					// naive and grad have no size within m (it is below their smallest output).
					long.add(L, me.name, m, "-", math.NaN(), math.NaN(), math.NaN())
					cells = append(cells, "-")
					continue
				}
				Phi, err := f.Transform(nil, X)
				if err != nil {
					return err
				}
				mse, err := metrics.EntryMSE(K, Phi)
				if err != nil {
					return err
				}
				rel := math.Sqrt(mse) * float64(*n) / kNorm
				long.add(L, me.name, m, f.Dim(), mse, rel, since(t0))
				cells = append(cells, fmt.Sprintf("%s (%d)", fmtNum(mse), f.Dim()))
			}
			pivot.add(cells...)
		}
	}
	fmt.Println("entry MSE of ΦΦᵀ against the exact NTK (actual output dimension):")
	pivot.print()
	return long.write(*out, "fig2")
}
