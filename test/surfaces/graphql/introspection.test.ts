// The standard introspection query every GraphQL client sends (graphql-js's getIntrospectionQuery,
// with every option) is answered, by POST and GET, and the schema it gives is the served schema;
// introspection is bounded on its own terms (a fixed cost, graphql-js's introspection depth rule)
// while data fields keep their depth and cost bounds.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildClientSchema, buildSchema, getIntrospectionQuery, type IntrospectionQuery, lexicographicSortSchema, printSchema } from 'graphql';
import { INTROSPECTION, MAX_COST, MAX_DEPTH } from '../../../src/surfaces/graphql/cost.ts';
import { typeDefs } from '../../../src/surfaces/graphql/schema.ts';
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

const everyOption = {
  descriptions: true,
  specifiedByUrl: true,
  directiveIsRepeatable: true,
  schemaDescription: true,
  inputValueDeprecation: true,
  oneOf: true,
} as const;
const codes = (body: any) => body.errors.map((e: any) => e.extensions.code);
const printed = (schema: Parameters<typeof lexicographicSortSchema>[0]) => printSchema(lexicographicSortSchema(schema));

test('getIntrospectionQuery with every option is answered, and buildClientSchema gives back the served schema', async () => {
  const query = getIntrospectionQuery(everyOption);
  const post = await h.post(reader, query);
  assert.equal(post.status, 200, JSON.stringify(post.body).slice(0, 300));
  assert.equal(post.body.errors, undefined);
  const client = buildClientSchema(post.body.data as IntrospectionQuery);
  assert.equal(printed(client), printed(buildSchema(typeDefs)), 'the round trip loses nothing: types, fields, arguments, descriptions');
  // The descriptions travel: a client shows the same documentation as the schema.
  assert.equal(client.getType('Matter')!.description, 'A matter (legislation), addressed by its record number.');
  const get = await h.get(reader, { query });
  assert.equal(get.status, 200);
  assert.deepEqual(get.body, post.body, 'GET answers as POST');
  // With any valid credential, even one that reads no data.
  const other = await h.post(await h.key(['me.follows.read']), getIntrospectionQuery());
  assert.equal(other.status, 200, JSON.stringify(other.body).slice(0, 300));
});

test('an introspection request counts as one request, whatever it selects', async () => {
  const key = await h.key(['public.read'], { requestsPerDay: 100, requestsPerMinute: 100 });
  const first = await h.post(key, getIntrospectionQuery(everyOption));
  const second = await h.post(key, '{ __schema { queryType { name } } }');
  assert.equal(Number(first.headers.get('ratelimit-remaining')) - Number(second.headers.get('ratelimit-remaining')), 1);
});

test('introspection is bounded on its own terms: recursive lists and piles of aliases are refused before they run', async () => {
  // graphql-js's MaxIntrospectionDepthRule: `fields { type { fields …` more than three lists deep.
  const recursive = await h.post(reader, '{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }');
  assert.equal(recursive.status, 400, JSON.stringify(recursive.body));
  assert.deepEqual(codes(recursive.body), ['invalid_request']);
  assert.match(recursive.body.errors[0].message, /introspection/i);
  // Each introspection field costs a fixed INTROSPECTION: the bound holds MAX_COST / INTROSPECTION of them.
  const many = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `s${i}: __schema { types { name fields { name } } }`).join(' ')} }`;
  const within = Math.floor(MAX_COST / INTROSPECTION);
  assert.equal((await h.post(reader, many(within))).status, 200);
  const over = await h.post(reader, many(within + 1));
  assert.equal(over.status, 400, JSON.stringify(over.body).slice(0, 300));
  assert.match(over.body.errors[0].message, /costs \d+, more than the 50000 allowed/);
});

test(`data fields keep their depth bound of ${MAX_DEPTH}; introspection inside a data query adds no depth`, async () => {
  // Eight levels of data, with __typename and a type query beside them: answered.
  const eight =
    '{ matters(limit: 1) { data { rollCalls { matter { rollCalls { matter { rollCalls { id __typename } } } } } } } __type(name: "Matter") { fields { type { ofType { ofType { name } } } } } }';
  const fine = await h.post(reader, eight);
  assert.equal(fine.status, 200, JSON.stringify(fine.body).slice(0, 300));
  // Nine levels of data: refused, saying the depth.
  const nine = await h.post(reader, '{ matters { data { rollCalls { matter { rollCalls { matter { rollCalls { matter { id } } } } } } } } }');
  assert.equal(nine.status, 400);
  assert.deepEqual(codes(nine.body), ['invalid_request']);
  assert.match(nine.body.errors[0].message, /query depth \(9\) exceeds the query depth limit of 8/);
  // Fragments count where they are spread, inline fragments add no level of their own.
  const viaFragments = await h.post(
    reader,
    'fragment R on RollCall { matter { rollCalls { matter { rollCalls { ... on RollCall { matter { id } } } } } } } { matters { data { rollCalls { ...R } } } }',
  );
  assert.equal(viaFragments.status, 400);
  assert.match(viaFragments.body.errors[0].message, /query depth \(9\)/);
});
