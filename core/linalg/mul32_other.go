//go:build (!amd64 || noasm) && !(wasm && goexperiment.simd)

package linalg

// mul32Kernels lists the Mul32 implementations this build can run.
func mul32Kernels() []mul32Set { return []mul32Set{{"portable", mul32Portable}} }

// mul32PanelKernels lists the panel micro-kernels (Weights32) of this
// build: none, so Weights32 keeps row-major weights for mul32Rows.
func mul32PanelKernels() []mul32TileSet { return nil }
