import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { ManualClock } from '../../../src/kernel/clock.ts';
import { DbBudget, withBudget } from '../../../src/kernel/db-budget.ts';
import { asyncCommit } from '../../../src/kernel/db.ts';
import type { RequestUnit } from '../../../src/kernel/db-unit.ts';
import { AppError } from '../../../src/kernel/errors.ts';
import type { ClaimOutcome, IdempotencyOwner } from '../../../src/modules/idempotency/index.ts';
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

// A request's unit of work, as the HTTP surface opens one: claim and complete run inside it.
async function inUnit<T>(fn: (unit: RequestUnit) => Promise<T>, end: 'commit' | 'rollback' | 'leave' = 'commit', ctx = t.ctx): Promise<T> {
  return withBudget(new DbBudget(60_000, 'test'), async () => {
    const unit = await ctx.database.openUnit();
    try {
      const result = await fn(unit);
      if (end === 'commit') await unit.commit();
      if (end === 'rollback') await unit.rollback();
      return result;
    } catch (err) {
      await unit.rollback();
      throw err;
    }
  });
}

const claimIn = (o: IdempotencyOwner, key: string, fingerprint: string, end: 'commit' | 'rollback' = 'rollback') =>
  inUnit(() => t.ctx.services.idempotency.claim({ owner: o, key, fingerprint }), end);

/** Claims, writes the answer and commits: one finished run. */
async function finish(o: IdempotencyOwner, key: string, fingerprint: string, stored = answer): Promise<void> {
  await inUnit(async () => {
    assert.equal((await t.ctx.services.idempotency.claim({ owner: o, key, fingerprint })).outcome, 'claimed');
    await t.ctx.services.idempotency.complete({ owner: o, key, fingerprint }, stored);
  });
}

const onServer = () => t.ctx.database.kind === 'postgres';

test('claim and complete belong to a unit of work: outside one they refuse to run', async () => {
  await assert.rejects(t.ctx.services.idempotency.claim({ owner: owner(), key: 'k', fingerprint: 'f' }), /unit of work/);
});

test('a finished run is replayed; a different fingerprint is a mismatch; lookup says the same without claiming', async () => {
  const o = owner();
  assert.deepEqual(await t.ctx.services.idempotency.lookup({ owner: o, key: 'k1', fingerprint: 'f1' }), { outcome: 'claimed' });
  await finish(o, 'k1', 'f1');
  assert.deepEqual(await claimIn(o, 'k1', 'f1'), { outcome: 'replay', answer });
  assert.deepEqual(await claimIn(o, 'k1', 'f2'), { outcome: 'mismatch' });
  assert.deepEqual(await t.ctx.services.idempotency.lookup({ owner: o, key: 'k1', fingerprint: 'f1' }), { outcome: 'replay', answer });
  assert.deepEqual(await t.ctx.services.idempotency.lookup({ owner: o, key: 'k1', fingerprint: 'f2' }), { outcome: 'mismatch' });
});

test('keys are scoped to their owner: the same key of another owner is free', async () => {
  const a = owner();
  await finish(a, 'shared', 'f');
  assert.equal((await claimIn(owner(), 'shared', 'other')).outcome, 'claimed');
  assert.equal((await claimIn({ type: 'team', id: a.id }, 'shared', 'other')).outcome, 'claimed');
});

test('the answer commits with the effect: a unit rolled back leaves neither, and the key runs again', async () => {
  await sql`create table if not exists idem_effects (key text primary key)`.execute(t.ctx.db);
  const o = owner();
  await inUnit(async () => {
    assert.equal((await t.ctx.services.idempotency.claim({ owner: o, key: 'both', fingerprint: 'f' })).outcome, 'claimed');
    await sql`insert into idem_effects (key) values ('both')`.execute(t.ctx.db);
    // A module's own transaction is a savepoint of the unit: its commit commits nothing yet.
    await t.ctx.db.transaction().execute(async (trx) => sql`insert into idem_effects (key) values ('both-nested')`.execute(trx));
    await t.ctx.services.idempotency.complete({ owner: o, key: 'both', fingerprint: 'f' }, answer);
  }, 'rollback');
  const rows = await sql<{ key: string }>`select key from idem_effects where key like 'both%'`.execute(t.ctx.db);
  assert.deepEqual(rows.rows, []);
  assert.deepEqual(await t.ctx.services.idempotency.lookup({ owner: o, key: 'both', fingerprint: 'f' }), { outcome: 'claimed' });
  assert.equal((await claimIn(o, 'both', 'f')).outcome, 'claimed');
});

test('a held key: another claim is in_progress on a server; on the embedded database it waits its turn, then replays', async () => {
  const o = owner();
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  let claimedFirst!: () => void;
  const first = new Promise<void>((r) => {
    claimedFirst = r;
  });
  const holder = inUnit(async () => {
    assert.equal((await t.ctx.services.idempotency.claim({ owner: o, key: 'race', fingerprint: 'f' })).outcome, 'claimed');
    claimedFirst();
    await held;
    await t.ctx.services.idempotency.complete({ owner: o, key: 'race', fingerprint: 'f' }, answer);
  });
  await first;
  const others = Array.from({ length: 20 }, () => claimIn(o, 'race', 'f'));
  let results: ClaimOutcome[];
  if (onServer()) {
    results = await Promise.all(others);
    release();
    assert.deepEqual(new Set(results.map((r) => r.outcome)), new Set(['in_progress']));
  } else {
    release();
    results = await Promise.all(others);
    assert.deepEqual(new Set(results.map((r) => r.outcome)), new Set(['replay']));
  }
  await holder;
  assert.equal((await claimIn(o, 'race', 'f')).outcome, 'replay');
});

test('20 concurrent claims of one free key: exactly one is claimed', async () => {
  const o = owner();
  const results = await Promise.all(
    Array.from({ length: 20 }, () =>
      inUnit(async () => {
        const r = await t.ctx.services.idempotency.claim({ owner: o, key: 'twenty', fingerprint: 'f' });
        if (r.outcome === 'claimed') await t.ctx.services.idempotency.complete({ owner: o, key: 'twenty', fingerprint: 'f' }, answer);
        return r.outcome;
      }),
    ),
  );
  assert.equal(results.filter((r) => r === 'claimed').length, 1);
  // The others ran while it held the key (a server) or after it committed (the embedded database).
  assert.equal(
    results.filter((r) => r === (onServer() ? 'in_progress' : 'replay')).length + (onServer() ? results.filter((r) => r === 'replay').length : 0),
    19,
  );
});

test('a claim whose connection dies (its process killed) is free at once, with nothing of its run committed', {
  skip: !process.env.DATABASE_URL && 'a server connection',
}, async () => {
  await sql`create table if not exists idem_effects (key text primary key)`.execute(t.ctx.db);
  const o = owner();
  let pid = 0;
  let claimedFirst!: () => void;
  const first = new Promise<void>((r) => {
    claimedFirst = r;
  });
  let terminated!: () => void;
  const gone = new Promise<void>((r) => {
    terminated = r;
  });
  const dying = inUnit(async () => {
    assert.equal((await t.ctx.services.idempotency.claim({ owner: o, key: 'dead', fingerprint: 'f' })).outcome, 'claimed');
    await sql`insert into idem_effects (key) values ('dead')`.execute(t.ctx.db);
    pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(t.ctx.db)).rows[0]!.pid;
    claimedFirst();
    await gone;
    // The run's next statement finds its connection gone.
    await t.ctx.services.idempotency.complete({ owner: o, key: 'dead', fingerprint: 'f' }, answer);
  });
  await first;
  assert.equal((await claimIn(o, 'dead', 'f')).outcome, 'in_progress');
  // What a killed process leaves behind: its backend's connection ends.
  await sql`select pg_terminate_backend(${pid})`.execute(t.ctx.db);
  terminated();
  await assert.rejects(dying);
  assert.equal((await claimIn(o, 'dead', 'f')).outcome, 'claimed');
  assert.equal((await sql`select 1 from idem_effects where key = 'dead'`.execute(t.ctx.db)).rows.length, 0);
});

test('an answer is replayed for 24 hours, then the key is free again', async () => {
  const o = owner();
  await finish(o, 'day', 'f');
  clock.advance(24 * 3600 * 1000 - 1000);
  assert.equal((await claimIn(o, 'day', 'f')).outcome, 'replay');
  clock.advance(2000);
  // Past the window even a different body may use the key: it names a new request now.
  assert.equal((await claimIn(o, 'day', 'new')).outcome, 'claimed');
  await finish(o, 'day', 'new', { ...answer, body: 'second' });
  assert.deepEqual(await claimIn(o, 'day', 'new'), { outcome: 'replay', answer: { ...answer, body: 'second' } });
});

test('purgeExpired deletes keys older than the replay window only', async () => {
  const old = owner();
  await finish(old, 'old', 'f');
  clock.advance(25 * 3600 * 1000);
  const fresh = owner();
  await finish(fresh, 'fresh', 'f');
  assert.ok((await t.ctx.services.idempotency.purgeExpired()) >= 1);
  assert.equal((await claimIn(old, 'old', 'other')).outcome, 'claimed');
  assert.equal((await claimIn(fresh, 'fresh', 'f')).outcome, 'replay');
});

test('a write committed asynchronously (limit counts, last use) never makes a unit of work commit so', async () => {
  // kernel/db.ts asyncCommit: on its own, a statement turns synchronous_commit off for its own
  // transaction only; inside a request's unit it would turn it off for the unit, whose writes (an
  // idempotent write and its stored answer) must survive a crash, so there it does nothing.
  const alone = await withBudget(new DbBudget(60_000, 'test'), async () => {
    const { rows } = await sql<{ set: string | null }>`select ${asyncCommit()} as set`.execute(t.ctx.db);
    return rows[0]!.set;
  });
  assert.equal(alone, 'off');
  const inside = await inUnit(async () => {
    const { rows } = await sql<{ set: string | null; now: string }>`select ${asyncCommit()} as set, current_setting('synchronous_commit') as now`.execute(
      t.ctx.db,
    );
    return rows[0]!;
  }, 'rollback');
  assert.deepEqual(inside, { set: null, now: 'on' });
});
