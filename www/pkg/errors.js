// The errors of the documented grammar (README, index.d.ts ErrorCode), and
// how values are described in their messages. Imports nothing.

/**
 * An error of the documented grammar: the class by cause, a stable `code`,
 * `option` naming the offending option as the API spells it
 * ("features.dim"), when one is at fault, and from Go the message's parts
 * (`fault`, what went wrong, and `advice`, what to do: Go's errs.Error
 * Fault and Advice), so that no one parses the message.
 */
export function ntkrfError(code, message, option, { fault, advice } = {}) {
  const Class = CLASS_OF[code] ?? Error;
  const e = new Class(capMessage(message));
  e.code = code;
  // An option's path quotes the caller's keys, which may be megabytes long.
  if (option) e.option = cap(option);
  // A message made here ("method: what went wrong; what to do") is split
  // by Go's grammar, as the engine splits its own (errs.Fault, Advice).
  if (typeof fault !== 'string') ({ fault, advice } = splitMessage(e.message));
  e.fault = capMessage(fault);
  if (typeof advice === 'string' && advice) e.advice = capMessage(advice);
  return e;
}

/**
 * The verbs that start an advice clause: Go's errs.AdviceVerbs (the
 * engine's limits.adviceVerbs), written here because errors are made
 * before any instance has started; test/core-facts.test.js ties the copy.
 */
export const ADVICE_VERBS = new Set([
  'add', 'call', 'check', 'choose', 'create', 'drop', 'encode', 'fit', 'give', 'increase', 'keep', 'leave', 'load', 'lower', 'make',
  'merge', 'name', 'open', 'parse', 'pass', 'raise', 'reduce', 'remove', 'rescale', 'save', 'set', 'solve', 'split', 'standardize',
  'try', 'use', 'wrap', 'write',
]);

/**
 * A message's fault (without the leading "method: " names) and advice
 * (the clause after the last "; " when it starts with an advice verb).
 */
export function splitMessage(message) {
  const text = String(message).replace(/^(?:[A-Za-z][\w.]*: )+/, '');
  const cut = text.lastIndexOf('; ');
  const verb = cut > 0 ? /^[A-Za-z]+/.exec(text.slice(cut + 2))?.[0]?.toLowerCase() : undefined;
  return verb && ADVICE_VERBS.has(verb) ? { fault: text.slice(0, cut), advice: text.slice(cut + 2) } : { fault: text, advice: '' };
}

/** JavaScript class of each code; Go's Code.Class says the same (a test compares them). */
export const CLASS_OF = {
  ERR_TYPE: TypeError, ERR_UNKNOWN_OPTION: TypeError,
  ERR_OPTION: RangeError, ERR_NONFINITE: RangeError, ERR_VALUE: RangeError, ERR_SHAPE: RangeError, ERR_TOO_LARGE: RangeError,
  ERR_PARSE: Error, ERR_DATA: Error, ERR_PROTOCOL: Error, ERR_CLOSED: Error, ERR_INSTANCE: Error, ERR_INTERNAL: Error,
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

// The caps below are the core's (Go's internal/check, sent as Engine.limits
// quoteChars, listChars, messageChars), written here because errors are
// made before any instance has started; Go's TestPackageCopiesAreTheCores
// and test/core-facts.test.js tie each copy to the core's.

/**
 * The most characters a message quotes of one value (a name, a cell, an option path): Go's
 * check.MaxQuoted (bytes there), so a value is cut alike wherever it is refused.
 */
export const QUOTE_CHARS = 64;

/** The most characters of a list of names a message shows (the keys of an object): Go's check.MaxListed. */
export const LIST_CHARS = 200;

/** The most characters of a whole message, whatever it quotes: every message of the engine, Go's included, is cut to this (Go's check.MaxMessage). */
export const MESSAGE_CHARS = 2000;

/** s cut to max characters, with "… (N more)" saying how much was left out. */
export function cap(s, max = QUOTE_CHARS) {
  const str = String(s);
  return str.length <= max ? str : `${str.slice(0, max)}… (${str.length - max} more characters)`;
}

/** A message as shown: at most MESSAGE_CHARS characters and what was cut said. */
export const capMessage = (message) => cap(message, MESSAGE_CHARS);

/** A string as a message quotes it: JSON-quoted, cut to QUOTE_CHARS (with quotes false, bare). */
export function quote(s, quotes = true) {
  const str = String(s);
  const head = str.length > QUOTE_CHARS ? str.slice(0, QUOTE_CHARS) : str;
  const more = str.length > QUOTE_CHARS ? `… (${str.length - QUOTE_CHARS} more characters)` : '';
  return (quotes ? JSON.stringify(head) : head) + more;
}

/** Names joined by ", " up to LIST_CHARS characters, then "… (N more)". */
export function listCapped(names) {
  let out = '';
  let i = 0;
  for (; i < names.length; i++) {
    const part = (i ? ', ' : '') + cap(names[i]);
    if (out.length + part.length > LIST_CHARS) break;
    out += part;
  }
  return i < names.length ? `${out}… (${names.length - i} more)` : out;
}

/**
 * word with its indefinite article, the one rule every message of the
 * package and the lab writes it by, read at the word's first letter or
 * number (past a quotation mark): "an" before a vowel letter and before a
 * number said with a vowel (8…, 11, 18, 11000), "a" otherwise: "an apple",
 * "an “Ozone”", "an Int8Array", "a Float64Array", "an 8".
 */
export function withArticle(word) {
  const s = String(word);
  const lead = /[\p{L}\d]+/u.exec(s)?.[0] ?? '';
  const number = /^\d+/.exec(lead)?.[0];
  const vowel = number ? /^(8|1[18](\d{3})*$)/.test(number) : /^[aeiou]/i.test(lead.normalize('NFD'));
  return `${vowel ? 'an' : 'a'} ${s}`;
}

/** A value as error messages show it: "null", "a Float32Array", "an object with keys a, b". */
export function describe(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) return 'an array';
  if (ArrayBuffer.isView(v)) return withArticle(v.constructor.name);
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'function') return 'a function';
  return typeof v === 'object' ? `an object with keys ${listCapped(Object.keys(v)) || '(none)'}` : cap(String(v));
}
