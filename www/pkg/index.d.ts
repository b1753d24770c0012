/**
 * ntkrf — random features for the Neural Tangent Kernel (Han, Avron, Shoham,
 * Kim, Shin), computed in WebAssembly workers. Works in Node ≥ 20 and in
 * browsers. All numbers are float64; every call returns a Promise.
 */

/** A dense row-major matrix: one data point per row. */
export interface Matrix {
  rows: number;
  cols: number;
  /** rows × cols values, row by row. Float32Array is accepted as input. */
  data: Float64Array | Float32Array;
}

/** A matrix as ntkrf returns it (always float64, owned by the caller). */
export interface Matrix64 extends Matrix {
  data: Float64Array;
}

/** Progress of a long call. */
export interface Progress {
  done: number;
  total: number;
  /** What is being done, e.g. "kernel", "features", "gram", "solve". */
  stage: string;
}

/** Options every long call accepts. */
export interface CallControl {
  /** Aborting rejects the call with a DOMException named "AbortError" at once and frees what it held; the engine stays usable. */
  signal?: AbortSignal;
  /** Called with monotone progress, ending at done === total. */
  onProgress?: (p: Progress) => void;
}

export interface KernelOptions extends CallControl {
  /** "ntk" (default): Neural Tangent Kernel of a ReLU network; "nngp": its NNGP kernel; "rbf": exp(−γ‖x−z‖²). */
  kernel?: 'ntk' | 'nngp' | 'rbf';
  /** Network depth L for ntk and nngp, 0 ≤ L ≤ 64. Default 1. */
  depth?: number;
  /** RBF scale γ > 0. Default 1 / cols. */
  gamma?: number;
}

export interface EngineOptions {
  /** Number of WebAssembly workers: 'auto' (default) = hardware concurrency, at most 8. */
  workers?: 'auto' | number;
  /** Where ntkrf.wasm is; default: beside this module. */
  wasmURL?: string | URL;
}

export interface Engine {
  /** Number of WebAssembly workers. */
  readonly workers: number;
  /**
   * Exact kernel matrix between the rows of X and the rows of Z
   * (X.rows × Z.rows), or of X with itself when Z is null (symmetric, with
   * an exact diagonal: (L+1)‖x‖² for the NTK).
   * Rejects with TypeError / RangeError for bad shapes, types or options, and
   * Error for non-finite data.
   */
  kernel(X: Matrix, Z?: Matrix | null, options?: KernelOptions): Promise<Matrix64>;
  /** Stops the workers and frees their memory; later calls reject. */
  close(): void;
}

/** Compiles ntkrf.wasm once and starts the workers. */
export function createEngine(options?: EngineOptions): Promise<Engine>;
