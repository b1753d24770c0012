// For Go's wasm tests under Node (./build.sh, through NODE_OPTIONS=--require):
// instantiates the assembled kernels (the file NTKRF_KERNELS_WASM names) on
// the memory of the Go instance that wasm_exec_node.js starts, and puts
// their exports at globalThis.ntkrfKernels before the Go program runs, as
// www/pkg/worker.js does in the package.
'use strict';
const file = process.env.NTKRF_KERNELS_WASM;
if (file) {
  const { readFileSync } = require('node:fs');
  const bytes = readFileSync(file);
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async function (...args) {
    const result = await instantiate.apply(this, args);
    const mem = result.instance?.exports?.mem;
    if (mem instanceof WebAssembly.Memory && !globalThis.ntkrfKernels) {
      const k = await instantiate(bytes, { env: { memory: mem } });
      globalThis.ntkrfKernels = k.instance.exports;
    }
    return result;
  };
}
