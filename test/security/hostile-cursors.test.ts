// Tampered cursors on every list of v1 and v2: a real cursor of each list, each of its fields
// replaced by out-of-range numbers, wrong types and junk, and made-up payloads of every shape.
// Every answer is 400 invalid_request, never a 5xx.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { operator } from '../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../helpers/context.ts';
import { makeTeam } from '../surfaces/v2/team-helpers.ts';
import { routeTable } from './route-table.ts';

const encode = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64url');
const junk: unknown[] = [
  1e308,
  -1e308,
  2 ** 53 + 1,
  -1,
  1.5,
  'x',
  '',
  '9999999-01-01',
  '2023-02-30',
  '2023-02-28T25:00:00Z',
  'a'.repeat(1500),
  true,
  null,
  {},
  [],
  ['nested'],
];

let t: TestContext;
let headers: Record<string, string>;
let personal: Record<string, string>;
before(async () => {
  // The bundled Chicago sample: every public list has more than one page.
  t = await startTestContext({ sample: true });
  // The sample holds no committee spending and no lobbying activity reports: two rows of each.
  const committee = await t.ctx.db.selectFrom('committees').select('id').executeTakeFirstOrThrow();
  const lobbyist = await t.ctx.db.selectFrom('people').select('id').where('kind', '=', 'lobbyist').executeTakeFirstOrThrow();
  const src = (id: string) => ({ source: 'test', source_id: id, source_url: null });
  for (const n of [1, 2]) {
    await t.ctx.db
      .insertInto('expenditures')
      .values({ id: `exp-${n}`, committee_id: committee.id, expended_date: `2023-0${n}-01`, amount: '10.00', payee: `Payee ${n}`, ...src(`e${n}`) })
      .execute();
    await t.ctx.db
      .insertInto('lobbying_activity')
      .values({ id: `act-${n}`, lobbyist_id: lobbyist.id, period_start: `2023-0${n}-01`, action: 'Zoning', ...src(`a${n}`) })
      .execute();
  }
  // Each key holds every scope a list of its kind asks for, so each list is reached.
  const scopesOf = (me: boolean) => [...new Set(routeTable(t.ctx).flatMap((r) => (r.def.path.startsWith('/me/') === me ? r.op.scopes : [])))];
  const team = await makeTeam(t, ['team_data', 'advocacy', 'analytics', 'people'], ['public.read', ...scopesOf(false)]);
  headers = { authorization: `Bearer ${team.keys.owner}` };
  const big = { requestsPerDay: 1_000_000, requestsPerMinute: 1_000_000 };
  await t.ctx.services.accounts.teams.setLimits(operator, { teamId: team.id, limits: big });
  await t.ctx.services.accounts.setLimits(operator, { accountId: team.owner, limits: big });
  const own = await t.ctx.services.credentials.keys.create({
    accountId: team.owner,
    name: 'personal',
    scopes: ['public.read', 'me.follows.write', ...scopesOf(true)],
  });
  personal = { authorization: `Bearer ${own.key}` };
  // Two of each team list, so each has a real cursor to tamper with.
  const call = (method: 'POST', url: string, payload: object, h = headers) => t.app.inject({ method, url: `/api/v2${url}`, headers: h, payload });
  for (const q of ['budget', 'parking']) {
    await call('POST', '/team/follows', { type: 'search', refId: q });
    await call('POST', '/me/follows', { type: 'search', refId: q }, personal);
    await call('POST', '/team/notes', { body: q });
    await call('POST', '/team/dashboards', { name: q });
  }
  await call('POST', '/team/positions', {
    positions: (await t.ctx.db.selectFrom('matters').select('record_number').limit(2).execute()).map((m) => ({
      recordId: m.record_number,
      stance: 'supports',
      label: '',
    })),
  });
});
after(async () => {
  await t.close();
});

test('tampered cursors on every list of v1 and v2 are 400, never a 5xx', async () => {
  const lists = routeTable(t.ctx).filter(
    (r) => r.def.method === 'GET' && JSON.stringify(r.operation.output).includes('nextCursor') && !r.def.path.includes(':'),
  );
  assert.ok(lists.length >= 35, `only ${lists.length} lists`);
  const failures: string[] = [];
  let tampered = 0;
  for (const row of lists) {
    const auth = row.def.path.startsWith('/me/') ? personal : headers;
    const required = (row.parts.querystring?.required ?? [])
      .filter((n) => n !== 'limit')
      .map((n) => `&${n}=tax`)
      .join('');
    const url = `${row.prefix}${row.def.path}?limit=1${required}`;
    const first = await t.app.inject({ url, headers: auth });
    assert.equal(first.statusCode, 200, `${row.name}: ${first.body}`);
    const cursor: string | null = first.json().meta.nextCursor;
    const payloads: unknown[] = [null, 1e308, 'x', [], { s: 'name', k: [1e308] }, { s: '-date', k: [1e308, 'x'] }, { q: 1e308 }, { q: -1 }, { q: 'x' }];
    if (cursor) {
      const real = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
      for (const [field, value] of Object.entries(real)) {
        const values = Array.isArray(value) ? value : [value];
        values.forEach((_, i) => {
          for (const bad of junk) {
            const copy = structuredClone(real);
            if (Array.isArray(value)) copy[field][i] = bad;
            else copy[field] = bad;
            payloads.push(copy);
          }
        });
      }
    } else {
      failures.push(`${row.name}: the seed gives no second page, so its cursor was not tampered field by field`);
    }
    for (const payload of payloads) {
      const res = await t.app.inject({ url: `${url}&cursor=${encode(payload)}`, headers: auth });
      tampered++;
      // A tampered value may still be a valid position to page from (another real id): then 200.
      if (res.statusCode !== 400 && res.statusCode !== 200)
        failures.push(`${res.statusCode} ${row.name} ${JSON.stringify(payload).slice(0, 80)}: ${res.body.slice(0, 120)}`);
      if (res.statusCode === 400) assert.match(res.body, /invalid_request/);
    }
  }
  assert.ok(tampered > 500, `only ${tampered} tampered cursors were sent`);
  assert.deepEqual(failures, []);
});
