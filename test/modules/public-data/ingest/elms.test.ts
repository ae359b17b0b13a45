import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { startTestContext, type TestContext } from '../../../helpers/context.ts';
import { FAST, FIXTURES, type Replay, startReplay } from './replay-server.ts';

let t: TestContext;
let replay: Replay;
const lines: string[] = [];
const run = (extra: Record<string, unknown> = {}) =>
  t.ctx.services.ingest.run('elms', { baseUrl: replay.url, http: FAST, onProgress: (l) => lines.push(l), ...extra });
/** Timestamps select as Date on both backends. */
const ms = (d: unknown) => (d as Date).getTime();
const PARKING = 'BEA1E2DD-5A54-F111-BEC6-001DD80B0E39';

before(async () => {
  t = await startTestContext();
  // Pages of 25 make the 99 recorded meetings come back in four pages.
  replay = await startReplay(`${FIXTURES}elms`, { maxPage: 25 });
});
after(async () => {
  await replay.close();
  await t.close();
});

test('a first run pages through every list, retries 429/503 with Retry-After, and reports progress', async () => {
  replay.fail('/person', { status: 429, retryAfter: '1' }, { status: 503, retryAfter: '0' });
  const report = await run();
  assert.equal(report.source, 'elms');
  assert.ok(report.changed > 0 && report.changed === report.seen, `${report.changed}/${report.seen}`);
  const meetingSkips = replay.requests.filter((u) => u.pathname === '/meeting').map((u) => u.searchParams.get('skip'));
  assert.deepEqual(meetingSkips, ['0', '25', '50', '75']);
  // 429, 503, then two pages of 25.
  assert.equal(replay.requests.filter((u) => u.pathname === '/person').length, 4);
  assert.ok(
    lines.some((l) => /retrying .*\/person after 429 \(Retry-After\)/.test(l)),
    lines.join('\n'),
  );
  assert.ok(lines.some((l) => /elms: meetings done, 99 seen/.test(l)));
  const counts = await sql<{ alders: number; meetings: number; matters: number }>`select
      (select count(*) from people where kind = 'alderperson' and current and ward is not null) as alders,
      (select count(*) from meetings) as meetings, (select count(*) from matters) as matters`.execute(t.ctx.db);
  assert.deepEqual(counts.rows[0], { alders: 50, meetings: 99, matters: 3 });
});

test('records keep provenance, eLMS ids, sponsors and attachments', async () => {
  const m = await t.ctx.db.selectFrom('matters').selectAll().where('record_number', '=', 'SO2026-0025407').executeTakeFirstOrThrow();
  assert.equal(m.id, PARKING);
  assert.equal(m.source, 'elms');
  assert.equal(m.source_id, PARKING);
  assert.equal(m.source_url, `${replay.url}/matter/${PARKING}`);
  assert.equal(m.final_action_date, '2026-09-29');
  const attachments = await t.ctx.db.selectFrom('matter_attachments').select('kind').where('matter_id', '=', PARKING).execute();
  assert.equal(attachments.length, 9);
  const terms = await t.ctx.db.selectFrom('person_terms').selectAll().where('office', '=', 'Alderperson').execute();
  assert.equal(terms.length, 50);
});

test('roll call tallies equal the sums of the per-person votes', async () => {
  const rows = await sql<{ id: string; yea: number; nay: number; not_voting: number; sums_ok: boolean; votes: number }>`
    select r.id, r.yea, r.nay, r.not_voting, count(v.*) as votes,
      r.yea = count(*) filter (where v.value = 'Yea') and r.nay = count(*) filter (where v.value = 'Nay')
      and r.absent = count(*) filter (where v.value = 'Absent') and r.not_voting = count(*) filter (where v.value = 'Not Voting')
      and r.present + r.recused + r.vacant + r.rising_vote = count(*) filter (where v.value in ('Present', 'Recused', 'Vacant', 'Rising Vote')) as sums_ok
    from roll_calls r join votes v on v.roll_call_id = r.id group by r.id order by r.id`.execute(t.ctx.db);
  assert.equal(rows.rows.length, 3);
  for (const r of rows.rows) {
    assert.ok(r.sums_ok, r.id);
    assert.equal(r.votes, 50);
  }
  const parking = rows.rows.find((r) => r.id.startsWith(PARKING))!;
  assert.deepEqual([parking.yea, parking.nay, parking.not_voting], [46, 3, 1]);
  // Ward 6 voted Nay on the parking meter transfer (recorded by ward in the source).
  const ward6 = await sql<{ value: string }>`select v.value from votes v join people p on p.id = v.person_id
    where p.ward = 6 and v.roll_call_id = ${parking.id}`.execute(t.ctx.db);
  assert.equal(ward6.rows[0]?.value, 'Nay');
});

test('meeting status: cancelled also where only the comment or location says so', async () => {
  const rows = await t.ctx.db.selectFrom('meetings').select(['status', 'status_detail', 'comment']).execute();
  const byComment = rows.filter((r) => r.status_detail === null && /CANCELLATION/.test(r.comment ?? ''));
  assert.ok(byComment.length >= 3);
  for (const r of byComment) assert.equal(r.status, 'cancelled');
  assert.equal(
    rows.filter((r) => r.status_detail === 'Cancelled').every((r) => r.status === 'cancelled'),
    true,
  );
  assert.ok(rows.some((r) => r.status === 'recessed') && rows.some((r) => r.status === 'reconvened'));
});

test('a second run changes nothing, keeps first_seen_at and updated_at, moves last_synced_at, and asks only for newer records', async () => {
  const before = await t.ctx.db.selectFrom('matters').select(['id', 'first_seen_at', 'updated_at', 'last_synced_at']).orderBy('id').execute();
  replay.requests.length = 0;
  const report = await run();
  assert.equal(report.changed, 0);
  assert.ok(report.seen > 0);
  const afterRows = await t.ctx.db.selectFrom('matters').select(['id', 'first_seen_at', 'updated_at', 'last_synced_at']).orderBy('id').execute();
  for (const [i, a] of afterRows.entries()) {
    assert.equal(ms(a.first_seen_at), ms(before[i]!.first_seen_at));
    assert.equal(ms(a.updated_at), ms(before[i]!.updated_at));
    assert.ok(ms(a.last_synced_at) > ms(before[i]!.last_synced_at));
  }
  const matterFilter = replay.requests.find((u) => u.pathname === '/matter')?.searchParams.get('filter');
  assert.match(String(matterFilter), /actionDate gt 2026-09-29T00:00:00/);
  const meetingFilter = replay.requests.find((u) => u.pathname === '/meeting')?.searchParams.get('filter');
  assert.match(String(meetingFilter), /^date gt 2026-07-31T00:00:00$/);
  const [fresh] = (await t.ctx.services.ingest.freshness()).filter((f) => f.source === 'elms');
  assert.ok(fresh?.lastSuccessAt && fresh.lastError === null);
});

test('a real change moves updated_at of that record only and is counted', async () => {
  const detail = await import(`${FIXTURES}elms/matter/${PARKING}.json`, { with: { type: 'json' } });
  replay.override(`/matter/${PARKING}`, { ...detail.default, title: `${detail.default.title} (amended)` });
  const before = await t.ctx.db.selectFrom('matters').select(['id', 'updated_at']).orderBy('id').execute();
  const report = await run({ since: '2026-01-01' });
  assert.equal(report.changed, 1);
  const afterRows = await t.ctx.db.selectFrom('matters').select(['id', 'updated_at', 'title']).orderBy('id').execute();
  for (const [i, a] of afterRows.entries()) {
    assert.equal(ms(a.updated_at) !== ms(before[i]!.updated_at), a.id === PARKING, a.id);
  }
});

test('a failing source records the error in its freshness', async () => {
  replay.fail('/person', ...Array.from({ length: 3 }, () => ({ status: 500 })));
  await assert.rejects(run({ http: { ...FAST, retries: 2 } }), (err: any) => err.code === 'unavailable');
  const [fresh] = (await t.ctx.services.ingest.freshness()).filter((f) => f.source === 'elms');
  assert.match(String(fresh?.lastError), /answered 500/);
});
