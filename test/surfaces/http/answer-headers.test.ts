// Every authenticated answer of v1 and v2 carries the limit headers with the right values, whatever
// its status: 2xx, the refusals a credential can meet (400, 403, 404, 409, 413, 415, 422) and 429.
// Each of those counts as one request, except the 429 (decisions.md "Envelopes and limits").
// Team, personal and people answers carry Cache-Control: private, no-store, errors included.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { operator } from '../../../src/kernel/actor.ts';
import { api, makeTeam, startWorld, type Team, type World } from '../v2/team-helpers.ts';

let w: World;
let read: string;
let aiOnly: string;
let team: Team;
let accountId: string;
const PER_DAY = 500;

before(async () => {
  w = await startWorld();
  const { accounts, credentials } = w.t.ctx.services;
  const account = await accounts.create({ email: 'headers@example.org' });
  accountId = account.id;
  await accounts.setLimits(operator, { accountId, limits: { requestsPerDay: PER_DAY, requestsPerMinute: 10_000, aiAnswersPerDay: 7 } });
  read = (await credentials.keys.create({ accountId, name: 'read', scopes: ['public.read', 'me.follows.write'] })).key;
  aiOnly = (await credentials.keys.create({ accountId, name: 'ai only', scopes: ['public.ai'] })).key;
  team = await makeTeam(w.t, ['team_data', 'advocacy', 'analytics', 'people']);
});
after(async () => {
  await w.t.close();
});

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function usedToday(): Promise<number> {
  const me = await w.t.app.inject({ url: '/api/v1/me', headers: bearer(read) });
  return me.json().usage.requestsToday;
}

/** The limit headers, checked against the account's limits and the count the answer reports. */
function assertLimitHeaders(res: LightMyRequestResponse, what: string, expected: { remaining: number; limit?: number; aiLimit?: number }) {
  const h = res.headers;
  assert.equal(h['ratelimit-limit'], String(expected.limit ?? PER_DAY), `${what}: RateLimit-Limit`);
  assert.equal(h['ratelimit-remaining'], String(expected.remaining), `${what}: RateLimit-Remaining`);
  assert.match(String(h['ratelimit-reset']), /^\d+$/, `${what}: RateLimit-Reset`);
  assert.equal(h['x-ai-calls-limit'], String(expected.aiLimit ?? 7), `${what}: X-AI-Calls-Limit`);
  assert.match(String(h['x-ai-calls-remaining']), /^\d+$/, `${what}: X-AI-Calls-Remaining`);
  assert.match(String(h['ratelimit-policy']), /"day";q=\d+;w=86400/, `${what}: RateLimit-Policy`);
  assert.match(String(h.ratelimit), new RegExp(`"day";r=${expected.remaining};`), `${what}: RateLimit`);
}

describe('every authenticated answer carries the limit headers and counts once', () => {
  const cases: [string, () => Promise<LightMyRequestResponse>, number][] = [];
  for (const v of ['v1', 'v2'] as const) {
    const get =
      (url: string, key: () => string = () => read) =>
      () =>
        w.t.app.inject({ url: `/api/${v}${url}`, headers: bearer(key()) });
    cases.push(
      [`${v} 200`, get('/matters?limit=1'), 200],
      [`${v} 400 bad parameter`, get('/matters?limit=0'), 400],
      [`${v} 400 credential in the URL`, get('/matters?api_key=ctk_x'), 400],
      [`${v} 400 malformed cursor`, get('/matters?cursor=not*a*cursor'), 400],
      [`${v} 403 scope missing`, get('/matters', () => aiOnly), 403],
      [`${v} 404 unknown record`, get('/matters/O1900-0000000'), 404],
      [`${v} 404 unknown path`, get('/no-such-route'), 404],
    );
  }
  const v2 = (method: 'POST' | 'PATCH', url: string, payload: string, headers: Record<string, string>) => () =>
    w.t.app.inject({ method, url: `/api/v2${url}`, headers: { ...bearer(read), ...headers }, payload });
  cases.push(
    ['v2 415 JSON sent as text/plain', v2('POST', '/me/follows', '{"type":"search","refId":"x"}', { 'content-type': 'text/plain' }), 415],
    ['v2 400 malformed JSON', v2('POST', '/me/follows', '{"type":', { 'content-type': 'application/json' }), 400],
    [
      'v2 413 body over 1 MiB',
      v2('POST', '/me/follows', JSON.stringify({ type: 'search', refId: 'x'.repeat(1024 * 1024) }), { 'content-type': 'application/json' }),
      413,
    ],
    ['v2 201 follow', v2('POST', '/me/follows', '{"type":"search","refId":"budget"}', { 'content-type': 'application/json', 'idempotency-key': 'k-1' }), 201],
    ['v2 409 follow twice', v2('POST', '/me/follows', '{"type":"search","refId":"budget"}', { 'content-type': 'application/json' }), 409],
    [
      'v2 422 key reused',
      v2('POST', '/me/follows', '{"type":"search","refId":"other"}', { 'content-type': 'application/json', 'idempotency-key': 'k-1' }),
      422,
    ],
    ['v2 403 team route, personal key', () => w.t.app.inject({ url: '/api/v2/team/notes', headers: bearer(read) }), 403],
  );

  for (const [what, send, status] of cases) {
    test(what, async () => {
      const before = await usedToday();
      const res = await send();
      assert.equal(res.statusCode, status, `${what}: ${res.body}`);
      // GET /me is not counted against the day: the request is the only one counted in between.
      assert.equal(await usedToday(), before + 1, `${what}: counted once`);
      assertLimitHeaders(res, what, { remaining: PER_DAY - before - 1 });
    });
  }
});

test('a 429 carries the headers and Retry-After, and is not counted', async () => {
  const { accounts, credentials } = w.t.ctx.services;
  const account = await accounts.create({ email: 'headers-429@example.org' });
  await accounts.setLimits(operator, { accountId: account.id, limits: { requestsPerDay: 3, requestsPerMinute: 100, aiAnswersPerDay: 1 } });
  const { key } = await credentials.keys.create({ accountId: account.id, name: 'small', scopes: ['public.read'] });
  for (let i = 0; i < 3; i++) assert.equal((await w.t.app.inject({ url: '/api/v1/matters?limit=1', headers: bearer(key) })).statusCode, 200);
  for (const v of ['v1', 'v2']) {
    for (const url of ['/matters', '/no-such-route', '/matters?limit=0']) {
      const res = await w.t.app.inject({ url: `/api/${v}${url}`, headers: bearer(key) });
      assert.equal(res.statusCode, 429, `${v}${url}: ${res.body}`);
      assert.match(String(res.headers['retry-after']), /^\d+$/);
      assertLimitHeaders(res, `${v}${url} 429`, { remaining: 0, limit: 3, aiLimit: 1 });
    }
  }
  const me = (await w.t.app.inject({ url: '/api/v1/me', headers: bearer(key) })).json();
  assert.equal(me.usage.requestsToday, 3, 'refused requests are not counted');
});

test('team, personal and people answers are private, errors included', async () => {
  const call = api(w.t);
  const answers = [
    await call(team.keys.owner, 'GET', '/team/notes'),
    await call(team.keys.owner, 'PATCH', '/team/notes/no-such-note', { body: 'x' }),
    await call(team.keys.owner, 'GET', '/people/no-such-person'),
    await call(team.keys.owner, 'GET', '/team/notes?limit=0'),
    await call(read, 'GET', '/team/notes'),
    await call(read, 'GET', '/me/follows'),
    await call(team.keys.owner, 'GET', '/me'),
  ];
  for (const res of answers) assert.equal(res.headers['cache-control'], 'private, no-store', `${res.statusCode} ${res.body}`);
});

test('a session naming a team the person is not in: 404 saying why, counted against the person', async () => {
  const other = await makeTeam(w.t, ['team_data']);
  const res = await w.t.app.inject({ url: '/api/v2/team/notes', headers: { ...team.keys.member, 'x-team-id': other.id } });
  assert.equal(res.statusCode, 404, res.body);
  assert.equal(res.json().error.code, 'not_found');
  assert.match(res.json().error.message, /not a member/);
  assert.ok(res.headers['ratelimit-remaining'], 'the person is known: the answer carries their limits');
});
