// GraphQL over HTTP: POST and GET (queries only) read on one path, the 401 challenge,
// introspection for any valid credential, the public.ai scope of `answer`, every top-level field
// counted as its REST call (an `answer` as POST /answers), depth and cost limits, and errors
// carrying the catalogue's codes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MAX_COST, MAX_DEPTH } from '../../../src/surfaces/graphql/cost.ts';
import { type Harness, startGraphQL } from './helpers.ts';

let h: Harness;
let reader: string;
before(async () => {
  h = await startGraphQL();
  reader = await h.key(['public.read']);
});
after(async () => {
  await h.t.close();
});

const CHALLENGE = 'Bearer resource_metadata="http://council.test/.well-known/oauth-protected-resource/api", scope="public.read public.ai"';
const codes = (body: any) => body.errors.map((e: any) => e.extensions.code);
const remaining = (headers: Headers, name = 'ratelimit-remaining') => Number(headers.get(name));

test('a query by GET answers as by POST', async () => {
  const query = '{ matters(limit: 2) { data { recordNumber } meta { nextCursor } } }';
  const post = await h.post(reader, query);
  const get = await h.get(reader, { query });
  assert.equal(get.status, 200, JSON.stringify(get.body));
  assert.deepEqual(get.body, post.body);
  const withVariables = await h.get(reader, { query: 'query($n: Int) { matters(limit: $n) { data { recordNumber } } }', variables: JSON.stringify({ n: 2 }) });
  assert.deepEqual(withVariables.body.data.matters.data, post.body.data.matters.data);
});

test('a mutation sent with GET is refused with 405 and Allow: POST; nothing is answered', async () => {
  const ai = await h.key(['public.read', 'public.ai']);
  const res = await h.get(ai, { query: 'mutation { answer(question: "Who represents the 2nd ward?") { answer } }' });
  assert.equal(res.status, 405, JSON.stringify(res.body));
  assert.equal(res.headers.get('allow'), 'POST');
  assert.deepEqual(codes(res.body), ['method_not_allowed']);
  assert.equal(res.headers.get('x-ai-calls-remaining'), '50', 'no AI answer used');
});

test('without a credential: 401 with the Bearer challenge, by POST and by GET; a bad key says invalid_token', async () => {
  for (const res of [await h.post(null, '{ matters { data { id } } }'), await h.get(null, { query: '{ __typename }' })]) {
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate'), CHALLENGE);
    assert.deepEqual(codes(res.body), ['unauthorized']);
    assert.equal(res.headers.get('ratelimit-remaining'), null, 'no limits for an unknown caller');
  }
  const bad = await h.post('ctk_not_a_key', '{ __typename }');
  assert.equal(bad.status, 401);
  assert.ok(bad.headers.get('www-authenticate')!.startsWith(`${CHALLENGE}, error="invalid_token"`));
});

test('introspection is open to any valid credential; data fields need public.read', async () => {
  const follows = await h.key(['me.follows.read']);
  const schema = await h.post(follows, '{ __schema { queryType { fields { name } } mutationType { fields { name } } } }');
  assert.equal(schema.status, 200, JSON.stringify(schema.body));
  const fields = schema.body.data.__schema.queryType.fields.map((f: any) => f.name);
  assert.ok(['matters', 'matter', 'rollCalls', 'votes', 'meetings', 'people', 'person', 'committees', 'search'].every((f) => fields.includes(f)));
  assert.deepEqual(
    schema.body.data.__schema.mutationType.fields.map((f: any) => f.name),
    ['answer'],
  );
  const data = await h.post(follows, '{ matters { data { id } } }');
  assert.equal(data.status, 403);
  assert.deepEqual(codes(data.body), ['scope_missing']);
  assert.match(data.body.errors[0].message, /public\.read/);
});

test('answer needs public.ai; each answer field counts as POST /answers: one request and one AI answer', async () => {
  const refused = await h.post(reader, 'mutation { answer(question: "Who represents the 2nd ward?") { answer } }');
  assert.equal(refused.status, 403);
  assert.deepEqual(codes(refused.body), ['scope_missing']);
  assert.match(refused.body.errors[0].message, /public\.ai/);

  const ai = await h.key(['public.read', 'public.ai']);
  const first = await h.post(ai, '{ __typename }');
  const before = { day: remaining(first.headers), ai: remaining(first.headers, 'x-ai-calls-remaining') };
  const res = await h.post(
    ai,
    `mutation { a: answer(question: "Who represents the 2nd ward?") { answer citations { type id url } model }
    b: answer(question: "How did the council vote on ${h.seeded.rollCalls[0]!.recordNumber}?") { answer model } }`,
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.a.model, 'extractive');
  assert.ok(res.body.data.a.citations.length > 0 && res.body.data.a.citations.every((c: any) => c.url.startsWith('http://council.test/')));
  assert.ok(res.body.data.b.answer.length > 0);
  assert.equal(remaining(res.headers, 'x-ai-calls-remaining'), before.ai - 2, 'two answer fields, two AI answers');
  assert.equal(remaining(res.headers), before.day - 2, 'two requests, as two POST /answers');
  // The same answer as POST /answers.
  const rest = await fetch(`${h.url}/api/v1/answers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ai}`, 'content-type': 'application/json' },
    body: JSON.stringify({ question: 'Who represents the 2nd ward?' }),
  });
  const restBody: any = await rest.json();
  assert.equal(res.body.data.a.answer, restBody.answer);
  assert.deepEqual(
    res.body.data.a.citations,
    restBody.citations.map((c: any) => ({ type: c.type, id: c.id, url: c.url })),
  );
});

test('a refused question uses no AI answer; a spent AI limit refuses answers only, with 429', async () => {
  const ai = await h.key(['public.read', 'public.ai'], { requestsPerDay: 1000, requestsPerMinute: 1000, aiAnswersPerDay: 1 });
  const empty = await h.post(ai, 'mutation { answer(question: "?!") { answer } }');
  assert.deepEqual(codes(empty.body), ['invalid_request']);
  assert.equal(empty.headers.get('x-ai-calls-remaining'), '1', 'given back');
  const used = await h.post(ai, 'mutation { answer(question: "Who represents the 2nd ward?") { answer } }');
  assert.equal(used.status, 200, JSON.stringify(used.body));
  assert.equal(used.headers.get('x-ai-calls-remaining'), '0');
  const spent = await h.post(ai, 'mutation { answer(question: "Who represents the 3rd ward?") { answer } }');
  assert.equal(spent.status, 429);
  assert.deepEqual(codes(spent.body), ['ai_daily_limit']);
  assert.ok(Number(spent.headers.get('retry-after')) > 0);
  const data = await h.post(ai, '{ matters(limit: 1) { data { id } } }');
  assert.equal(data.status, 200, 'data still answers');
});

test('each top-level field counts as its REST call; a document with none, or refused, counts once; a 429 does not', async () => {
  const key = await h.key(['public.read'], { requestsPerDay: 12, requestsPerMinute: 100 });
  const many = await h.post(
    key,
    `{ matters(limit: 3) { data { id sponsors { name } } } votes(limit: 3) { data { value } } people(limit: 2) { data { name votes(limit: 1) { data { value } } } }
    meetings(limit: 1) { data { id } } search(q: "parking") { data { id } } }`,
  );
  assert.equal(many.status, 200, JSON.stringify(many.body));
  assert.equal(many.headers.get('ratelimit-remaining'), '7', 'five top-level fields, five requests; nested fields count with them');
  const typename = await h.post(key, '{ __typename }');
  assert.equal(typename.headers.get('ratelimit-remaining'), '6', 'a document that performs nothing is one request');
  const invalid = await h.post(key, '{ nope }');
  assert.equal(invalid.status, 400);
  assert.deepEqual(codes(invalid.body), ['invalid_request']);
  assert.equal(invalid.headers.get('ratelimit-remaining'), '5');
  const notFound = await h.post(key, '{ matter(record: "O1900-0000001") { id } }');
  assert.equal(notFound.status, 404, 'no field has data: the status is the refusal’s, as REST’s');
  assert.deepEqual(codes(notFound.body), ['not_found']);
  assert.equal(notFound.body.data.matter, null);
  assert.equal(notFound.headers.get('ratelimit-remaining'), '4');
  const aliases = await h.post(key, '{ a: matters(limit: 1) { data { id } } b: matters(limit: 1) { data { id } } c: bodies { data { id } } }');
  assert.equal(aliases.status, 200, JSON.stringify(aliases.body));
  assert.equal(aliases.headers.get('ratelimit-remaining'), '1', 'aliases count as the fields they repeat');
  const record = h.seeded.matters[0]!.recordNumber;
  const partly = await h.post(key, `{ a: matter(record: "${record}") { id } b: matter(record: "${record}") { recordNumber } }`);
  assert.equal(partly.status, 200, 'what the limits allowed is answered');
  assert.equal([partly.body.data.a, partly.body.data.b].filter((m) => m !== null).length, 1);
  assert.deepEqual(codes(partly.body), ['daily_limit'], 'the field past the limit is refused');
  const limited = await h.post(key, '{ __typename }');
  assert.equal(limited.status, 429);
  assert.deepEqual(codes(limited.body), ['daily_limit']);
  assert.ok(Number(limited.headers.get('retry-after')) > 0);
});

test('GET and POST read a request on one path: several operations and none named, or an unknown name, are 400 by either', async () => {
  const two = 'query A { matters(limit: 1) { data { id } } } query B { bodies { data { id } } }';
  for (const send of [
    (extra: Record<string, string>) => h.get(reader, { query: two, ...extra }),
    (extra: Record<string, string>) => h.post(reader, two, undefined, extra),
  ]) {
    const unnamed = await send({});
    assert.equal(unnamed.status, 400, JSON.stringify(unnamed.body));
    assert.deepEqual(codes(unnamed.body), ['invalid_request']);
    assert.match(unnamed.body.errors[0].message, /Must provide operation name/);
    const unknown = await send({ operationName: 'C' });
    assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
    assert.match(unknown.body.errors[0].message, /Unknown operation named "C"/);
    const named = await send({ operationName: 'B' });
    assert.equal(named.status, 200, JSON.stringify(named.body));
    assert.ok(Array.isArray(named.body.data.bodies.data));
  }
  const mixed = await h.get(reader, { query: `${two} mutation M { answer(question: "x") { answer } }`, operationName: 'M' });
  assert.equal(mixed.status, 405);
  assert.equal(mixed.headers.get('allow'), 'POST');
});

test(`a query nested deeper than ${MAX_DEPTH} levels, or costing more than ${MAX_COST}, is refused before it runs`, async () => {
  const deep = await h.post(reader, '{ matters { data { rollCalls { matter { rollCalls { matter { rollCalls { matter { rollCalls { id } } } } } } } } } }');
  assert.equal(deep.status, 400);
  assert.deepEqual(codes(deep.body), ['invalid_request']);
  assert.match(deep.body.errors[0].message, /depth/);
  const costly = await h.post(reader, '{ matters(limit: 200) { data { rollCalls { votes { name person { name } } } } } }');
  assert.equal(costly.status, 400);
  assert.deepEqual(codes(costly.body), ['invalid_request']);
  assert.match(costly.body.errors[0].message, /costs \d+, more than the 50000 allowed/);
  // A variable may raise the limit to 200 at most: the cost counts the most it can be, so a kept
  // document cannot be run again with a larger page than the one it was checked for.
  const viaVariable = await h.post(reader, 'query($n: Int) { matters(limit: $n) { data { rollCalls { votes { name } } } } }', { n: 1 });
  assert.equal(viaVariable.status, 400);
  const fine = await h.post(reader, '{ matters(limit: 20) { data { recordNumber sponsors { name } rollCalls { votes { personId name value } } } } }');
  assert.equal(fine.status, 200, 'the query the benchmark runs is within the limits');
});

test('bad arguments are field errors in the catalogue’s words, as REST says them', async () => {
  const res = await h.post(reader, '{ matters(cursor: "not-a-cursor") { data { id } } }');
  assert.equal(res.status, 400);
  assert.deepEqual(codes(res.body), ['invalid_request']);
  const value = await h.post(reader, '{ votes(value: "Maybe") { data { value } } }');
  assert.deepEqual(codes(value.body), ['invalid_request']);
  assert.match(value.body.errors[0].message, /votes\.list at \/value/);
  const rest = await fetch(`${h.url}/api/v1/matters?cursor=not-a-cursor`, { headers: { authorization: `Bearer ${reader}` } });
  assert.equal(res.body.errors[0].message, ((await rest.json()) as any).detail);
  const partial = await h.post(reader, '{ matters(limit: 1) { data { id } } matter(record: "O1900-0000001") { id } }');
  assert.equal(partial.status, 200, 'data and errors together');
  assert.equal(partial.body.data.matters.data.length, 1);
  assert.deepEqual(partial.body.errors[0].path, ['matter']);
});
