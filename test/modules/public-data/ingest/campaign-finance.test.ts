import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestContext, type TestContext } from '../../../helpers/context.ts';
import { FAST, FIXTURES, type Replay, startReplay } from './replay-server.ts';

let t: TestContext;
let replay: Replay;

before(async () => {
  t = await startTestContext();
  // Illinois Sunshine answers /api/receipts/?committee_id=N&datatype=csv; the fixtures hold them by id.
  replay = await startReplay(`${FIXTURES}campaign-finance`, {
    rewrite: (url) => (url.pathname === '/api/receipts/' ? `/receipts/${url.searchParams.get('committee_id')}.tsv` : url.pathname),
  });
});
after(async () => {
  await replay.close();
  await t.close();
});

test('a committee map and receipts load from recorded files with stable ids', async () => {
  const report = await t.ctx.services.ingest.run('campaign-finance', { from: `${FIXTURES}campaign-finance`, baseUrl: replay.url });
  assert.equal(report.source, 'campaign_finance');
  assert.equal(report.changed, report.seen);
  const committees = await t.ctx.db.selectFrom('committees').selectAll().orderBy('id').execute();
  assert.deepEqual(
    committees.map((c) => [c.id, c.ward, c.isbe_id]),
    [
      ['committee-19263', 42, '19263'],
      ['committee-25653', 2, '25653'],
    ],
  );
  const receipts = await t.ctx.db.selectFrom('receipts').selectAll().where('committee_id', '=', 'committee-25653').execute();
  assert.equal(receipts.length, 25);
  for (const r of receipts) assert.match(r.id, /^receipt-25653-[0-9a-f]{20}-\d+$/);
});

test('the live client re-reads the same receipts over HTTP and changes nothing', async () => {
  replay.fail('/receipts/19263.tsv', { status: 503, retryAfter: '0' });
  const report = await t.ctx.services.ingest.run('campaign-finance', { baseUrl: replay.url, http: FAST });
  assert.equal(report.changed, 0);
  assert.equal(report.seen, 50);
  assert.equal(replay.requests.filter((u) => u.pathname === '/api/receipts/' && u.searchParams.get('committee_id') === '19263').length, 2);
});
