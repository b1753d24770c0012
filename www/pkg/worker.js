// One WebAssembly instance of ntkrf per worker (Go's wasm is single-threaded,
// so parallel work means several instances). Runs in a browser module worker
// and in a Node worker_threads worker.
import './wasm_exec.js';

const isNode = typeof process !== 'undefined' && !!process.versions?.node;
const port = isNode ? (await import('node:worker_threads')).parentPort : self;
const post = (msg, transfer = []) => port.postMessage(msg, transfer);
const listen = (fn) => isNode ? port.on('message', fn) : (self.onmessage = (e) => fn(e.data));

// Progress is throttled: a worker can report far faster than a page can paint.
function progressReporter(id) {
  let last = 0;
  return (done, total, stage) => {
    const now = Date.now();
    if (done === 0 || done >= total || now - last >= 50) {
      last = now;
      post({ type: 'progress', id, done, total, stage });
    }
  };
}

listen(async (msg) => {
  if (msg.type === 'init') {
    try {
      const go = new Go();
      const instance = await WebAssembly.instantiate(msg.module, go.importObject);
      go.run(instance).then(() => post({ type: 'exit', code: go.exitCode ?? 0 }));
      if (!globalThis.ntkrf) throw new Error('ntkrf.wasm did not register globalThis.ntkrf');
      post({ type: 'ready', ops: [...globalThis.ntkrf.ops] });
    } catch (e) {
      post({ type: 'init-error', message: String(e?.message ?? e) });
    }
    return;
  }
  if (msg.type === 'call') {
    const { id, op, json, arrays, bytes, giveBack } = msg;
    try {
      const res = await globalThis.ntkrf.call(op, json, arrays, progressReporter(id), bytes);
      // Inputs asked back (Go has copied them) go with the result, for the
      // caller to refill: garbage here would be collected only rarely.
      const inputs = giveBack ? arrays : undefined;
      const buffers = new Set([...res.arrays, ...(inputs ?? [])].map((a) => a.buffer));
      post({ type: 'result', id, json: res.json, arrays: res.arrays, inputs }, [...buffers]);
    } catch (e) {
      post({ type: 'error', id, name: e?.name ?? 'Error', message: String(e?.message ?? e) });
    }
  }
});
