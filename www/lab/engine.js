// The engine, started as the page's first module runs (index.html loads
// this module before lab.js, whose many modules take longer to arrive), on
// the module boot.js is downloading and compiling: the first worker loads
// meanwhile, and the rest of the page is fetched and built. lab.js awaits
// `starting`.
import { createEngine } from './ntkrf/index.js';
import { mark } from './dom.js';

mark('engine start');
const booted = globalThis.ntkrfModule;
let bootFailed = false;
booted?.catch(() => { bootFailed = true; });
/**
 * Resolves to the engine, or rejects with why it could not start (lab.js
 * says so). When boot.js's download or compile failed (a server that does
 * not send application/wasm, say), the package loads the module itself.
 */
export const starting = createEngine(booted ? { module: booted } : {})
  .catch((e) => { if (bootFailed) return createEngine(); throw e; });
starting.then(() => mark('engine ready'), () => {});
