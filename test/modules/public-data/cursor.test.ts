import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCursor, encodeCursor, toPage } from '../../../src/modules/public-data/cursor.ts';
import { AppError } from '../../../src/kernel/errors.ts';

test('a cursor round-trips its key and is opaque base64url', () => {
  const c = encodeCursor('-introduced', ['2023-06-21', 'A1B2', null, 0.25]);
  assert.match(c, /^[A-Za-z0-9_-]+$/);
  assert.deepEqual(decodeCursor(c, '-introduced', 4), ['2023-06-21', 'A1B2', null, 0.25]);
});

test('malformed cursors and cursors of another sort or shape are invalid_request', () => {
  const bad = ['', '!!!', 'eyJ4IjoxfQ', Buffer.from('[1,2]').toString('base64url'), Buffer.from('{"s":"x","k":[{"a":1}]}').toString('base64url')];
  for (const raw of bad) {
    assert.throws(
      () => decodeCursor(raw, 'x', 1),
      (e: unknown) => e instanceof AppError && e.code === 'invalid_request',
      raw,
    );
  }
  const other = encodeCursor('record', ['O2023-1']);
  assert.throws(() => decodeCursor(other, '-record', 1), /made for sort "record"/);
  assert.throws(() => decodeCursor(other, 'record', 2), /malformed/);
});

test('toPage cuts the extra row and points the cursor at the last row kept', () => {
  const page = toPage(
    [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
    2,
    'id',
    (r) => [r.id],
    (r) => r.id,
  );
  assert.deepEqual(page.data, ['a', 'b']);
  assert.deepEqual(decodeCursor(page.meta.nextCursor!, 'id', 1), ['b']);
  assert.equal(
    toPage(
      [{ id: 'a' }],
      2,
      'id',
      (r) => [r.id],
      (r) => r.id,
    ).meta.nextCursor,
    null,
  );
});
