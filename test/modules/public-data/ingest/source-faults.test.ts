// An upstream source that misbehaves — hangs, answers 500, truncates its JSON, changes a field's
// type — makes a sync fail and say why at /api/v1/sources, keeps the last good data as it was,
// and never stops the API answering. eLMS answers recorded in test/fixtures, served by the replay
// server behind a small proxy that injects each fault.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { startTestContext, type TestContext } from '../../../helpers/context.ts';
import { readerKey } from '../../../helpers/service.ts';
import { FIXTURES, type Replay, startReplay } from './replay-server.ts';

type Fault = 'hang' | '500' | 'truncate' | 'type' | null;
let fault: Fault = null;
let replay: Replay;
let proxy: Server;
let t: TestContext;
let key: string;

before(async () => {
  replay = await startReplay(`${FIXTURES}elms`);
  const recorded = (name: string) => JSON.parse(readFileSync(`${FIXTURES}elms/${name}.json`, 'utf8'));
  replay.override('/person', { data: recorded('person').data.slice(0, 3), meta: {} });
  replay.override('/meeting', { data: recorded('meeting').data.slice(0, 1), meta: {} });
  // The fault applies to the matters (the list and each one's detail); everything else is the recording.
  proxy = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy.local');
    const upstream = await fetch(`${replay.url}${url.pathname}${url.search}`);
    const text = await upstream.text();
    if (!url.pathname.startsWith('/matter') || fault === null) return void res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
    if (fault === 'hang') return; // never answers; the client's timeout ends it
    if (fault === '500') return void res.writeHead(500).end('upstream broke');
    if (fault === 'truncate') return void res.writeHead(200, { 'content-type': 'application/json' }).end(text.slice(0, Math.floor(text.length / 2)));
    const body = JSON.parse(text);
    const retype = (m: Record<string, unknown>) => ({ ...m, recordNumber: 12345, title: { text: m.title } });
    if (Array.isArray(body.data)) body.data = body.data.map(retype);
    else Object.assign(body, retype(body));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  t = await startTestContext({ env: { INGEST_BASE_URL_ELMS: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` } });
  key = await readerKey(t.ctx);
});
after(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await replay?.close();
  await t?.close();
});

const quick = { http: { timeoutMs: 1500, retries: 1, baseDelayMs: 50, maxDelayMs: 100, minIntervalMs: 0 } };

async function publicState(): Promise<string> {
  const rows = await sql<{
    sum: string;
  }>`select md5(coalesce(string_agg((to_jsonb(m) - 'last_synced_at' - 'updated_at')::text, '|' order by m.id), '')) as sum from matters m`.execute(t.ctx.db);
  return rows.rows[0]!.sum;
}

async function elmsSource(): Promise<{ lastError: string | null; lastSuccessAt: string | null }> {
  const res = await t.app.inject({ url: '/api/v1/sources', headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data.find((s: { source: string }) => s.source === 'elms');
}

test('a good sync first: the matters of the recording are in', async () => {
  fault = null;
  const report = await t.ctx.services.ingest.run('elms', quick);
  assert.ok(report.seen > 0);
  assert.equal((await elmsSource()).lastError, null);
});

for (const kind of ['hang', '500', 'truncate', 'type'] as const) {
  test(`a source that ${{ hang: 'hangs', '500': 'answers 500', truncate: 'truncates its JSON', type: "changes a field's type" }[kind]}: the sync fails and says so, the last good data stays, the API answers`, async () => {
    fault = null;
    const good = await publicState();
    const lastGood = (await elmsSource()).lastSuccessAt;
    fault = kind;
    await assert.rejects(t.ctx.services.ingest.run('elms', quick));
    fault = null;
    const source = await elmsSource();
    assert.ok(source.lastError && source.lastError.length > 0, 'the failure is reported');
    assert.equal(source.lastSuccessAt, lastGood, 'the last success is still the good sync');
    assert.equal(await publicState(), good, 'the matters are as the good sync left them');
    const list = await t.app.inject({ url: '/api/v1/matters?limit=5', headers: { authorization: `Bearer ${key}` } });
    assert.equal(list.statusCode, 200);
    assert.ok(list.json().data.length > 0);
    // And the next good sync clears the error.
    await t.ctx.services.ingest.run('elms', quick);
    assert.equal((await elmsSource()).lastError, null);
  });
}
