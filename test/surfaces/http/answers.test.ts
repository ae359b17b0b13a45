// POST /api/v1/answers and /api/v2/answers end to end: the shapes, the AI limit (X-AI-Calls-*,
// 429 ai_daily_limit on answers only while data routes keep working), an idempotent replay that
// uses no AI answer, and refused questions that use none either.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { seedPublicData } from '../../helpers/seed.ts';
import { answerKey, ask } from '../../modules/answers/helpers.ts';

let t: TestContext;
before(async () => {
  t = await startTestContext();
  await seedPublicData(t.ctx.db);
});
after(async () => {
  await t.close();
});

const QUESTION = 'How did Ald. Hopkins vote on SO2026-0025407?';
const usage = async (key: string) => (await t.app.inject({ url: '/api/v2/me', headers: { authorization: `Bearer ${key}` } })).json().usage;

test('v1 and v2 answer { answer, citations, model } with 200 and count one AI answer each', async () => {
  const { key } = await answerKey(t, { aiPerDay: 10 });
  for (const [version, remaining] of [
    ['v1', '9'],
    ['v2', '8'],
  ] as const) {
    const res = await ask(t, key, QUESTION, { version });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(res.json()).sort(), ['answer', 'citations', 'model']);
    assert.match(res.json().answer, /voted Yea on SO2026-0025407/);
    assert.equal(res.headers['x-ai-calls-limit'], '10');
    assert.equal(res.headers['x-ai-calls-remaining'], remaining);
    assert.match(String(res.headers['ratelimit-policy']), /"ai";q=10;w=86400/);
  }
  assert.equal((await usage(key)).aiAnswersToday, 2);
});

test('a refused question is 400 and uses no AI answer (the request itself counts)', async () => {
  const { key } = await answerKey(t, { aiPerDay: 10 });
  const cases: [unknown, RegExp][] = [
    ['x'.repeat(2001), /question/],
    ['', /question/],
    ['   \u0000 ', /no words/],
  ];
  for (const [question, message] of cases) {
    const v1 = await ask(t, key, question);
    assert.equal(v1.statusCode, 400, v1.body);
    assert.equal(v1.json().code, 'invalid_request');
    assert.match(v1.json().detail, message);
    assert.equal(v1.headers['x-ai-calls-remaining'], '10');
  }
  const noQuestion = await t.app.inject({ method: 'POST', url: '/api/v2/answers', headers: { authorization: `Bearer ${key}` }, payload: { q: 'hi' } });
  assert.equal(noQuestion.statusCode, 400);
  assert.equal(noQuestion.json().error.code, 'invalid_request');
  const u = await usage(key);
  assert.equal(u.aiAnswersToday, 0);
  assert.equal(u.requestsToday, 4);
  // 2,000 characters are a question.
  assert.equal((await ask(t, key, `${QUESTION} ${'x'.repeat(2000 - QUESTION.length - 1)}`)).statusCode, 200);
});

test('the daily AI limit: 429 ai_daily_limit on answers only, data routes keep working', async () => {
  const { key } = await answerKey(t, { aiPerDay: 2 });
  assert.equal((await ask(t, key, QUESTION)).statusCode, 200);
  assert.equal((await ask(t, key, QUESTION, { version: 'v2' })).statusCode, 200);
  for (const version of ['v1', 'v2'] as const) {
    const refused = await ask(t, key, QUESTION, { version });
    assert.equal(refused.statusCode, 429, refused.body);
    const code = version === 'v1' ? refused.json().code : refused.json().error.code;
    assert.equal(code, 'ai_daily_limit');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.equal(refused.headers['x-ai-calls-remaining'], '0');
  }
  for (const url of ['/api/v1/matters/SO2026-0025407', '/api/v2/matters?limit=1', '/api/v1/search?q=parking']) {
    const res = await t.app.inject({ url, headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
    assert.equal(res.headers['x-ai-calls-remaining'], '0');
  }
});

test('an idempotent replay sends the first answer again and uses no AI answer, even once they are spent', async () => {
  const { key } = await answerKey(t, { aiPerDay: 1 });
  const headers = { 'idempotency-key': 'answer-once' };
  const first = await ask(t, key, QUESTION, { headers });
  assert.equal(first.statusCode, 200, first.body);
  assert.equal(first.headers['x-ai-calls-remaining'], '0');
  const replay = await ask(t, key, QUESTION, { headers });
  assert.equal(replay.statusCode, 200, replay.body);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(replay.body, first.body);
  const u = await usage(key);
  assert.equal(u.aiAnswersToday, 1);
  assert.equal(u.requestsToday, 2);
  // The same key with another question is a different request: 422, not an answer.
  const other = await ask(t, key, 'Who represents the 2nd ward?', { headers });
  assert.equal(other.statusCode, 422);
  assert.equal(other.json().code, 'idempotency_key_reused');
  // A new key is a new answer: none is left.
  assert.equal((await ask(t, key, QUESTION, { headers: { 'idempotency-key': 'answer-twice' } })).statusCode, 429);
});

test('a key without public.ai is refused with 403 scope_missing naming the scope, and uses no AI answer', async () => {
  const { key } = await answerKey(t, { scopes: ['public.read'] });
  const res = await ask(t, key, QUESTION);
  assert.equal(res.statusCode, 403);
  assert.equal(res.json().code, 'scope_missing');
  assert.match(res.json().detail, /public\.ai/);
  assert.equal((await usage(key)).aiAnswersToday, 0);
});
