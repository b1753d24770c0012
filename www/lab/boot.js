// ntkrf.wasm's download and compile, started as soon as the page's head is
// read (a classic async script: it needs no module to arrive first), while
// the package's and the lab's modules download. engine.js hands the promise
// to createEngine ({ module }), which starts the first worker meanwhile.
// compileStreaming of this fetch's response is what Chrome's WebAssembly
// code cache serves: on a later visit the optimised code of the last one is
// read from the cache instead of compiled again. (A <link rel=preload> of the
// module did not get there: the response it hands fetch() comes from the
// preload, not from the HTTP cache with its cached code.)
performance.mark('ntkrf: wasm fetch');
globalThis.ntkrfModule = WebAssembly.compileStreaming(fetch('ntkrf/ntkrf.wasm'));
// engine.js handles a failure (it starts the engine the package's own way).
globalThis.ntkrfModule.catch(() => {});
