// "No request can reach a 500 by its input alone": every route of both API versions, from the
// generated OpenAPI documents, receives hostile values in each parameter, and every write receives
// hostile bodies. Each answer must be a clear 4xx (or a 2xx), never a 5xx.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MAX_JSON_DEPTH } from '../../src/kernel/json-shape.ts';
import { operator } from '../../src/kernel/actor.ts';
import { makeTeam, startWorld, type World } from '../surfaces/v2/team-helpers.ts';

const hostile = [
  '',
  'x'.repeat(5000),
  '\u0000',
  '-1',
  '99999999999999999999',
  '1e309',
  '2023-02-30',
  "'; drop table matters; --",
  '[]',
  '{"a":1}',
  '%',
  '../..',
];
const hostileBodies: unknown[] = [
  {},
  [],
  'text',
  null,
  { positions: 'x', personIds: Array.from({ length: 60 }, (_, i) => `p${i}`), type: 'legislation', refId: '\u0000', label: 'x'.repeat(300) },
  { body: '\u0000', subject: { type: 'matter', refId: '\u0000' } },
  { name: 'x', layout: { widgets: [{ kind: 'roll_call', position: { x: -1, y: 1e300 }, size: {}, settings: null }] }, baseVersion: 'a' },
  { stance: 'maybe', positions: [{ label: 1, stance: 'supports', recordId: null }] },
  JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}'),
  // Questions for POST /answers: they reach retrieval's SQL and full-text queries.
  { question: "'; drop table matters; -- O2023-0001234 ward 99 in 9999" },
  { question: '\u0000 & | ! ( ) : * <-> \\ \' "' },
  { question: 'x'.repeat(2000) },
  { question: Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ') },
  { question: 'How did Ald. Hopkins vote on so2026-0025407 between 1900 and 2100 since 0001-01-01?' },
];

let w: World;
let headers: Record<string, string>;
let personal: Record<string, string>;
/** /me routes need a personal credential; every other route takes the team owner's key. */
const credentialFor = (path: string) => (path.startsWith('/me/') ? personal : headers);
before(async () => {
  w = await startWorld();
  const team = await makeTeam(
    w.t,
    ['team_data', 'advocacy', 'analytics', 'people', 'offices'],
    ['public.read', 'public.ai', 'people.private.read', 'team.keys.read', 'team.keys.write', 'team.members.read', 'team.members.write'],
  );
  headers = { authorization: `Bearer ${team.keys.owner}` };
  const owner = await w.t.ctx.db
    .selectFrom('memberships')
    .select('account_id')
    .where('team_id', '=', team.id)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  const big = { requestsPerDay: 1_000_000, requestsPerMinute: 1_000_000 };
  await w.t.ctx.services.accounts.teams.setLimits(operator, { teamId: team.id, limits: big });
  await w.t.ctx.services.accounts.setLimits(operator, { accountId: owner.account_id, limits: big });
  const own = await w.t.ctx.services.credentials.keys.create({
    accountId: owner.account_id,
    name: 'personal',
    scopes: ['public.read', 'me.follows.read', 'me.follows.write', 'me.keys.read', 'me.keys.write', 'me.webhooks.read', 'me.webhooks.write'],
  });
  personal = { authorization: `Bearer ${own.key}` };
});
after(async () => {
  await w.t.close();
});

async function paths(prefix: '/api/v1' | '/api/v2', doc: string) {
  const res = await w.t.app.inject({ url: doc });
  return { prefix, spec: res.json() as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>> } };
}

test('hostile parameter values on every route of v1 and v2 never produce a 5xx', async () => {
  const failures: string[] = [];
  let sent = 0;
  for (const { prefix, spec } of [await paths('/api/v1', '/api/openapi.json'), await paths('/api/v2', '/api/v2/openapi.json')]) {
    for (const [path, ops] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const concrete = path.replace(/\{[^}]+\}/g, 'SO2026-0025407');
        const urls: string[] = [];
        for (const p of op.parameters ?? []) {
          for (const v of hostile) {
            if (p.in === 'query') urls.push(`${concrete}?${encodeURIComponent(p.name)}=${encodeURIComponent(v)}`);
            if (p.in === 'path') urls.push(path.replace(`{${p.name}}`, encodeURIComponent(v) || '%20').replace(/\{[^}]+\}/g, 'x'));
          }
        }
        if (urls.length === 0) urls.push(concrete);
        for (const url of urls) {
          const res = await w.t.app.inject({
            method: method.toUpperCase() as 'GET',
            url: prefix + url,
            headers: credentialFor(url),
            ...(method === 'get' || method === 'delete' ? {} : { payload: {} }),
          });
          sent++;
          // The credential may do everything: a 401 or 403 would mean the input never reached the route.
          if (res.statusCode >= 500 || res.statusCode === 401 || res.statusCode === 403) {
            failures.push(`${res.statusCode} ${method.toUpperCase()} ${prefix}${url.slice(0, 100)}: ${res.body.slice(0, 160)}`);
          }
        }
      }
    }
  }
  assert.ok(sent > 500, `only ${sent} requests were generated`);
  assert.deepEqual(failures, []);
});

test('hostile JSON bodies on every v2 write never produce a 5xx', async () => {
  const { spec } = await paths('/api/v2', '/api/v2/openapi.json');
  const failures: string[] = [];
  let sent = 0;
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const method of ['post', 'put', 'patch'] as const) {
      if (!ops[method]) continue;
      const url = `/api/v2${path.replace(/\{[^}]+\}/g, 'SO2026-0025407')}`;
      for (const body of hostileBodies) {
        const res = await w.t.app.inject({
          method: method.toUpperCase() as 'POST',
          url,
          headers: { ...credentialFor(path), 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        sent++;
        if (res.statusCode >= 500 || res.statusCode === 401 || res.statusCode === 403)
          failures.push(`${res.statusCode} ${method.toUpperCase()} ${url}: ${res.body.slice(0, 160)}`);
      }
      for (const raw of ['{', '{"a":', 'x'.repeat(10), '\u0000']) {
        const res = await w.t.app.inject({
          method: method.toUpperCase() as 'POST',
          url,
          headers: { ...credentialFor(path), 'content-type': 'application/json' },
          payload: raw,
        });
        sent++;
        if (res.statusCode >= 500) failures.push(`${res.statusCode} ${method.toUpperCase()} ${url} raw ${JSON.stringify(raw)}: ${res.body.slice(0, 160)}`);
      }
    }
  }
  assert.ok(sent > 50, `only ${sent} requests were generated`);
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  assert.deepEqual(failures, []);
});

/** The JSON text of `depth` objects nested in each other, `{ "a": { "a": … 1 } }` (the outer object is level 1). */
function nestedObject(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

test('bodies nested at and past the JSON depth cap on every v2 write, with and without Idempotency-Key: never a 5xx, past the cap 400', async () => {
  const { spec } = await paths('/api/v2', '/api/v2/openapi.json');
  const failures: string[] = [];
  let sent = 0;
  let n = 0;
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const method of ['post', 'put', 'patch'] as const) {
      if (!ops[method]) continue;
      const url = `/api/v2${path.replace(/\{[^}]+\}/g, 'SO2026-0025407')}`;
      for (const [depth, shape] of [
        [MAX_JSON_DEPTH, 'at'],
        [MAX_JSON_DEPTH + 1, 'past'],
        [50_000, 'far past'],
      ] as const) {
        // The nesting sits where each write's body takes free-form JSON (a layout's settings) and at the top.
        const bodies = [
          nestedObject(depth),
          `{"layout":{"widgets":[{"id":"w","kind":"roll_call","position":{"x":0,"y":0},"size":{"w":1,"h":1},"settings":${nestedObject(depth - 4)}}]}}`,
        ];
        for (const body of bodies) {
          for (const idempotent of [false, true]) {
            const res = await w.t.app.inject({
              method: method.toUpperCase() as 'POST',
              url,
              headers: { ...credentialFor(path), 'content-type': 'application/json', ...(idempotent ? { 'idempotency-key': `nest-${++n}` } : {}) },
              payload: body,
            });
            sent++;
            const label = `${res.statusCode} ${method.toUpperCase()} ${url} ${shape} the cap${idempotent ? ' with Idempotency-Key' : ''}`;
            if (res.statusCode >= 500) failures.push(`${label}: ${res.body.slice(0, 160)}`);
            if (shape !== 'at' && body === bodies[0] && res.statusCode !== 400) failures.push(`${label}: expected 400`);
          }
        }
      }
    }
  }
  assert.ok(sent > 100, `only ${sent} requests were generated`);
  assert.deepEqual(failures, []);
});
