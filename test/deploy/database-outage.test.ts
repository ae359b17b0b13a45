// PostgreSQL lost under load: the service reaches its database through a TCP relay the test cuts
// for 10 s (every connection dropped, new ones refused), then restores. The machine's shared
// server is never touched. During the outage requests answer 503 `unavailable` with Retry-After
// (or from what the instance keeps in memory), never a 500; afterwards the same process serves
// again by itself; writes retried with their Idempotency-Key until acknowledged are each stored
// exactly once. Needs DATABASE_URL (CI runs the suite once with it).
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, test } from 'node:test';
import { operator } from '../../src/kernel/actor.ts';
import { DEFAULT_REQUEST_DB_BUDGET_MS } from '../../src/kernel/db-budget.ts';
import { freshDatabase, startTestContext, type TestContext } from '../helpers/context.ts';
import { ready, startInstance } from '../helpers/deployment.ts';
import { until } from '../helpers/service.ts';
import { type TcpRelay, tcpRelay } from '../helpers/tcp-relay.ts';

const skip = !process.env.DATABASE_URL && 'needs DATABASE_URL';

let db: Awaited<ReturnType<typeof freshDatabase>>;
let t: TestContext;
let link: TcpRelay;
let service: ChildProcess;
let base = '';
let key = '';

before(async () => {
  if (skip) return;
  db = await freshDatabase();
  t = await startTestContext({ databaseUrl: db.env.DATABASE_URL! });
  const direct = new URL(db.env.DATABASE_URL!);
  link = tcpRelay(direct);
  // The service as the deployment tests start it (helpers/deployment.ts: a port the system picks
  // when it listens, read from its log), with the service's own database budget for a request.
  const instance = await startInstance({ DATABASE_URL: await link.via(direct.href), REQUEST_DB_BUDGET_MS: String(DEFAULT_REQUEST_DB_BUDGET_MS) });
  service = instance.process;
  base = instance.url;
  await until('the service is ready', async () => ((await ready(base)) === 200 ? true : undefined), 120);
  const owner = await t.ctx.services.accounts.create({ email: `outage-${crypto.randomUUID()}@example.org` });
  await t.ctx.services.accounts.setLimits(operator, { accountId: owner.id, limits: { requestsPerMinute: 100_000, requestsPerDay: 1_000_000 } });
  const team = await t.ctx.services.accounts.teams.create(operator, { name: 'Outage team', ownerAccountId: owner.id, features: ['team_data'] });
  await t.ctx.services.accounts.teams.setLimits(operator, { teamId: team.id, limits: { requestsPerMinute: 100_000, requestsPerDay: 1_000_000 } });
  ({ key } = await t.ctx.services.credentials.keys.create({
    accountId: owner.id,
    teamId: team.id,
    name: 'outage',
    scopes: ['team.notes.read', 'team.notes.write', 'public.read'],
  }));
});
after(async () => {
  if (service && service.exitCode === null) {
    const gone = new Promise((resolve) => service.once('exit', resolve));
    service.kill('SIGKILL');
    await gone;
  }
  link?.server.close();
  await t?.ctx.close();
  await db?.drop();
});

const headers = () => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });

/** One client's note: retried with the same Idempotency-Key until the service acknowledges it. */
async function writeUntilAcknowledged(n: number, seen: Map<string, number>): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const res = await fetch(`${base}/api/v2/team/notes`, {
      method: 'POST',
      headers: { ...headers(), 'idempotency-key': `outage-${n}` },
      body: JSON.stringify({ body: `Note ${n}` }),
    }).catch(() => null);
    const status = res?.status ?? 0;
    seen.set(String(status), (seen.get(String(status)) ?? 0) + 1);
    if (status === 201) return;
    if (status === 503) {
      assert.ok(res!.headers.get('retry-after'), '503 carries Retry-After');
      // A write's unit of work waits for a connection while the pool reconnects: its database
      // time can run out first (over_budget), which is the same 503 to retry after.
      assert.ok(['unavailable', 'over_budget'].includes(((await res!.json()) as { error: { code: string } }).error.code));
    } else if (status !== 409) {
      assert.fail(`note ${n}: status ${status} ${await res?.text()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`note ${n} was never acknowledged`);
}

test('a 10-second database outage: 503 with Retry-After meanwhile, recovery without a restart, every acknowledged write stored once', { skip }, async () => {
  const seen = new Map<string, number>();
  // Writers start before the cut and keep going through it.
  const writers: Promise<void>[] = [];
  for (let n = 0; n < 10; n++) writers.push(writeUntilAcknowledged(n, seen));
  await Promise.all(writers.splice(0));
  link.cut();
  const during: number[] = [];
  const outageEnds = Date.now() + 10_000;
  for (let n = 10; n < 20; n++) writers.push(writeUntilAcknowledged(n, seen));
  while (Date.now() < outageEnds) {
    const res = await fetch(`${base}/api/v1/people?limit=1`, { headers: headers() }).catch(() => null);
    during.push(res?.status ?? 0);
    if (res?.status === 503) assert.ok(res.headers.get('retry-after'));
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.ok(during.includes(503), `no request saw the outage: ${during}`);
  for (const s of during) assert.ok(s === 200 || s === 503, `status ${s} during the outage`);
  assert.equal(await fetch(`${base}/ready`).then((r) => r.status), 503, '/ready tells the balancer');
  link.restore();
  await Promise.all(writers);
  await until('reads answer again', async () => ((await fetch(`${base}/api/v1/people?limit=1`, { headers: headers() })).status === 200 ? true : undefined), 60);
  assert.equal(await fetch(`${base}/ready`).then((r) => r.status), 200);
  assert.equal(service.exitCode, null, 'the same process serves');
  // Twenty notes acknowledged, twenty stored: none lost, none doubled.
  const rows = await t.ctx.db
    .selectFrom('team_notes' as never)
    .select('body' as never)
    .execute();
  const bodies = (rows as { body: string }[]).map((r) => r.body).sort();
  assert.deepEqual(bodies, Array.from({ length: 20 }, (_, n) => `Note ${n}`).sort());
  assert.ok((seen.get('503') ?? 0) > 0, `the writers saw the outage: ${JSON.stringify([...seen])}`);
});
