// How printed names become a person's display name: eLMS prints "Last, First" and sometimes a
// suffix as its own comma part.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitName } from '../../../../src/modules/public-data/ingest/names.ts';

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
});
