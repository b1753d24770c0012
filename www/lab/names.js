// The core's names by their Go names: NAMES.Auto is "auto", NAMES.RBF
// "rbf", NAMES.Classification "classification". They are the engine's
// (eng.names, from Go's core/names), kept here by vocabulary() (vocab.js)
// when the engine starts; every lab module compares with and writes these,
// never the words themselves (test/core-facts.test.js greps for them).
// Empty before the engine has started, when nothing runs. Imports nothing,
// so that any module may import it.
export const NAMES = {};

/** Keeps the engine's names (eng.names) in NAMES. */
export function setNames(names) {
  for (const k of Object.keys(NAMES)) delete NAMES[k];
  Object.assign(NAMES, names);
}
