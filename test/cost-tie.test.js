// The lab's copy of the core's cost formulas (www/lab/cost.js trainWork)
// is the core's (Go's pipeline.Costs FeatureFit, ExactFit, SearchWork),
// asked of the test build's costWork op (jsbridge/testhook_cost.go) over
// a grid of shapes: a change to either side that the other lacks fails.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from './helpers.js';

const wasm = path.join(root, 'dist', 'test', 'ntkrf-crashtest.wasm');
const cost = await import(pathToFileURL(path.join(root, 'dist', 'www', 'cost.js')).href);

let costs;
before(async () => {
  await import(path.join(root, 'dist', 'npm', 'wasm_exec.js'));
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(readFileSync(wasm), go.importObject);
  go.run(instance);
  // The core's table, as the engine sends it (Engine.costs), for the page's copy.
  const { createEngine } = await import(path.join(root, 'dist', 'npm', 'index.js'));
  const eng = await createEngine({ workers: 1 });
  costs = eng.costs;
  eng.close();
  cost.setCosts(costs);
});

const goWork = async (a) => JSON.parse((await globalThis.ntkrf.call('costWork', JSON.stringify(a), [])).json);
const close = (a, b) => Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));

test("the lab's work formulas are the core's cost model", async () => {
  let n = 0;
  for (const rows of [3, 105, 1000, 4321, 60_000]) {
    for (const cols of [1, 13, 784]) {
      for (const dim of [64, 512, 4096]) {
        for (const depth of [1, 3]) {
          for (const outputs of [1, 11]) {
            const search = { candidates: 12, rows: 1000 };
            const go = await goWork({ rows, cols, dim, depth, outputs, candidates: search.candidates, searchRows: search.rows });
            const layers = depth - 1;
            const features = cost.trainWork(rows, cols, dim, layers, null, { outputs });
            assert.ok(close(features, go.features), `features ${rows}×${cols} m=${dim} L=${depth} k=${outputs}: page ${features}, core ${go.features}`);
            const exact = cost.trainWork(rows, cols, 0, layers, null, { outputs, exact: true });
            assert.ok(close(exact, go.exact), `exact ${rows}×${cols} L=${depth}: page ${exact}, core ${go.exact}`);
            const searched = cost.trainWork(rows, cols, dim, layers, search, { outputs }) - features;
            assert.ok(close(searched, go.search), `search ${rows}×${cols} L=${depth}: page ${searched}, core ${go.search}`);
            n++;
          }
        }
      }
    }
  }
  assert.equal(n, 180);
});
