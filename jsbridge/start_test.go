package jsbridge

import (
	"bytes"
	"testing"
)

// TestStartJSON: the schema and core an instance sends as it starts (the
// files go generate writes, embedded) are SchemaJSON and CoreJSON of this
// source, natively and in WebAssembly (the wasm tests run it too).
func TestStartJSON(t *testing.T) {
	for _, c := range []struct {
		file, embedded string
		want           []byte
	}{{"schema.json", schemaJSON, SchemaJSON()}, {"core.json", coreJSON, CoreJSON()}} {
		if !bytes.Equal([]byte(c.embedded), append(c.want, '\n')) {
			t.Errorf("jsbridge/%s is not what this source encodes (%d bytes, want %d): run go generate ./jsbridge (build.sh build does)", c.file, len(c.embedded), len(c.want)+1)
		}
	}
}
