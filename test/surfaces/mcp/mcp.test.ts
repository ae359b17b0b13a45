// The MCP server at /mcp with the official SDK client (v2) over real HTTP, in both protocol eras:
// tools generated from the catalogue and filtered by what the credential may do, calls with
// structured results equal to the v2 API's answers, tool errors for bad input, refused access and
// another team's ids, the 401 challenge, DNS-rebinding checks, and one count per HTTP request.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { features } from '../../../src/kernel/actor.ts';
import type { Scope } from '../../../src/kernel/access.ts';
import { operator } from '../../../src/kernel/actor.ts';
import { freshDatabase } from '../../helpers/context.ts';
import { mintOAuthTokens } from '../../helpers/oauth.ts';
import { type Seeded, seedPublicData } from '../../helpers/seed.ts';
import { awayFromWindowEnd, startService, type TestService, until } from '../../helpers/service.ts';
import { connect, type Era, MCP_HEADERS, textOf } from './helpers.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;
let service: TestService;
let seeded: Seeded;
const clients: Client[] = [];

before(async () => {
  database = await freshDatabase();
  service = await startService(database.env);
  seeded = await seedPublicData(service.ctx.db);
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await service.close();
  await database.drop();
});

const accounts = () => service.ctx.services.accounts;
const credentials = () => service.ctx.services.credentials;

let n = 0;
/** A personal key (raised limits, so the counting tests read exact numbers). */
async function personalKey(scopes: Scope[]): Promise<string> {
  const account = await accounts().create({ email: `mcp-${process.pid}-${++n}@example.org` });
  await accounts().setLimits(operator, { accountId: account.id, limits: { requestsPerDay: 100_000, requestsPerMinute: 100_000, aiAnswersPerDay: 100 } });
  return (await credentials().keys.create({ accountId: account.id, name: 'mcp', scopes })).key;
}
/** A key of a new team with every feature, held by its owner. */
async function teamKey(scopes: Scope[]): Promise<string> {
  const account = await accounts().create({ email: `mcp-team-${process.pid}-${++n}@example.org` });
  const team = await accounts().teams.create(operator, { name: `MCP team ${n}`, ownerAccountId: account.id, features: [...features] });
  return (await credentials().keys.create({ accountId: account.id, teamId: team.id, name: 'mcp team', scopes })).key;
}
async function client(key: string, era: Era = 'legacy'): Promise<Client> {
  const c = await connect(service.url, key, era);
  clients.push(c);
  return c;
}
const names = async (c: Client) => (await c.listTools()).tools.map((tool) => tool.name);
const v2 = async (path: string, key: string): Promise<any> =>
  (await fetch(`${service.url}/api/v2${path}`, { headers: { authorization: `Bearer ${key}` } })).json();
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${service.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(body) });

describe('tools/list', () => {
  test('a public.read key sees every public tool with its schemas, and no answer_question or team tool', async () => {
    const c = await client(await personalKey(['public.read']));
    const { tools } = await c.listTools();
    const listed = tools.map((tool) => tool.name);
    for (const name of [
      'matters_list',
      'matters_read',
      'roll_calls_read',
      'votes_list',
      'meetings_read',
      'people_public_read',
      'bodies_list',
      'search_read',
      'money_totals_read',
      'lobbying_activity_list',
      'me_read',
    ]) {
      assert.ok(listed.includes(name), `${name} is listed`);
    }
    assert.ok(!listed.includes('answer_question'));
    assert.ok(!listed.some((name) => name.startsWith('team_') || name.startsWith('me_follows')), listed.join(' '));
    const read = tools.find((tool) => tool.name === 'matters_read')!;
    const op = service.ctx.performer.get('matters.read');
    assert.deepEqual(read.inputSchema, JSON.parse(JSON.stringify(op.input)));
    assert.deepEqual(read.outputSchema, JSON.parse(JSON.stringify(op.output)));
    assert.ok(read.description?.startsWith(op.summary));
    assert.equal(read.title, 'Matters: read');
    assert.deepEqual(read.annotations, { title: 'Matters: read', readOnlyHint: true, idempotentHint: true, openWorldHint: false });
  });

  test('public.ai adds answer_question', async () => {
    const { tools } = await (await client(await personalKey(['public.read', 'public.ai']))).listTools();
    const answer = tools.find((tool) => tool.name === 'answer_question');
    assert.equal(answer?.title, 'Answer a question about the council, citing the record');
    assert.deepEqual(answer?.inputSchema, JSON.parse(JSON.stringify(service.ctx.performer.get('answers.create').input)));
  });

  test('a team key lists the team tools its scopes, features and role allow; a personal key its own follows', async () => {
    const team = await names(await client(await teamKey(['public.read', 'team.notes.read', 'team.notes.write', 'people.read'])));
    for (const name of ['team_notes_list', 'team_notes_create', 'team_notes_update', 'team_notes_delete', 'people_team_list', 'testimony_list'])
      assert.ok(team.includes(name), name);
    for (const name of ['team_follows_list', 'team_positions_list', 'me_follows_list', 'answer_question']) assert.ok(!team.includes(name), name);
    const personal = await names(await client(await personalKey(['public.read', 'me.follows.read'])));
    assert.ok(personal.includes('me_follows_list'));
    assert.ok(!personal.includes('me_follows_create'));
    assert.ok(!personal.some((name) => name.startsWith('team_')));
  });
});

describe('tools/call', () => {
  for (const era of ['legacy', 'auto'] as const) {
    test(`${era} era: matters_read answers the v2 API's matter, as structured content and as text`, async () => {
      const key = await personalKey(['public.read']);
      const record = seeded.rollCalls[0]!.recordNumber;
      const result = await (await client(key, era)).callTool({ name: 'matters_read', arguments: { record } });
      assert.equal(result.isError, undefined);
      const rest = await v2(`/matters/${encodeURIComponent(record)}`, key);
      assert.equal((rest as any).recordNumber, record);
      assert.deepEqual(result.structuredContent, rest);
      assert.deepEqual(JSON.parse(textOf(result)), rest);
    });
  }

  test('a kept result of a public read is dropped when the record changes', async () => {
    const c = await client(await personalKey(['public.read']));
    const matter = seeded.matters[0]!;
    const title = async () =>
      ((await c.callTool({ name: 'matters_read', arguments: { record: matter.recordNumber } })).structuredContent as any).title as string;
    const before = await title();
    assert.equal(await title(), before);
    await service.ctx.db
      .updateTable('matters')
      .set({ title: `${before} (amended)` })
      .where('id', '=', matter.id)
      .execute();
    await until('the tool answers the changed title', async () => ((await title()) === `${before} (amended)` ? true : undefined), 30);
  });

  test('a list tool pages with limit and cursor as the API does', async () => {
    const key = await personalKey(['public.read']);
    const c = await client(key);
    const first: any = (await c.callTool({ name: 'matters_list', arguments: { limit: 2 } })).structuredContent as any;
    assert.equal(first.data.length, 2);
    assert.deepEqual(first, await v2('/matters?limit=2', key));
    const second: any = (await c.callTool({ name: 'matters_list', arguments: { limit: 2, cursor: first.meta.nextCursor } })).structuredContent as any;
    assert.notEqual(second.data[0].id, first.data[0].id);
  });

  test('answer_question answers from the record, citing it, and uses one AI answer', async () => {
    const key = await personalKey(['public.read', 'public.ai']);
    const c = await client(key, 'auto');
    const before = (await c.callTool({ name: 'me_read', arguments: {} })).structuredContent as any;
    const result = await c.callTool({ name: 'answer_question', arguments: { question: 'How did Ald. Hopkins vote on SO2026-0025407?' } });
    assert.equal(result.isError, undefined, textOf(result));
    const answer = result.structuredContent as any;
    assert.match(answer.answer, /voted Yea on SO2026-0025407/);
    assert.equal(answer.model, 'extractive');
    assert.ok(answer.citations.some((citation: any) => citation.title.includes('SO2026-0025407') || citation.id));
    const afterwards = (await c.callTool({ name: 'me_read', arguments: {} })).structuredContent as any;
    assert.equal(afterwards.usage.aiAnswersToday, before.usage.aiAnswersToday + 1);
  });

  test('bad input is a tool error with the catalogue code, and a refused question uses no AI answer', async () => {
    const key = await personalKey(['public.read', 'public.ai']);
    const c = await client(key);
    const wrongType = await c.callTool({ name: 'matters_read', arguments: { record: 5 } });
    assert.equal(wrongType.isError, true);
    assert.match(textOf(wrongType), /^invalid_request: .*record/);
    const unknown = await c.callTool({ name: 'matters_list', arguments: { limit: 2, colour: 'red' } });
    assert.equal(unknown.isError, true);
    assert.match(textOf(unknown), /^invalid_request: /);
    const missing = await c.callTool({ name: 'matters_read', arguments: { record: 'O1900-0000000' } });
    assert.equal(missing.isError, true);
    assert.match(textOf(missing), /^not_found: /);
    const long = await c.callTool({ name: 'answer_question', arguments: { question: 'x'.repeat(2001) } });
    assert.equal(long.isError, true);
    assert.match(textOf(long), /^invalid_request: .*question/);
    assert.equal(((await c.callTool({ name: 'me_read', arguments: {} })).structuredContent as any).usage.aiAnswersToday, 0);
  });

  test('a tool the key may not use is 403 insufficient_scope naming the scope; a tool of another context is a tool error', async () => {
    const key = await personalKey(['public.read']);
    const question = { name: 'answer_question', arguments: { question: 'Who represents the 2nd ward?' } };
    const res = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: question },
      { authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-06-18' },
    );
    assert.equal(res.status, 403);
    assert.match(String(res.headers.get('www-authenticate')), /scope="public\.ai", error="insufficient_scope"/);
    assert.equal(((await res.json()) as any).error.data.code, 'scope_missing');
    const c = await client(key);
    const teamOnly = await c.callTool({ name: 'team_notes_list', arguments: {} });
    assert.match(textOf(teamOnly), /^team_only: /);
  });

  test('an unknown tool is a protocol error (-32602)', async () => {
    const c = await client(await personalKey(['public.read']));
    await assert.rejects(c.callTool({ name: 'no_such_tool', arguments: {} }), /Unknown tool: no_such_tool/);
  });

  test("a team's writes through its tools; another team's id is not_found and changes nothing", async () => {
    const scopes: Scope[] = ['team.notes.read', 'team.notes.write'];
    const mine = await client(await teamKey(scopes));
    const created = await mine.callTool({ name: 'team_notes_create', arguments: { body: 'Call the 2nd ward office' } });
    assert.equal(created.isError, undefined, textOf(created));
    const note = created.structuredContent as any;
    const theirs = await client(await teamKey(scopes));
    for (const [name, args] of [
      ['team_notes_update', { id: note.id, change: { body: 'Hijacked' } }],
      ['team_notes_delete', { id: note.id }],
    ] as const) {
      const refused = await theirs.callTool({ name, arguments: args });
      assert.equal(refused.isError, true, name);
      assert.match(textOf(refused), /^not_found: /, name);
    }
    const list = (await mine.callTool({ name: 'team_notes_list', arguments: {} })).structuredContent as any;
    assert.deepEqual(
      list.data.map((x: any) => x.body),
      ['Call the 2nd ward office'],
    );
  });
});

describe('the HTTP layer', () => {
  test('without a credential: 401 with the challenge for /mcp, and the SDK client cannot connect', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    assert.equal(res.status, 401);
    assert.equal(
      res.headers.get('www-authenticate'),
      'Bearer resource_metadata="http://council.test/.well-known/oauth-protected-resource/mcp", scope="public.read public.ai"',
    );
    const body = (await res.json()) as any;
    assert.equal(body.error.data.code, 'unauthorized');
    await assert.rejects(connect(service.url, null));
    const metadata = (await (await fetch(`${service.url}/.well-known/oauth-protected-resource/mcp`)).json()) as any;
    assert.equal(metadata.resource, 'http://council.test/mcp');
  });

  test('an Origin or Host of another site is refused with 403 (DNS rebinding)', async () => {
    const key = await personalKey(['public.read']);
    const auth = { authorization: `Bearer ${key}` };
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    assert.equal((await post(message, { ...auth, origin: 'http://evil.example' })).status, 403);
    // fetch never sends a Host of its own choosing; node:http does, as a rebound browser would.
    // Twice: the second answer comes from the check kept per Host value.
    for (const _ of [1, 2]) {
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = request(`${service.url}/mcp`, { method: 'POST', headers: { ...MCP_HEADERS, ...auth, host: 'evil.example:80' } }, (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on('error', reject);
        req.end(JSON.stringify(message));
      });
      assert.equal(status, 403);
    }
    assert.equal((await post(message, { ...auth, origin: 'http://council.test' })).status, 200);
  });

  test('OAuth access tokens: bound to /mcp or unbound they work with the SDK client; one bound to /api is refused', async () => {
    const account = await accounts().create({ email: `mcp-oauth-${process.pid}@example.org` });
    const token = async (resource?: string) =>
      (await mintOAuthTokens(service.ctx, { accountId: account.id, teamId: null, scopes: ['public.read', 'public.ai'], ...(resource ? { resource } : {}) }))
        .access_token;
    for (const resource of ['mcp', undefined]) {
      const c = await client(await token(resource), 'auto');
      assert.ok((await names(c)).includes('answer_question'), String(resource));
      const result = await c.callTool({ name: 'answer_question', arguments: { question: 'How did Ald. Hopkins vote on SO2026-0025407?' } });
      assert.match((result.structuredContent as any).answer, /voted Yea on SO2026-0025407/);
    }
    const elsewhere = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: `Bearer ${await token('api')}` });
    assert.equal(elsewhere.status, 401);
    assert.match(
      String(elsewhere.headers.get('www-authenticate')),
      /resource_metadata="http:\/\/council\.test\/\.well-known\/oauth-protected-resource\/mcp".*error="invalid_token"/,
    );
  });

  test("an OAuth access token without a tool's scope gets 403 insufficient_scope, so its client can ask for more", async () => {
    const account = await accounts().create({ email: `mcp-oauth-reader-${process.pid}@example.org` });
    const { access_token } = await mintOAuthTokens(service.ctx, { accountId: account.id, teamId: null, scopes: ['public.read'], resource: 'mcp' });
    const question = { name: 'answer_question', arguments: { question: 'Who represents the 2nd ward?' } };
    const res = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: question },
      { authorization: `Bearer ${access_token}`, 'mcp-protocol-version': '2025-06-18' },
    );
    assert.equal(res.status, 403);
    assert.equal(
      res.headers.get('www-authenticate'),
      'Bearer resource_metadata="http://council.test/.well-known/oauth-protected-resource/mcp", scope="public.ai", error="insufficient_scope", error_description="This operation needs the public.ai scope."',
    );
    assert.equal(((await res.json()) as any).error.data.code, 'scope_missing');
    assert.ok(res.headers.get('ratelimit-remaining'), 'the refusal is counted');
    const c = await client(access_token);
    assert.ok(!(await names(c)).includes('answer_question'));
    assert.equal((await c.callTool({ name: 'matters_list', arguments: { limit: 1 } })).isError, undefined);
  });

  test('a JSON-RPC batch is refused with 400', async () => {
    const key = await personalKey(['public.read']);
    const res = await post([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }], { authorization: `Bearer ${key}` });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as any).error.data.code, 'invalid_request');
  });

  test('past the per-minute limit: HTTP 429 with Retry-After, for a list and for a tool call alike', async () => {
    const account = await accounts().create({ email: `mcp-limited-${process.pid}@example.org` });
    await accounts().setLimits(operator, { accountId: account.id, limits: { requestsPerDay: 1000, requestsPerMinute: 2, aiAnswersPerDay: 10 } });
    const auth = {
      authorization: `Bearer ${(await credentials().keys.create({ accountId: account.id, name: 'limited', scopes: ['public.read'] })).key}`,
      'mcp-protocol-version': '2025-06-18',
    };
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const toolCall = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'matters_list', arguments: { limit: 1 } } };
    // All four requests in one minute bucket: a burst across a minute's end rightly gets more.
    await awayFromWindowEnd(60_000, 10_000);
    assert.equal((await post(list, auth)).status, 200);
    assert.equal((await post(toolCall, auth)).status, 200);
    for (const body of [list, toolCall]) {
      const refused = await post(body, auth);
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.equal(((await refused.json()) as any).error.data.code, 'rate_limited');
    }
  });

  test('GET and DELETE, the 2025 session operations, are 405 on a stateless server', async () => {
    const auth = { authorization: `Bearer ${await personalKey(['public.read'])}` };
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${service.url}/mcp`, { method, headers: { ...auth, accept: 'text/event-stream' } });
      assert.equal(res.status, 405, method);
    }
  });

  test('every HTTP request counts once: a list and a call are two requests, with the limit headers', async () => {
    const key = await personalKey(['public.read']);
    const c = await client(key);
    const usage = async () => ((await c.callTool({ name: 'me_read', arguments: {} })).structuredContent as any).usage.requestsToday as number;
    // me_read counts against the per-minute limit only (decisions.md "Envelopes and limits").
    const start = await usage();
    await c.listTools();
    await c.callTool({ name: 'matters_list', arguments: { limit: 1 } });
    await c.callTool({ name: 'matters_read', arguments: { record: 'O1900-0000000' } });
    // A busy owner's requests are counted in reserved blocks (credentials/limits/blocks.ts); the
    // count settles on the exact number once the owner is idle.
    const settles = (expected: number) => until(`usage reaches ${expected}`, async () => ((await usage()) === expected ? true : undefined), 10);
    await settles(start + 3);
    const res = await post(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'matters_list', arguments: { limit: 1 } } },
      { authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-06-18' },
    );
    assert.equal(res.status, 200);
    assert.match(String(res.headers.get('ratelimit-remaining')), /^\d+$/);
    assert.equal(res.headers.get('cache-control'), 'private, no-store');
    await settles(start + 4);
  });

  test('a busy caller: kept results answered from memory in both eras, each call counted once, with its limit headers', async () => {
    // Hundreds of calls a second make the owner busy: its calls are then counted from a reserved
    // block and a kept result is answered without waiting (server.ts answerNow).
    const key = await personalKey(['public.read']);
    const c = await client(key);
    const usage = async () => ((await c.callTool({ name: 'me_read', arguments: {} })).structuredContent as any).usage.requestsToday as number;
    const record = seeded.rollCalls[0]!.recordNumber;
    const expected = await v2(`/matters/${encodeURIComponent(record)}`, key);
    const start = await usage();
    const modern = {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'matters_read',
    };
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const calls = 300;
    const call = async (i: number) => {
      const era = i % 2 === 0 ? 'legacy' : 'modern';
      const res = await post(
        {
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'matters_read', arguments: { record }, ...(era === 'modern' ? { _meta: envelope } : {}) },
        },
        { authorization: `Bearer ${key}`, ...(era === 'modern' ? modern : { 'mcp-protocol-version': '2025-06-18' }) },
      );
      assert.equal(res.status, 200);
      assert.match(String(res.headers.get('ratelimit-remaining')), /^\d+$/);
      const body = (await res.json()) as any;
      assert.equal(body.id, i);
      assert.deepEqual(body.result.structuredContent, expected);
      assert.deepEqual(JSON.parse(body.result.content[0].text), expected);
      assert.equal(body.result.resultType, era === 'modern' ? 'complete' : undefined);
    };
    for (let i = 0; i < calls; i += 10) await Promise.all(Array.from({ length: 10 }, (_, k) => call(i + k)));
    // me_read counts against the per-minute limit only; the count settles once the owner is idle.
    await until(`usage reaches ${start + calls}`, async () => ((await usage()) === start + calls ? true : undefined), 10);
  });
});
