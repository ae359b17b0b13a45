// The generated security cases for the MCP tools: for every tool (one per operation of the
// catalogue, surfaces/mcp/tools.ts), a tools/call with no credential, a key without the tool's
// scope, a revoked key, an expired key, a key used outside its allowed IPs, a team without the
// tool's feature, a creator demoted below its roles and another team's id, plus a control: the
// right key gets past every gate. Credential failures are HTTP answers (401 with the challenge for
// /mcp, 403); refusals of the operation are tool errors naming the catalogue's code.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../../src/kernel/clock.ts';
import { createToolbox } from '../../src/surfaces/mcp/tools.ts';
import { startTestContext } from '../helpers/context.ts';
import { messageOf, rpc } from '../surfaces/mcp/helpers.ts';
import { hostileRpcFailures } from './hostile-rpc.ts';
import { type Keys, securityKeys } from './keys.ts';
import { otherTeamCases, routeTable } from './route-table.ts';

const clock = new ManualClock();
const t = await startTestContext({ clock });
after(async () => {
  await t.close();
});
const tools = createToolbox(t.ctx.performer.all()).all;
const keysOf = securityKeys(t.ctx, clock, 'mcp-matrix');
const v2Routes = new Map(
  routeTable(t.ctx)
    .filter((row) => row.surface === 'v2')
    .map((row) => [row.operationId as string, row.def]),
);
const CHALLENGE = 'Bearer resource_metadata="http://council.test/.well-known/oauth-protected-resource/mcp", scope="public.read public.ai"';
const ACCESS_CODES = /^(unauthorized|scope_missing|team_only|personal_only|feature_required|forbidden|ip_not_allowed):/;

const call = (name: string, args: Record<string, unknown>, key?: string) =>
  rpc(t.app, 'tools/call', { name, arguments: args }, key ? { authorization: `Bearer ${key}` } : {});

/** A tool result's text, asserting it is a tool error. */
function toolError(res: LightMyRequestResponse): string {
  assert.equal(res.statusCode, 200, res.body);
  const { result } = messageOf(res);
  assert.equal(result?.isError, true, res.body);
  return result.content[0].text;
}

function httpRefusal(res: LightMyRequestResponse, status: number, code: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(res.json().error.data.code, code);
}

/** A tool's arguments from the parameters and body of its v2 route (the other-team setups speak v2). */
function argumentsOf(operationId: string, params: Record<string, string>, body: unknown): Record<string, unknown> {
  const field = v2Routes.get(operationId)?.body;
  if (field && field !== 'fields') return { ...params, [field]: body };
  return { ...((body as Record<string, unknown> | undefined) ?? {}), ...params };
}

test('every operation of the catalogue but the batch loaders is a tool', () => {
  assert.deepEqual(
    tools.map((tool) => tool.operation.id),
    t.ctx.performer
      .all()
      .filter((op) => !op.tags.includes('batch'))
      .map((op) => op.id),
  );
});

for (const tool of tools) {
  const op = tool.operation.access;
  describe(`mcp ${tool.name}`, () => {
    let keys: Keys;
    before(async () => {
      keys = await keysOf.keysFor(op);
    });

    test('no credential → 401 with the Bearer challenge for /mcp', async () => {
      const res = await call(tool.name, {});
      httpRefusal(res, 401, 'unauthorized');
      assert.equal(res.headers['www-authenticate'], CHALLENGE);
    });

    test('wrong scope → 403 insufficient_scope naming the scope', { skip: op.scopes.length === 0 && 'the tool needs no scope' }, async () => {
      const res = await call(tool.name, {}, keys.wrongScope!);
      httpRefusal(res, 403, 'scope_missing');
      const challenge = String(res.headers['www-authenticate']);
      assert.match(challenge, /error="insufficient_scope"/);
      assert.ok(challenge.includes(op.scopes[0]!), challenge);
    });

    for (const which of ['revoked', 'expired'] as const) {
      test(`${which} key → 401 invalid_token`, async () => {
        const res = await call(tool.name, {}, keys[which]);
        httpRefusal(res, 401, 'unauthorized');
        assert.ok(String(res.headers['www-authenticate']).startsWith(`${CHALLENGE}, error="invalid_token"`));
      });
    }

    test('key used outside its allowed IPs → 403 ip_not_allowed', async () => {
      httpRefusal(await call(tool.name, {}, keys.ipLimited), 403, 'ip_not_allowed');
    });

    if (op.feature) {
      const feature = op.feature;
      test(`team without the ${feature} feature → tool error feature_required`, async () => {
        assert.match(toolError(await call(tool.name, {}, await keysOf.withoutFeature(op, feature))), /^feature_required: /);
      });
    }

    if (op.roles && !op.roles.includes('member')) {
      test('key of a creator demoted to member → tool error forbidden', async () => {
        assert.match(toolError(await call(tool.name, {}, await keysOf.demoted(op))), /^forbidden: /);
      });
    }

    const otherTeam = otherTeamCases[tool.operation.id as keyof typeof otherTeamCases];
    if (otherTeam && 'setup' in otherTeam) {
      test("another team's id → tool error not_found", async () => {
        const { params, body } = await otherTeam.setup({
          app: t.app,
          ctx: t.ctx,
          ownerKey: keys.valid,
          ownerTeamId: keys.teamId!,
          ownerAccountId: keys.accountId,
        });
        const text = toolError(await call(tool.name, argumentsOf(tool.operation.id, params, body), await keysOf.stranger(op)));
        assert.match(text, /^not_found: /);
      });
    }

    test('control: the right key gets past every gate', async () => {
      const res = await call(tool.name, {}, keys.valid);
      assert.equal(res.statusCode, 200, res.body);
      const { result, error } = messageOf(res);
      assert.equal(error, undefined, res.body);
      if (result.isError) assert.doesNotMatch(result.content[0].text, ACCESS_CODES);
    });
  });
}

test('hostile bodies never reach a 5xx', async () => {
  const keys = await keysOf.keysFor({ scopes: ['public.read', 'public.ai'], context: 'any' });
  const headers = { authorization: `Bearer ${keys.valid}` };
  const bodies: unknown[] = [
    { jsonrpc: '2.0', id: {}, method: 'tools/list' },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'x' },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 5 } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'matters_read', arguments: 'x' } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'matters_read', arguments: { record: 'x'.repeat(5000) } } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'matters_read', arguments: { record: '\u0000' } } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_read', arguments: { q: '%%%', limit: 0 } } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x'.repeat(5000) } },
    { jsonrpc: '2.0', id: 1, method: 'resources/list' },
    { jsonrpc: '2.0', id: 1, method: 'prompts/get', params: { name: 'x' } },
    JSON.parse('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"__proto__": {"polluted": true}}}'),
  ];
  const failures = await hostileRpcFailures(t.app, '/mcp', { ...headers, accept: 'application/json, text/event-stream' }, bodies, [
    '{',
    '{"jsonrpc":',
    '\u0000',
  ]);
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  assert.deepEqual(failures, []);
});
