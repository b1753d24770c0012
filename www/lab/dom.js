// Small DOM helpers every panel uses: an element by id, a paragraph, a
// file saved from text. No state.

export const $ = (id) => document.getElementById(id);

/** A paragraph of text (never HTML), with an optional class. */
export function line(text, cls) {
  const p = document.createElement('p');
  p.textContent = text;
  if (cls) p.className = cls;
  return p;
}

/** Saves text (a string or Blob parts) as a file of type. */
export function download(fileName, parts, type = 'text/csv') {
  const url = URL.createObjectURL(new Blob(Array.isArray(parts) ? parts : [parts], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started reading the blob; free it a little later.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** A mark on the page's performance timeline ('ntkrf: name'), for reading where its start spends its time. */
export const mark = (name) => performance.mark?.(`ntkrf: ${name}`);
