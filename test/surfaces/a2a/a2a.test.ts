// The A2A agent with the SDK's own clients: the card, send, stream, get and cancel under the
// v1.0 method names (ClientFactory + JsonRpcTransport) and the v0.3 names (LegacyJsonRpcTransport),
// a task invisible to another owner, 401 without a credential, and the AI limit per answer.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CancelTaskRequest, GetTaskRequest, type Task, TaskState } from '@a2a-js/sdk';
import { Client, DefaultAgentCardResolver } from '@a2a-js/sdk/client';
import { LegacyJsonRpcTransport, parseLegacyAgentCard } from '@a2a-js/sdk/compat/v0_3/client';
import type { TestContext } from '../../helpers/context.ts';
import { seedPublicData } from '../../helpers/seed.ts';
import { answerKey } from '../../modules/answers/helpers.ts';
import { a2aClient, keyFetch, type ModelServer, question, startListening, startModel } from './helpers.ts';

let t: TestContext;
let base: string;
let model: ModelServer;
let key: string;

before(async () => {
  model = await startModel();
  ({ t, base } = await startListening({ AI_BASE_URL: model.url, AI_MODEL: 'council-test-model', AI_TIMEOUT_MS: '10000' }));
  await seedPublicData(t.ctx.db);
  ({ key } = await answerKey(t, { aiPerDay: 100 }));
});
after(async () => {
  await t.close();
  await model.close();
});

const QUESTION = 'How did Ald. Hopkins vote on SO2026-0025407?';
const usage = async (k: string) =>
  (await fetch(`${base}/api/v2/me`, { headers: { authorization: `Bearer ${k}` } }).then((r) => r.json() as Promise<any>)).usage;
const textOf = (task: Task) => task.artifacts[0]!.parts.find((p) => p.content?.$case === 'text')?.content?.value;
const dataOf = (task: Task) =>
  task.artifacts[0]!.parts.find((p) => p.content?.$case === 'data')?.content?.value as {
    citations: { type: string; id: string; url: string }[];
    model: string;
  };

describe('the agent card', () => {
  test('is served at both well-known URLs, read by the SDK as a v1.0 card', async () => {
    const card = await new DefaultAgentCardResolver().resolve(base);
    assert.equal(card.name, 'Council Tracker');
    assert.deepEqual(
      card.skills.map((s) => s.id),
      ['answer-question', 'look-up-record'],
    );
    assert.equal(card.capabilities?.streaming, true);
    assert.deepEqual(
      card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion} ${i.url}`),
      [`JSONRPC 1.0 ${base}/a2a`, `JSONRPC 0.3 ${base}/a2a`],
    );
    const bearer = card.securitySchemes.bearer?.scheme;
    assert.equal(bearer?.$case === 'httpAuthSecurityScheme' && bearer.value.scheme, 'Bearer');
    const oauth = card.securitySchemes.oauth?.scheme;
    assert.ok(oauth?.$case === 'oauth2SecurityScheme');
    assert.equal(oauth.value.oauth2MetadataUrl, `${base}/.well-known/oauth-authorization-server`);
    const flow = oauth.value.flows?.flow;
    assert.ok(flow?.$case === 'authorizationCode' && flow.value.pkceRequired);
    assert.equal(flow.value.authorizationUrl, `${base}/oauth/authorize`);
    const a2aPath = await (await fetch(`${base}/a2a/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
    const rootPath = await (await fetch(`${base}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
    assert.deepEqual(a2aPath, rootPath);
  });

  test('a client announcing no version (v0.3) gets the v0.3 card', async () => {
    const res = await fetch(`${base}/.well-known/agent-card.json`);
    assert.equal(res.headers.get('vary'), 'A2A-Version');
    const card = (await res.json()) as any;
    assert.equal(card.protocolVersion, '0.3.0');
    assert.equal(card.url, `${base}/a2a`);
    assert.equal(card.preferredTransport, 'JSONRPC');
    assert.deepEqual(card.security, [{ bearer: ['public.ai'] }, { oauth: ['public.ai'] }]);
    assert.equal(card.securitySchemes.oauth.flows.authorizationCode.tokenUrl, `${base}/oauth/token`);
    // The SDK's v0.3 translator reads it into the same agent.
    const parsed = parseLegacyAgentCard(card);
    assert.deepEqual(
      parsed.skills.map((s) => s.id),
      ['answer-question', 'look-up-record'],
    );
    assert.equal(parsed.capabilities?.streaming, true);
  });
});

describe('v1.0 methods through the SDK client', () => {
  test('SendMessage: a completed task with the answer and its citations as a data part, one AI answer used', async () => {
    const client = await a2aClient(base, key);
    const before = (await usage(key)).aiAnswersToday;
    const result = await client.sendMessage(question(QUESTION));
    assert.ok('status' in result, 'a task');
    const task = result as Task;
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    assert.equal(textOf(task), 'Answered from the records.');
    const data = dataOf(task);
    assert.equal(data.model, 'council-test-model');
    assert.deepEqual(
      data.citations.map((c) => `${c.type}:${c.id}`),
      ['matter:SO2026-0025407'],
    );
    assert.equal(data.citations[0]!.url, `${base}/matters/SO2026-0025407`);
    // The final status message carries the same two parts.
    assert.deepEqual(
      task.status?.message?.parts.map((p) => p.content?.$case),
      ['text', 'data'],
    );
    assert.equal((await usage(key)).aiAnswersToday, before + 1);
  });

  test('a message that returns at once still uses its AI answer when the answer is made', async () => {
    const client = await a2aClient(base, key);
    const before = (await usage(key)).aiAnswersToday;
    const request = question(`${QUESTION} Answer slowly.`);
    request.configuration = { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true };
    const task = (await client.sendMessage(request)) as Task;
    assert.notEqual(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    let state = task.status?.state;
    while (state !== TaskState.TASK_STATE_COMPLETED) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      state = (await client.getTask(GetTaskRequest.fromJSON({ id: task.id }))).status?.state;
    }
    assert.equal((await usage(key)).aiAnswersToday, before + 1);
  });

  test('SendStreamingMessage: task, working, the answer artifact, completed', async () => {
    const client = await a2aClient(base, key);
    const kinds: string[] = [];
    let last: unknown;
    for await (const event of client.sendMessageStream(question(QUESTION))) {
      const payload = event.payload!;
      kinds.push(payload.$case === 'statusUpdate' ? `status:${TaskState[payload.value.status!.state]}` : payload.$case);
      last = payload;
    }
    assert.deepEqual(kinds, ['task', 'status:TASK_STATE_WORKING', 'artifactUpdate', 'status:TASK_STATE_COMPLETED']);
    assert.equal((last as { value: { status: { state: TaskState } } }).value.status.state, TaskState.TASK_STATE_COMPLETED);
  });

  test('GetTask returns the task to its owner, and to no one else', async () => {
    const client = await a2aClient(base, key);
    const task = (await client.sendMessage(question(QUESTION))) as Task;
    const got = await client.getTask(GetTaskRequest.fromJSON({ id: task.id }));
    assert.equal(got.id, task.id);
    assert.equal(textOf(got), 'Answered from the records.');
    const stranger = await answerKey(t);
    const other = await a2aClient(base, stranger.key);
    await assert.rejects(other.getTask(GetTaskRequest.fromJSON({ id: task.id })), /not found/i);
    await assert.rejects(other.cancelTask(CancelTaskRequest.fromJSON({ id: task.id })), /not found/i);
    // A key of the same owner sees it: tasks belong to the account, not to one key.
    const second = await t.ctx.services.credentials.keys.create({
      accountId: (await t.ctx.services.accounts.findByEmail(await ownerEmail(key)))!.id,
      name: 'second',
      scopes: ['public.ai'],
    });
    assert.equal((await (await a2aClient(base, second.key)).getTask(GetTaskRequest.fromJSON({ id: task.id }))).id, task.id);
  });

  test('CancelTask stops a task while its answer is being made', async () => {
    const client = await a2aClient(base, key);
    const stream = client.sendMessageStream(question(`${QUESTION} Answer slowly.`));
    const first = await stream.next();
    assert.equal(first.value?.payload?.$case, 'task');
    const taskId = first.value!.payload!.$case === 'task' ? first.value!.payload!.value.id : '';
    const cancelled = await client.cancelTask(CancelTaskRequest.fromJSON({ id: taskId }));
    assert.equal(cancelled.status?.state, TaskState.TASK_STATE_CANCELED);
    const rest: string[] = [];
    for await (const e of stream) rest.push(e.payload!.$case === 'statusUpdate' ? TaskState[e.payload!.value.status!.state] : e.payload!.$case);
    assert.equal(rest.at(-1), 'TASK_STATE_CANCELED');
    assert.equal((await client.getTask(GetTaskRequest.fromJSON({ id: taskId }))).status?.state, TaskState.TASK_STATE_CANCELED);
    // A finished task cannot be cancelled.
    const done = (await client.sendMessage(question(QUESTION))) as Task;
    await assert.rejects(client.cancelTask(CancelTaskRequest.fromJSON({ id: done.id })), /not cancelable/i);
  });
});

describe('v0.3 method names through the SDK’s v0.3 client', () => {
  test('message/send, message/stream and tasks/get', async () => {
    const card = await new DefaultAgentCardResolver().resolve(base);
    const methods: string[] = [];
    const client = new Client(new LegacyJsonRpcTransport({ endpoint: `${base}/a2a`, fetchImpl: keyFetch(key, methods) }), card);
    const task = (await client.sendMessage(question(QUESTION))) as Task;
    assert.equal(task.status?.state, TaskState.TASK_STATE_COMPLETED);
    assert.equal(textOf(task), 'Answered from the records.');
    const events: string[] = [];
    for await (const e of client.sendMessageStream(question(QUESTION))) events.push(e.payload!.$case);
    assert.equal(events[0], 'task');
    assert.equal((await client.getTask(GetTaskRequest.fromJSON({ id: task.id }))).id, task.id);
    assert.deepEqual(methods, ['message/send', 'message/stream', 'tasks/get']);
  });
});

describe('credentials and limits', () => {
  test('no credential: 401 with the Bearer challenge for /a2a', async () => {
    const res = await fetch(`${base}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: {} }),
    });
    assert.equal(res.status, 401);
    assert.equal(
      res.headers.get('www-authenticate'),
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/a2a", scope="public.read public.ai"`,
    );
    const body = (await res.json()) as any;
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.error.data.code, 'unauthorized');
    const client = await a2aClient(base, 'ctk_not-a-key');
    await assert.rejects(client.sendMessage(question(QUESTION)));
  });

  test("a key without public.ai: 403 insufficient_scope naming the agent's operation's own scopes", async () => {
    const { key: readOnly } = await answerKey(t, { scopes: ['public.read'] });
    const res = await fetch(`${base}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${readOnly}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x' } }),
    });
    assert.equal(res.status, 403);
    // RFC 6750 §3.1: the scopes of the operation the agent performs (answers.create), from the
    // catalogue, at the agent's protected resource (RFC 9728 §5.1), not a list kept by the surface.
    const { scopes } = t.ctx.performer.get('answers.create').access;
    assert.equal(
      res.headers.get('www-authenticate'),
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/a2a", scope="${scopes.join(' ')}", error="insufficient_scope", error_description="This operation needs the public.ai scope."`,
    );
  });

  test('each answer counts against the AI limit; once spent, 429 ai_daily_limit while tasks stay readable', async () => {
    const { key: once } = await answerKey(t, { aiPerDay: 1 });
    const client = await a2aClient(base, once);
    const task = (await client.sendMessage(question(QUESTION))) as Task;
    await assert.rejects(client.sendMessage(question(QUESTION)), /Daily AI answer limit/);
    const raw = await fetch(`${base}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${once}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'message/send',
        params: { message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: QUESTION }] } },
      }),
    });
    assert.equal(raw.status, 429);
    assert.equal(((await raw.json()) as any).error.data.code, 'ai_daily_limit');
    assert.equal((await client.getTask(GetTaskRequest.fromJSON({ id: task.id }))).id, task.id);
    assert.equal((await usage(once)).aiAnswersToday, 1);
  });

  test('a question refused by the SDK or by validation uses no AI answer', async () => {
    const { key: k } = await answerKey(t, { aiPerDay: 5 });
    const client = await a2aClient(base, k);
    // A follow-up to a task that does not exist: refused before the executor runs.
    const followUp = question(QUESTION);
    followUp.message!.taskId = 'no-such-task';
    await assert.rejects(client.sendMessage(followUp), /not found/i);
    // An empty question: the task fails with the operation's code.
    const failed = (await client.sendMessage(question(' '))) as Task;
    assert.equal(failed.status?.state, TaskState.TASK_STATE_FAILED);
    assert.match(String(failed.status?.message?.parts[0]?.content?.value), /^invalid_request: /);
    assert.equal((await usage(k)).aiAnswersToday, 0);
  });
});

async function ownerEmail(k: string): Promise<string> {
  return (await fetch(`${base}/api/v2/me`, { headers: { authorization: `Bearer ${k}` } }).then((r) => r.json() as Promise<any>)).account.email;
}
