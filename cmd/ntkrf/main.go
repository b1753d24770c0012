// Command ntkrf predicts with saved models, and runs the native benchmarks
// and paper reproductions.
//
// The product command (predict.go, with readfile.go):
//
//	ntkrf predict MODEL.json DATA.csv   one prediction per data row, with a model saved by any host
//
// The research harness, one file per experiment (fig1.go … table3.go for
// repro; flags.go, stats.go, sets.go, table.go, process.go, fashion.go and
// describe.go hold what they share):
//
//	ntkrf quality  [flags]   kernel approximation error on Fashion-MNIST vs the authors' code
//	ntkrf accuracy [flags]   4-fold accuracy of NTK random features on ../shared/data vs the exact NTK
//	ntkrf defaults [flags]   error and time of every sampler, sketch and m_cs split on ../shared/data (issue #15)
//	ntkrf bench    [flags]   the standard Fashion-MNIST job, stage by stage, vs the authors' PyTorch figures
//	ntkrf autocost [flags]   what 'auto' costs on Fashion-MNIST against a fixed-depth fit (issue #15)
//	ntkrf holdout  [flags]   defaults fitted on one CSV, scored on another (bench/side.py, issue #39)
//	ntkrf repro fig1|fig2|fig3|table2|table3 [flags]   the paper's experiments on the data here (tables and CSV)
//
// Run "ntkrf <command> -h" for the flags of each.
package main

import (
	"fmt"
	"os"

	"ntkrf/internal/check"
)

var commands = map[string]func(args []string) error{
	"predict": runPredict,

	"quality":  runQuality,
	"accuracy": runAccuracy,
	"defaults": runDefaults,
	"bench":    runBench,
	"autocost": runAutoCost,
	"holdout":  runHoldout,
	"repro":    runRepro,
}

func main() {
	if len(os.Args) < 2 || commands[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: ntkrf quality|accuracy|defaults|bench|autocost|holdout|repro|predict [flags]")
		os.Exit(2)
	}
	if err := commands[os.Args[1]](os.Args[2:]); err != nil {
		if code := check.CodeOf(err); code != "" {
			fmt.Fprintf(os.Stderr, "ntkrf: %v (%s)\n", err, code)
		} else {
			fmt.Fprintln(os.Stderr, "ntkrf:", err)
		}
		os.Exit(1)
	}
}
