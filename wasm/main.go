//go:build js && wasm

// Command wasm is the WebAssembly entry point: it installs the host's
// hand-written kernels when there are any (jsbridge.InstallKernels), then
// globalThis.ntkrf (see package jsbridge), and waits for calls.
package main

import "ntkrf/jsbridge"

func main() {
	jsbridge.InstallKernels()
	if err := jsbridge.Register("ntkrf"); err != nil {
		panic(err)
	}
	select {}
}
