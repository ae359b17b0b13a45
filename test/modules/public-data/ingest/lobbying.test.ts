import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestContext, type TestContext } from '../../../helpers/context.ts';
import { FAST, FIXTURES, type Replay, startReplay } from './replay-server.ts';

let t: TestContext;
let lobbying: Replay;
let elms: Replay;
const lines: string[] = [];
const run = () => t.ctx.services.ingest.run('lobbying', { baseUrl: lobbying.url, http: FAST, onProgress: (l) => lines.push(l) });

before(async () => {
  t = await startTestContext();
  lobbying = await startReplay(`${FIXTURES}lobbying`, { maxPage: 5 });
  elms = await startReplay(`${FIXTURES}elms`);
  // Current alderpersons come from eLMS; contributions link to them.
  await t.ctx.services.ingest.run('elms', { baseUrl: elms.url, http: FAST });
});
after(async () => {
  await lobbying.close();
  await elms.close();
  await t.close();
});

test('both export layouts load: lobbyists are people, organisations keep their ids and years', async () => {
  lobbying.fail('/resource/g8p5-y4m5.csv', { status: 429, retryAfter: '0' });
  const report = await run();
  assert.ok(report.changed > 0);
  // $limit/$offset paging: 12 clients in pages of 5 (after one 429).
  const offsets = lobbying.requests.filter((u) => u.pathname === '/resource/g8p5-y4m5.csv').map((u) => u.searchParams.get('$offset'));
  assert.deepEqual(offsets, ['0', '0', '5', '10', '12']);
  // The 2023 export starts with a BOM before "YEAR": the first column must still be read.
  const lobbyist = await t.ctx.db.selectFrom('people').selectAll().where('id', '=', 'lobbyist-25061').executeTakeFirstOrThrow();
  assert.equal(lobbyist.kind, 'lobbyist');
  assert.equal(lobbyist.name, 'VINCENZA M RAINERI');
  const employer = await t.ctx.db.selectFrom('lobbying_employers').selectAll().where('id', '=', 'employer-3722058720').executeTakeFirstOrThrow();
  assert.deepEqual(employer.years, [2020]);
  const comp = await t.ctx.db.selectFrom('lobbying_compensation').selectAll().where('id', '=', 'compensation-43240').executeTakeFirstOrThrow();
  assert.deepEqual([comp.amount, comp.period_start, comp.lobbyist_id], ['2500.00', '2015-07-01', 'lobbyist-24741']);
  const engagements = await t.ctx.db.selectFrom('lobbying_engagements').selectAll().execute();
  assert.equal(engagements.length, 12);
});

test('contributions link a recipient to a current alderperson only when the name is unambiguous', async () => {
  const rows = await t.ctx.db
    .selectFrom('lobbying_contributions as c')
    .leftJoin('people as p', 'p.id', 'c.recipient_person_id')
    .select(['c.id', 'p.family_name'])
    .where('c.id', 'in', ['contribution-11751', 'contribution-11386', 'contribution-11617'])
    .orderBy('c.id')
    .execute();
  assert.deepEqual(
    rows.map((r) => [r.id, r.family_name]),
    [
      ['contribution-11386', null], // "Citizens for Joe Moore": not the current Moore (David)
      ['contribution-11617', 'Sposato'], // "Alderman Nick Sposato"
      ['contribution-11751', 'Reilly'], // "Citizens For Alderman Reilly"
    ],
  );
});

test('a second run changes nothing and asks the portal only for rows updated since the first', async () => {
  lobbying.requests.length = 0;
  const report = await run();
  assert.equal(report.changed, 0);
  const where = lobbying.requests.find((u) => u.pathname === '/resource/tq3e-t5yq.csv')?.searchParams.get('$where');
  assert.match(String(where), /^:updated_at > '\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}'$/);
  assert.ok(lines.some((l) => /lobbying: contributions done, 13 seen/.test(l)));
});
