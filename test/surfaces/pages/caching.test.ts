// How public pages are cached: ETag and Last-Modified with conditional GETs, HTML and Markdown kept
// apart, a change to what a page shows (a new follower through v2) reaching the kept page, and a
// signed-in visitor getting the very same public page. Also: testimony names public speakers only.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { seedPublicData, type Seeded } from '../../helpers/seed.ts';
import { until } from '../../helpers/service.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { signInViaOutbox } from '../web/browser.ts';

let t: TestContext;
let seeded: Seeded;
before(async () => {
  t = await startTestContext();
  seeded = await seedPublicData(t.ctx.db);
});
after(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

test('a page answers 304 to a matching If-None-Match or If-Modified-Since, from memory or not', async () => {
  const path = `/matters/${seeded.rollCalls[0]!.recordNumber}`;
  for (const url of [path, `${path}.md`]) {
    const first = await get(url);
    assert.equal(first.statusCode, 200);
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers['last-modified']);
    assert.ok(lastModified && !Number.isNaN(Date.parse(lastModified)));
    const again = await get(url);
    assert.equal(again.body, first.body);
    assert.equal(again.headers.etag, etag, 'the kept answer carries its ETag');
    assert.equal(again.headers['cache-control'], 'public, max-age=60');
    const conditional = await get(url, { 'if-none-match': etag });
    assert.equal(conditional.statusCode, 304);
    assert.equal(conditional.body, '');
    assert.equal((await get(url, { 'if-none-match': '"other"' })).statusCode, 200);
    assert.equal((await get(url, { 'if-modified-since': lastModified })).statusCode, 304);
  }
  // The home page is made on every request (live source freshness) and still answers 304.
  const home = await get('/');
  assert.equal((await get('/', { 'if-none-match': String(home.headers.etag) })).statusCode, 304);
});

test('HTML and Markdown of the same path are kept apart', async () => {
  const path = `/matters/${seeded.rollCalls[1]!.recordNumber}`;
  for (let i = 0; i < 2; i++) {
    const html = await get(path);
    const md = await get(`${path}.md`);
    assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(html.body, /^<!doctype html>/);
    assert.equal(md.headers['content-type'], 'text/markdown; charset=utf-8');
    assert.match(md.body, /^# /);
    assert.equal(html.headers['content-security-policy']?.toString().includes("default-src 'none'"), true);
  }
});

test('a new follower through v2 reaches the kept matter page (count only, never who)', async () => {
  const record = seeded.rollCalls[2]!.recordNumber;
  const path = `/matters/${record}`;
  const before = await get(path);
  assert.match(before.body, /0 people and teams follow this record/);
  const account = await t.ctx.services.accounts.create({ email: 'follower@example.org' });
  const { key } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'f', scopes: ['me.follows.write'] });
  const made = await t.app.inject({
    method: 'POST',
    url: '/api/v2/me/follows',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: { type: 'legislation', refId: record.toLowerCase() },
  });
  assert.equal(made.statusCode, 201, made.body);
  const after = await until('the page shows the follower', async () => {
    const r = await get(path);
    return /1 person or team follows this record/.test(r.body) ? r : undefined;
  });
  assert.notEqual(after.headers.etag, before.headers.etag);
  assert.ok(!after.body.includes('follower@example.org'));
  assert.match((await get(`${path}.md`)).body, /1 person or team follows this record/);
});

test('a signed-in visitor gets the same public page: no personal content, still public', async () => {
  const browser = await signInViaOutbox(t.app, () => t.ctx.services.mailer.outbox(), 'reader@example.org');
  const path = `/people/${seeded.alders[0]!.id}`;
  const anonymous = await get(path);
  const signedIn = await browser.get(path);
  assert.equal(signedIn.status, 200);
  assert.equal(signedIn.body, anonymous.body);
  assert.equal(signedIn.headers.etag, anonymous.headers.etag);
  assert.equal(signedIn.headers['cache-control'], 'public, max-age=60');
  assert.ok(!signedIn.body.includes('reader@example.org'));
  assert.deepEqual(signedIn.setCookies, []);
});

test('meeting testimony names officials, staff and lobbyists; residents are counted, never named', async () => {
  const meeting = seeded.meetings[0]!;
  const row = (id: string, name: string, kind: string, position: string) => ({
    id,
    meeting_id: meeting.id,
    speaker_name: name,
    speaker_kind: kind,
    position,
    summary: `${name} spoke`,
    source: 'test',
    source_id: id,
  });
  await t.ctx.db
    .insertInto('testimony')
    .values([
      row('t1', 'Commissioner Ada Official', 'official', 'supports'),
      row('t2', 'Rosa Resident', 'resident', 'opposes'),
      row('t3', 'Omar Neighbour', 'organization_rep', 'neutral'),
    ] as never)
    .execute();
  const page = await until('the page shows the testimony', async () => {
    const r = await get(`/meetings/${meeting.id}`);
    return r.body.includes('Ada Official') ? r : undefined;
  });
  const md = (await get(`/meetings/${meeting.id}.md`)).body;
  for (const body of [page.body, md]) {
    assert.ok(body.includes('Commissioner Ada Official'));
    assert.match(body, /2 residents and community representatives also testified; they are counted here, never named/);
    assert.ok(!body.includes('Rosa') && !body.includes('Omar'), 'no resident is named');
    assert.match(body, /3 \(1 supporting, 1 opposing, 1 neutral\)/);
  }
});
