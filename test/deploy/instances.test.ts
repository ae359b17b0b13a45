// Three instances of the service, each its own process as `npm start` runs it, behind HAProxy with
// the committed deploy/haproxy.cfg, on one PostgreSQL database — once with limits counted in
// PostgreSQL, once in Redis. Everything below goes through the balancer, as users' requests do.
// Needs DATABASE_URL (CI runs the suite once with it) and Debian's haproxy.
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { operator } from '../../src/kernel/actor.ts';
import { listMigrations } from '../../src/kernel/migrate.ts';
import { startTestContext, freshDatabase, type TestContext } from '../helpers/context.ts';
import { deploy, deploySkip as skip, ready } from '../helpers/deployment.ts';
import { awayFromWindowEnd, until } from '../helpers/service.ts';

for (const backend of ['postgres', 'redis'] as const) {
  describe(`three instances behind HAProxy, limits in ${backend === 'redis' ? 'Redis' : 'PostgreSQL'}`, { skip }, () => {
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let d: Awaited<ReturnType<typeof deploy>>;
    let t: TestContext;

    before(async () => {
      db = await freshDatabase();
      const redis: Record<string, string> = backend === 'redis' ? { REDIS_URL: process.env.REDIS_TEST_URL ?? 'redis://127.0.0.1:6379' } : {};
      d = await deploy(db.env, redis);
      // The operator's view of the same database (the CLI's), to make accounts, teams and keys.
      t = await startTestContext({ databaseUrl: db.env.DATABASE_URL!, env: redis });
    });
    after(async () => {
      await d?.close();
      await t?.ctx.close();
      await db?.drop();
    });

    const get = (path: string, key: string) => fetch(`${d.front}${path}`, { headers: { authorization: `Bearer ${key}` } });

    async function keyWith(limits: { requestsPerMinute?: number; requestsPerDay?: number }): Promise<{ key: string; id: string }> {
      const account = await t.ctx.services.accounts.create({ email: `deploy-${crypto.randomUUID()}@example.org` });
      if (Object.keys(limits).length) await t.ctx.services.accounts.setLimits(operator, { accountId: account.id, limits });
      const { key, id } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'deploy', scopes: ['public.read'] });
      return { key, id };
    }

    test('instances started together ran every migration once', async () => {
      const rows = await t.ctx.db
        .selectFrom('schema_migrations' as never)
        .select('name' as never)
        .execute();
      assert.equal(rows.length, listMigrations().length);
    });

    test('per-minute limit exact: of 40 parallel requests spread over three instances, exactly 25 succeed', async () => {
      const { key } = await keyWith({ requestsPerMinute: 25 });
      await awayFromWindowEnd(60_000);
      const statuses = await Promise.all(Array.from({ length: 40 }, () => get('/api/v1/people?limit=1', key).then((r) => r.status)));
      assert.equal(statuses.filter((s) => s === 200).length, 25, String(statuses));
      assert.equal(statuses.filter((s) => s === 429).length, 15, String(statuses));
    });

    test('per-day limit exact: of 30 parallel requests, exactly the 12 allowed succeed, then the day is over at every instance', async () => {
      const { key } = await keyWith({ requestsPerDay: 12 });
      await awayFromWindowEnd(86_400_000);
      const res = await Promise.all(Array.from({ length: 30 }, () => get('/api/v1/people?limit=1', key)));
      assert.equal(res.filter((r) => r.status === 200).length, 12);
      const refused = res.filter((r) => r.status === 429);
      assert.equal(refused.length, 18);
      assert.equal(((await refused[0]!.json()) as { code: string }).code, 'daily_limit');
      for (let i = 0; i < 3; i++) assert.equal((await get('/api/v1/people?limit=1', key)).status, 429);
    });

    test('20 identical writes with one Idempotency-Key spread over the instances have one effect', async () => {
      const owner = await t.ctx.services.accounts.create({ email: `owner-${crypto.randomUUID()}@example.org` });
      const team = await t.ctx.services.accounts.teams.create(operator, { name: 'Deploy team', ownerAccountId: owner.id, features: ['team_data'] });
      const { key } = await t.ctx.services.credentials.keys.create({
        accountId: owner.id,
        teamId: team.id,
        name: 'deploy',
        scopes: ['team.notes.read', 'team.notes.write'],
      });
      const write = () =>
        fetch(`${d.front}/api/v2/team/notes`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'deploy-note' },
          body: JSON.stringify({ body: 'Call the sponsor before Tuesday' }),
        });
      const statuses = await Promise.all(Array.from({ length: 20 }, () => write().then((r) => r.status)));
      for (const s of statuses) assert.ok(s === 201 || s === 409, `status ${s}`);
      const notes = (await (await get('/api/v2/team/notes', key)).json()) as { data: unknown[] };
      assert.equal(notes.data.length, 1);
      // Replayed by whichever instance answers, as stored by the one that wrote it.
      for (let i = 0; i < 3; i++) {
        const again = await write();
        assert.equal(again.status, 201);
        assert.equal(again.headers.get('idempotent-replayed'), 'true');
      }
    });

    test('a revoked key is refused on the next request at every instance', async () => {
      const { key, id } = await keyWith({});
      // Each instance has seen the key (and may keep it in memory).
      for (const i of d.instances) assert.equal((await fetch(`${i.url}/api/v1/people?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status, 200);
      await t.ctx.services.credentials.keys.revoke(operator, { id });
      for (const i of d.instances) assert.equal((await fetch(`${i.url}/api/v1/people?limit=1`, { headers: { authorization: `Bearer ${key}` } })).status, 401);
      for (let k = 0; k < 3; k++) assert.equal((await get('/api/v1/people?limit=1', key)).status, 401);
    });

    test('SIGTERM drains: /ready turns 503 and each answer closes its connection before the listener closes, a request in flight finishes after it closed, and the balancer loses no request', async () => {
      const { key } = await keyWith({ requestsPerMinute: 100_000, requestsPerDay: 100_000 });
      const leaving = d.instances[2]!;
      // A team write in flight at the leaving instance: its headers and half its body are sent
      // before the signal, the rest only once the listener has closed.
      const owner = await t.ctx.services.accounts.create({ email: `drain-${crypto.randomUUID()}@example.org` });
      const team = await t.ctx.services.accounts.teams.create(operator, { name: 'Drain team', ownerAccountId: owner.id, features: ['team_data'] });
      const writer = await t.ctx.services.credentials.keys.create({ accountId: owner.id, teamId: team.id, name: 'drain', scopes: ['team.notes.write'] });
      const body = JSON.stringify({ body: 'Written while the instance was leaving' });
      const inFlight = request(`${leaving.url}/api/v2/team/notes`, {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${writer.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
        inFlight.once('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.once('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        });
        inFlight.once('error', reject);
      });
      inFlight.write(body.slice(0, 10));
      // The instance has the request (it answers another one after it) before it is told to leave.
      assert.equal(await ready(leaving.url), 200);
      leaving.process.kill('SIGTERM');
      // Still listening, no longer ready (once the signal is handled).
      await until('/ready answers 503 at the leaving instance', async () => ((await ready(leaving.url)) === 503 ? true : undefined), 10);
      // Each of its answers now ends its connection, so HAProxy's kept-alive connections to it close.
      const agent = new Agent({ keepAlive: true });
      const connection = await new Promise<string | undefined>((resolve, reject) =>
        request(`${leaving.url}/health`, { agent }, (res) => {
          res.resume();
          resolve(res.headers.connection);
        })
          .once('error', reject)
          .end(),
      );
      agent.destroy();
      assert.equal(connection, 'close');
      const statuses: number[] = [];
      const deadline = Date.now() + 6000;
      while (Date.now() < deadline) {
        statuses.push(...(await Promise.all(Array.from({ length: 3 }, () => get('/api/v1/people?limit=1', key).then((r) => r.status)))));
      }
      // The listener is closed (DRAIN_SECONDS=3 have passed); the request in flight is finished.
      await until('the leaving instance refuses new connections', async () => ((await ready(leaving.url)) === 0 ? true : undefined), 30);
      inFlight.end(body.slice(10));
      const written = await answered;
      assert.equal(written.status, 201, written.body);
      const notes = await t.ctx.db.selectFrom('team_notes').select('body').where('team_id', '=', team.id).execute();
      assert.deepEqual(notes, [{ body: 'Written while the instance was leaving' }]);
      assert.equal(await leaving.exit, 0);
      assert.deepEqual([...new Set(statuses)], [200]);
    });
  });
}
