import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ManualClock } from '../../../src/kernel/clock.ts';
import { AppError } from '../../../src/kernel/errors.ts';
import type { IdempotencyOwner } from '../../../src/modules/idempotency/index.ts';
import { canonicalJson, checkKey, MAX_CANONICAL_DEPTH, requestFingerprint } from '../../../src/modules/idempotency/policy.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

const clock = new ManualClock('2030-03-01T12:00:00Z');
let t: TestContext;
before(async () => {
  t = await startTestContext({ clock });
});
after(async () => {
  await t.close();
});

let n = 0;
const owner = (): IdempotencyOwner => ({ type: 'account', id: `acc_idem_${++n}` });
const answer = { status: 201, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"id":1}' };

test('checkKey accepts 1 to 255 characters and refuses 0 or 256 with invalid_request', () => {
  assert.equal(checkKey('a'), 'a');
  assert.equal(checkKey('k'.repeat(255)).length, 255);
  for (const bad of ['', 'k'.repeat(256)]) {
    assert.throws(
      () => checkKey(bad),
      (e: unknown) => e instanceof AppError && e.code === 'invalid_request' && e.status === 400,
    );
  }
});

test('the fingerprint ignores key order but not method, path or values', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } }), '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
  const base = requestFingerprint('POST', '/api/v2/x', { a: 1, b: 2 }, 'acc_1');
  assert.equal(requestFingerprint('post', '/api/v2/x', { b: 2, a: 1 }, 'acc_1'), base);
  assert.notEqual(requestFingerprint('PUT', '/api/v2/x', { a: 1, b: 2 }, 'acc_1'), base);
  assert.notEqual(requestFingerprint('POST', '/api/v2/y', { a: 1, b: 2 }, 'acc_1'), base);
  assert.notEqual(requestFingerprint('POST', '/api/v2/x', { a: 1, b: 3 }, 'acc_1'), base);
  assert.notEqual(requestFingerprint('POST', '/api/v2/x', { a: 1, b: 2 }, 'acc_2'), base, 'another person sends another request');
  assert.notEqual(requestFingerprint('POST', '/api/v2/x', undefined, 'acc_1'), base);
});

test('a value nested past the fingerprint depth is invalid_request, however deep or even cyclic', () => {
  const nested = (depth: number) => {
    let v: unknown = 1;
    for (let i = 0; i < depth; i++) v = [v];
    return v;
  };
  assert.equal(canonicalJson(nested(MAX_CANONICAL_DEPTH)), `${'['.repeat(MAX_CANONICAL_DEPTH)}1${']'.repeat(MAX_CANONICAL_DEPTH)}`);
  const cyclic: Record<string, unknown> = {};
  cyclic.a = cyclic;
  cyclic.b = cyclic;
  for (const value of [nested(MAX_CANONICAL_DEPTH + 1), nested(100_000), cyclic]) {
    assert.throws(
      () => requestFingerprint('POST', '/api/v2/x', value, 'acc_1'),
      (e: unknown) => e instanceof AppError && e.code === 'invalid_request',
    );
  }
});

test('claim, in progress, complete, replay; a different fingerprint is a mismatch', async () => {
  const svc = t.ctx.services.idempotency;
  const o = owner();
  const first = await svc.claim({ owner: o, key: 'k1', fingerprint: 'f1' });
  assert.equal(first.outcome, 'claimed');
  assert.deepEqual(await svc.claim({ owner: o, key: 'k1', fingerprint: 'f1' }), { outcome: 'in_progress' });
  assert.deepEqual(await svc.claim({ owner: o, key: 'k1', fingerprint: 'f2' }), { outcome: 'mismatch' });
  if (first.outcome !== 'claimed') return;
  await svc.complete({ owner: o, key: 'k1', claim: first.claim }, answer);
  assert.deepEqual(await svc.claim({ owner: o, key: 'k1', fingerprint: 'f1' }), { outcome: 'replay', answer });
  assert.deepEqual(await svc.claim({ owner: o, key: 'k1', fingerprint: 'f2' }), { outcome: 'mismatch' });
});

test('keys are scoped to their owner: the same key of another owner is free', async () => {
  const svc = t.ctx.services.idempotency;
  const a = owner();
  assert.equal((await svc.claim({ owner: a, key: 'shared', fingerprint: 'f' })).outcome, 'claimed');
  assert.equal((await svc.claim({ owner: owner(), key: 'shared', fingerprint: 'other' })).outcome, 'claimed');
  assert.equal((await svc.claim({ owner: { type: 'team', id: a.id }, key: 'shared', fingerprint: 'other' })).outcome, 'claimed');
});

test('a released key runs again; a release by a stale claim changes nothing', async () => {
  const svc = t.ctx.services.idempotency;
  const o = owner();
  const first = await svc.claim({ owner: o, key: 'k', fingerprint: 'f' });
  assert.equal(first.outcome, 'claimed');
  if (first.outcome !== 'claimed') return;
  await svc.release({ owner: o, key: 'k', claim: 'not-the-claim' });
  assert.equal((await svc.claim({ owner: o, key: 'k', fingerprint: 'f' })).outcome, 'in_progress');
  await svc.release({ owner: o, key: 'k', claim: first.claim });
  assert.equal((await svc.claim({ owner: o, key: 'k', fingerprint: 'f' })).outcome, 'claimed');
});

test('20 concurrent claims of one key: exactly one is claimed', async () => {
  const svc = t.ctx.services.idempotency;
  const o = owner();
  const results = await Promise.all(Array.from({ length: 20 }, () => svc.claim({ owner: o, key: 'race', fingerprint: 'f' })));
  assert.equal(results.filter((r) => r.outcome === 'claimed').length, 1);
  assert.equal(results.filter((r) => r.outcome === 'in_progress').length, 19);
});

test('an answer is replayed for 24 hours, then the key is free again', async () => {
  const svc = t.ctx.services.idempotency;
  const o = owner();
  const first = await svc.claim({ owner: o, key: 'day', fingerprint: 'f' });
  if (first.outcome !== 'claimed') assert.fail('not claimed');
  await svc.complete({ owner: o, key: 'day', claim: first.claim }, answer);
  clock.advance(24 * 3600 * 1000 - 1000);
  assert.equal((await svc.claim({ owner: o, key: 'day', fingerprint: 'f' })).outcome, 'replay');
  clock.advance(2000);
  // Past the window even a different body may use the key: it names a new request now.
  assert.equal((await svc.claim({ owner: o, key: 'day', fingerprint: 'new' })).outcome, 'claimed');
});

test('a claim left running for 10 minutes (its process died) is taken over by one retry', async () => {
  const svc = t.ctx.services.idempotency;
  const o = owner();
  const first = await svc.claim({ owner: o, key: 'dead', fingerprint: 'f' });
  assert.equal(first.outcome, 'claimed');
  clock.advance(9 * 60 * 1000);
  assert.equal((await svc.claim({ owner: o, key: 'dead', fingerprint: 'f' })).outcome, 'in_progress');
  clock.advance(2 * 60 * 1000);
  const retries = await Promise.all(Array.from({ length: 5 }, () => svc.claim({ owner: o, key: 'dead', fingerprint: 'f' })));
  const won = retries.filter((r) => r.outcome === 'claimed');
  assert.equal(won.length, 1);
  // The dead run's late answer no longer counts; the new run's does.
  if (first.outcome === 'claimed') await svc.complete({ owner: o, key: 'dead', claim: first.claim }, { ...answer, body: 'stale' });
  const winner = won[0]!;
  if (winner.outcome === 'claimed') await svc.complete({ owner: o, key: 'dead', claim: winner.claim }, answer);
  assert.deepEqual(await svc.claim({ owner: o, key: 'dead', fingerprint: 'f' }), { outcome: 'replay', answer });
});

test('purgeExpired deletes keys older than the replay window only', async () => {
  const svc = t.ctx.services.idempotency;
  const old = owner();
  await svc.claim({ owner: old, key: 'old', fingerprint: 'f' });
  clock.advance(25 * 3600 * 1000);
  const fresh = owner();
  await svc.claim({ owner: fresh, key: 'fresh', fingerprint: 'f' });
  assert.ok((await svc.purgeExpired()) >= 1);
  assert.equal((await svc.claim({ owner: old, key: 'old', fingerprint: 'other' })).outcome, 'claimed');
  assert.equal((await svc.claim({ owner: fresh, key: 'fresh', fingerprint: 'f' })).outcome, 'in_progress');
});
