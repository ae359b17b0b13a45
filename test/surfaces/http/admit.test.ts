// The HTTP surfaces' one admission (surfaces/http/admit.ts), as MCP, A2A and GraphQL use it, on
// the real service and database: a missing scope is the RFC 6750 §3.1 insufficient_scope challenge
// naming the operation's own scopes (all of them) at the protected resource the surface names
// (RFC 9728 §5.1); an AI answer admitted and never run is given back when the reply closes, or at
// once by `settle`, or by the error renderer before a refusal is answered; and a failed `run` puts
// the limits then (the answer given back) on the reply.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createFastify } from '../../../src/app.ts';
import type { OperationId } from '../../../src/catalogue.ts';
import { AppError } from '../../../src/kernel/errors.ts';
import { operator } from '../../../src/kernel/actor.ts';
import type { Surface } from '../../../src/modules/credentials/index.ts';
import { admit, run, settle } from '../../../src/surfaces/http/admit.ts';
import { authenticateRequests } from '../../../src/surfaces/http/guard.ts';
import { renderV2, useRenderer } from '../../../src/surfaces/http/render.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { until } from '../../helpers/service.ts';

let t: TestContext;
let probe: FastifyInstance;
let readOnly: string;
let aiOnly: string;
let asker: string;
let teamNotes: string;
const call = { surface: 'v2' } as const;

before(async () => {
  t = await startTestContext();
  const { accounts, credentials } = t.ctx.services;
  const account = await accounts.create({ email: 'admit@example.org' });
  const key = async (scopes: Parameters<typeof credentials.keys.create>[0]['scopes'], teamId?: string) =>
    (await credentials.keys.create({ accountId: account.id, name: 'admit', scopes, ...(teamId ? { teamId } : {}) })).key;
  readOnly = await key(['public.read']);
  aiOnly = await key(['public.ai']);
  asker = await key(['public.read', 'public.ai']);
  const team = await accounts.teams.create(operator, { name: 'Admit team', ownerAccountId: account.id, features: ['team_data'] });
  teamNotes = await key(['team.notes.read'], team.id);

  // A surface of its own that admits what the path names and answers without running it, as a
  // protocol surface does when its SDK refuses a call after the admission.
  probe = createFastify(t.ctx);
  await probe.register(
    async (scope) => {
      useRenderer(scope, t.ctx, renderV2);
      authenticateRequests(scope, t.ctx, { name: 'v2', surface: 'api', allowApiKeyHeader: false });
      scope.post<{ Params: { resource: Surface; operation: OperationId } }>('/:resource/:operation', async (request, reply) => {
        const admission = await admit(t.ctx, request, reply, request.params.operation, { call, resource: request.params.resource });
        return { admitted: admission.operation.id };
      });
      scope.post('/settled', async (request, reply) => {
        await settle(t.ctx, request, reply, await admit(t.ctx, request, reply, 'answers.create', { call, resource: 'a2a' }));
        return { settled: true };
      });
      scope.post('/refused-after-admission', async (request, reply) => {
        await admit(t.ctx, request, reply, 'answers.create', { call, resource: 'a2a' });
        throw new AppError('invalid_request', 'Refused after the admission, before the call ran.');
      });
      scope.post('/run-refused', async (request, reply) => {
        const admission = await admit(t.ctx, request, reply, 'answers.create', { call, resource: 'mcp' });
        // As an MCP tool call: the operation's refusal is the result, the HTTP answer is 200.
        return run(t.ctx, request, reply, admission, { question: '' }).catch((err: AppError) => ({ refused: err.code }));
      });
    },
    { prefix: '/probe' },
  );
  await probe.ready();
});
after(async () => {
  await probe?.close();
  await t?.close();
});

const post = (url: string, key: string) => probe.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}` } });
const aiUsedToday = async () =>
  (await t.app.inject({ url: '/api/v2/me', headers: { authorization: `Bearer ${asker}` } })).json().usage.aiAnswersToday as number;
const challenge = (resource: Surface, scopes: readonly string[], missing: string) =>
  `Bearer resource_metadata="http://council.test/.well-known/oauth-protected-resource/${resource}", scope="${scopes.join(' ')}", error="insufficient_scope", error_description="This operation needs the ${missing} scope."`;

test("a missing scope is 403 insufficient_scope naming the operation's own scopes at the surface's resource", async () => {
  const cases: [string, OperationId, Surface, string][] = [
    [readOnly, 'answers.create', 'a2a', 'public.ai'],
    [aiOnly, 'sources.read', 'mcp', 'public.read'],
    [aiOnly, 'search.read', 'api', 'public.read'],
    [teamNotes, 'team.legislation.list', 'a2a', 'team.positions.read'],
  ];
  for (const [key, operation, resource, missing] of cases) {
    const res = await post(`/probe/${resource}/${operation}`, key);
    assert.equal(res.statusCode, 403, `${operation} at ${resource}`);
    assert.equal(res.json().error.code, 'scope_missing');
    const { scopes } = t.ctx.performer.get(operation).access;
    assert.equal(res.headers['www-authenticate'], challenge(resource, scopes, missing), `${operation} at ${resource}`);
    assert.match(String(res.headers['ratelimit-remaining']), /^\d+$/, 'a refusal is counted and says so');
  }
  assert.deepEqual(
    t.ctx.performer.get('team.legislation.list').access.scopes,
    ['team.positions.read', 'team.follows.read'],
    'every scope is named, not only the first missing',
  );
});

/** What the headers say is left of the day's AI answers, and what the limits say with `used` of them used. */
const aiLeft = (res: { headers: Record<string, unknown> }) => Number(res.headers['x-ai-calls-remaining']);
const leftWith = (res: { headers: Record<string, unknown> }, used: number) => Number(res.headers['x-ai-calls-limit']) - used;

test('an AI answer admitted and never run is held on the reply, and given back when the reply closes', async () => {
  const used = await aiUsedToday();
  const res = await post('/probe/a2a/answers.create', asker);
  assert.equal(res.statusCode, 200);
  assert.equal(res.json().admitted, 'answers.create');
  assert.equal(aiLeft(res), leftWith(res, used + 1), 'the admission counted one and put the limits on the reply');
  await until('the unused AI answer is given back', async () => ((await aiUsedToday()) === used ? true : undefined), 20);
});

test('settle gives it back at once, and the headers already show it', async () => {
  const used = await aiUsedToday();
  const res = await post('/probe/settled', asker);
  assert.equal(res.statusCode, 200);
  assert.equal(aiLeft(res), leftWith(res, used));
  assert.equal(await aiUsedToday(), used);
});

test('a refusal after the admission gives the answer back before it is answered; a failed run notes the limits then', async () => {
  const used = await aiUsedToday();
  const refused = await post('/probe/refused-after-admission', asker);
  assert.equal(refused.statusCode, 400);
  assert.equal(refused.json().error.code, 'invalid_request');
  assert.equal(aiLeft(refused), leftWith(refused, used));
  const ran = await post('/probe/run-refused', asker);
  assert.equal(ran.statusCode, 200);
  assert.deepEqual(ran.json(), { refused: 'invalid_request' });
  assert.equal(aiLeft(ran), leftWith(ran, used));
  assert.equal(await aiUsedToday(), used);
});
