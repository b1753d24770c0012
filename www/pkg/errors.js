// The errors of the documented grammar (README, index.d.ts ErrorCode), and
// how values are described in their messages. Imports nothing.

/**
 * An error of the documented grammar: the class by cause, a stable `code`,
 * and `option` naming the offending option as the API spells it
 * ("features.dim"), when one is at fault.
 */
export function ntkrfError(code, message, option) {
  const Class = CLASS_OF[code] ?? Error;
  const e = new Class(message);
  e.code = code;
  if (option) e.option = option;
  return e;
}

/** JavaScript class of each code; Go's Code.Class says the same (a test compares them). */
export const CLASS_OF = {
  ERR_TYPE: TypeError, ERR_UNKNOWN_OPTION: TypeError,
  ERR_OPTION: RangeError, ERR_NONFINITE: RangeError, ERR_VALUE: RangeError, ERR_SHAPE: RangeError, ERR_TOO_LARGE: RangeError,
  ERR_PARSE: Error, ERR_DATA: Error, ERR_CLOSED: Error, ERR_INSTANCE: Error, ERR_INTERNAL: Error,
};

export const typeError = (message, option) => ntkrfError('ERR_TYPE', message, option);

/** The error of calls made on (or in flight in) a closed engine. */
export const closedError = (where) => ntkrfError('ERR_CLOSED', `${where}: the engine was closed; create a new one with createEngine()`);

/** Rejects with the same error a cancelled fetch gives, with code ERR_ABORTED. */
export function abortError(signal) {
  const reason = signal?.reason;
  const e = reason instanceof Error && reason.name === 'AbortError' ? reason : new DOMException('The ntkrf call was aborted', 'AbortError');
  // DOMException's legacy numeric code is a prototype getter: an own property shadows it.
  try { Object.defineProperty(e, 'code', { value: 'ERR_ABORTED', configurable: true }); } catch { /* frozen reason: leave it */ }
  return e;
}

/** A value as error messages show it: "null", "a Float32Array", "an object with keys a, b". */
export function describe(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) return 'an array';
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name}`;
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'function') return 'a function';
  return typeof v === 'object' ? `an object with keys ${Object.keys(v).join(', ') || '(none)'}` : String(v);
}
