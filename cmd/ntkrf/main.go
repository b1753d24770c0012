// Command ntkrf runs the native benchmarks and paper reproductions.
//
//	ntkrf quality  [flags]   kernel approximation error on Fashion-MNIST vs the authors' code
//	ntkrf accuracy [flags]   4-fold accuracy of NTK random features on ../shared/data vs the exact NTK
//
// Run "ntkrf <command> -h" for the flags of each.
package main

import (
	"fmt"
	"os"
)

var commands = map[string]func(args []string) error{
	"quality":  runQuality,
	"accuracy": runAccuracy,
}

func main() {
	if len(os.Args) < 2 || commands[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: ntkrf quality|accuracy [flags]")
		os.Exit(2)
	}
	if err := commands[os.Args[1]](os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "ntkrf:", err)
		os.Exit(1)
	}
}
