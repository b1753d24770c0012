// Command serve serves the built lab (dist/www) on the loopback interface
// with the headers the page relies on: application/wasm for .wasm and a
// Content-Security-Policy that allows nothing from other hosts (also sent on
// worker scripts, which take the policy of their own response).
package main

import (
	"flag"
	"fmt"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
)

// CSP allows this origin only; 'wasm-unsafe-eval' is what compiling
// WebAssembly needs, and no 'unsafe-eval' or inline script is allowed.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; " +
	"style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

func main() {
	dir := flag.String("dir", "dist/www", "directory to serve")
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free one)")
	flag.Parse()
	if _, err := os.Stat(*dir); err != nil {
		log.Fatalf("serve: %v (run ./build.sh first)", err)
	}
	_ = mime.AddExtensionType(".wasm", "application/wasm")
	_ = mime.AddExtensionType(".js", "text/javascript; charset=utf-8")
	files := http.FileServer(http.Dir(*dir))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", CSP)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("serve: %v", err)
	}
	// The first line is read by the test harness to find the port.
	fmt.Printf("serving %s at http://%s/\n", *dir, ln.Addr())
	log.Fatal(http.Serve(ln, h))
}
