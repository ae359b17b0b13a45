// MCP resources, completion and prompts with the official SDK client (v2) over real HTTP, in both
// protocol eras: the record templates and their reads (the operation's JSON, equal to the v1 API's
// answer, and the website's Markdown page), completion of template and prompt arguments through
// the search operation, the prompts' messages with the records embedded, and the same gates as a
// tool call (a credential without public.read reads nothing; a read counts as one request).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { Scope } from '../../../src/kernel/access.ts';
import { operator } from '../../../src/kernel/actor.ts';
import { freshDatabase } from '../../helpers/context.ts';
import { type Seeded, seedPublicData } from '../../helpers/seed.ts';
import { startService, type TestService } from '../../helpers/service.ts';
import { connect, type Era, MCP_HEADERS } from './helpers.ts';

let database: Awaited<ReturnType<typeof freshDatabase>>;
let service: TestService;
let seeded: Seeded;
let reader: string;
const clients: Client[] = [];

let n = 0;
async function key(scopes: Scope[]): Promise<string> {
  const account = await service.ctx.services.accounts.create({ email: `mcp-res-${process.pid}-${++n}@example.org` });
  await service.ctx.services.accounts.setLimits(operator, { accountId: account.id, limits: { requestsPerDay: 100_000, requestsPerMinute: 100_000 } });
  return (await service.ctx.services.credentials.keys.create({ accountId: account.id, name: 'mcp', scopes })).key;
}

before(async () => {
  database = await freshDatabase();
  service = await startService(database.env);
  seeded = await seedPublicData(service.ctx.db);
  reader = await key(['public.read']);
});
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await service.close();
  await database.drop();
});

async function client(k: string, era: Era): Promise<Client> {
  const c = await connect(service.url, k, era);
  clients.push(c);
  return c;
}
const v1 = async (path: string): Promise<any> => (await fetch(`${service.url}/api/v1${path}`, { headers: { authorization: `Bearer ${reader}` } })).json();
const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err: { code?: number }) => err.code,
  );

for (const era of ['legacy', 'auto'] as const) {
  describe(`in the ${era} era`, () => {
    test('the server declares resources, prompts and completions; the templates are the record kinds; the bodies are listed', async () => {
      const c = await client(reader, era);
      const caps = c.getServerCapabilities()!;
      assert.ok(caps.resources && caps.prompts && caps.completions && caps.tools);
      const templates = (await c.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
      assert.deepEqual(templates, ['council://matters/{record}', 'council://people/{id}', 'council://meetings/{id}', 'council://bodies/{id}']);
      const listed = (await c.listResources()).resources;
      const bodies = await v1('/bodies?limit=200');
      assert.deepEqual(
        listed.map((r) => r.uri),
        bodies.data.map((b: { id: string }) => `council://bodies/${encodeURIComponent(b.id)}`),
      );
      assert.ok(listed.every((r) => r.name));
    });

    test('resources/read gives the record as the v1 API does, and its Markdown page', async () => {
      const c = await client(reader, era);
      const record = seeded.rollCalls[0]!.recordNumber;
      const read = await c.readResource({ uri: `council://matters/${record.toLowerCase()}` });
      const [json, markdown] = read.contents as { uri: string; mimeType: string; text: string }[];
      assert.equal(json!.mimeType, 'application/json');
      assert.deepEqual(JSON.parse(json!.text), await v1(`/matters/${record}`));
      assert.equal(markdown!.mimeType, 'text/markdown');
      assert.equal(markdown!.uri, `http://council.test/matters/${encodeURIComponent(record.toLowerCase())}.md`);
      const page = await (await fetch(`${service.url}/matters/${record}.md`)).text();
      assert.ok(markdown!.text.includes(record) && page.includes(record));
      for (const [uri, path] of [
        [`council://people/${seeded.alders[0]!.id}`, `/people/${seeded.alders[0]!.id}`],
        [`council://meetings/${seeded.meetings[0]!.id}`, `/meetings/${seeded.meetings[0]!.id}`],
        [`council://bodies/${seeded.meetings[0]!.bodyId}`, `/bodies/${seeded.meetings[0]!.bodyId}`],
      ] as const) {
        const contents = (await c.readResource({ uri })).contents as { text: string }[];
        assert.deepEqual(JSON.parse(contents[0]!.text), await v1(path), uri);
        assert.ok(contents[1]!.text.startsWith('# '), `${uri}: a Markdown page`);
      }
      // server/resources §Error Handling: a resource that does not exist is -32002.
      assert.equal(await codeOf(c.readResource({ uri: 'council://matters/O2099-0000001' })), -32002);
      assert.equal(await codeOf(c.readResource({ uri: 'file:///etc/passwd' })), -32002);
    });

    test('completion offers record numbers and ids found by the search operation', async () => {
      const c = await client(reader, era);
      const record = seeded.rollCalls[0]!.recordNumber;
      const title: string = (await v1(`/matters/${record}`)).title;
      const word = title.split(/\W+/).find((w) => w.length > 6)!;
      const matters = await c.complete({ ref: { type: 'ref/resource', uri: 'council://matters/{record}' }, argument: { name: 'record', value: word } });
      const searched = await v1(`/search?q=${encodeURIComponent(word)}&type=matter&limit=20`);
      assert.deepEqual(matters.completion.values, [...new Set(searched.data.map((h: { path: string }) => decodeURIComponent(h.path.split('/').at(-1)!)))]);
      assert.ok(matters.completion.values.length > 0);
      const alder = seeded.alders[0]!;
      const family = alder.name.split(' ').at(-1)!;
      const people = await c.complete({ ref: { type: 'ref/prompt', name: 'how_did_my_alderperson_vote' }, argument: { name: 'alderperson', value: family } });
      assert.ok(people.completion.values.includes(alder.id), `${family} completes to ${alder.id}`);
      const ward = await c.complete({ ref: { type: 'ref/prompt', name: 'how_did_my_alderperson_vote' }, argument: { name: 'ward', value: '4' } });
      assert.deepEqual(ward.completion.values, []);
      assert.equal(await codeOf(c.complete({ ref: { type: 'ref/prompt', name: 'no_such_prompt' }, argument: { name: 'x', value: 'y' } })), -32602);
    });

    test('prompts: brief me on a bill, how did my alderperson vote, the next agenda — with the records embedded', async () => {
      const c = await client(reader, era);
      const listed = (await c.listPrompts()).prompts;
      assert.deepEqual(
        listed.map((p) => p.name),
        ['brief_me_on_a_bill', 'how_did_my_alderperson_vote', 'next_council_agenda'],
      );
      assert.ok(listed.every((p) => p.description));
      const record = seeded.rollCalls[0]!.recordNumber;
      const brief = await c.getPrompt({ name: 'brief_me_on_a_bill', arguments: { record } });
      const embedded = brief.messages.find((m) => m.content.type === 'resource')!.content as { resource: { uri: string; text: string } };
      assert.equal(embedded.resource.uri, `council://matters/${record}`);
      assert.deepEqual(JSON.parse(embedded.resource.text), await v1(`/matters/${record}`));
      const alder = seeded.alders[0]!;
      const votes = await c.getPrompt({ name: 'how_did_my_alderperson_vote', arguments: { ward: String(alder.ward) } });
      assert.ok((votes.messages[0]!.content as { text: string }).text.includes(alder.name));
      const agenda = await c.getPrompt({ name: 'next_council_agenda', arguments: {} });
      assert.ok((agenda.messages[0]!.content as { text: string }).text.includes('City Council'));
      assert.equal(await codeOf(c.getPrompt({ name: 'how_did_my_alderperson_vote', arguments: { ward: '51' } })), -32602);
      assert.equal(await codeOf(c.getPrompt({ name: 'no_such_prompt', arguments: {} })), -32602);
    });
  });
}

test('the same gates as a tool call: without public.read nothing is listed or read; each read counts once', async () => {
  const follows = await key(['me.follows.read']);
  const c = await client(follows, 'legacy');
  assert.deepEqual((await c.listResourceTemplates()).resourceTemplates, []);
  assert.deepEqual((await c.listPrompts()).prompts, []);
  await assert.rejects(c.readResource({ uri: `council://matters/${seeded.rollCalls[0]!.recordNumber}` }), /403|scope/i);
  const post = (method: string, params: unknown) =>
    fetch(`${service.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18', authorization: `Bearer ${reader}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
  const first = await post('resources/read', { uri: `council://matters/${seeded.rollCalls[0]!.recordNumber}` });
  const second = await post('resources/read', { uri: 'council://matters/O2099-0000001' });
  const third = await post('completion/complete', {
    ref: { type: 'ref/resource', uri: 'council://matters/{record}' },
    argument: { name: 'record', value: 'x' },
  });
  const left = (r: Response) => Number(r.headers.get('ratelimit-remaining'));
  assert.equal(left(first) - left(second), 1);
  assert.equal(left(second) - left(third), 1);
});

test('bad params to resources, prompts and completion are JSON-RPC -32602 (or -32002), never a 5xx', async () => {
  const cases: [string, unknown, number][] = [
    ['resources/read', { uri: 123 }, -32602],
    ['resources/read', {}, -32602],
    ['resources/read', { uri: 'council://matters/%E0%A4%A' }, -32002],
    ['resources/read', { uri: 'council://matters/a/b' }, -32002],
    ['resources/read', { uri: `council://people/${'x'.repeat(5000)}` }, -32602],
    ['prompts/get', { name: 'brief_me_on_a_bill', arguments: { record: 7 } }, -32602],
    ['prompts/get', { name: 'brief_me_on_a_bill', arguments: {} }, -32602],
    ['prompts/get', { name: 'brief_me_on_a_bill', arguments: { record: 'O2099-0000001' } }, -32602],
    ['prompts/get', { name: 'next_council_agenda', arguments: { body: 'nope' } }, -32602],
    ['prompts/get', { name: ['x'] }, -32602],
    ['completion/complete', { ref: 'x', argument: { name: 'record', value: 'a' } }, -32602],
    ['completion/complete', { ref: { type: 'ref/resource', uri: 'council://matters/{record}' }, argument: { name: 'id', value: 'a' } }, -32602],
    ['completion/complete', { ref: { type: 'ref/resource', uri: 'council://matters/{record}' }, argument: { name: 'record', value: 5 } }, -32602],
  ];
  for (const [method, params, code] of cases) {
    const res = await fetch(`${service.url}/mcp`, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-06-18', authorization: `Bearer ${reader}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body: any = await res.json();
    assert.ok(res.status < 500, `${method} ${JSON.stringify(params).slice(0, 60)}: ${res.status}`);
    assert.equal(body.error?.code, code, `${method} ${JSON.stringify(params).slice(0, 60)}: ${JSON.stringify(body).slice(0, 200)}`);
  }
});
