// The generated security cases for the A2A agent (test/security/a2a-cases.ts): for every JSON-RPC
// method, a call with no credential, a key without public.ai, a revoked key, an expired key and a
// key used outside its allowed IPs, plus a control with the right key; then hostile JSON-RPC
// bodies, none of which may reach a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ManualClock } from '../../src/kernel/clock.ts';
import { startTestContext } from '../helpers/context.ts';
import { a2aBindings } from './a2a-cases.ts';
import { hostileRpcFailures } from './hostile-rpc.ts';
import { accountActor } from '../helpers/actors.ts';

const clock = new ManualClock();
const t = await startTestContext({ clock });
after(async () => {
  await t.close();
});
const { accounts, credentials } = t.ctx.services;
const CHALLENGE = 'Bearer resource_metadata="http://council.test/.well-known/oauth-protected-resource/a2a", scope="public.read public.ai"';

let n = 0;
async function keys() {
  const account = await accounts.create({ email: `a2a-matrix-${++n}@example.org` });
  const make = (scopes: ('public.read' | 'public.ai' | 'me.follows.read')[], extra: { expiresAt?: Date; allowedIps?: string[] } = {}) =>
    credentials.keys.create({ accountId: account.id, name: 'a2a matrix', scopes, ...extra });
  const revoked = await make(['public.ai']);
  await credentials.keys.revoke(accountActor(account.id), { id: revoked.id });
  const made = {
    valid: (await make(['public.ai'])).key,
    wrongScope: (await make(['public.read', 'me.follows.read'])).key,
    revoked: revoked.key,
    expired: (await make(['public.ai'], { expiresAt: new Date(clock.now().getTime() + 1000) })).key,
    // 203.0.113.0/24 is TEST-NET-3 (RFC 5737); injected requests come from 127.0.0.1.
    ipLimited: (await make(['public.ai'], { allowedIps: ['203.0.113.0/24'] })).key,
  };
  clock.advance(2000);
  return made;
}

const call = (method: string, params: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/a2a',
    headers: { 'content-type': 'application/json', ...headers },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

function refusal(res: LightMyRequestResponse, status: number, code: string) {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json();
  assert.equal(body.jsonrpc, '2.0');
  assert.equal(body.error.data.code, code);
}

for (const b of a2aBindings) {
  describe(`a2a ${b.method}`, () => {
    let k: Awaited<ReturnType<typeof keys>>;
    before(async () => {
      k = await keys();
    });
    test('no credential → 401 with the Bearer challenge', async () => {
      const res = await call(b.method, b.params);
      refusal(res, 401, 'unauthorized');
      assert.equal(res.headers['www-authenticate'], CHALLENGE);
    });
    test('a key without public.ai → 403 insufficient_scope', async () => {
      const res = await call(b.method, b.params, bearer(k.wrongScope));
      refusal(res, 403, 'scope_missing');
      assert.match(String(res.headers['www-authenticate']), /error="insufficient_scope"/);
    });
    for (const [what, which] of [
      ['revoked', 'revoked'],
      ['expired', 'expired'],
    ] as const) {
      test(`${what} key → 401 invalid_token`, async () => {
        const res = await call(b.method, b.params, bearer(k[which]));
        refusal(res, 401, 'unauthorized');
        assert.ok(String(res.headers['www-authenticate']).startsWith(`${CHALLENGE}, error="invalid_token"`));
      });
    }
    test('key used outside its allowed IPs → 403 ip_not_allowed', async () => {
      refusal(await call(b.method, b.params, bearer(k.ipLimited)), 403, 'ip_not_allowed');
    });
    test('control: the right key gets an answer from the agent', async () => {
      const res = await call(b.method, b.params, bearer(k.valid));
      assert.equal(res.statusCode, 200, res.body);
    });
  });
}

test('hostile JSON-RPC bodies never reach a 5xx', async () => {
  const k = await keys();
  const message = (extra: Record<string, unknown>) => ({ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'parking' }], ...extra });
  const bodies: unknown[] = [
    { jsonrpc: '2.0', id: {}, method: 'GetTask' },
    { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: 'x' },
    { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { parts: 'x' } } },
    { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message({ contextId: 'x'.repeat(300) }) } },
    { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message({ taskId: 'x'.repeat(300) }) } },
    { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { tenant: 'x'.repeat(1000), message: message({}) } },
    { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message({ parts: [{ text: 'x'.repeat(5000) }] }) } },
    { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: message({ parts: [{ raw: '!!!' }, { url: 'file:///etc/passwd' }] }) } },
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'file', file: { bytes: '!!!' } }] } },
    },
    { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x'.repeat(5000) } },
    { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: '\u0000' } },
    { jsonrpc: '2.0', id: 1, method: 'ListTasks', params: { pageSize: -1, pageToken: '%%%' } },
    { jsonrpc: '2.0', id: 1, method: 'SubscribeToTask', params: { id: 'nope' } },
    { jsonrpc: '2.0', id: 1, method: 'CreateTaskPushNotificationConfig', params: { taskId: 'x', url: 'http://169.254.169.254/' } },
    { jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard' },
    JSON.parse('{"jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"__proto__": {"polluted": true}}}'),
  ];
  const failures = await hostileRpcFailures(t.app, '/a2a', bearer(k.valid), bodies, ['{', '{"jsonrpc":', '\u0000']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  assert.deepEqual(failures, []);
});
