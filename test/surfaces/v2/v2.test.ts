// The /api/v2 surface over HTTP: v1's data routes under v2 rules, /me, the v2 error envelope,
// Bearer-only credentials and signed-in sessions.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { operator } from '../../../src/kernel/actor.ts';
import { csrfTokenFor } from '../../../src/modules/sessions/index.ts';
import { type RouteDef, routeParts } from '../../../src/surfaces/http/route.ts';
import { replacedInV2, v2Routes } from '../../../src/surfaces/v2/index.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { seedPublicData } from '../../helpers/seed.ts';
import { countEffects, createEffectsTable, effectsApp } from './effects-app.ts';

let t: TestContext;
let effects: FastifyInstance;
let key: string;
let accountId: string;
const auth = () => ({ authorization: `Bearer ${key}` });

before(async () => {
  t = await startTestContext();
  await seedPublicData(t.ctx.db);
  await createEffectsTable(t.ctx);
  effects = await effectsApp(t.ctx, { failNext: 0, failAfterWrite: 0, hold: null });
  const account = await t.ctx.services.accounts.create({ email: 'v2@example.org', name: 'Vee Two' });
  accountId = account.id;
  // The list checks below send a few hundred requests; the per-minute limit is not under test here.
  await t.ctx.services.accounts.setLimits(operator, { accountId, limits: { requestsPerMinute: 100_000, requestsPerDay: 100_000 } });
  ({ key } = await t.ctx.services.credentials.keys.create({ accountId, name: 'v2 test', scopes: ['public.read', 'public.ai'] }));
});
after(async () => {
  await effects.close();
  await t.close();
});

// Public data lists (the team and people lists are tested with team keys in team-*.test.ts).
const opOf = (r: RouteDef) => t.ctx.performer.get(r.operation);
const listRoutes = () =>
  v2Routes.filter(
    (r) => r.method === 'GET' && JSON.stringify(opOf(r).output).includes('nextCursor') && (opOf(r).access.scopes as readonly string[]).includes('public.read'),
  );

function assertV2Error(res: { statusCode: number; json(): any }, status: number, code: string) {
  assert.equal(res.statusCode, status);
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message']);
  assert.equal(body.error.code, code);
}

test('GET /api/v2/me: the decisions.md shape, never cached by shared caches', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v2/me', headers: auth() });
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['cache-control'], 'private, no-store');
  const me = res.json();
  assert.deepEqual(Object.keys(me).sort(), ['account', 'credential', 'limits', 'scopes', 'team', 'usage']);
  assert.deepEqual(me.account, { id: accountId, email: 'v2@example.org', name: 'Vee Two' });
  assert.equal(me.team, null);
  assert.deepEqual(Object.keys(me.credential).sort(), ['expiresAt', 'id', 'name', 'scopes', 'type']);
  assert.equal(me.credential.type, 'api_key');
  assert.deepEqual(me.scopes, ['public.read', 'public.ai']);
  assert.deepEqual(Object.keys(me.limits).sort(), ['aiAnswersPerDay', 'requestsPerDay', 'requestsPerMinute']);
  assert.deepEqual(Object.keys(me.usage).sort(), ['aiAnswersToday', 'requestsToday', 'resetsAt']);
});

test('v2 errors use { error: { code, message } }: 400, 401, 403, 404', async () => {
  const unauth = await t.app.inject({ method: 'GET', url: '/api/v2/matters' });
  assertV2Error(unauth, 401, 'unauthorized');
  assert.match(
    String(unauth.headers['www-authenticate']),
    /^Bearer resource_metadata="http:\/\/council\.test\/\.well-known\/oauth-protected-resource\/api", scope="public\.read public\.ai"$/,
  );
  assertV2Error(await t.app.inject({ method: 'GET', url: '/api/v2/matters?api_key=ctk_x' }), 400, 'invalid_request');
  assertV2Error(await t.app.inject({ method: 'GET', url: '/api/v2/matters?limit=0', headers: auth() }), 400, 'invalid_request');
  assertV2Error(await t.app.inject({ method: 'GET', url: '/api/v2/no-such-route', headers: auth() }), 404, 'not_found');
  assertV2Error(await t.app.inject({ method: 'GET', url: '/api/v2/matters/NO-SUCH-RECORD-1', headers: auth() }), 404, 'not_found');
  const limited = await t.ctx.services.credentials.keys.create({ accountId, name: 'office only', scopes: ['public.read'], allowedIps: ['198.51.100.7'] });
  assertV2Error(await t.app.inject({ method: 'GET', url: '/api/v2/me', headers: { authorization: `Bearer ${limited.key}` } }), 403, 'ip_not_allowed');
  const aiOnly = await t.ctx.services.credentials.keys.create({ accountId, name: 'ai only', scopes: ['public.ai'] });
  const noScope = await t.app.inject({ method: 'GET', url: '/api/v2/matters', headers: { authorization: `Bearer ${aiOnly.key}` } });
  assertV2Error(noScope, 403, 'scope_missing');
  assert.match(noScope.json().error.message, /public\.read/);
});

test('v2 takes Bearer only: X-API-Key is refused with a hint, while v1 accepts it', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v2/me', headers: { 'x-api-key': key } });
  assertV2Error(res, 401, 'unauthorized');
  assert.match(res.json().error.message, /X-API-Key is accepted on \/api\/v1 only/);
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { 'x-api-key': key } })).statusCode, 200);
});

test('every v1 data route is served under v2 with public.read, by the same handlers', async () => {
  const v2Ops = new Set(v2Routes.map((r) => `${r.method} ${r.path} ${r.operation}`));
  const dataRoutes = (await import('../../../src/surfaces/v1/public-routes.ts')).publicRoutes;
  assert.ok(dataRoutes.length > 0);
  for (const r of dataRoutes.filter((d) => !replacedInV2.has(`${d.method} ${d.path}`))) {
    assert.ok(v2Ops.has(`${r.method} ${r.path} ${r.operation}`), `${r.method} ${r.path} missing from v2`);
    assert.ok((opOf(r).access.scopes as readonly string[]).includes('public.read'));
  }
  const v1 = await t.app.inject({ method: 'GET', url: '/api/v1/matters?limit=3', headers: auth() });
  const v2 = await t.app.inject({ method: 'GET', url: '/api/v2/matters?limit=3', headers: auth() });
  assert.equal(v2.statusCode, 200);
  assert.deepEqual(v2.json(), v1.json());
});

test('every v2 list: limit 1-200 (0 and 201 are 400), default 50, { data, meta: { nextCursor } }', async () => {
  const lists = listRoutes().filter((r) => !r.path.includes(':'));
  assert.ok(lists.length > 0);
  for (const r of lists) {
    // Required filters (search's `q`) get a plain value; the page parameters are what is tested.
    const qs = JSON.parse(JSON.stringify(routeParts(r, opOf(r)).querystring ?? {}));
    const required = ((qs.required ?? []) as string[])
      .filter((name) => qs.properties[name].default === undefined)
      .map((name) => `${name}=${qs.properties[name].type === 'integer' ? 1 : 'tax'}`);
    const url = `/api/v2${r.path}?${required.join('&')}`;
    for (const limit of [0, 201]) assertV2Error(await t.app.inject({ method: 'GET', url: `${url}&limit=${limit}`, headers: auth() }), 400, 'invalid_request');
    const res = await t.app.inject({ method: 'GET', url, headers: auth() });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['data', 'meta'], url);
    assert.ok(Array.isArray(body.data) && body.data.length <= 50, url);
    assert.ok(body.meta.nextCursor === null || typeof body.meta.nextCursor === 'string', url);
    assert.equal((await t.app.inject({ method: 'GET', url: `${url}&limit=200`, headers: auth() })).statusCode, 200, url);
  }
});

test('cursors page through a list without gaps or repeats; a bad cursor is 400', async () => {
  const all = (await t.app.inject({ method: 'GET', url: '/api/v2/matters?limit=200', headers: auth() })).json();
  assert.ok(all.data.length >= 3, 'the seed holds several matters');
  const seen: unknown[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const url: string = `/api/v2/matters?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = (await t.app.inject({ method: 'GET', url, headers: auth() })).json();
    assert.ok(page.data.length <= 2);
    seen.push(...page.data);
    cursor = page.meta.nextCursor;
    pages++;
  } while (cursor && pages < 500);
  assert.deepEqual(seen, all.data);
  assert.ok(pages >= 2);
  assertV2Error(await t.app.inject({ method: 'GET', url: '/api/v2/matters?cursor=not*a*cursor', headers: auth() }), 400, 'invalid_request');
});

test('GET /api/v2/openapi.json: every v2 operation, with x-scopes from its operation id, v2 errors, Bearer only', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v2/openapi.json' });
  assert.equal(res.statusCode, 200);
  const doc = res.json();
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.servers[0].url, 'http://council.test/api/v2');
  assert.equal(doc.components.securitySchemes.apiKey, undefined);
  assert.ok(doc.components.securitySchemes.bearer);
  const ids = new Set<string>();
  for (const r of v2Routes) {
    const op = doc.paths[r.path.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
    assert.ok(op, `${r.method} ${r.path} missing`);
    assert.deepEqual(op['x-scopes'], [...opOf(r).access.scopes]);
    assert.ok(!ids.has(op.operationId), `duplicate operationId ${op.operationId}`);
    ids.add(op.operationId);
    assert.deepEqual(Object.keys(op.responses['401'].content['application/json'].schema.properties), ['error']);
  }
});

test('the v2 description of a write route documents Idempotency-Key, 409 and 422', async () => {
  const doc = (await effects.inject({ method: 'GET', url: '/api/v2/openapi.json' })).json();
  const post = doc.paths['/effects'].post;
  assert.deepEqual(post['x-scopes'], ['public.ai']);
  const header = post.parameters.find((p: any) => p.in === 'header');
  assert.equal(header.name, 'Idempotency-Key');
  assert.deepEqual([header.schema.minLength, header.schema.maxLength], [1, 255]);
  assert.ok(post.responses['409'] && post.responses['422']);
  assert.equal(
    doc.paths['/me'].get.parameters.find((p: any) => p.in === 'header'),
    undefined,
  );
});

async function signIn(email: string): Promise<string> {
  await t.ctx.services.sessions.requestLink(email, '203.0.113.30');
  const mail = t.ctx.services.mailer.outbox().find((m) => m.to === email);
  const code = /code=([^\s&]+)/.exec(mail!.text)![1]!;
  return (await t.ctx.services.sessions.useLink(decodeURIComponent(code))).token;
}

test('a signed-in dashboard session is accepted on v2; its writes need the CSRF token', async () => {
  const session = await signIn('session@example.org');
  const cookie = `theme=dark; ct_session=${session}`;
  const me = await t.app.inject({ method: 'GET', url: '/api/v2/me', headers: { cookie } });
  assert.equal(me.statusCode, 200, me.body);
  assert.equal(me.json().credential.type, 'session');
  assert.equal(me.json().account.email, 'session@example.org');
  // v1 is for keys and tokens only.
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } })).statusCode, 401);
  assertV2Error(await t.app.inject({ method: 'GET', url: '/api/v2/me', headers: { cookie: 'ct_session=cts_unknown' } }), 401, 'unauthorized');

  const write = (headers: Record<string, string>) =>
    effects.inject({ method: 'POST', url: '/api/v2/effects', headers: { cookie, ...headers }, payload: { note: 'by-session' } });
  assertV2Error(await write({}), 403, 'forbidden');
  assertV2Error(await write({ 'x-csrf-token': 'wrong' }), 403, 'forbidden');
  assert.equal(await countEffects(t.ctx, 'by-session'), 0);
  const ok = await write({ 'x-csrf-token': csrfTokenFor(session), 'idempotency-key': 'session-write' });
  assert.equal(ok.statusCode, 201, ok.body);
  const again = await write({ 'x-csrf-token': csrfTokenFor(session), 'idempotency-key': 'session-write' });
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.equal(await countEffects(t.ctx, 'by-session'), 1);
});

test('a Bearer credential wins over a session cookie', async () => {
  const session = await signIn('both@example.org');
  const res = await t.app.inject({ method: 'GET', url: '/api/v2/me', headers: { cookie: `ct_session=${session}`, ...auth() } });
  assert.equal(res.json().account.email, 'v2@example.org');
  assert.equal(res.json().credential.type, 'api_key');
});
