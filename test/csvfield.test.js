// The lab's CSV writer (www/lab/csv.js) gives the fields of
// testdata/csvfield.json, which Go's data.CSVField (ntkrf predict's writer)
// is held to as well: the rule lives in Go and this ties the page's copy to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { readFile } from 'node:fs/promises';
import { root } from './helpers.js';

test('csvField writes every field as Go\'s CSVField does', async () => {
  const { csvField } = await import(pathToFileURL(path.join(root, 'www', 'lab', 'csv.js')).href);
  const { cases } = JSON.parse(await readFile(path.join(root, 'testdata', 'csvfield.json'), 'utf8'));
  assert.ok(cases.length >= 20);
  for (const [text, field] of cases) assert.equal(csvField(text), field, JSON.stringify(text));
});
