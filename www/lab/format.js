// Short texts the page builds from numbers and names. No DOM.

/** A word with its article: the package's one rule ("an apple", "an “Ozone”"). */
export { withArticle } from './ntkrf/errors.js';

/** A file name short enough for the progress line (the status shows it in full). */
export const shortName = (name) => (name.length > 24 ? `${name.slice(0, 23)}…` : name);

export const capital = (s) => s[0].toUpperCase() + s.slice(1);

/** "1 row", "3 rows". */
export const count = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A duration in the unit a person reads best. */
export function seconds(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}
