// How printed names become a person's display name: eLMS prints "Last, First" and sometimes a
// suffix as its own comma part.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matterRows } from '../../../../src/modules/public-data/ingest/elms-map.ts';
import { createMatcher, splitName } from '../../../../src/modules/public-data/ingest/names.ts';

test('"Last, First" reads as "First Last"; a first-last name is kept', () => {
  assert.deepEqual(splitName('Hopkins, Brian'), { name: 'Brian Hopkins', sortName: 'Hopkins, Brian', given: 'Brian', family: 'Hopkins' });
  assert.deepEqual(splitName('La Spata,  Daniel'), { name: 'Daniel La Spata', sortName: 'La Spata, Daniel', given: 'Daniel', family: 'La Spata' });
  assert.equal(splitName('Brendan Reilly').name, 'Brendan Reilly');
});

test('a suffix printed as its own part follows the name, wherever it is printed', () => {
  assert.equal(splitName('Cardona, Jr., Felix').name, 'Felix Cardona Jr.');
  assert.equal(splitName('Vasquez, Jr., Andre').name, 'Andre Vasquez Jr.');
  assert.equal(splitName('Cardona, Felix, Jr.').name, 'Felix Cardona Jr.');
  assert.equal(splitName('Cardona, Jr., Felix').given, 'Felix');
  assert.equal(splitName('Cardona, Jr., Felix').family, 'Cardona');
  // council-flow's committee history: the suffix opens the given part.
  assert.deepEqual(splitName('Scott, Jr. Michael'), { name: 'Michael Scott Jr.', sortName: 'Scott, Jr. Michael', given: 'Michael', family: 'Scott' });
  assert.equal(splitName('Sr, Juan').name, 'Juan Sr');
});

test('a published tally is kept as published; without one the tally is counted from the votes', () => {
  const people = createMatcher();
  people.add('p-hopkins', ['Hopkins, Brian']);
  people.add('p-reilly', ['Reilly, Brendan']);
  const votes = [
    { voterName: 'Hopkins, Brian', vote: 'Yea' },
    { voterName: 'Reilly, Brendan', vote: 'Nay' },
  ];
  const action = { actionDate: '2026-09-29T00:00:00', actionName: 'Passed', votes };
  const matter = (a: Record<string, unknown>) =>
    matterRows({ matterId: 'm1', recordNumber: 'O2026-1', actions: [a] }, 'https://x/matter/m1', people, new Map());
  // Two of three votes listed by name: the published tally still says 2 Yea, 1 Nay.
  const published = matter({ ...action, tallies: { yea: 2, nay: 1, absent: 0, notVoting: 0 } });
  assert.equal(published.rollCalls.length, 1);
  assert.deepEqual([published.rollCalls[0]!.yea, published.rollCalls[0]!.nay, published.rollCalls[0]!.tallies_published], [2, 1, true]);
  assert.equal(published.votes.length, 2);
  const counted = matter(action);
  assert.deepEqual([counted.rollCalls[0]!.yea, counted.rollCalls[0]!.nay, counted.rollCalls[0]!.tallies_published], [1, 1, false]);
  // Not a set of counts (a negative or fractional count): counted from the votes instead.
  assert.equal(matter({ ...action, tallies: { yea: -1 } }).rollCalls[0]!.tallies_published, false);
  assert.equal(matter({ ...action, tallies: { yea: 1.5 } }).rollCalls[0]!.tallies_published, false);
  // A published tally makes a roll call even when no vote is listed by name.
  const none = matter({ ...action, votes: [], tallies: { yea: 49, nay: 1 } });
  assert.deepEqual([none.rollCalls.length, none.votes.length, none.rollCalls[0]!.yea], [1, 0, 49]);
});
