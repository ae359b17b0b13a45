// The admission of a full CoherentMap with `secondSight` (kernel/coherence.ts): while there is room
// every value is kept at once; once full (or once it holds `secondSightFrom` of its bound), a new
// key is kept only when it is asked to be kept a second time, so answers asked for once each
// neither push out the ones asked for again nor fill the map.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CacheChannel, CoherentMap } from '../../src/kernel/coherence.ts';

const channel: CacheChannel = { generation: () => 0, usable: () => true, changeSeq: () => 0, changedAt: () => 0 };

function filled(secondSight?: number) {
  const map = new CoherentMap<string>(channel, { max: 3, ...(secondSight ? { secondSight } : {}) });
  for (const k of ['a', 'b', 'c']) assert.equal(map.keep(k, k.toUpperCase(), map.mark()), true, `${k} is kept while there is room`);
  return map;
}

test('without second sight, a full map keeps every new value and lets the least recently used go', () => {
  const map = filled();
  assert.equal(map.keep('d', 'D', map.mark()), true);
  assert.equal(map.has('a'), false);
  assert.equal(map.get('d'), 'D');
});

test('with second sight, a full map refuses a new key once and keeps it when asked again', () => {
  const map = filled(100);
  assert.equal(map.keep('d', 'D', map.mark()), false, 'the first asking is refused');
  assert.deepEqual(
    ['a', 'b', 'c', 'd'].map((k) => map.has(k)),
    [true, true, true, false],
    'nothing was pushed out',
  );
  assert.equal(map.keep('d', 'D', map.mark()), true, 'the second asking is kept');
  assert.equal(map.get('d'), 'D');
  assert.equal(map.has('a'), false, 'the least recently used made room');
  assert.equal(map.size, 3);
  // Passed once: a key pushed out later is new again.
  assert.equal(map.keep('a', 'A', map.mark()), false);
  assert.equal(map.keep('a', 'A', map.mark()), true);
});

test('a stream of keys asked for once each leaves a full map as it was', () => {
  const map = filled(100);
  for (let i = 0; i < 1000; i++) assert.equal(map.keep(`once ${i}`, 'x', map.mark()), false);
  assert.deepEqual(
    ['a', 'b', 'c'].map((k) => map.get(k)),
    ['A', 'B', 'C'],
  );
});

test('a key already kept is replaced in place, whether or not it is new to the doorkeeper', () => {
  const map = filled(100);
  assert.equal(map.keep('b', 'B2', map.mark()), true);
  assert.equal(map.get('b'), 'B2');
  assert.deepEqual(
    ['a', 'c'].map((k) => map.has(k)),
    [true, true],
  );
});

test('the doorkeeper remembers a bounded number of refused keys: an old refusal is forgotten', () => {
  const map = filled(10);
  assert.equal(map.keep('d', 'D', map.mark()), false);
  // Two generations of 10: after 20 other refusals the first is forgotten.
  for (let i = 0; i < 20; i++) map.keep(`other ${i}`, 'x', map.mark());
  assert.equal(map.keep('d', 'D', map.mark()), false, 'forgotten, so refused again');
  assert.equal(map.keep('d', 'D', map.mark()), true);
});

test('a value that is never kept (read across a change) is not let in by second sight either', () => {
  let generation = 0;
  const moving: CacheChannel = { ...channel, generation: () => generation };
  const map = new CoherentMap<string>(moving, { max: 1, secondSight: 10 });
  map.keep('a', 'A', map.mark());
  const mark = map.mark();
  generation++;
  assert.equal(map.keep('b', 'B', mark), false);
  assert.equal(map.keep('b', 'B', mark), false);
});

test('with secondSightFrom, a new key waits for its second sight once the map holds that share of its bound, full or not', () => {
  const map = new CoherentMap<string>(channel, { max: 8, secondSight: 100, secondSightFrom: 0.25 });
  assert.equal(map.keep('a', 'A', map.mark()), true, 'a quarter: kept at once');
  assert.equal(map.keep('b', 'B', map.mark()), true);
  assert.equal(map.keep('c', 'C', map.mark()), false, 'past a quarter, with room left: refused once');
  assert.equal(map.keep('c', 'C', map.mark()), true, 'kept at its second sight');
  for (let i = 0; i < 100; i++) map.keep(`once ${i}`, 'x', map.mark());
  assert.equal(map.size, 3, 'keys asked for once each take no room');
  assert.equal(map.keep('b', 'B2', map.mark()), true, 'a kept key is replaced in place');
});

test('refusesUnmade says before a value is made what keep() would say of a new key, and notes the key as keep() would', () => {
  const map = filled(100);
  assert.equal(map.refusesUnmade('d'), true, 'a full map refuses a new key at first sight');
  assert.equal(map.has('d'), false);
  assert.equal(map.refusesUnmade('d'), false, 'noted: its second sight passes');
  assert.equal(map.keep('d', 'D', map.mark()), true, 'and keep() lets it in');
  assert.equal(map.refusesUnmade('d'), false, 'a kept key is replaced in place');
  // Asked first or not, a stream of keys asked for once each is refused alike and leaves the map as it was.
  for (let i = 0; i < 50; i++) assert.equal(map.refusesUnmade(`once ${i}`), true);
  assert.deepEqual(
    ['b', 'c', 'd'].map((k) => map.has(k)),
    [true, true, true],
  );
  // Without second sight, or with room, nothing is refused unmade.
  assert.equal(filled().refusesUnmade('e'), false);
  const roomy = new CoherentMap<string>(channel, { max: 10, secondSight: 100 });
  assert.equal(roomy.refusesUnmade('e'), false);
  // A channel that cannot be used refuses every value.
  const unusable = new CoherentMap<string>({ ...channel, usable: () => false }, { max: 10 });
  assert.equal(unusable.refusesUnmade('e'), true);
});
