package jsbridge

import _ "embed"

//go:generate go run gen_start.go

// What an instance hands the package as it starts (bridge_js.go's Register):
// SchemaJSON() and CoreJSON() as `go generate ./jsbridge` wrote them
// (build.sh runs it before building the module). Encoding Schema and Core
// in the instance took about 0.2 s of a cold WebAssembly instance's start
// (encoding/json's first use: its reflection of every type), which every
// worker paid before the page's first picture. TestStartJSON ties the
// files to Schema and Core.
var (
	//go:embed schema.json
	schemaJSON string
	//go:embed core.json
	coreJSON string
)
