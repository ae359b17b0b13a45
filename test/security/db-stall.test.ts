// No caller makes the service slow for everyone through the database (issue 17 §1): while one key
// sends GraphQL documents of 9 aliased `moneyTotals` (the most the cost bound admits, over enough
// contributions that each field is real work) in four parallel loops, another caller's requests —
// over a socket, most needing the database — are all answered, the first while the loops still run, and each
// heavy document is answered whole and counted once per top-level field, or refused over budget.
// Asserted by order, not time: on the embedded database the previous code handed statements from
// one promise to the next, so the event loop read no other request until the heavy loops had
// finished (the other caller was answered after the last heavy document); now every turn is handed
// out from setImmediate, fairly between callers. Bounded: each loop sends four documents.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { operator } from '../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../helpers/context.ts';
import { COMMITTEE_ID, seedPublicData } from '../helpers/seed.ts';

let t: TestContext;
before(async () => {
  t = await startTestContext();
  await seedPublicData(t.ctx.db);
  // Enough contributions that each moneyTotals field is real work for the database.
  await sql`insert into receipts (id, committee_id, received_date, amount, contributor, source, source_id)
    select 'bulk-' || g, ${COMMITTEE_ID}, date '2024-01-01' + (g % 700), (g % 1000) + 0.5, 'Contributor ' || (g % 5000), 'test', 'bulk-' || g
      from generate_series(1, 60000) g`.execute(t.ctx.db);
});
after(async () => {
  await t.close();
});

async function newKey() {
  const account = await t.ctx.services.accounts.create({ email: `s-${crypto.randomUUID()}@example.org` });
  await t.ctx.services.accounts.setLimits(operator, { accountId: account.id, limits: { requestsPerDay: 1_000_000, requestsPerMinute: 1_000_000 } });
  return (await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'stall', scopes: ['public.read'] })).key;
}

const FIELDS = 9;
const heavyDocument = `{ ${Array.from({ length: FIELDS }, (_, i) => `m${i}: moneyTotals(period: "month") { period data { period receipts { count amount } expenditures { count amount } } }`).join(' ')} }`;

test('while one key loops heavy GraphQL documents, another caller is answered in its turn, and the heavy ones are counted or refused', async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const heavyKey = await newKey();
  const otherKey = await newKey();
  const graphql = (query: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/graphql',
      headers: { authorization: `Bearer ${heavyKey}`, 'content-type': 'application/json' },
      payload: { query },
    });
  const remaining = async () => Number((await graphql('{ __typename }')).headers['ratelimit-remaining']);
  const start = await remaining();

  // Bounded: each loop sends ROUNDS documents; the other caller sends its requests one after
  // another from when the first heavy document is answered.
  const ROUNDS = 4;
  let finished = 0;
  const answers: { status: number; codes: string[]; fields: number; retryAfter: unknown }[] = [];
  const loop = async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const res = await graphql(heavyDocument);
      const body = res.json() as { data?: Record<string, unknown> | null; errors?: { extensions: { code: string } }[] };
      answers.push({
        status: res.statusCode,
        codes: (body.errors ?? []).map((e) => e.extensions.code),
        fields: Object.values(body.data ?? {}).filter((v) => v !== null).length,
        retryAfter: res.headers['retry-after'],
      });
      finished++;
    }
  };
  const other = async () => {
    const seen: { path: string; status: number }[] = [];
    let heavyLeft = 0;
    while (finished === 0) await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 6; i++) {
      // A URL of its own each time, so the database answers it (no kept answer).
      const path = i % 3 === 2 ? '/robots.txt' : `/api/v1/matters?limit=1&q=stall${i}`;
      // Over a socket: a request is read only when the event loop gets to its input.
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${otherKey}` } });
      await res.arrayBuffer();
      seen.push({ path, status: res.status });
      // The first answer (a database read) is the one in question: before, it came only after the
      // last heavy document. Later ones depend on how a loaded machine shares its cores.
      if (i === 0) heavyLeft = 4 * ROUNDS - finished;
    }
    return { seen, heavyLeft };
  };
  const [{ seen, heavyLeft }] = await Promise.all([other(), loop(), loop(), loop(), loop()]);

  for (const s of seen) assert.equal(s.status, 200, `${s.path} is answered`);
  assert.ok(heavyLeft > 0, 'the other caller’s first request is answered while the heavy loops still run, not after them');

  let whole = 0;
  for (const a of answers) {
    if (a.status === 200 && a.codes.length === 0) {
      assert.equal(a.fields, FIELDS);
      whole++;
    } else {
      // Refused over budget: the whole answer, or the fields the budget did not reach.
      assert.ok(a.codes.length > 0 && a.codes.every((c) => c === 'over_budget'), JSON.stringify(a));
      if (a.status === 503) assert.equal(a.retryAfter, '1');
    }
  }
  assert.ok(whole > 0);
  // Each whole document counted as its nine REST calls; with the probes before and after.
  const used = start - (await remaining());
  if (whole === answers.length) assert.equal(used, whole * FIELDS + 1);
  else assert.ok(used >= whole * FIELDS + 1);
});
