// "Any string a person types is a valid search or a 400" (issue 17 §1): a generated fuzz of
// search strings — operators of every tsquery syntax, quotes, runs of dashes (33 in a row made
// PostgreSQL's tsquery parser fail with "stack too small"), Unicode, NUL bytes, lone surrogates,
// 2,000 characters — sent to every surface that takes a search: each v1 and v2 route with a `q`
// (from the OpenAPI documents), each public page with a `q` (from the page table), the search
// feed, each GraphQL field with a `q` argument (from introspection) and each MCP tool with a `q`
// argument (from tools/list). No answer may be a 5xx, nor an `internal` error inside a 200.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { operator } from '../../src/kernel/actor.ts';
import { pageDefs } from '../../src/surfaces/pages/index.ts';
import { startTestContext, type TestContext } from '../helpers/context.ts';
import { seedPublicData } from '../helpers/seed.ts';
import { messageOf, rpc } from '../surfaces/mcp/helpers.ts';

let t: TestContext;
let auth: Record<string, string>;
before(async () => {
  t = await startTestContext();
  await seedPublicData(t.ctx.db);
  const account = await t.ctx.services.accounts.create({ email: 'fuzz@example.org' });
  await t.ctx.services.accounts.setLimits(operator, { accountId: account.id, limits: { requestsPerDay: 1_000_000, requestsPerMinute: 1_000_000 } });
  const { key } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'fuzz', scopes: ['public.read'] });
  auth = { authorization: `Bearer ${key}` };
});
after(async () => {
  await t.close();
});

/** A small seeded generator (mulberry32), so a failure names a string that can be sent again. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

// Pieces a search is made of: every operator of websearch_to_tsquery, to_tsquery and
// plainto_tsquery syntax, quotes and escapes, words and record numbers, and characters PostgreSQL
// or the wire may refuse (NUL, other controls, a lone surrogate, an unpaired UTF-16 low half).
const pieces = [
  '-',
  '--',
  ' - ',
  '"',
  "'",
  '\\',
  '!',
  '&',
  '|',
  '(',
  ')',
  '<->',
  '<2>',
  ':*',
  ':A',
  ':ab*',
  'or',
  'OR',
  'and',
  'not',
  ' ',
  '\t',
  'zoning',
  'budget',
  'the',
  'O2023-0001234',
  'so2026',
  'é',
  'ß',
  'İ',
  '中文',
  '🙂',
  '\u200b',
  '\u0301',
  '\u0000',
  '\u0007',
  '\u001f',
  '\ud800',
  '\udc00',
  '\ufffd',
  '%',
  '%00',
  '_',
  '*',
  '$1',
  ';',
  '--',
  '/*',
  '*/',
  '\n',
];

function fuzzStrings(): string[] {
  const next = random(17);
  const made: string[] = [
    '-'.repeat(33),
    '-'.repeat(200),
    '- '.repeat(40),
    '-a '.repeat(60),
    '"'.repeat(33),
    '!'.repeat(64),
    '('.repeat(64),
    '"- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - -"',
    'a or or or or or or or or or or or or or or or or or or or or or or or or or or or or or or or or or b',
    '\u0000',
    'zoning\u0000budget',
    '\ud800',
    'x'.repeat(2000),
    'word '.repeat(400),
    '🙂'.repeat(100),
  ];
  for (let i = 0; i < 30; i++) {
    const n = 1 + Math.floor(next() * 30);
    let s = '';
    for (let j = 0; j < n; j++) s += pieces[Math.floor(next() * pieces.length)];
    made.push(s);
  }
  return made;
}

/**
 * The string percent-encoded as UTF-8, a lone surrogate as the three bytes a careless client sends
 * for it (WTF-8: not UTF-8 at all), which encodeURIComponent refuses to make.
 */
function percentEncoded(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

interface Failure {
  where: string;
  q: string;
  status: number;
  body: string;
}

const failures: Failure[] = [];
const show = (q: string) => JSON.stringify(q.length > 60 ? `${q.slice(0, 60)}…(${q.length})` : q);

function check(where: string, q: string, status: number, body: string): void {
  // A 5xx, or an `internal` error carried inside a 200 (GraphQL field errors, MCP tool errors).
  if (status >= 500 || /"code"\s*:\s*"internal"|\binternal error\b/i.test(body)) failures.push({ where, q, status, body: body.slice(0, 200) });
}

function report(): string {
  return failures
    .slice(0, 20)
    .map((f) => `${f.where} q=${show(f.q)} → ${f.status} ${f.body}`)
    .join('\n');
}

/** Routes of an OpenAPI document that take `q` in the query string and nothing in the path. */
async function apiRoutes(doc: string, prefix: string): Promise<string[]> {
  const spec = (await t.app.inject({ url: doc })).json() as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
  const routes: string[] = [];
  for (const [path, ops] of Object.entries(spec.paths)) {
    const params = ops.get?.parameters ?? [];
    if (params.some((p) => p.in === 'query' && p.name === 'q') && !path.includes('{')) routes.push(`${prefix}${path}`);
  }
  return routes;
}

test('every v1 and v2 route with q, every page with q and the search feed: no search string answers 5xx', async () => {
  const routes = [...(await apiRoutes('/api/openapi.json', '/api/v1')), ...(await apiRoutes('/api/v2/openapi.json', '/api/v2'))];
  const pages = pageDefs.filter((d) => d.query?.properties.q !== undefined && !d.path.includes(':')).map((d) => d.path);
  assert.ok(routes.length >= 10, `routes with q: ${routes.join(' ')}`);
  assert.ok(pages.includes('/search'), `pages with q: ${pages.join(' ')}`);
  const open = [...pages, ...pages.map((p) => `${p === '/' ? '/index' : p}.md`), '/feeds/search.atom'];
  for (const q of fuzzStrings()) {
    const query = `q=${percentEncoded(q)}`;
    for (const url of routes) {
      const res = await t.app.inject({ url: `${url}?${query}`, headers: auth });
      check(url, q, res.statusCode, res.body);
    }
    for (const url of open) {
      const res = await t.app.inject({ url: `${url}?${query}` });
      check(url, q, res.statusCode, res.body);
    }
  }
  assert.deepEqual(failures, [], report());
});

test('every GraphQL field and MCP tool with a q argument: no search string ends in an internal error', async () => {
  const schema = await t.app.inject({
    method: 'POST',
    url: '/api/graphql',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: { query: '{ __schema { queryType { fields { name args { name type { kind ofType { kind } } } } } } }' },
  });
  const fields = (
    schema.json().data.__schema.queryType.fields as { name: string; args: { name: string; type: { kind: string; ofType: { kind: string } | null } }[] }[]
  )
    .filter((f) => f.args.some((a) => a.name === 'q'))
    // Other required arguments would need values of their own; fields whose only required argument is q.
    .filter((f) => f.args.every((a) => a.name === 'q' || a.type.kind !== 'NON_NULL'))
    .map((f) => f.name);
  assert.ok(fields.includes('search'), `GraphQL fields with q: ${fields.join(' ')}`);
  const listed = messageOf(await rpc(t.app, 'tools/list', {}, auth)).result.tools as {
    name: string;
    inputSchema: { properties?: Record<string, unknown>; required?: string[] };
  }[];
  // A list's `limit` is required by its tool schema; it is given, every other argument left out.
  const tools = listed
    .filter((tool) => tool.inputSchema.properties?.q !== undefined && (tool.inputSchema.required ?? []).every((r) => r === 'q' || r === 'limit'))
    .map((tool) => tool.name);
  assert.ok(tools.length >= 5, `MCP tools with q: ${tools.join(' ')}`);
  for (const q of fuzzStrings()) {
    for (const field of fields) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/graphql',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: { query: `query($q: String!) { ${field}(q: $q) { __typename } }`, variables: { q } },
      });
      check(`graphql ${field}`, q, res.statusCode, res.body);
    }
    for (const tool of tools) {
      const res = await rpc(t.app, 'tools/call', { name: tool, arguments: { q, limit: 5 } }, auth);
      check(`mcp ${tool}`, q, res.statusCode, res.body);
    }
  }
  assert.deepEqual(failures, [], report());
});
