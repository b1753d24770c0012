//go:build ignore

// Writes schema.json and core.json (SchemaJSON and CoreJSON), which the
// WebAssembly module embeds (start.go): go generate ./jsbridge.
package main

import (
	"log"
	"os"

	"ntkrf/jsbridge"
)

func main() {
	for name, b := range map[string][]byte{"schema.json": jsbridge.SchemaJSON(), "core.json": jsbridge.CoreJSON()} {
		if err := os.WriteFile(name, append(b, '\n'), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
