// CSV text for every export of the page: RFC 4180 quoting, and text cells
// that a spreadsheet would run as formulas neutralised. No DOM.

/**
 * Text a spreadsheet treats as a formula (OWASP, CSV injection): a cell
 * starting with = + - @, tab or carriage return; leading spaces do not
 * protect it in every spreadsheet.
 */
const FORMULA = /^(?:\s*[=+\-@]|[\t\r])/;
/** A plain decimal number as text ("-1", "+2.5e3"): a spreadsheet reads it as a number, not a formula. */
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/**
 * Text that must be quoted: the delimiter, quotes and line breaks (RFC
 * 4180), leading or trailing spaces (kept only when quoted), and ';', the
 * delimiter of spreadsheets in decimal-comma locales.
 */
const NEEDS_QUOTES = /[",;\r\n]|^\s|\s$/;

/**
 * One CSV field. Numbers are written as they are, at full precision (String
 * round-trips a double), negative ones included; null and undefined are
 * empty. Text (class labels, column names) that a spreadsheet would run as
 * a formula gets a leading ' and quotes, as OWASP advises.
 */
export function csvField(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return String(v);
  let s = String(v);
  let quoted = NEEDS_QUOTES.test(s);
  if (FORMULA.test(s) && !NUMBER.test(s)) {
    s = `'${s}`;
    quoted = true;
  }
  return quoted ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One CSV line (with its line break) from numbers and strings. Every export writes through this. */
export function csvLine(cells) {
  return `${cells.map(csvField).join(',')}\n`;
}

/** A CSV text from a header and rows of numbers or strings. */
export function toCSV(header, rows) {
  return [header, ...rows].map(csvLine).join('');
}
