// Every database statement a request makes runs under its time budget (issue 17 §1): a request
// that used up its database time (REQUEST_DB_BUDGET_MS, 1 ms here, so that nearly every request
// outruns it) is answered 503 `over_budget` with Retry-After on every surface — never a stall,
// never a 500 — a transaction cut off is rolled back, a write either happens whole or not at all,
// and background work (no request's) runs without the request budget. On PostgreSQL the server
// cancels the statement (statement_timeout); on the embedded database the next statement is
// refused. Nothing here measures a time: the 1 ms budget is outrun by any real statement.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { DbBudget, withBudget } from '../../src/kernel/db-budget.ts';
import { normalizeError } from '../../src/kernel/errors.ts';
import { operator } from '../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../helpers/context.ts';
import { seedPublicData } from '../helpers/seed.ts';
import { messageOf, rpc } from '../surfaces/mcp/helpers.ts';

let t: TestContext;
let record: string;
before(async () => {
  t = await startTestContext({ env: { REQUEST_DB_BUDGET_MS: '1' } });
  // Outside any request: background work, not held to the request budget.
  record = (await seedPublicData(t.ctx.db)).matters[0]!.recordNumber;
});
after(async () => {
  await t.close();
});

async function newKey(scopes: string[]) {
  const account = await t.ctx.services.accounts.create({ email: `b-${crypto.randomUUID()}@example.org` });
  await t.ctx.services.accounts.setLimits(operator, { accountId: account.id, limits: { requestsPerDay: 1_000_000, requestsPerMinute: 1_000_000 } });
  return (await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'budget', scopes })).key;
}

/** Two statements, the first longer than the budget: the second is never answered. */
const slowThenMore = async () => {
  await sql`select pg_sleep(0.02)`.execute(t.ctx.db);
  return (await sql<{ n: number }>`select 1 as n`.execute(t.ctx.db)).rows[0]!.n;
};

test('within a request budget the work is stopped with over_budget; as background work it runs', async () => {
  const refused = await withBudget(new DbBudget(1, 'test'), slowThenMore).then(
    () => null,
    (err: unknown) => normalizeError(err),
  );
  assert.ok(refused, 'stopped');
  assert.equal(refused.code, 'over_budget');
  assert.equal(refused.status, 503);
  assert.equal(refused.headers['Retry-After'], '1');
  // No request's budget: the same statements run to the end.
  assert.equal(await slowThenMore(), 1);
});

test('a transaction cut off by the budget is rolled back, and the connection serves the next caller', async () => {
  await sql`create table if not exists budget_probe (id int primary key)`.execute(t.ctx.db);
  const refused = await withBudget(new DbBudget(1, 'test'), () =>
    t.ctx.db.transaction().execute(async (trx) => {
      await sql`insert into budget_probe (id) values (1)`.execute(trx);
      await sql`select pg_sleep(0.02)`.execute(trx);
      await sql`insert into budget_probe (id) values (2)`.execute(trx);
    }),
  ).then(
    () => null,
    (err: unknown) => normalizeError(err),
  );
  assert.equal(refused?.code, 'over_budget');
  const { rows } = await sql<{ n: number }>`select count(*) as n from budget_probe`.execute(t.ctx.db);
  assert.equal(rows[0]!.n, 0, 'nothing of the transaction is left');
});

/** The code an answer carries in its surface's shape (an HTML or Atom error page says it in words), or null for a success. */
function codeOf(body: any): string | null {
  if (typeof body === 'string') return /used up its database time/.test(body) ? 'over_budget' : /internal error/i.test(body) ? 'internal' : null;
  // A JSON-RPC error (MCP refused before the tool ran) has a number for a code: its message says.
  if (typeof body?.error?.code === 'number') return codeOf(String(body.error.message));
  return body?.code ?? body?.error?.code ?? body?.errors?.[0]?.extensions?.code ?? null;
}

test('every surface answers a request over its budget 503 over_budget with Retry-After, never a 500', async () => {
  const key = await newKey(['public.read']);
  const auth = { authorization: `Bearer ${key}` };
  const money = `{ ${Array.from({ length: 5 }, (_, i) => `m${i}: moneyTotals(period: "month") { period data { period receipts { count amount } } }`).join(' ')} }`;
  const requests: [string, () => Promise<{ status: number; headers: Record<string, unknown>; body: any }>][] = [];
  for (let i = 0; i < 4; i++) {
    // Each a URL of its own, so no kept answer stands in for the database.
    const q = `zoning${i}`;
    const inject = async (opts: InjectOptions) => {
      const res = await t.app.inject(opts);
      let body: unknown = null;
      try {
        body = res.json();
      } catch {
        body = res.body;
      }
      return { status: res.statusCode, headers: res.headers, body };
    };
    requests.push(
      [`v1 ${i}`, () => inject({ url: `/api/v1/matters?q=${q}`, headers: auth })],
      [`v2 ${i}`, () => inject({ url: `/api/v2/search?q=${q}`, headers: auth })],
      [
        `graphql ${i}`,
        () => inject({ method: 'POST', url: '/api/graphql', headers: { ...auth, 'content-type': 'application/json' }, payload: { query: money } }),
      ],
      [`page ${i}`, () => inject({ url: `/search?q=${q}` })],
      [`feed ${i}`, () => inject({ url: `/feeds/search.atom?q=${q}` })],
      [
        `mcp ${i}`,
        async () => {
          const res = await rpc(t.app, 'tools/call', { name: 'search', arguments: { q } }, auth);
          const message = messageOf(res);
          const text = message.result?.isError ? message.result.content?.[0]?.text : null;
          return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : message };
        },
      ],
    );
  }
  const seen = new Map<string, number>();
  for (const [name, send] of requests) {
    const { status, headers, body } = await send();
    const code = codeOf(body);
    seen.set(`${status} ${code}`, (seen.get(`${status} ${code}`) ?? 0) + 1);
    assert.ok(status < 500 || (status === 503 && code === 'over_budget'), `${name}: ${status} ${JSON.stringify(body).slice(0, 200)}`);
    if (code === 'over_budget' && status === 503) assert.equal(headers['retry-after'], '1', name);
    assert.notEqual(code, 'internal', name);
  }
  const overBudget = [...seen].filter(([k]) => k.endsWith('over_budget')).reduce((n, [, v]) => n + v, 0);
  assert.ok(overBudget > 0, `requests over the budget are refused: ${JSON.stringify(Object.fromEntries(seen))}`);
});

test('a write over the budget is done whole or not at all', async () => {
  const key = await newKey(['me.follows.read', 'me.follows.write']);
  for (let i = 0; i < 5; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/me/follows',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: { type: 'search', refId: `budget ${i} ${record}` },
    });
    const stored = await t.ctx.db.selectFrom('follows').select('id').where('ref_id', '=', `budget ${i} ${record}`).execute();
    if (res.statusCode === 201) assert.equal(stored.length, 1, 'answered 201: stored');
    else {
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.json().error.code, 'over_budget');
      assert.equal(stored.length, 0, 'refused: nothing stored');
    }
  }
});
