// "Added a apple point", "a Ozone column" (issue 42): every message of the
// package and the lab writes a word's article by one rule (errors.js
// withArticle), and no template writes "a ${…}" or "an ${…}" by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './helpers.js';

const { withArticle } = await import(pathToFileURL(path.join(root, 'www', 'pkg', 'errors.js')).href);

test('a word gets "an" before a vowel sound it starts with, "a" otherwise', () => {
  for (const [w, want] of [['apple', 'an apple'], ['Ozone', 'an Ozone'], ['“Ozone”', 'an “Ozone”'], ['Int8Array', 'an Int8Array'], ['Float64Array', 'a Float64Array'],
    ['blue', 'a blue'], ['orange', 'an orange'], ['éclair', 'an éclair'], ['object', 'an object'], ['8', 'an 8'], ['11', 'an 11'], ['18', 'an 18'], ['80', 'an 80'], ['1', 'a 1'], ['110', 'a 110'], ['regression', 'a regression']]) {
    assert.equal(withArticle(w), want, w);
  }
});

test('no message in www/ writes an article before a value by hand', () => {
  const hand = [];
  for (const dir of ['pkg', 'lab']) {
    for (const f of readdirSync(path.join(root, 'www', dir)).filter((n) => n.endsWith('.js'))) {
      readFileSync(path.join(root, 'www', dir, f), 'utf8').split('\n').forEach((line, i) => {
        if (/\ban? \$\{/.test(line)) hand.push(`www/${dir}/${f}:${i + 1}: ${line.trim()}`);
      });
    }
  }
  assert.deepEqual(hand, [], 'write withArticle(word) instead');
});
