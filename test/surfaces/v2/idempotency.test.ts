// Idempotency-Key on v2 writes, over HTTP, against real write routes that insert real rows.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Behaviour, countEffects, createEffectsTable, effectsApp } from './effects-app.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

let t: TestContext;
let app: FastifyInstance;
const behaviour: Behaviour = { failNext: 0, failAfterWrite: 0, hold: null };

before(async () => {
  t = await startTestContext();
  await createEffectsTable(t.ctx);
  app = await effectsApp(t.ctx, behaviour);
});
after(async () => {
  await app.close();
  await t.close();
});

let n = 0;
/** A fresh account and key per test, so limits and key spaces never meet. */
async function newKey(accountEmail?: string): Promise<{ auth: string; accountId: string }> {
  const email = accountEmail ?? `idem${++n}@example.org`;
  const account = (await t.ctx.services.accounts.findByEmail(email)) ?? (await t.ctx.services.accounts.create({ email }));
  const { key } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'idem', scopes: ['public.read', 'public.ai'] });
  return { auth: `Bearer ${key}`, accountId: account.id };
}

function post(auth: string, key: string | undefined, note: string) {
  return app.inject({
    method: 'POST',
    url: '/api/v2/effects',
    headers: { authorization: auth, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload: { note },
  });
}

test('the same key replays the first answer with Idempotent-Replayed: true; the effect happens once', async () => {
  const { auth } = await newKey();
  const first = await post(auth, 'replay-1', 'replayed');
  assert.equal(first.statusCode, 201);
  assert.equal(first.headers['idempotent-replayed'], undefined);
  const again = await post(auth, 'replay-1', 'replayed');
  assert.equal(again.statusCode, 201);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.equal(again.body, first.body);
  assert.equal(again.headers['content-type'], first.headers['content-type']);
  assert.equal(again.headers.location, '/api/v2/effects');
  // Each delivery carries its own limit headers; only the answer's own headers are replayed.
  assert.ok(again.headers['ratelimit-limit']);
  assert.equal(await countEffects(t.ctx, 'replayed'), 1);
});

test('without a key every write runs', async () => {
  const { auth } = await newKey();
  await post(auth, undefined, 'unkeyed');
  await post(auth, undefined, 'unkeyed');
  assert.equal(await countEffects(t.ctx, 'unkeyed'), 2);
});

test('the same key with a different body, path or method is 422 idempotency_key_reused, with no effect', async () => {
  const { auth } = await newKey();
  assert.equal((await post(auth, 'reuse', 'reuse-a')).statusCode, 201);
  const differentBody = await post(auth, 'reuse', 'reuse-b');
  const differentPath = await app.inject({ method: 'PUT', url: '/api/v2/effects/reuse-a', headers: { authorization: auth, 'idempotency-key': 'reuse' } });
  for (const res of [differentBody, differentPath]) {
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().error.code, 'idempotency_key_reused');
  }
  assert.equal((await app.inject({ method: 'PUT', url: '/api/v2/effects/m', headers: { authorization: auth, 'idempotency-key': 'method' } })).statusCode, 200);
  const differentMethod = await app.inject({ method: 'DELETE', url: '/api/v2/effects/m', headers: { authorization: auth, 'idempotency-key': 'method' } });
  assert.equal(differentMethod.statusCode, 422);
  assert.deepEqual(Object.keys(differentMethod.json()), ['error']);
  assert.equal(await countEffects(t.ctx, 'reuse-b'), 0);
  assert.equal(await countEffects(t.ctx, 'deleted:m'), 0);
  assert.equal(await countEffects(t.ctx, 'reuse-a'), 1);
});

test('the body is compared as JSON: reordered keys are the same request', async () => {
  const { auth } = await newKey();
  const send = (payload: string) =>
    app.inject({
      method: 'POST',
      url: '/api/v2/effects',
      headers: { authorization: auth, 'idempotency-key': 'order', 'content-type': 'application/json' },
      payload,
    });
  assert.equal((await send('{"note":"ordered"}')).statusCode, 201);
  const again = await send('{ "note" : "ordered" }');
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.equal(await countEffects(t.ctx, 'ordered'), 1);
});

test('20 concurrent identical requests have exactly one effect', async () => {
  const { auth } = await newKey();
  const results = await Promise.all(Array.from({ length: 20 }, () => post(auth, 'twenty', 'concurrent')));
  assert.equal(await countEffects(t.ctx, 'concurrent'), 1);
  const ran = results.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
  assert.equal(ran.length, 1);
  for (const r of results) {
    if (r.statusCode === 201) assert.equal(r.body, ran[0]!.body);
    else {
      assert.equal(r.statusCode, 409);
      assert.equal(r.json().error.code, 'idempotency_in_progress');
    }
  }
  // Once the first has finished, every retry replays it.
  const later = await post(auth, 'twenty', 'concurrent');
  assert.equal(later.headers['idempotent-replayed'], 'true');
  assert.equal(later.body, ran[0]!.body);
});

test('while the first request runs, a retry is 409 on a server; on the embedded database it waits its turn and replays', async () => {
  const { auth } = await newKey();
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const inHandler = new Promise<void>((entered) => {
    behaviour.hold = { entered, gate };
  });
  const first = post(auth, 'slow', 'slow');
  await inHandler;
  try {
    if (t.ctx.database.kind === 'postgres') {
      const retry = await post(auth, 'slow', 'slow');
      assert.equal(retry.statusCode, 409);
      assert.equal(retry.json().error.code, 'idempotency_in_progress');
    } else {
      // The first run's unit of work holds the one connection: the retry waits, then finds its answer.
      const retry = post(auth, 'slow', 'slow');
      release();
      const answered = await retry;
      assert.equal(answered.statusCode, 201);
      assert.equal(answered.headers['idempotent-replayed'], 'true');
    }
  } finally {
    release();
  }
  assert.equal((await first).statusCode, 201);
  assert.equal((await post(auth, 'slow', 'slow')).headers['idempotent-replayed'], 'true');
  assert.equal(await countEffects(t.ctx, 'slow'), 1);
});

test('a run that fails after writing (a 5xx) leaves nothing: its effect and its key roll back together', async () => {
  const { auth } = await newKey();
  behaviour.failAfterWrite = 1;
  const failed = await post(auth, 'half', 'half');
  assert.equal(failed.statusCode, 500);
  assert.equal(await countEffects(t.ctx, 'half'), 0);
  const retry = await post(auth, 'half', 'half');
  assert.equal(retry.statusCode, 201);
  assert.equal(retry.headers['idempotent-replayed'], undefined);
  assert.equal(await countEffects(t.ctx, 'half'), 1);
});

test('a 5xx is not stored: the key is released and a retry runs again', async () => {
  const { auth } = await newKey();
  behaviour.failNext = 1;
  const failed = await post(auth, 'flaky', 'flaky');
  assert.equal(failed.statusCode, 500);
  assert.equal(failed.json().error.code, 'internal');
  assert.equal(await countEffects(t.ctx, 'flaky'), 0);
  const retry = await post(auth, 'flaky', 'flaky');
  assert.equal(retry.statusCode, 201);
  assert.equal(retry.headers['idempotent-replayed'], undefined);
  assert.equal(await countEffects(t.ctx, 'flaky'), 1);
});

test('a 4xx answer is stored and replayed like any other', async () => {
  const { auth } = await newKey();
  const bad = await post(auth, 'invalid', '');
  assert.equal(bad.statusCode, 400);
  const again = await post(auth, 'invalid', '');
  assert.equal(again.statusCode, 400);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.equal(again.body, bad.body);
});

test('an Idempotency-Key of 0 or 256 characters is 400 invalid_request; 255 is fine', async () => {
  const { auth } = await newKey();
  for (const key of ['', 'k'.repeat(256)]) {
    const res = await post(auth, key, 'length');
    assert.equal(res.statusCode, 400, `length ${key.length}`);
    assert.equal(res.json().error.code, 'invalid_request');
    assert.match(res.json().error.message, /Idempotency-Key/);
  }
  assert.equal(await countEffects(t.ctx, 'length'), 0);
  assert.equal((await post(auth, 'k'.repeat(255), 'length')).statusCode, 201);
  assert.equal(await countEffects(t.ctx, 'length'), 1);
});

test('the key is counted in characters, not bytes: 255 non-ASCII characters sent as UTF-8 are fine, 256 are 400', async () => {
  const { auth } = await newKey();
  // What Node hands over for a header sent as UTF-8: its bytes read as Latin-1.
  const utf8 = (key: string) => Buffer.from(key, 'utf8').toString('latin1');
  assert.equal((await post(auth, utf8('é'.repeat(256)), 'chars')).statusCode, 400);
  assert.equal((await post(auth, utf8('é'.repeat(255)), 'chars')).statusCode, 201);
  const replay = await post(auth, utf8('é'.repeat(255)), 'chars');
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(await countEffects(t.ctx, 'chars'), 1);
});

test("keys are scoped to the credential's owner: another key of the same account replays, another account runs", async () => {
  const a1 = await newKey('owner-a@example.org');
  const a2 = await newKey('owner-a@example.org');
  const b = await newKey('owner-b@example.org');
  assert.equal((await post(a1.auth, 'scoped', 'scoped')).statusCode, 201);
  assert.equal((await post(a2.auth, 'scoped', 'scoped')).headers['idempotent-replayed'], 'true');
  const other = await post(b.auth, 'scoped', 'scoped');
  assert.equal(other.statusCode, 201);
  assert.equal(other.headers['idempotent-replayed'], undefined);
  assert.equal(await countEffects(t.ctx, 'scoped'), 2);
});

test('a request refused before the claim (no credential, wrong scope) leaves the key unused', async () => {
  const account = await t.ctx.services.accounts.create({ email: `noscope${++n}@example.org` });
  const { key } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'read only', scopes: ['public.read'] });
  const denied = await post(`Bearer ${key}`, 'unused', 'unused');
  assert.equal(denied.statusCode, 403);
  assert.equal(denied.json().error.code, 'scope_missing');
  const anonymous = await app.inject({ method: 'POST', url: '/api/v2/effects', headers: { 'idempotency-key': 'unused' }, payload: { note: 'unused' } });
  assert.equal(anonymous.statusCode, 401);
  assert.equal(await countEffects(t.ctx, 'unused'), 0);
});
