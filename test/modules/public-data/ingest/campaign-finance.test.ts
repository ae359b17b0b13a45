import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parseTable } from '../../../../src/modules/public-data/ingest/csv.ts';
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

test('expenditures in Illinois Sunshine’s own CSV shape load with their ids, dates, payees and purposes', async () => {
  // The four real rows, laid out as the recorded directory: a committee map, one file per committee (lines verbatim).
  const text = readFileSync(new URL('../../../fixtures/campaign-finance-expenditures/kurson_reyes_expenditures.csv', import.meta.url), 'utf8');
  const [header, ...lines] = text.split('\r\n').filter((l) => l !== '');
  const rows = parseTable(text);
  const dir = mkdtempSync(join(tmpdir(), 'council-expenditures-'));
  try {
    mkdirSync(join(dir, 'expenditures'));
    const byCommittee = new Map<string, string[]>();
    for (const [i, r] of rows.entries()) byCommittee.set(r.COMMITTEE_ID!, [...(byCommittee.get(r.COMMITTEE_ID!) ?? []), lines[i]!]);
    const map = rows.map((r) => `,,${r.COMMITTEE_ID},"${r.COMMITTEE_NAME}"`);
    writeFileSync(join(dir, 'committees.csv'), `ward,alderman_name,isbe_committee_id,committee_name\n${[...new Set(map)].join('\n')}\n`);
    for (const [id, own] of byCommittee) writeFileSync(join(dir, 'expenditures', `${id}.csv`), `${header}\n${own.join('\n')}\n`);
    const report = await t.ctx.services.ingest.run('campaign-finance', { from: dir });
    assert.equal(report.seen, report.changed);
    const stored = await t.ctx.db
      .selectFrom('expenditures as e')
      .innerJoin('committees as c', 'c.id', 'e.committee_id')
      .select(['e.id', 'e.expended_date', 'e.amount', 'e.payee', 'e.purpose', 'e.zip', 'e.source', 'e.source_url', 'c.name', 'c.person_id'])
      .where(
        'e.committee_id',
        'in',
        rows.map((r) => `committee-${r.COMMITTEE_ID}`),
      )
      .orderBy('e.expended_date')
      .execute();
    assert.equal(stored.length, 4);
    const first = stored[0]!;
    // Democratic Party of the 29th Ward, 2013-10-16, $980 to Reyes Kurson Law Firm, "Meeting re Pawn Shop".
    assert.deepEqual(
      [first.id, first.expended_date, first.amount, first.payee, first.purpose, first.zip, first.name, first.person_id],
      [
        'expenditure-23266-2747351',
        '2013-10-16',
        '980.00',
        'Reyes Kurson Law Firm',
        'Meeting re Pawn Shop',
        '60607',
        'Democratic Party of the 29th Ward',
        null,
      ],
    );
    assert.ok(stored.every((e) => e.source === 'campaign_finance' && e.source_url));
    assert.deepEqual(
      stored.map((e) => e.expended_date),
      rows.map((r) => r.EXPENDED_DATE!.slice(0, 10)).sort(),
    );
    const again = await t.ctx.services.ingest.run('campaign-finance', { from: dir });
    assert.equal(again.changed, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
