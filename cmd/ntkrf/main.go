// Command ntkrf runs the native benchmarks and paper reproductions, and
// predicts with saved models.
//
//	ntkrf quality  [flags]   kernel approximation error on Fashion-MNIST vs the authors' code
//	ntkrf accuracy [flags]   4-fold accuracy of NTK random features on ../shared/data vs the exact NTK
//	ntkrf defaults [flags]   error and time of every sampler, sketch and m_cs split on ../shared/data (issue #15)
//	ntkrf bench    [flags]   the standard Fashion-MNIST job, stage by stage, vs the authors' PyTorch figures
//	ntkrf autocost [flags]   what 'auto' costs on Fashion-MNIST against a fixed-depth fit (issue #15)
//	ntkrf repro fig1|fig2|fig3|table2|table3 [flags]   the paper's experiments on the data here (tables and CSV)
//	ntkrf predict MODEL.json DATA.csv   one prediction per data row, with a model saved by any host
//
// Run "ntkrf <command> -h" for the flags of each.
package main

import (
	"fmt"
	"os"
	"runtime"

	"ntkrf/internal/check"
)

var commands = map[string]func(args []string) error{
	"quality":  runQuality,
	"accuracy": runAccuracy,
	"defaults": runDefaults,
	"bench":    runBench,
	"autocost": runAutoCost,
	"repro":    runRepro,
	"predict":  runPredict,
}

func main() {
	if len(os.Args) < 2 || commands[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: ntkrf quality|accuracy|defaults|bench|autocost|repro|predict [flags]")
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

func runtimeProcs() int { return runtime.GOMAXPROCS(0) }
