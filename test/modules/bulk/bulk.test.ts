// The bulk export end to end on a seeded database (PGlite, or PostgreSQL with DATABASE_URL): the
// CSV files read with csv-parse and the SQLite file opened with Debian's `sqlite3` hold exactly the
// rows the v1 API lists and shows, nothing private, from one snapshot; the manifest's sizes and
// SHA-256 are the files'; /bulk/ serves it all without a credential, with ETag, 304, ranges.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { operator } from '../../../src/kernel/actor.ts';
import { bulkTables } from '../../../src/modules/public-data/index.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { LOBBYIST_ID, type Seeded, seedPublicData } from '../../helpers/seed.ts';
import { addRecords, RESIDENT, RESIDENT_TESTIMONY, TRICKY_TITLE } from './records.ts';

const bulkDir = mkdtempSync(join(tmpdir(), 'council-bulk-'));
let t: TestContext;
let seeded: Seeded;
let key = '';
let manifest: any;
/** Every CSV file parsed: table → rows keyed by column. */
const csv = new Map<string, Record<string, string>[]>();
let sqlitePath = '';

async function api(url: string): Promise<any> {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}` } });
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
  return res.json();
}

/** Every item of a v1 list, following its cursors. */
async function all(path: string): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page: any = await api(`${path}${sep}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...page.data);
    cursor = page.meta.nextCursor;
  } while (cursor);
  return items;
}

const camel = (column: string) => column.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
/** An API value as the CSV writes it: null empty, booleans true/false, arrays as JSON. */
const asCsv = (v: unknown) => (v === null || v === undefined ? '' : Array.isArray(v) ? JSON.stringify(v) : String(v));

/**
 * The table's CSV rows equal these API items on every column the items carry (a column `x_y` is
 * the item's `xY`): the same rows, no more, no fewer, with the same values.
 */
function sameRows(table: string, items: Record<string, unknown>[], atLeast = 2): void {
  const columns = bulkTables.find((b) => b.name === table)!.columns.map((c) => c.name);
  const compared = columns.filter((c) => items.length > 0 && items.every((i) => Object.hasOwn(i, camel(c))));
  assert.ok(items.length === 0 || compared.length >= atLeast, `${table}: only ${compared.join(', ')} compared`);
  const rows = csv.get(table)!;
  const ofCsv = rows.map((r) => JSON.stringify(compared.map((c) => r[c]))).sort();
  const ofApi = items.map((i) => JSON.stringify(compared.map((c) => asCsv(i[camel(c)])))).sort();
  assert.deepEqual(ofCsv, ofApi, `${table} (${compared.join(', ')})`);
}

function sqlite(query: string): any[] {
  const out = execFileSync('sqlite3', ['-json', sqlitePath, query], { encoding: 'utf8' });
  return out.trim() ? JSON.parse(out) : [];
}

/** A matter and a vote added while the export runs: committed after its snapshot, so in neither file. */
const LATE_MATTER = { id: 'late-matter', record: 'O2099-0000001' };
/** How many tables the export had read when that matter was committed. */
let tablesReadWhenLateCommitted = -1;

before(async () => {
  t = await startTestContext({ env: { BULK_DIR: bulkDir } });
  seeded = await seedPublicData(t.ctx.db);
  await addRecords(t.ctx.db, seeded);
  const account = await t.ctx.services.accounts.create({ email: 'bulk-reader@example.org' });
  await t.ctx.services.accounts.setLimits(operator, { accountId: account.id, limits: { requestsPerMinute: 1_000_000, requestsPerDay: 1_000_000 } });
  key = (await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'reader', scopes: ['public.read'] })).key;

  // Once the first table is written (the snapshot is taken by then), a matter is added by another
  // session, and commits while the export still reads: on PostgreSQL through a connection of its
  // own; on the embedded database between two of the export's pages (its cursors are held past
  // the snapshot's short transaction). Either way the snapshot must not hold it.
  let late: Promise<unknown> | null = null;
  let progressLines = 0;
  manifest = await t.ctx.services.bulk.export({
    onProgress: () => {
      progressLines++;
      late ??= t.ctx.db
        .insertInto('matters')
        .values({
          id: LATE_MATTER.id,
          record_number: LATE_MATTER.record,
          type: 'Ordinance',
          title: 'Added during the export',
          source: 'test',
          source_id: 'late',
        })
        .execute()
        .then(() => {
          tablesReadWhenLateCommitted = progressLines;
        });
    },
  });
  await late;
  const dir = join(bulkDir, 'current');
  for (const f of manifest.files.filter((x: any) => x.format === 'csv')) {
    csv.set(f.table, parse(gunzipSync(readFileSync(join(dir, f.name))), { columns: true, bom: false }));
  }
  sqlitePath = join(bulkDir, 'council.sqlite');
  writeFileSync(sqlitePath, gunzipSync(readFileSync(join(dir, 'council.sqlite.gz'))));
});
after(async () => {
  await t.close();
  rmSync(bulkDir, { recursive: true, force: true });
});

describe('the files', () => {
  test('the manifest names every table and the SQLite file, with the sizes, SHA-256 and row counts of the files', () => {
    assert.deepEqual(
      manifest.tables.map((x: any) => x.name),
      bulkTables.map((b) => b.name),
    );
    assert.equal(manifest.files.length, bulkTables.length + 1);
    assert.equal(manifest.schemaVersion, 1);
    assert.match(manifest.databaseSchema, /^\d{4}_/);
    assert.ok(Date.parse(manifest.snapshotAt) <= Date.parse(manifest.finishedAt));
    for (const f of manifest.files) {
      const bytes = readFileSync(join(bulkDir, 'current', f.name));
      assert.equal(f.bytes, bytes.length, f.name);
      assert.equal(f.sha256, createHash('sha256').update(bytes).digest('hex'), f.name);
      if (f.format === 'csv') assert.equal(f.rows, csv.get(f.table)!.length, f.name);
    }
    const sqliteFile = manifest.files.find((f: any) => f.format === 'sqlite');
    assert.equal(
      sqliteFile.rows,
      [...csv.values()].reduce((n, rows) => n + rows.length, 0),
    );
    // The export directory holds nothing else but the manifest on disk.
    assert.equal(JSON.parse(readFileSync(join(bulkDir, 'current', 'index.json'), 'utf8')).snapshotAt, manifest.snapshotAt);
  });

  test('every CSV starts with its documented header and ends records with CRLF (RFC 4180 §2)', () => {
    for (const table of bulkTables) {
      const text = gunzipSync(readFileSync(join(bulkDir, 'current', `${table.name}.csv.gz`))).toString('utf8');
      assert.ok(text.startsWith(`${table.columns.map((c) => c.name).join(',')}\r\n`), table.name);
      assert.ok(text.endsWith('\r\n'), table.name);
    }
    const matter = csv.get('matters')!.find((r) => r.id === seeded.matters[0]!.id)!;
    assert.equal(matter.title, TRICKY_TITLE);
    assert.equal(matter.topics, '["zoning","café"]');
  });
});

describe('a failed export', () => {
  test('stopped midway, it changes nothing served and leaves nothing behind', async () => {
    const stop = new AbortController();
    await assert.rejects(t.ctx.services.bulk.export({ signal: stop.signal, onProgress: () => stop.abort() }));
    assert.equal((await t.app.inject({ method: 'GET', url: '/bulk/index.json' })).json().snapshotAt, manifest.snapshotAt);
    assert.deepEqual(readdirSync(join(bulkDir, 'exports')), [readlinkSync(join(bulkDir, 'current')).split('/').pop()]);
  });
});

describe('the CSV files hold exactly the rows of the v1 API', () => {
  test('lists: matters, people, bodies, meetings, roll calls, votes, money and lobbying, on every column', async () => {
    // The matter added while the export ran is the next test's; the rest is the snapshot.
    sameRows(
      'matters',
      (await all('/matters')).filter((m) => m.id !== LATE_MATTER.id),
    );
    sameRows('people', await all('/people'));
    sameRows('bodies', await all('/bodies'));
    sameRows('meetings', await all('/meetings'));
    sameRows(
      'roll_calls',
      (await all('/roll-calls')).map((r) => ({ ...r, ...r.tallies })),
    );
    sameRows('votes', await all('/votes'));
    sameRows('committees', await all('/money/committees'));
    sameRows('receipts', await all('/money/receipts'));
    sameRows('expenditures', await all('/money/expenditures'));
    sameRows('lobbying_clients', await all('/lobbying/clients'));
    sameRows('lobbying_employers', await all('/lobbying/employers'));
    sameRows('lobbying_compensation', await all('/lobbying/compensation'));
    sameRows('lobbying_expenditures', await all('/lobbying/expenditures'));
    sameRows('lobbying_contributions', await all('/lobbying/contributions'));
    sameRows('lobbying_activity', await all('/lobbying/activity'));
    // Lobbyists are the people of kind lobbyist.
    assert.deepEqual(
      (await all('/lobbying/lobbyists')).map((l) => l.id).sort(),
      csv
        .get('people')!
        .filter((p) => p.kind === 'lobbyist')
        .map((p) => p.id)
        .sort(),
    );
    // A few values as the API writes them.
    const receipt = csv.get('receipts')![0]!;
    assert.match(receipt.amount!, /^\d+\.\d{2}$/);
    assert.equal(csv.get('expenditures')![0]!.amount, '125.50');
    assert.equal(csv.get('votes')!.length, 500);
  });

  test('details: sponsors, actions, attachments, relations, agenda, attendance, documents, testimony, members, terms, engagements', async () => {
    const matters = await Promise.all(csv.get('matters')!.map((m) => api(`/matters/${encodeURIComponent(m.record_number!)}`)));
    const withMatter = (part: string) => matters.flatMap((m) => m[part].map((x: any) => ({ ...x, matterId: m.id })));
    sameRows('matter_sponsors', withMatter('sponsors'));
    sameRows('matter_actions', withMatter('actions'));
    sameRows('matter_attachments', withMatter('attachments'));
    sameRows(
      'matter_relations',
      matters.flatMap((m) => m.relatedRecordNumbers.map((r: string) => ({ matterId: m.id, relatedRecordNumber: r }))),
    );
    const meetings = await Promise.all(csv.get('meetings')!.map((g) => api(`/meetings/${encodeURIComponent(g.id!)}`)));
    const withMeeting = (part: string, extra: (x: any) => object = () => ({})) =>
      meetings.flatMap((g) => g[part].map((x: any) => ({ ...x, meetingId: g.id, ...extra(x) })));
    sameRows(
      'agenda_items',
      withMeeting('agenda', (i) => ({ matterId: i.matter?.id ?? null })),
    );
    sameRows('attendance', withMeeting('attendance'));
    sameRows('meeting_documents', withMeeting('documents'));
    sameRows('testimony', withMeeting('testimony'));
    const bodies = await Promise.all(csv.get('bodies')!.map((b) => api(`/bodies/${encodeURIComponent(b.id!)}`)));
    sameRows(
      'body_memberships',
      bodies.flatMap((b) => b.members.map((x: any) => ({ ...x, bodyId: b.id }))),
    );
    const people = await Promise.all(
      csv
        .get('people')!
        .filter((p) => p.kind !== 'lobbyist')
        .map((p) => api(`/people/${encodeURIComponent(p.id!)}`)),
    );
    sameRows(
      'person_terms',
      people.flatMap((p) => p.terms.map((x: any) => ({ ...x, personId: p.id }))),
    );
    const lobbyist = await api(`/lobbying/lobbyists/${LOBBYIST_ID}`);
    sameRows('lobbying_engagements', lobbyist.engagements);
    // The added parts are there (the comparison above is not of empty tables).
    for (const table of [
      'matter_sponsors',
      'matter_actions',
      'matter_relations',
      'agenda_items',
      'attendance',
      'testimony',
      'body_memberships',
      'person_terms',
    ]) {
      assert.ok(csv.get(table)!.length > 0, table);
    }
  });

  test('nothing private: no resident, no resident’s testimony, terms or seats, no address; officials’ and staff testimony stays', () => {
    const everything = [...csv.values()].map((rows) => JSON.stringify(rows)).join('\n') + readFileSync(sqlitePath).toString('latin1');
    for (const secret of [RESIDENT.id, RESIDENT.name, RESIDENT_TESTIMONY, '123 Secret Street', 'staff-1']) {
      assert.ok(!everything.includes(secret), `"${secret}" leaked`);
    }
    assert.ok(!csv.get('people')!.some((p) => p.kind === 'staff' || p.kind === 'resident'));
    assert.deepEqual(
      csv
        .get('testimony')!
        .map((x) => x.speaker_kind)
        .sort(),
      ['official', 'staff'],
    );
    for (const table of bulkTables) assert.ok(!table.columns.some((c) => ['address', 'search', 'source_id', 'given_name'].includes(c.name)), table.name);
  });

  test('a write made while the export runs waits for no more than a page of it, on either database', () => {
    // Before, on the embedded database the write waited for the whole snapshot to be read (the one
    // connection held by its transaction), so it committed once every table had been read.
    assert.ok(tablesReadWhenLateCommitted >= 1, 'the write was made after the first table was read');
    assert.ok(
      tablesReadWhenLateCommitted < bulkTables.length - 1,
      `committed after ${tablesReadWhenLateCommitted} of ${bulkTables.length} tables were read: it waited for the export`,
    );
  });

  test('one snapshot: a matter committed while the export ran is in no file, and is in the database', async () => {
    assert.ok(!csv.get('matters')!.some((m) => m.id === LATE_MATTER.id));
    assert.equal(csv.get('matters')!.length, seeded.matters.length);
    assert.equal(sqlite(`select count(*) as n from matters where id = '${LATE_MATTER.id}'`)[0].n, 0);
    assert.equal((await api(`/matters/${LATE_MATTER.record}`)).id, LATE_MATTER.id);
  });
});

describe('the SQLite file, opened with sqlite3', () => {
  test('is intact and holds the same rows as the CSV files', () => {
    assert.deepEqual(sqlite('pragma integrity_check'), [{ integrity_check: 'ok' }]);
    for (const table of bulkTables) {
      assert.equal(sqlite(`select count(*) as n from "${table.name}"`)[0].n, csv.get(table.name)!.length, table.name);
    }
    const matter = csv.get('matters')!.find((r) => r.id === seeded.matters[0]!.id)!;
    const [row] = sqlite(`select * from matters where id = '${matter.id}'`);
    assert.equal(row.title, TRICKY_TITLE);
    assert.equal(row.key_legislation, 0);
    assert.equal(row.record_number, matter.record_number);
    const [alder] = sqlite(`select ward, current from people where id = '${seeded.alders[0]!.id}'`);
    assert.deepEqual(alder, { ward: seeded.alders[0]!.ward, current: 1 });
    // Amounts are numbers: they sort and sum as numbers.
    const [sum] = sqlite('select typeof(amount) as t, sum(amount) as s from receipts');
    const csvSum = csv.get('receipts')!.reduce((n, r) => n + Number(r.amount), 0);
    assert.ok(Math.abs(sum.s - csvSum) < 0.005);
    assert.deepEqual(
      sqlite('select * from export_info order by key').find((r: any) => r.key === 'snapshot_at'),
      { key: 'snapshot_at', value: manifest.snapshotAt },
    );
  });

  test('has indexes and full-text search (FTS5, external content as Datasette expects)', () => {
    const indexes = sqlite("select name from sqlite_master where type = 'index' and name not like 'sqlite_autoindex%'").map((r: any) => r.name);
    assert.ok(indexes.includes('votes_person_id_date') && indexes.includes('matters_record_number'), indexes.join(', '));
    const [fts] = sqlite("select sql from sqlite_master where name = 'matters_fts'");
    assert.match(fts.sql, /USING fts5\(.*content="matters"/);
    const found = sqlite("select m.record_number from matters m where m.rowid in (select rowid from matters_fts where matters_fts match 'zoë')");
    assert.deepEqual(found, [{ record_number: seeded.matters[0]!.recordNumber }]);
    assert.deepEqual(sqlite("select speaker_name from testimony where rowid in (select rowid from testimony_fts where testimony_fts match 'department')"), [
      { speaker_name: 'Stanley Staffer' },
    ]);
  });
});

describe('served at /bulk/ without a credential', () => {
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  test('/bulk/index.json is the manifest with each file’s URL, ETag and 304', async () => {
    const res = await get('/bulk/index.json');
    assert.equal(res.statusCode, 200);
    assert.match(res.headers['content-type'] as string, /^application\/json/);
    const served = res.json();
    assert.equal(served.snapshotAt, manifest.snapshotAt);
    assert.deepEqual(
      served.files.map((f: any) => f.url),
      manifest.files.map((f: any) => `http://council.test/bulk/${f.name}`),
    );
    const again = await get('/bulk/index.json', { 'if-none-match': res.headers.etag as string });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
  });

  test('a file: the bytes, a strong ETag that is its SHA-256, 304, HEAD, ranges, If-Range, 412 and 416', async () => {
    const f = manifest.files.find((x: any) => x.name === 'votes.csv.gz');
    const bytes = readFileSync(join(bulkDir, 'current', f.name));
    const whole = await get('/bulk/votes.csv.gz');
    assert.equal(whole.statusCode, 200);
    assert.deepEqual(whole.rawPayload, bytes);
    assert.equal(whole.headers.etag, `"${f.sha256}"`);
    assert.equal(whole.headers['accept-ranges'], 'bytes');
    assert.equal(whole.headers['content-type'], 'application/gzip');
    assert.equal(Number(whole.headers['content-length']), f.bytes);

    assert.equal((await get('/bulk/votes.csv.gz', { 'if-none-match': `"${f.sha256}"` })).statusCode, 304);
    assert.equal((await get('/bulk/votes.csv.gz', { 'if-none-match': `W/"${f.sha256}", "other"` })).statusCode, 304);
    assert.equal((await get('/bulk/votes.csv.gz', { 'if-none-match': '"other"' })).statusCode, 200);
    assert.equal((await get('/bulk/votes.csv.gz', { 'if-modified-since': whole.headers['last-modified'] as string })).statusCode, 304);

    const head = await t.app.inject({ method: 'HEAD', url: '/bulk/votes.csv.gz' });
    assert.equal(head.statusCode, 200);
    assert.equal(Number(head.headers['content-length']), f.bytes);
    assert.equal(head.rawPayload.length, 0);

    const part = await get('/bulk/votes.csv.gz', { range: 'bytes=100-199' });
    assert.equal(part.statusCode, 206);
    assert.equal(part.headers['content-range'], `bytes 100-199/${f.bytes}`);
    assert.deepEqual(part.rawPayload, bytes.subarray(100, 200));
    const tail = await get('/bulk/votes.csv.gz', { range: 'bytes=-10' });
    assert.equal(tail.statusCode, 206);
    assert.deepEqual(tail.rawPayload, bytes.subarray(bytes.length - 10));
    const rest = await get('/bulk/votes.csv.gz', { range: `bytes=${f.bytes - 5}-`, 'if-range': `"${f.sha256}"` });
    assert.equal(rest.statusCode, 206);
    assert.deepEqual(rest.rawPayload, bytes.subarray(f.bytes - 5));
    // A stale validator in If-Range: the whole (new) file, never a mismatched piece (RFC 9110 §13.1.5).
    const stale = await get('/bulk/votes.csv.gz', { range: 'bytes=0-9', 'if-range': '"an-older-export"' });
    assert.equal(stale.statusCode, 200);
    assert.deepEqual(stale.rawPayload, bytes);
    const beyond = await get('/bulk/votes.csv.gz', { range: `bytes=${f.bytes}-` });
    assert.equal(beyond.statusCode, 416);
    assert.equal(beyond.headers['content-range'], `bytes */${f.bytes}`);
    // Several ranges, or a malformed one: the whole file (a server may ignore Range, §14.2).
    assert.equal((await get('/bulk/votes.csv.gz', { range: 'bytes=0-1,5-6' })).statusCode, 200);
    assert.equal((await get('/bulk/votes.csv.gz', { range: 'bytes=9-2' })).statusCode, 200);
    assert.equal((await get('/bulk/votes.csv.gz', { 'if-match': '"other"' })).statusCode, 412);
    assert.equal((await get('/bulk/votes.csv.gz', { 'if-match': `"${f.sha256}"` })).statusCode, 200);
  });

  test('only the files the manifest lists: anything else is a 404, never a file outside the export', async () => {
    for (const url of ['/bulk/nope.csv.gz', '/bulk/index.json.gz', '/bulk/..%2Findex.json', '/bulk/..%2F..%2Fcurrent', '/bulk/.partial-x']) {
      const res = await get(url);
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().code, 'not_found', url);
    }
    // Dot segments are resolved before routing (RFC 3986 §5.2.4): whatever answers, it is no bulk file.
    for (const url of ['/bulk/%2e%2e', '/bulk/%2e%2e/%2e%2e/current/votes.csv.gz']) {
      const res = await get(url);
      assert.notEqual(res.headers['content-type'], 'application/gzip', url);
    }
    assert.equal((await get('/bulk/nope.csv.gz')).json().code, 'not_found');
  });

  test('the page lists every file with rows, size and SHA-256, documents the columns, and has a Markdown variant; /, /docs and /llms.txt link to it', async () => {
    const page = await get('/bulk/');
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /^text\/html/);
    for (const f of manifest.files) {
      assert.ok(page.body.includes(`href="/bulk/${f.name}"`), f.name);
      assert.ok(page.body.includes(f.sha256), f.name);
    }
    assert.ok(page.body.includes('sort_name'));
    assert.ok(page.body.includes('href="/bulk/index.json"'));
    const md = await get('/bulk.md');
    assert.equal(md.statusCode, 200);
    assert.match(md.headers['content-type'] as string, /^text\/markdown/);
    for (const f of manifest.files) assert.ok(md.body.includes(`(<http://council.test/bulk/${f.name}>)`), f.name);
    assert.equal((await get('/bulk/', { 'if-none-match': page.headers.etag as string })).statusCode, 304);
    for (const url of ['/', '/docs']) assert.ok((await get(url)).body.includes('href="/bulk"'), url);
    assert.ok((await get('/llms.txt')).body.includes('http://council.test/bulk'));
  });
});
