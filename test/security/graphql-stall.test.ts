// No caller makes the service slow for everyone through GraphQL (the class of issue 17 §1): a
// document of many top-level fields is a document of many REST calls. While one key sends 45
// aliased `moneyTotals(period: "month")` fields in parallel loops, another caller's requests are
// all answered; and every heavy request is either refused before it runs (its estimated cost is
// over the bound) or counted once per top-level field, as the REST calls it stands for would be.
// Nothing here measures a time.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MAX_COST, ROOT_FIELD } from '../../src/surfaces/graphql/cost.ts';
import { type Harness, startGraphQL } from '../surfaces/graphql/helpers.ts';

let h: Harness;
before(async () => {
  h = await startGraphQL();
});
after(async () => {
  await h.t.close();
});

const totals = (n: number) =>
  `{ ${Array.from({ length: n }, (_, i) => `m${i}: moneyTotals(period: "month") { period data { period receipts { count amount } expenditures { count amount } } }`).join(' ')} }`;
/** Requests counted today for this key's owner (GET /api/v2/me is counted apart): a minute window could turn between two probes. */
const usedToday = async (key: string): Promise<number> =>
  ((await (await fetch(`${h.url}/api/v2/me`, { headers: { authorization: `Bearer ${key}` } })).json()) as { usage: { requestsToday: number } }).usage
    .requestsToday;

test('45 aliased moneyTotals in parallel loops: refused before they run, while another caller is answered', async () => {
  const heavyKey = await h.key(['public.read'], { requestsPerDay: 100_000, requestsPerMinute: 100_000 });
  const otherKey = await h.key(['public.read'], { requestsPerDay: 100_000, requestsPerMinute: 100_000 });
  const heavy = totals(45);
  const answers: { status: number; codes: string[]; used: number }[] = [];
  const before = await usedToday(heavyKey);
  const loop = async () => {
    for (let i = 0; i < 5; i++) {
      const res = await h.post(heavyKey, heavy);
      answers.push({ status: res.status, codes: (res.body.errors ?? []).map((e: any) => e.extensions.code), used: 0 });
    }
  };
  const other = async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      statuses.push((await fetch(`${h.url}/api/v1/matters?limit=1`, { headers: { authorization: `Bearer ${otherKey}` } })).status);
      statuses.push((await fetch(`${h.url}/robots.txt`)).status);
    }
    return statuses;
  };
  const [otherStatuses] = await Promise.all([other(), loop(), loop(), loop(), loop()]);
  assert.deepEqual(
    otherStatuses.filter((s) => s !== 200),
    [],
    'every request of the other caller is answered',
  );
  assert.equal(answers.length, 20);
  const after = await usedToday(heavyKey);
  for (const a of answers) {
    assert.equal(a.status, 400, 'over the bound: refused before it runs');
    assert.deepEqual(a.codes, ['invalid_request']);
  }
  // Each refused document is one request.
  assert.equal(after - before, 20);
});

test('a document within the bound runs, counting each top-level field as its REST call', async () => {
  const key = await h.key(['public.read'], { requestsPerDay: 100_000, requestsPerMinute: 100_000 });
  const n = Math.floor(MAX_COST / ROOT_FIELD) - 1;
  const start = await usedToday(key);
  const res = await h.post(key, totals(n));
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  assert.equal(Object.keys(res.body.data).length, n);
  assert.equal((await usedToday(key)) - start, n, `${n} top-level fields, ${n} requests`);
});

test('a caller with default limits cannot loop heavy documents: past the per-minute limit they are refused with 429', async () => {
  const key = await h.key(['public.read'], { requestsPerDay: 1000, requestsPerMinute: 60 });
  const n = Math.floor(MAX_COST / ROOT_FIELD) - 1;
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) statuses.push((await h.post(key, totals(n))).status);
  assert.ok(statuses.includes(429), statuses.join(' '));
  assert.ok(statuses.filter((s) => s === 200).length <= Math.ceil(60 / n), statuses.join(' '));
});
