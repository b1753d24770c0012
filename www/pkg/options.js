// Validation of everything a call is given, before anything crosses to a
// worker: options against the engine's schema (declared once in Go,
// jsbridge/schema.go), matrices, vectors, byte inputs and counts.
import { ntkrfError, typeError, describe, quote } from './errors.js';

/**
 * The option table of the engine's methods, declared once in Go
 * (jsbridge/schema.go) and received from the first worker (setSchema):
 * every option is checked here with it before anything crosses to Go, and
 * Go checks the same table again.
 */
export let SCHEMA = null;

/**
 * What the package reads of the core besides the option table (Go's
 * jsbridge.Core, received with the schema): names, every name of
 * core/names by its Go name (NAMES.Auto is "auto"), and limits, the sizes
 * the package cuts a call's rows by (the core's chunk, the package host's
 * own policy in jsbridge/core.go).
 */
export let NAMES = null;
export let LIMITS = null;

/**
 * The most bytes of rows a call sends a worker at once (the fit's chunks,
 * predict's blocks), the largest sample whose 'auto' selection is split
 * over the workers, and the fewest rows of a block: Go's
 * (protocol.ChunkBytes, jsbridge.SplitSelectBytes, MinBlockRows), set when the
 * first worker starts, before any call is made.
 */
export let CHUNK_BYTES, SPLIT_SELECT_BYTES, MIN_BLOCK_ROWS;

/** The most values of one array of rows (a matrix built from rows, the rows take copies): the package host's jsbridge.MaxArrayValues (2^31 − 1). */
export let MAX_ARRAY_VALUES;

/**
 * How many times in a row a worker's instance that failed on its own is
 * restarted before the worker is given up: the package host's jsbridge.MaxRestarts
 * (a restart happens after a first instance started, so it is read from it).
 */
export let MAX_RESTARTS;
/** The core's cost model (Go's pipeline.DefaultCosts()), as the engine shows it (Engine.costs). */
export let COSTS = null;

/** Keeps the first schema and core a worker sends; every instance sends the same. */
export function setSchema(schema, core) {
  SCHEMA ??= schema;
  if (NAMES || !core) return;
  ({ names: NAMES, limits: LIMITS, costs: COSTS } = core);
  ({ chunkBytes: CHUNK_BYTES, splitSelectBytes: SPLIT_SELECT_BYTES, minBlockRows: MIN_BLOCK_ROWS, maxArrayValues: MAX_ARRAY_VALUES, maxRestarts: MAX_RESTARTS } = LIMITS);
}

/** An options argument: undefined (none) or a plain object. */
export function optionsObject(where, obj) {
  if (obj === undefined) return {};
  if (obj === null || typeof obj !== 'object' || Array.isArray(obj) || ArrayBuffer.isView(obj)) {
    throw typeError(`${where}: options must be an object, got ${describe(obj)}`);
  }
  return obj;
}

/**
 * The options object read once: its own keys, each value read exactly once
 * (a getter is never asked twice), refused by name when unknown.
 */
export function checkKeys(where, obj, known) {
  const o = optionsObject(where, obj);
  const keys = Object.keys(o);
  const unknown = keys.filter((k) => !known.includes(k));
  if (unknown.length) {
    const more = unknown.length > 1 ? ` (and ${unknown.length - 1} more unknown)` : '';
    throw ntkrfError('ERR_UNKNOWN_OPTION', `${where}: unknown option ${quote(unknown[0])}${more}; known options: ${known.join(', ')}`, unknown[0]);
  }
  const out = {};
  for (const k of keys) out[k] = o[k];
  return out;
}

/** Words an option's accepted values as Go's Expect does (a test compares them). */
export function expect(o) {
  if (o.auto) return `"${o.auto}" or ${expect({ ...o, auto: undefined })}`;
  switch (o.kind) {
    case 'bool': return 'true or false';
    case 'string': return 'a string';
    case 'char': return 'a single character';
    case 'enum': return `one of ${o.enum.map((e) => JSON.stringify(e)).join(', ')}`;
    case 'int': return `an integer ${span(o)}`;
    case 'number': return `a finite number ${span(o)}`;
    case 'nameOrIndex': return `a column name or an integer index ${span(o)}`;
    case 'object': return 'an object';
    case 'array': return o.items ? `an array of ${expect(o.items).replace(/^an? /, '')}s` : 'an array';
  }
  return 'valid';
}

export function span(o) {
  const num = (x) => (x === 2 ** 53 - 1 ? '2^53−1' : String(x));
  const hasMin = o.min !== undefined;
  const hasMax = o.max !== undefined;
  if (hasMin && hasMax && !o.minExclusive && !o.maxExclusive) return `in ${num(o.min)}…${num(o.max)}`;
  if (hasMin && hasMax) return `in ${o.minExclusive ? '(' : '['}${num(o.min)}, ${num(o.max)}${o.maxExclusive ? ')' : ']'}`;
  if (hasMin && o.minExclusive) return `> ${num(o.min)}`;
  if (hasMin) return `≥ ${num(o.min)}`;
  if (hasMax) return `≤ ${num(o.max)}`;
  return '';
}

const inRange = (o, x) => Number.isFinite(x)
  && !(o.min !== undefined && (x < o.min || (o.minExclusive && x === o.min)))
  && !(o.max !== undefined && (x > o.max || (o.maxExclusive && x === o.max)));

/**
 * Checks one option value against its schema entry (path names it in
 * errors) and returns it as this call's own copy: objects and arrays are
 * rebuilt from their fields and items, each read once, so that what was
 * checked is what is sent, whatever the caller changes later.
 */
export function checkValue(where, path, o, v) {
  const bad = (code) => ntkrfError(code, `${where}: ${path} must be ${expect(o)}, got ${describe(v)}`, path);
  if (o.auto && typeof v === 'string') {
    if (v !== o.auto) throw bad('ERR_OPTION'); // the schema's word (Go's names.Auto)
    return v;
  }
  switch (o.kind) {
    case 'any':
      try {
        return structuredClone(v);
      } catch (e) {
        throw ntkrfError('ERR_TYPE', `${where}: ${path} cannot be copied (${e.message})`, path);
      }
    case 'bool': if (typeof v !== 'boolean') throw bad('ERR_TYPE'); return v;
    case 'string': if (typeof v !== 'string') throw bad('ERR_TYPE'); return v;
    case 'char':
      if (typeof v !== 'string') throw bad('ERR_TYPE');
      if ([...v].length !== 1) throw bad('ERR_OPTION');
      return v;
    case 'enum':
      if (typeof v !== 'string') throw bad('ERR_TYPE');
      if (!o.enum.includes(v)) throw bad('ERR_OPTION');
      return v;
    case 'int': case 'number':
      if (typeof v !== 'number') throw bad('ERR_TYPE');
      if (!inRange(o, v) || (o.kind === 'int' && !Number.isInteger(v))) throw bad('ERR_OPTION');
      return v;
    case 'nameOrIndex':
      if (typeof v === 'string') return v;
      if (typeof v !== 'number') throw bad('ERR_TYPE');
      if (!inRange(o, v) || !Number.isInteger(v)) throw bad('ERR_OPTION');
      return v;
    case 'object': {
      if (v === null || typeof v !== 'object' || Array.isArray(v) || ArrayBuffer.isView(v)) throw bad('ERR_TYPE');
      const names = o.fields.map((f) => f.name);
      const keys = Object.keys(v);
      const unknown = keys.filter((k) => !names.includes(k));
      if (unknown.length) {
        const more = unknown.length > 1 ? ` (and ${unknown.length - 1} more unknown)` : '';
        throw ntkrfError('ERR_UNKNOWN_OPTION', `${where}: unknown option ${path}.${quote(unknown[0], false)}${more}; ${path} takes ${names.join(', ')}`, `${path}.${unknown[0]}`);
      }
      const out = {};
      for (const k of keys) {
        const x = v[k];
        if (x !== undefined) out[k] = checkValue(where, `${path}.${k}`, o.fields.find((f) => f.name === k), x);
      }
      return out;
    }
    case 'array': {
      if (!Array.isArray(v)) throw bad('ERR_TYPE');
      const n = v.length;
      if (o.max !== undefined && n > o.max) throw ntkrfError('ERR_OPTION', `${where}: ${path} has ${n} entries; at most ${o.max} are allowed`, path);
      const out = new Array(n);
      for (let i = 0; i < n; i++) out[i] = checkValue(where, `${path}[${i}]`, o.items, v[i]);
      return out;
    }
  }
  throw new Error(`ntkrf: option ${path} has unknown kind ${o.kind}`);
}

/**
 * Splits a method's options into its own (checked against the schema) and
 * the call control ({signal, onProgress}, checked here). Unknown keys are
 * refused with the method's real list.
 */
export function splitControl(where, opts, method = where) {
  const spec = SCHEMA[method];
  const known = [...spec.map((o) => o.name), 'signal', 'onProgress'];
  // Each value is read once (checkKeys) and checked as the copy that is sent.
  const { signal, onProgress, ...rest } = checkKeys(where, opts, known);
  for (const entry of spec) {
    if (rest[entry.name] !== undefined) rest[entry.name] = checkValue(where, entry.name, entry, rest[entry.name]);
  }
  return [rest, control(where, signal, onProgress)];
}

/** Checks signal and onProgress like any option. */
export function control(where, signal, onProgress) {
  if (signal !== undefined && !(signal !== null && typeof signal === 'object' && typeof signal.aborted === 'boolean'
    && typeof signal.addEventListener === 'function' && typeof signal.removeEventListener === 'function')) {
    throw typeError(`${where}: signal must be an AbortSignal (from new AbortController().signal), got ${describe(signal)}`, 'signal');
  }
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw typeError(`${where}: onProgress must be a function, got ${describe(onProgress)}`, 'onProgress');
  }
  return { signal, onProgress };
}

/**
 * A {rows, cols, data} matrix read once (each property exactly once: a
 * getter is never asked twice) and checked: {rows, cols, data}, data as
 * given (Float64Array or Float32Array, not copied). An array of rows (a
 * 2-D JavaScript array) is converted by fromRows. Every use of the
 * matrix in a call goes through what this returns, never through M again.
 */
export function readMatrix(where, name, M, method = where) {
  if (Array.isArray(M)) return fromRows(where, name, M);
  if (M === null || typeof M !== 'object' || ArrayBuffer.isView(M)) {
    throw typeError(`${where}: ${name} must be a matrix {rows, cols, data} or an array of rows, got ${describe(M)}`, name);
  }
  if (!('data' in M) && !('rows' in M)) {
    const opts = SCHEMA?.[method]?.map((o) => o.name) ?? [];
    const keys = Object.keys(M);
    const hint = 'X' in M && 'y' in M ? `; it looks like a dataset (parseCSV's result): pass dataset.X`
      : keys.length > 0 && keys.every((k) => opts.includes(k) || k === 'signal' || k === 'onProgress')
        ? `; it looks like options: they go in the last argument` : '';
    throw typeError(`${where}: ${name} must be a matrix {rows, cols, data}, got ${describe(M)}${hint}`, name);
  }
  const { rows, cols, data } = M;
  if (!Number.isInteger(rows) || !Number.isInteger(cols)) {
    throw typeError(`${where}: ${name}.rows and ${name}.cols must be integers, got ${describe(rows)} and ${describe(cols)}`, name);
  }
  if (!(data instanceof Float64Array) && !(data instanceof Float32Array)) {
    throw typeError(`${where}: ${name}.data must be a Float64Array or Float32Array, got ${describe(data)}${notNumbers(data, 'the values of a matrix')}`, name);
  }
  if (data.buffer.byteLength === 0 && data.length === 0 && rows * cols > 0) {
    throw typeError(`${where}: ${name}.data is detached (its buffer was transferred)`, name);
  }
  if (rows < 1 || cols < 1) {
    throw ntkrfError('ERR_SHAPE', `${where}: ${name} is ${rows}×${cols}; it needs at least one row and one column`, name);
  }
  if (data.length !== rows * cols) {
    throw ntkrfError('ERR_SHAPE', `${where}: ${name}.data has ${data.length} values but rows×cols = ${rows}×${cols} = ${rows * cols}`, name);
  }
  return { rows, cols, data };
}

/** A row: an array or a typed array of numbers (not a DataView, nor BigInts). */
const isRow = (r) => Array.isArray(r) || (ArrayBuffer.isView(r) && !(r instanceof DataView) && !(r instanceof BigInt64Array) && !(r instanceof BigUint64Array));

/**
 * An array of rows (number[][], as ml.js and scikit-learn users hold data;
 * rows may be typed arrays) as a new matrix {rows, cols, data: Float64Array},
 * each row and cell read once. Refused: no rows or no columns, rows of
 * different lengths (ERR_SHAPE, naming the row), a row that is not an array
 * or a cell that is not a number (ERR_TYPE, naming it). NaN and ±Inf are
 * kept, so that every method treats them as it treats them in a
 * Float64Array: a fit imputes NaN (a missing cell), a kernel refuses it,
 * and ±Inf is refused everywhere (ERR_NONFINITE, by Go).
 */
function fromRows(where, name, A) {
  const rows = A.length;
  if (rows === 0) throw ntkrfError('ERR_SHAPE', `${where}: ${name} has no rows; it needs at least one row and one column`, name);
  const first = A[0];
  if (!isRow(first)) throw typeError(`${where}: ${name}[0] must be a row (an array of numbers), got ${describe(first)}`, name);
  const cols = first.length;
  if (cols === 0) throw ntkrfError('ERR_SHAPE', `${where}: ${name}[0] is empty; every row needs at least one value`, name);
  if (rows * cols > MAX_ARRAY_VALUES) throw ntkrfError('ERR_TOO_LARGE', `${where}: ${name} has ${rows} × ${cols} values, more than one array holds (${MAX_ARRAY_VALUES})`, name);
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const row = i === 0 ? first : A[i];
    if (!isRow(row)) throw typeError(`${where}: ${name}[${i}] must be a row (an array of numbers), got ${describe(row)}`, name);
    if (row.length !== cols) {
      throw ntkrfError('ERR_SHAPE', `${where}: ${name}[${i}] has ${row.length} values but ${name}[0] has ${cols}; every row needs the same number of columns`, name);
    }
    for (let j = 0; j < cols; j++) {
      const v = row[j];
      if (typeof v !== 'number') {
        throw typeError(`${where}: ${name}[${i}][${j}] must be a number (NaN for a missing value), got ${describe(v)}; parseCSV turns text columns into numbers (one-hot)`, name);
      }
      data[i * cols + j] = v;
    }
  }
  return { rows, cols, data };
}

/**
 * A matrix as this call's own copy (Float64Array), taken when the call is
 * made: a call queued behind others computes with the values it was given,
 * whatever the caller writes into (or transfers of) its array afterwards.
 * The copy is the call's to move to a worker (transfer), not copied again.
 */
export function snapshotMatrix(where, name, M, method = where) {
  const { rows, cols, data } = readMatrix(where, name, M, method);
  return { rows, cols, data: new Float64Array(data) };
}

/**
 * A vector (Float64Array, Float32Array, or an array of numbers) as this
 * call's own Float64Array copy, taken when the call is made.
 */
/**
 * Text labels, as scikit-learn takes them (an array of strings, every
 * entry one): a copy of the names, or null when v is anything else (a
 * vector, read by snapshotVector, which names a stray entry). Each entry
 * is read once.
 */
export function snapshotNames(v) {
  if (!Array.isArray(v) || v.length === 0) return null;
  const n = v.length;
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = v[i];
    if (typeof x !== 'string') return null;
    out[i] = x;
  }
  return out;
}

export function snapshotVector(where, name, v) {
  if (Array.isArray(v)) {
    // Each entry read once, into the copy.
    const n = v.length;
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const x = v[i];
      if (typeof x !== 'number') {
        throw typeError(`${where}: ${name} must be a Float64Array, a Float32Array or an array of numbers, got an array${notNumber('labels and targets', i, x)}`, name);
      }
      out[i] = x;
    }
    return out;
  }
  if (!(v instanceof Float64Array) && !(v instanceof Float32Array)) {
    throw typeError(`${where}: ${name} must be a Float64Array, a Float32Array or an array of numbers, got ${describe(v)}`, name);
  }
  if (v.buffer.byteLength === 0 && v.length === 0 && v.buffer.detached === true) {
    throw typeError(`${where}: ${name} is detached (its buffer was transferred)`, name);
  }
  return new Float64Array(v);
}

/**
 * The advice for an array that is not a typed array: wrapping is right for
 * numbers only (Float64Array.from makes NaN of a string), so an array
 * holding anything else is told what must be numbers and how to get them.
 */
function notNumbers(v, what) {
  if (!Array.isArray(v)) return '';
  const n = v.length;
  for (let i = 0; i < n; i++) {
    const x = v[i];
    if (typeof x !== 'number') return notNumber(what, i, x);
  }
  return '; wrap plain arrays with Float64Array.from(array)';
}

/** The advice for entry i (x) of an array that must hold numbers. */
function notNumber(what, i, x) {
  return what === 'labels and targets'
    ? `; ${what} must be numbers (class indices 0…k−1 for classification) or, for fitRidge and score, all class names (strings), but [${i}] is ${describe(x)}: parseCSV gives them as dataset.y (the class indices) with dataset.classes (their names), or map each name to its index in a list of the names`
    : `; ${what} must be numbers, but [${i}] is ${describe(x)}: parseCSV turns text columns into numbers (one-hot), or convert them yourself`;
}

/** An option's entry in the schema, for its default and limits. */
export const optionOf = (method, name) => SCHEMA[method].find((o) => o.name === name);

/**
 * The bytes of a string, ArrayBuffer or Uint8Array (a Node Buffer too), as
 * a copy this call owns: the copy is transferred to a worker, the caller's
 * array is never detached. (Buffer#slice returns a view of the same
 * memory, and a small Buffer is a view of Node's shared pool, so copies are
 * made with the Uint8Array constructor.) The size is checked first.
 */
export function inputBytes(where, input, maxBytes) {
  const limit = maxBytes ?? optionOf(where, 'maxBytes').default;
  if (!(typeof input === 'string' || input instanceof ArrayBuffer || input instanceof Uint8Array)) {
    throw typeError(`${where}: input must be a string, Uint8Array or ArrayBuffer, got ${describe(input)}`, 'input');
  }
  const tooLarge = (size) => ntkrfError('ERR_TOO_LARGE', `${where}: the input is ${formatBytes(size)}, over the ${formatBytes(limit)} limit; raise maxBytes or use a sample of the rows`, 'maxBytes');
  // A string's UTF-8 form is at least as long as its length in UTF-16 units.
  const size = typeof input === 'string' ? input.length : input.byteLength;
  if (size > limit) throw tooLarge(size);
  if (typeof input === 'string') {
    const bytes = new TextEncoder().encode(input);
    if (bytes.byteLength > limit) throw tooLarge(bytes.byteLength);
    return bytes;
  }
  if ((input.buffer ?? input).detached === true) { // where the engine can tell
    throw typeError(`${where}: input is detached (its buffer was transferred)`, 'input');
  }
  // new Uint8Array(arrayBuffer) is a view; of a typed array, a copy.
  return input instanceof ArrayBuffer ? new Uint8Array(input.slice(0)) : new Uint8Array(input);
}

export function formatBytes(b) {
  if (b >= 1e9) return `${(b / 1e9).toFixed(1)} GB`;
  if (b >= 1e6) return `${(b / 1e6).toFixed(1)} MB`;
  if (b >= 1e3) return `${(b / 1e3).toFixed(1)} kB`;
  return `${b} B`;
}

/**
 * A row count: a number that JSON carries exactly. How many rows a call may
 * index is Go's rule (data.MaxIndices, ERR_TOO_LARGE), checked there before
 * anything is allocated.
 */
export function checkCount(where, name, n) {
  if (typeof n !== 'number') throw typeError(`${where}: ${name} must be an integer ≥ 0, got ${describe(n)}`, name);
  if (!Number.isSafeInteger(n) || n < 0) throw ntkrfError('ERR_OPTION', `${where}: ${name} must be an integer in 0…2^53−1, got ${describe(n)}`, name);
}

/** A string shaped like a file's path: a drive, a root, ./ or ~/, file:, or a data file's extension at its end. */
const PATH_LIKE = /^(?:[a-z]:[\\/]|\.{0,2}[\\/]|~[\\/]|file:)|\.(?:csv|tsv|tab|txt|dat|gz|json)$/i;

/**
 * A call reading a CSV's contents, answered as it is, unless input is one
 * line that looks like a file path and Go found no data in it: then the
 * error says that the method wants the file's contents, not its path.
 */
export function withPathHint(where, input, promise) {
  if (typeof input !== 'string' || input.length > 4096 || /[\r\n]/.test(input) || !PATH_LIKE.test(input.trim())) return promise;
  return promise.catch((e) => {
    if (e?.code !== 'ERR_PARSE' && e?.code !== 'ERR_DATA') throw e;
    const why = e.message.startsWith(`${where}: `) ? e.message.slice(where.length + 2) : e.message;
    throw ntkrfError(e.code, `${where}: the input ${quote(input)} looks like a file path, but ${where} reads a file's contents, not its path (${why}); pass fs.readFileSync(path) in Node, or the bytes of a File (await file.arrayBuffer()) in a browser`, 'input');
  });
}
