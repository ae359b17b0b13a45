// Wrong parameter types on every JSON-RPC method of /a2a, v1.0 and v0.3 names: each field a method
// reads, given a value of another type (or left out when it is required), is answered -32602
// Invalid params with a plain message (JSON-RPC 2.0 §5.1), never -32603 with the runtime's words
// ("taskId.trim is not a function") and never read as something else (a number taken for a task
// id, answering "task not found"). The fields are those of A2A v1.0 §9 and the v0.3 JSON-RPC schema.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { operator } from '../../src/kernel/actor.ts';
import { startTestContext } from '../helpers/context.ts';

const t = await startTestContext();
after(async () => {
  await t.close();
});
const account = await t.ctx.services.accounts.create({ email: 'a2a-params@example.org' });
await t.ctx.services.accounts.setLimits(operator, {
  accountId: account.id,
  limits: { requestsPerDay: 1_000_000, requestsPerMinute: 1_000_000, aiAnswersPerDay: 1_000_000 },
});
const { key } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'a2a params', scopes: ['public.ai'] });

type Kind = 'string' | 'integer' | 'boolean' | 'object' | 'strings' | 'array';
/** Values of every other type than `kind` (JSON null only where the field is required). */
const wrong: Record<Kind, unknown[]> = {
  string: [123, {}, [], true],
  integer: ['x', 1.5, {}, true],
  boolean: ['x', 1, {}],
  object: ['x', 1, [], true],
  strings: ['x', 1, {}, [1]],
  array: ['x', 1, {}],
};

const v1Message = { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] };
const v03Message = { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };

interface Case {
  method: string;
  /** Where the field sits, from params. */
  at: string[];
  base: Record<string, unknown>;
  fields: Record<string, Kind>;
  required?: string[];
}

const messageFields = (kind: 'v1' | 'v03'): Record<string, Kind> => ({
  messageId: 'string',
  contextId: 'string',
  taskId: 'string',
  role: 'string',
  parts: 'array',
  metadata: 'object',
  extensions: 'strings',
  referenceTaskIds: 'strings',
  ...(kind === 'v03' ? { kind: 'string' } : {}),
});
const configurationFields: Record<string, Kind> = {
  acceptedOutputModes: 'strings',
  historyLength: 'integer',
  blocking: 'boolean',
  pushNotificationConfig: 'object',
};
const sends = (method: string, message: Record<string, unknown>, kind: 'v1' | 'v03'): Case[] => [
  { method, at: [], base: { message }, fields: { message: 'object', configuration: 'object', metadata: 'object' } },
  { method, at: ['message'], base: { message }, fields: messageFields(kind) },
  {
    method,
    at: ['message', 'parts', '0'],
    base: { message },
    fields: kind === 'v1' ? { text: 'string', url: 'string', raw: 'string' } : { text: 'string', kind: 'string' },
  },
  { method, at: ['configuration'], base: { message, configuration: {} }, fields: configurationFields },
];
const byId = (method: string, extra: Record<string, Kind> = {}): Case => ({
  method,
  at: [],
  base: { id: 'no-such-task' },
  fields: { id: 'string', metadata: 'object', ...extra },
  required: ['id'],
});

const cases: Case[] = [
  ...sends('SendMessage', v1Message, 'v1'),
  ...sends('SendStreamingMessage', v1Message, 'v1'),
  ...sends('message/send', v03Message, 'v03'),
  ...sends('message/stream', v03Message, 'v03'),
  byId('GetTask', { historyLength: 'integer' }),
  byId('CancelTask'),
  byId('SubscribeToTask'),
  byId('tasks/get', { historyLength: 'integer' }),
  byId('tasks/cancel'),
  byId('tasks/resubscribe'),
  {
    method: 'ListTasks',
    at: [],
    base: {},
    fields: { contextId: 'string', status: 'string', pageSize: 'integer', pageToken: 'string', historyLength: 'integer', includeArtifacts: 'boolean' },
  },
  {
    method: 'tasks/pushNotificationConfig/set',
    at: [],
    base: { taskId: 't', pushNotificationConfig: { url: 'https://example.org/hook' } },
    fields: { taskId: 'string', pushNotificationConfig: 'object' },
    required: ['taskId', 'pushNotificationConfig'],
  },
  { method: 'tasks/pushNotificationConfig/get', at: [], base: { id: 't' }, fields: { id: 'string', pushNotificationConfigId: 'string' }, required: ['id'] },
  { method: 'tasks/pushNotificationConfig/list', at: [], base: { id: 't' }, fields: { id: 'string' }, required: ['id'] },
  {
    method: 'tasks/pushNotificationConfig/delete',
    at: [],
    base: { id: 't', pushNotificationConfigId: 'c' },
    fields: { id: 'string', pushNotificationConfigId: 'string' },
    required: ['id'],
  },
  { method: 'GetTaskPushNotificationConfig', at: [], base: { taskId: 't', id: 'c' }, fields: { taskId: 'string', id: 'string' }, required: ['taskId'] },
  { method: 'DeleteTaskPushNotificationConfig', at: [], base: { taskId: 't', id: 'c' }, fields: { taskId: 'string', id: 'string' }, required: ['taskId'] },
  { method: 'ListTaskPushNotificationConfigs', at: [], base: { taskId: 't' }, fields: { taskId: 'string', pageSize: 'integer' }, required: ['taskId'] },
];

/** The base params with `value` at `at`/`field` (undefined: the field left out). */
function withField(base: Record<string, unknown>, at: string[], field: string, value: unknown): Record<string, unknown> {
  const params = structuredClone(base);
  let node: any = params;
  for (const step of at) node = node[step];
  if (value === undefined) delete node[field];
  else node[field] = value;
  return params;
}

const rpc = (method: string, params: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/a2a',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });

for (const c of cases) {
  test(`${c.method}${c.at.length ? ` ${c.at.join('.')}` : ''}: a field of the wrong type is -32602 with a plain message`, async () => {
    const failures: string[] = [];
    for (const [field, kind] of Object.entries(c.fields)) {
      const values = [...wrong[kind], ...(c.required?.includes(field) ? [null, undefined] : [])];
      for (const value of values) {
        const res = await rpc(c.method, withField(c.base, c.at, field, value));
        const what = `${field}=${value === undefined ? '(left out)' : JSON.stringify(value)}`;
        if (res.statusCode >= 500) {
          failures.push(`${what}: HTTP ${res.statusCode}`);
          continue;
        }
        const body = res.json();
        if (body.error?.code !== -32602) failures.push(`${what}: ${JSON.stringify(body.error ?? body.result).slice(0, 140)}`);
        else if (/is not a function|Cannot read|not iterable|undefined|\[object/.test(body.error.message)) failures.push(`${what}: ${body.error.message}`);
      }
    }
    assert.deepEqual(failures, []);
  });
}

test('params that are not an object are -32602 on every method', async () => {
  for (const c of cases) {
    for (const params of [5, 'x', [1], true]) {
      const body = (await rpc(c.method, params)).json();
      assert.equal(body.error?.code, -32602, `${c.method} ${JSON.stringify(params)}: ${JSON.stringify(body)}`);
    }
  }
});
