// One WebAssembly instance of ntkrf per worker (Go's wasm is single-threaded,
// so parallel work means several instances). Runs in a browser module worker
// and in a Node worker_threads worker.
import './wasm_exec.js';

const isNode = typeof process !== 'undefined' && !!process.versions?.node;
const port = isNode ? (await import('node:worker_threads')).parentPort : self;
const post = (msg, transfer = []) => port.postMessage(msg, transfer);
const listen = (fn) => isNode ? port.on('message', fn) : (self.onmessage = (e) => fn(e.data));

// Go writes to standard error only when it dies ("fatal error: out of
// memory" and every goroutine's stack). Keep the start of it to say why
// the instance stopped, instead of printing the dump to the console.
let stderr = '';
const fs = globalThis.fs;
const writeSync = fs.writeSync.bind(fs);
const decoder = new TextDecoder();
fs.writeSync = (fd, buf) => {
  if (fd !== 2) return writeSync(fd, buf);
  if (stderr.length < 4096) stderr += decoder.decode(buf);
  return buf.length;
};

/** Why the instance stopped, from what Go wrote: "ran out of memory". */
function reason(code) {
  const first = stderr.split('\n').find((l) => l.trim()) ?? '';
  if (/out of memory/.test(stderr)) return 'ran out of memory';
  if (first) return `stopped (${first.trim().slice(0, 200)})`;
  return `stopped (exit code ${code})`;
}

// Progress is throttled: a worker can report far faster than a page can paint.
function progressReporter(id) {
  let last = 0;
  let lastStage = '';
  return (done, total, stage) => {
    const now = Date.now();
    if (done === 0 || done >= total || now - last >= 50 || stage !== lastStage) {
      last = now;
      lastStage = stage;
      post({ type: 'progress', id, done, total, stage });
    }
  };
}

// The hand-written WebAssembly SIMD kernels (kernels.wasm, from
// wasm/kernels/*.wat), instantiated on the Go instance's memory and left at
// globalThis.ntkrfKernels for Go to install at start (jsbridge
// InstallKernels). They give the Go kernels' bits, so an engine or a host
// without them (the file missing, a compile error) runs the Go kernels,
// the same results slower. In Node's environment NTKRF_KERNELS=go skips
// them and NTKRF_KERNELS=require fails the start without them (tests and
// benchmarks compare the two).
const want = isNode ? process.env.NTKRF_KERNELS : undefined;

/** kernels.wasm compiled (or null: none, or its error to report), fetched as soon as this worker loads, while the page compiles ntkrf.wasm. */
async function compileKernels() {
  try {
    if (want === 'go') return null;
    const url = new URL('./kernels.wasm', import.meta.url);
    let bytes;
    if (isNode) {
      const { readFile } = await import('node:fs/promises');
      bytes = await readFile(url);
    } else {
      const r = await fetch(url);
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      bytes = await r.arrayBuffer();
    }
    return await WebAssembly.compile(bytes);
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}
const kernelsModule = compileKernels();

async function loadKernels(memory) {
  try {
    const module = await kernelsModule;
    if (module === null) return null;
    if (module instanceof Error) throw module;
    const instance = await WebAssembly.instantiate(module, { env: { memory } });
    return instance.exports;
  } catch (e) {
    if (want === 'require') throw new Error(`kernels.wasm: ${e?.message ?? e}`);
    return null;
  }
}

let go;

/**
 * A call's MessagePort to another worker (fitSolve's and fitHelp's: the
 * factorization they share) as the bridge reads it: post a message (its
 * buffer moved), listen for the other side's, close when the call ends.
 * Closing stops listening first: Go releases its listener next, and a
 * message that came late must not call a released Go function (that
 * stops the instance).
 */
const link = (p) => ({
  post: (u8) => p.postMessage(u8, [u8.buffer]),
  // Not into an instance that has stopped (out of memory): the call would
  // throw, and the worker's error would hide the 'exit' that says why.
  listen: (fn) => {
    const on = (data) => { if (!go.exited) fn(data); };
    if (isNode) p.on('message', on);
    else p.onmessage = (e) => on(e.data);
  },
  close: () => {
    if (isNode) p.removeAllListeners('message');
    else p.onmessage = null;
    p.close();
  },
});

listen(async (msg) => {
  if (msg.type === 'init') {
    try {
      go = new Go();
      const instance = await WebAssembly.instantiate(msg.module, go.importObject);
      globalThis.ntkrfKernels = await loadKernels(instance.exports.mem);
      go.run(instance).then(() => {
        // Go's timers still pending (wasm_exec's, for parked goroutines)
        // would resume the stopped instance and throw "already exited":
        // the worker's error would hide the exit that says why it stopped.
        for (const t of go._scheduledTimeouts.values()) clearTimeout(t);
        go._scheduledTimeouts.clear();
        post({ type: 'exit', reason: reason(go.exitCode ?? 0) });
      });
      if (!globalThis.ntkrf) throw new Error('ntkrf.wasm did not register globalThis.ntkrf');
      post({ type: 'ready', ops: [...globalThis.ntkrf.ops], schema: globalThis.ntkrf.schema, core: globalThis.ntkrf.core });
    } catch (e) {
      post({ type: 'init-error', message: String(e?.message ?? e) });
    }
    return;
  }
  if (msg.type === 'call') {
    const { id, op, json, arrays, bytes, giveBack, port: peer } = msg;
    // A call that came after the instance stopped: say why it stopped (the
    // engine then rejects the call and restarts the worker), not Go's
    // "already exited".
    if (go.exited) {
      post({ type: 'exit', reason: reason(go.exitCode ?? -1) });
      return;
    }
    let res;
    try {
      res = await globalThis.ntkrf.call(op, json, arrays, progressReporter(id), bytes, peer && link(peer));
    } catch (e) {
      // Go rejects with {name, code, option, message, fault, advice}.
      post({ type: 'error', id, code: e?.code, option: e?.option, message: String(e?.message ?? e), fault: e?.fault, advice: e?.advice });
      return;
    }
    if (go.exited || !res || !Array.isArray(res.arrays)) {
      // The instance died inside this call (Go returns nothing then); the
      // 'exit' message tells the engine why, which rejects this call.
      if (!go.exited) post({ type: 'exit', reason: reason(-1) });
      return;
    }
    // Inputs asked back (Go has copied them) go with the result, for the
    // caller to refill: garbage here would be collected only rarely.
    const inputs = giveBack ? arrays : undefined;
    try {
      const buffers = new Set([...res.arrays, ...(inputs ?? [])].map((a) => a.buffer));
      post({ type: 'result', id, json: res.json, arrays: res.arrays, inputs }, [...buffers]);
    } catch (e) {
      // An answer that cannot be posted (DataCloneError) is still an
      // answer: the call settles, with ntkrf's fault named.
      post({ type: 'error', id, code: 'ERR_INTERNAL', message: `${op}: the result could not be sent back from the worker: ${e?.message ?? e}` });
    }
  }
});
