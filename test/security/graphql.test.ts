// The generated security cases for the GraphQL surface (test/security/graphql-cases.ts): for every
// top-level field, a request with no credential, a key without the field's scope, a revoked key,
// an expired key and a key used outside its allowed IPs, plus a control with the right key; then
// hostile requests (huge documents, deep nesting, alias floods, malformed bodies and variables),
// none of which may reach a 5xx or go without a catalogue code.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { buildSchema } from 'graphql';
import { ManualClock } from '../../src/kernel/clock.ts';
import type { Scope } from '../../src/kernel/access.ts';
import { operator } from '../../src/kernel/actor.ts';
import { errorCatalogue } from '../../src/kernel/errors.ts';
import { typeDefs } from '../../src/surfaces/graphql/schema.ts';
import { startTestContext } from '../helpers/context.ts';
import { graphqlBindings, graphqlTeamBindings } from './graphql-cases.ts';
import { accountActor } from '../helpers/actors.ts';

const clock = new ManualClock();
const t = await startTestContext({ clock });
after(async () => {
  await t.close();
});
const { accounts, credentials } = t.ctx.services;
const CHALLENGE = 'Bearer resource_metadata="http://council.test/.well-known/oauth-protected-resource/api", scope="public.read public.ai"';

let n = 0;
async function keys(scopes: Scope[]) {
  const account = await accounts.create({ email: `graphql-matrix-${++n}@example.org` });
  await accounts.setLimits(operator, { accountId: account.id, limits: { requestsPerDay: 1_000_000, requestsPerMinute: 1_000_000 } });
  const make = (s: Scope[], extra: { expiresAt?: Date; allowedIps?: string[] } = {}) =>
    credentials.keys.create({ accountId: account.id, name: 'graphql matrix', scopes: s, ...extra });
  const revoked = await make(scopes);
  await credentials.keys.revoke(accountActor(account.id), { id: revoked.id });
  const made = {
    valid: (await make(scopes)).key,
    wrongScope: (await make(['me.follows.read'])).key,
    revoked: revoked.key,
    expired: (await make(scopes, { expiresAt: new Date(clock.now().getTime() + 1000) })).key,
    // 203.0.113.0/24 is TEST-NET-3 (RFC 5737); injected requests come from 127.0.0.1.
    ipLimited: (await make(scopes, { allowedIps: ['203.0.113.0/24'] })).key,
  };
  clock.advance(2000);
  return made;
}

const post = (document: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/graphql',
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ query: document }),
  });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function refusal(res: LightMyRequestResponse, status: number, code: string) {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json();
  assert.ok(Array.isArray(body.errors) && body.errors.length > 0, res.body);
  assert.equal(body.errors[0].extensions.code, code, res.body);
}

test('every top-level field of the graph has its cases', () => {
  const schema = buildSchema(typeDefs);
  const fields = [schema.getQueryType(), schema.getMutationType()].flatMap((type) => Object.keys(type?.getFields() ?? {}));
  assert.deepEqual([...fields].sort(), [...graphqlBindings, ...graphqlTeamBindings].map((b) => b.field).sort());
});

for (const b of graphqlTeamBindings) {
  const scope = t.ctx.performer.get(b.operationId).access.scopes[0]!;
  test(`graphql ${b.field} (team fields): no credential, a personal key, a team key without ${scope}, a team without ${b.feature}`, async () => {
    const owner = await accounts.create({ email: `graphql-team-${++n}@example.org` });
    const withFeature = await accounts.teams.create(operator, { name: 'GraphQL team', ownerAccountId: owner.id, features: [b.feature as never] });
    const without = await accounts.teams.create(operator, { name: 'GraphQL bare team', ownerAccountId: owner.id, features: [] });
    const make = async (scopes: Scope[], teamId?: string) =>
      (await credentials.keys.create({ accountId: owner.id, name: 'graphql team', scopes, ...(teamId ? { teamId } : {}) })).key;
    const code = async (key?: string) => {
      const res = await post(b.document, key ? bearer(key) : {});
      return { status: res.statusCode, codes: (res.json().errors ?? []).map((e: any) => e.extensions.code) as string[], body: res.body };
    };
    assert.equal((await code()).status, 401);
    assert.deepEqual((await code(await make(['public.read']))).codes, ['team_only']);
    assert.deepEqual((await code(await make(['public.read'], withFeature.id))).codes, ['scope_missing']);
    assert.deepEqual((await code(await make([scope], without.id))).codes, ['feature_required']);
    const right = await code(await make([scope], withFeature.id));
    assert.equal(right.status, 200, right.body);
    assert.deepEqual(right.codes, []);
  });
}

for (const b of graphqlBindings) {
  const scope = t.ctx.performer.get(b.operationId).access.scopes[0]!;
  describe(`graphql ${b.field}`, () => {
    let k: Awaited<ReturnType<typeof keys>>;
    before(async () => {
      k = await keys([scope]);
    });
    test('no credential → 401 with the Bearer challenge', async () => {
      const res = await post(b.document);
      refusal(res, 401, 'unauthorized');
      assert.equal(res.headers['www-authenticate'], CHALLENGE);
    });
    test(`a key without ${scope} → scope_missing`, async () => {
      const res = await post(b.document, bearer(k.wrongScope));
      refusal(res, 403, 'scope_missing');
      assert.match(res.json().errors[0].message, new RegExp(scope.replace('.', '\\.')));
    });
    for (const which of ['revoked', 'expired'] as const) {
      test(`${which} key → 401 invalid_token`, async () => {
        const res = await post(b.document, bearer(k[which]));
        refusal(res, 401, 'unauthorized');
        assert.ok(String(res.headers['www-authenticate']).startsWith(`${CHALLENGE}, error="invalid_token"`));
      });
    }
    test('key used outside its allowed IPs → 403 ip_not_allowed', async () => {
      refusal(await post(b.document, bearer(k.ipLimited)), 403, 'ip_not_allowed');
    });
    test('X-API-Key is not a GraphQL credential → 401', async () => {
      refusal(await post(b.document, { 'x-api-key': k.valid }), 401, 'unauthorized');
    });
    test('control: the right key gets past the gates', async () => {
      const res = await post(b.document, bearer(k.valid));
      const found = (res.json().errors ?? []).map((e: any) => e.extensions.code);
      assert.ok(!found.some((c: string) => ['unauthorized', 'scope_missing', 'ip_not_allowed'].includes(c)), res.body);
      assert.ok(res.statusCode === 200 || found.includes('not_found'), res.body);
    });
  });
}

test('hostile GraphQL requests are refused with a catalogue code, never a 5xx', async () => {
  const k = await keys(['public.read', 'public.ai']);
  const headers = { ...bearer(k.valid), 'content-type': 'application/json' };
  const nested = (depth: number) => `{ matters { data { rollCalls { ${'matter { rollCalls { '.repeat(depth)}id${' } }'.repeat(depth)} } } } }`;
  const documents: unknown[] = [
    { query: `{ ${'matter(record: "x") { id } '.repeat(1)}${Array.from({ length: 400 }, (_, i) => `a${i}: matter(record: "x") { id }`).join(' ')} }` },
    {
      query: Array.from({ length: 400 }, (_, i) => `a${i}: __typename`)
        .join(' ')
        .replace(/^/, '{ ')
        .concat(' }'),
    },
    { query: `{ ${'a: matters { data { id } } '.repeat(30)} }` },
    { query: nested(20) },
    { query: `${'{'.repeat(3000)}${'}'.repeat(3000)}` },
    { query: 'x'.repeat(25_000) },
    { query: `{ matters { data { ${'id '.repeat(6000)} } } }` },
    { query: 'fragment A on Matter { ...B } fragment B on Matter { ...A } { matters { data { ...A } } }' },
    { query: 'query($n: Int) { matters(limit: $n) { data { id } } }', variables: { n: 'many' } },
    { query: 'query($n: Int!) { matters(limit: $n) { data { id } } }' },
    { query: '{ matters { data { id } } }', variables: 'not an object' },
    { query: '{ matters { data { id } } }', operationName: 'Nope' },
    { query: 'query A { __typename } query B { __typename }' },
    { query: '{ matter(record: "\u0000") { id } }' },
    { query: '{ matters(q: "\u0000") { data { id } } }' },
    { query: `{ matters(limit: 2147483648) { data { id } } }` },
    { query: '{ matters(limit: -1) { data { id } } }' },
    { query: `{ search(q: "${'x'.repeat(5000)}") { data { id } } }` },
    { query: '{ people(ward: 99) { data { id } } }' },
    { query: '{ meetings(from: "2023-02-30") { data { id } } }' },
    { query: '{ votes(cursor: "eyJzIjoiLWRhdGUiLCJrIjpbMSwyLDNdfQ") { data { value } } }' },
    { query: '{ person(id: "none") { votes(cursor: "!!!") { data { value } } } }' },
    { query: 'subscription { matters { data { id } } }' },
    { query: 'mutation { answer(question: "") { answer } }' },
    { query: `mutation { answer(question: "${'why '.repeat(600)}") { answer } }` },
    { query: '{ __schema { types { fields { type { ofType { ofType { ofType { ofType { name } } } } } } } } }' },
    { query: 123 },
    {
      query: JSON.stringify({
        kind: 'Document',
        definitions: [{ kind: 'OperationDefinition', operation: 'query', selectionSet: { kind: 'SelectionSet', selections: 'x' } }],
      }),
    },
    { query: '"not graphql"' },
    { query: null },
    {},
    [{ query: '{ __typename }' }, { query: '{ __typename }' }],
    'text',
    JSON.parse('{"query": "{ __typename }", "__proto__": {"polluted": true}}'),
  ];
  const failures: string[] = [];
  const check = (res: LightMyRequestResponse, what: string) => {
    let body: any;
    try {
      body = res.json();
    } catch {
      failures.push(`${res.statusCode} not JSON for ${what}`);
      return;
    }
    if (res.statusCode >= 500) failures.push(`${res.statusCode} ${what}: ${res.body.slice(0, 200)}`);
    for (const e of body.errors ?? []) {
      const code = e.extensions?.code;
      if (!code || !Object.hasOwn(errorCatalogue, code) || code === 'internal')
        failures.push(`${res.statusCode} code ${code} for ${what}: ${res.body.slice(0, 200)}`);
    }
    if (res.statusCode !== 200 && !body.errors) failures.push(`${res.statusCode} without errors for ${what}`);
  };
  for (const body of documents) {
    const res = await t.app.inject({ method: 'POST', url: '/api/graphql', headers, payload: JSON.stringify(body) });
    check(res, JSON.stringify(body).slice(0, 80));
  }
  // The refusals that matter most say what is wrong, with 400.
  for (const [body, pattern] of [
    [documents[0], /costs/],
    [documents[3], /depth/],
    [documents[5], /at most 20000/],
    [documents[4], /Syntax Error/],
    [documents[6], /more that 5000 tokens/],
  ] as const) {
    const res = await t.app.inject({ method: 'POST', url: '/api/graphql', headers, payload: JSON.stringify(body) });
    assert.equal(res.statusCode, 400, res.body.slice(0, 200));
    assert.match(res.json().errors[0].message, pattern);
  }
  for (const raw of ['{', '{"query":', '\u0000', `{"query": "${'a'.repeat(1_100_000)}"}`]) {
    const res = await t.app.inject({ method: 'POST', url: '/api/graphql', headers, payload: raw });
    check(res, `raw ${raw.slice(0, 20)}`);
    if (res.statusCode !== 400 && res.statusCode !== 413) failures.push(`${res.statusCode} for raw ${raw.slice(0, 20)}`);
  }
  for (const params of [
    'query={__typename}&variables=notjson',
    `query=${'{__typename}'.repeat(2000)}`,
    'query=',
    'variables={}',
    'query={matter(record:"%00"){id}}',
  ]) {
    const res = await t.app.inject({ method: 'GET', url: `/api/graphql?${params}`, headers: bearer(k.valid) });
    check(res, `GET ${params.slice(0, 40)}`);
  }
  const text = await t.app.inject({
    method: 'POST',
    url: '/api/graphql',
    headers: { ...bearer(k.valid), 'content-type': 'text/plain' },
    payload: '{ __typename }',
  });
  check(text, 'text/plain');
  assert.deepEqual(failures, []);
});
