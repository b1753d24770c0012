// The engine, started as the page's first script runs (index.html loads
// this module before lab.js, whose many modules take longer to arrive):
// ntkrf.wasm (preloaded by index.html) compiles and the workers load while
// the rest of the page is fetched and built. lab.js awaits `starting`.
import { createEngine } from './ntkrf/index.js';
import { mark } from './dom.js';

mark('engine start');
/** Resolves to the engine, or rejects with why it could not start (lab.js says so). */
export const starting = createEngine();
starting.then(() => mark('engine ready'), () => {});
