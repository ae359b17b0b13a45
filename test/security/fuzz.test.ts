// A bounded slice of the generated fuzz (test/fuzz; `npm run fuzz` sends 10,000), sized so CI stays
// within its time on a slow machine (1,500 took eight minutes on the embedded database): hostile requests
// to every route and protocol surface, from the committed seed. No 5xx, no stack trace or
// credential in any body, no table's data changed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runFuzz } from '../fuzz/run.ts';

test('800 generated hostile requests: no 5xx, no stack trace or credential in a body, no data changed', async () => {
  const result = await runFuzz({ seed: 20261126, count: 800 });
  assert.equal(result.sent, 800);
  assert.deepEqual(result.violations, []);
  // The slice reaches the routes' own checks, not only the gates.
  assert.ok((result.statuses['400'] ?? 0) > 100, JSON.stringify(result.statuses));
  assert.ok((result.statuses['200'] ?? 0) > 50, JSON.stringify(result.statuses));
});
