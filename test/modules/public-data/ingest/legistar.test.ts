import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { startTestContext, type TestContext } from '../../../helpers/context.ts';
import { FAST, FIXTURES, type Replay, startReplay } from './replay-server.ts';

let t: TestContext;
let replay: Replay;
const run = () => t.ctx.services.ingest.run('legistar:sanjose', { baseUrl: replay.url, http: FAST });

before(async () => {
  t = await startTestContext();
  replay = await startReplay(`${FIXTURES}legistar`, { maxPage: 2 });
});
after(async () => {
  await replay.close();
  await t.close();
});

test('a Legistar city syncs matters, histories, events and roll calls with Legistar ids', async () => {
  replay.fail('/v1/sanjose/Matters', { status: 503, retryAfter: '0' });
  const report = await run();
  assert.equal(report.source, 'legistar:sanjose');
  assert.ok(report.changed > 0);
  // $top/$skip paging: five matters in pages of at most two.
  const skips = replay.requests.filter((u) => u.pathname === '/v1/sanjose/Matters').map((u) => u.searchParams.get('$skip'));
  assert.deepEqual(skips, ['0', '0', '2', '4', '5']);
  const m = await t.ctx.db.selectFrom('matters').selectAll().where('id', '=', 'legistar-sanjose-matter-2025').executeTakeFirstOrThrow();
  assert.equal(m.record_number, 'sanjose:17-069');
  assert.equal(m.source, 'legistar:sanjose');
  assert.equal(m.status, 'Passed');
  const meeting = await t.ctx.db.selectFrom('meetings').selectAll().where('id', '=', 'legistar-sanjose-event-1080').executeTakeFirstOrThrow();
  // 1:30 PM Pacific daylight time on 2017-09-12.
  assert.equal(meeting.start_time.toISOString(), '2017-09-12T20:30:00.000Z');
  assert.equal(meeting.status, 'held');
});

test('Legistar "Yes" votes become Yea and tallies equal the per-person sums', async () => {
  const rows = await sql<{ id: string; yea: number; n: number; yeas: number }>`
    select r.id, r.yea, count(v.*) as n, count(*) filter (where v.value = 'Yea') as yeas
    from roll_calls r join votes v on v.roll_call_id = r.id group by r.id order by r.id`.execute(t.ctx.db);
  assert.ok(rows.rows.length > 0);
  for (const r of rows.rows) {
    assert.equal(r.yea, r.yeas);
    assert.equal(r.n, 11);
  }
});

test('a second run changes nothing and filters on LastModifiedUtc', async () => {
  replay.requests.length = 0;
  const report = await run();
  assert.equal(report.changed, 0);
  const filter = replay.requests.find((u) => u.pathname === '/v1/sanjose/Matters')?.searchParams.get('$filter');
  // The watermark is the latest LastModifiedUtc the first run saw (an event item, 2017-10-18).
  assert.equal(filter, "MatterLastModifiedUtc gt datetime'2017-10-18T17:32:53'");
});
