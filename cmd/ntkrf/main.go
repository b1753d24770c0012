// Command ntkrf fits, scores and predicts with random-feature models of
// the Neural Tangent Kernel on CSV files, streaming (memory bounded by
// the model and a buffer of rows, not by the files), and runs the
// project's research harnesses.
//
//	ntkrf fit DATA… -o MODEL.json     fit a model (fit.go, with stream.go and input.go)
//	ntkrf predict MODEL.json DATA…    one prediction per data row (predict.go)
//	ntkrf score MODEL.json DATA…      accuracy, or R² and MSE, on labelled rows (score.go)
//
// The research harness, one file per experiment (fig1.go … table3.go for
// repro; flags.go, stats.go, sets.go, table.go, process.go, fashion.go,
// readfile.go and describe.go hold what they share), under "ntkrf
// research" (the old spellings, "ntkrf quality", still work):
//
//	ntkrf research quality  [flags]   kernel approximation error on Fashion-MNIST vs the authors' code
//	ntkrf research accuracy [flags]   4-fold accuracy of NTK random features on ../shared/data vs the exact NTK
//	ntkrf research defaults [flags]   error and time of every sampler, sketch and m_cs split on ../shared/data (issue #15)
//	ntkrf research bench    [flags]   the standard Fashion-MNIST job, stage by stage, vs the authors' PyTorch figures
//	ntkrf research autocost [flags]   what 'auto' costs on Fashion-MNIST against a fixed-depth fit (issue #15)
//	ntkrf research repro fig1|fig2|fig3|table2|table3 [flags]   the paper's experiments on the data here
//	ntkrf research holdout  [flags]   defaults fitted on one CSV, scored on another (bench/side.py, issue #39)
//	ntkrf research gen [flags]        a generated classification CSV of any size (the streaming benchmark's)
//	ntkrf research fitmem DATA [flags]   the in-memory fit (Parse, FitDataset) fit is measured against
//
// Run "ntkrf <command> -h" for the flags of each.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"ntkrf/internal/check"
)

type command struct {
	run  func(args []string) error
	help string
}

// commands are what a user runs; research, the harnesses.
var commands = map[string]command{
	"fit":     {runFit, "fit a model on CSV/TSV files (plain or gzip, - for stdin), streaming"},
	"predict": {runPredict, "print one prediction per data row, with a model saved by any host"},
	"score":   {runScore, "accuracy (classification) or R² and MSE (regression) of a model on labelled files"},
}

var research = map[string]command{
	"quality":  {runQuality, "kernel approximation error on Fashion-MNIST vs the authors' code"},
	"accuracy": {runAccuracy, "4-fold accuracy of NTK random features vs the exact NTK"},
	"defaults": {runDefaults, "error and time of every sampler, sketch and m_cs split"},
	"bench":    {runBench, "the standard Fashion-MNIST job, stage by stage"},
	"autocost": {runAutoCost, "what 'auto' costs against a fixed-depth fit"},
	"holdout":  {runHoldout, "the defaults fitted on one CSV, scored on another (bench/side.py)"},
	"repro":    {runRepro, "the paper's experiments: fig1|fig2|fig3|table2|table3"},
	"gen":      {runGen, "write a generated classification CSV (the streaming benchmark's)"},
	"fitmem":   {runFitMem, "the in-memory fit (Parse, FitDataset) that fit's streaming is measured against"},
}

var userOrder = []string{"fit", "predict", "score"}
var researchOrder = []string{"quality", "accuracy", "defaults", "bench", "autocost", "holdout", "repro", "gen", "fitmem"}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: ntkrf <command> [flags] [args]\n\ncommands:")
	for _, n := range userOrder {
		fmt.Fprintf(w, "  %-9s %s\n", n, commands[n].help)
	}
	fmt.Fprintln(w, "  research  the research harnesses: ntkrf research <name> (ntkrf research -h lists them)")
	fmt.Fprintln(w, "\nRun \"ntkrf <command> -h\" for its flags and their defaults.")
}

func researchUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: ntkrf research <name> [flags]\n\nresearch harnesses:")
	for _, n := range researchOrder {
		fmt.Fprintf(w, "  %-9s %s\n", n, research[n].help)
	}
}

func main() { os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr)) }

// dispatch runs the command args name and returns the exit status: 0,
// 1 for an error (one line with its code), 2 for a usage error, 130 when
// interrupted.
func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	name, rest := args[0], args[1:]
	cmd, ok := commands[name]
	switch {
	case name == "-h" || name == "-help" || name == "--help" || name == "help":
		usage(stdout)
		return 0
	case name == "research":
		if len(rest) == 0 || research[rest[0]].run == nil {
			if len(rest) > 0 && (rest[0] == "-h" || rest[0] == "-help" || rest[0] == "--help") {
				researchUsage(stdout)
				return 0
			}
			researchUsage(stderr)
			return 2
		}
		cmd, name, rest = research[rest[0]], rest[0], rest[1:]
	case !ok:
		// The research harnesses' old spellings (build.sh, docs, scripts).
		if cmd, ok = research[name]; !ok {
			fmt.Fprintf(stderr, "ntkrf: unknown command %s\n\n", check.Quote(name))
			usage(stderr)
			return 2
		}
	}
	err := cmd.run(rest)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	}
	fmt.Fprintln(stderr, errorLine(err))
	if check.CodeOf(err) == check.Aborted {
		return 130
	}
	return 1
}

// errorLine is an error as the command prints it: one line, with its
// code.
func errorLine(err error) string {
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	if !strings.HasPrefix(msg, "ntkrf: ") {
		msg = "ntkrf: " + msg
	}
	if code := check.CodeOf(err); code != "" {
		return fmt.Sprintf("%s (%s)", msg, code)
	}
	return msg
}

// signalContext is cancelled by Ctrl-C (SIGINT) or SIGTERM: the passes
// and the core's loops read it, so the command stops within a block of
// rows, and a second signal ends the process at once.
func signalContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	return ctx, stop
}

// parseInterleaved parses flags given before, between or after the
// positional arguments ("ntkrf fit a.csv -o m.json"), which the flag
// package stops at; fs.Args() are then the positional ones, in order.
func parseInterleaved(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}
