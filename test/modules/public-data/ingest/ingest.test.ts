import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { retryAfterMs } from '../../../../src/modules/public-data/ingest/http-client.ts';
import { stableIds } from '../../../../src/modules/public-data/ingest/campaign-finance.ts';
import { parseTable } from '../../../../src/modules/public-data/ingest/csv.ts';
import { voteValue } from '../../../../src/modules/public-data/ingest/names.ts';
import { startTestContext, type TestContext } from '../../../helpers/context.ts';

let t: TestContext;
before(async () => {
  t = await startTestContext();
});
after(async () => {
  await t.close();
});

test('an unknown source or a bad --since is invalid_request', async () => {
  await assert.rejects(t.ctx.services.ingest.run('socrata', {}), (e: any) => e.code === 'invalid_request' && /unknown source/.test(e.message));
  await assert.rejects(t.ctx.services.ingest.run('legistar', {}), (e: any) => e.code === 'invalid_request');
  await assert.rejects(t.ctx.services.ingest.run('elms', { since: 'last week' }), (e: any) => e.code === 'invalid_request' && /--since/.test(e.message));
  await assert.rejects(t.ctx.services.ingest.run('elms', { since: '2024-02-31' }), (e: any) => e.code === 'invalid_request');
});

test('Retry-After is read as seconds or as an HTTP date', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(retryAfterMs('7', now), 7000);
  assert.equal(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now), 30_000);
  assert.equal(retryAfterMs('soon', now), null);
  assert.equal(retryAfterMs(null, now), null);
});

test('vote words of each source map onto the eight values', () => {
  assert.deepEqual(
    ['Yea', 'Yes', 'Affirmative', 'No', 'Negative', 'Excused', 'Abstain', 'Non-voting', 'Rising Vote', 'Vacant', 'Recused', 'Present', 'Maybe'].map(voteValue),
    ['Yea', 'Yea', 'Yea', 'Nay', 'Nay', 'Absent', 'Not Voting', 'Not Voting', 'Rising Vote', 'Vacant', 'Recused', 'Present', null],
  );
});

test('identical receipt rows get distinct, stable ids', () => {
  const header = 'last_name\tfirst_name\treceived_date\tamount';
  const row = 'Hopkins\tBrian\t2018-11-28\t500';
  const rows = parseTable(`${header}\n${row}\n${row}\n`, '\t');
  const ids = stableIds('receipt-1', rows, ['LAST_NAME', 'FIRST_NAME', 'RECEIVED_DATE', 'AMOUNT']);
  assert.equal(ids[0]!.replace(/-1$/, '-2'), ids[1]);
  assert.deepEqual(stableIds('receipt-1', rows, ['LAST_NAME', 'FIRST_NAME', 'RECEIVED_DATE', 'AMOUNT']), ids);
});

test('the bundled sample loads once, through the adapters, and serves real records', async () => {
  const lines: string[] = [];
  assert.equal(await t.ctx.services.ingest.loadSampleIfEmpty((l) => lines.push(l)), true);
  const counts = await sql<Record<string, number>>`select
      (select count(*) from people where kind = 'alderperson' and current) as alders,
      (select count(*) from roll_calls) as roll_calls,
      (select count(*) from meetings) as meetings,
      (select count(*) from committees) as committees,
      (select count(*) from lobbying_compensation) > 0 as compensation,
      (select count(*) from roll_calls r where r.yea + r.nay + r.absent + r.not_voting + r.present + r.recused + r.vacant + r.rising_vote
         <> (select count(*) from votes v where v.roll_call_id = r.id)) as bad_tallies`.execute(t.ctx.db);
  assert.deepEqual(counts.rows[0], { alders: 50, roll_calls: 10, meetings: 99, committees: 63, compensation: true, bad_tallies: 0 });
  assert.ok(lines.some((l) => /elms: finished/.test(l)));
  assert.equal(await t.ctx.services.ingest.loadSampleIfEmpty(() => {}), false);
  const fresh = await t.ctx.services.ingest.freshness();
  assert.deepEqual(
    fresh.map((f) => f.source),
    ['campaign_finance', 'elms', 'lobbying', 'sample'],
  );
});
