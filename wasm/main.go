//go:build js && wasm

// Command wasm is the WebAssembly entry point: it installs globalThis.ntkrf
// (see package jsbridge) and waits for calls.
package main

import "ntkrf/jsbridge"

func main() {
	if err := jsbridge.Register("ntkrf"); err != nil {
		panic(err)
	}
	select {}
}
