// The bundled ward boundaries: the file holds wards 1–50 once each, a malformed file fails loudly
// rather than answering wrong wards, and the ward map is drawn from the same shapes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseWardBoundaries, WARD_BOUNDARIES_FILE, wardAt, wardBoundaries } from '../../../src/modules/public-data/wards.ts';
import { projectWards } from '../../../src/surfaces/pages/ward-map.ts';

test('the bundled file holds the 50 wards in order, each with a bounding box', () => {
  const wards = wardBoundaries();
  assert.deepEqual(
    wards.map((w) => w.ward),
    Array.from({ length: 50 }, (_, i) => i + 1),
  );
  for (const w of wards) assert.ok(w.bbox[0] < w.bbox[2] && w.bbox[1] < w.bbox[3] && w.bbox[0] > -88 && w.bbox[2] < -87.5, `ward ${w.ward}`);
  assert.equal(wardAt(41.88365, -87.63197), 42);
  assert.equal(wardAt(-41.88365, 87.63197), null);
});

test('a malformed boundaries file is refused', () => {
  const collection = JSON.parse(readFileSync(WARD_BOUNDARIES_FILE, 'utf8'));
  const without = (change: (features: any[]) => any[]) => JSON.stringify({ ...collection, features: change(structuredClone(collection.features)) });
  assert.throws(() => parseWardBoundaries(without((f) => f.slice(1))), /expected wards 1 to 50/);
  assert.throws(() => parseWardBoundaries(without((f) => [...f.slice(1), f[1]])), /expected wards 1 to 50/);
  assert.throws(() => parseWardBoundaries(without((f) => f.map((x, i) => (i === 0 ? { ...x, properties: { ward: '51' } } : x)))), /no ward number 1–50/);
});

test('the projected map keeps every ward, inside its drawing box', () => {
  const { width, height, outlines } = projectWards(wardBoundaries(), 480);
  assert.equal(width, 480);
  assert.ok(height > width, 'Chicago is taller than wide');
  assert.equal(outlines.length, 50);
  for (const o of outlines) {
    assert.match(o.d, /^M[\d.]+ [\d.]+(L[\d.]+ [\d.]+)+Z/, `ward ${o.ward}`);
    for (const m of o.d.matchAll(/([\d.]+) ([\d.]+)/g)) assert.ok(Number(m[1]) <= width + 0.1 && Number(m[2]) <= height + 0.1);
  }
});
