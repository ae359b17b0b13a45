// Two app instances on one PostgreSQL database share idempotency: exactly one effect in all.
// PGlite is one process's own database, so this runs only with DATABASE_URL (CI runs both).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { type Behaviour, countEffects, createEffectsTable, effectsApp } from './effects-app.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

const onServer = Boolean(process.env.DATABASE_URL);
let first: TestContext;
let second: TestContext;
const apps: FastifyInstance[] = [];

before(async () => {
  if (!onServer) return;
  first = await startTestContext();
  second = await startTestContext({ databaseUrl: first.config.databaseUrl! });
  await createEffectsTable(first.ctx);
  const behaviour: Behaviour = { failNext: 0, failAfterWrite: 0, hold: null };
  apps.push(await effectsApp(first.ctx, behaviour), await effectsApp(second.ctx, behaviour));
});
after(async () => {
  for (const app of apps) await app.close();
  // The second instance only shares the database (closing it drops nothing); the first drops it.
  await second?.close();
  await first?.close();
});

test('20 identical requests spread over two instances have exactly one effect', { skip: !onServer && 'needs DATABASE_URL' }, async () => {
  const account = await first.ctx.services.accounts.create({ email: 'two-instances@example.org' });
  const { key } = await second.ctx.services.credentials.keys.create({ accountId: account.id, name: 'both', scopes: ['public.ai'] });
  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      apps[i % 2]!.inject({
        method: 'POST',
        url: '/api/v2/effects',
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'shared' },
        payload: { note: 'two-instances' },
      }),
    ),
  );
  assert.equal(await countEffects(first.ctx, 'two-instances'), 1);
  assert.equal(results.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined).length, 1);
  for (const r of results) assert.ok(r.statusCode === 201 || r.statusCode === 409, `status ${r.statusCode}`);
  // Each instance replays the answer the other stored.
  for (const app of apps) {
    const again = await app.inject({
      method: 'POST',
      url: '/api/v2/effects',
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'shared' },
      payload: { note: 'two-instances' },
    });
    assert.equal(again.headers['idempotent-replayed'], 'true');
  }
});
