import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { retryAfterMs } from '../../../../src/modules/public-data/ingest/http-client.ts';
import { stableIds } from '../../../../src/modules/public-data/ingest/campaign-finance.ts';
import { shortUsDate } from '../../../../src/modules/public-data/ingest/committee-history.ts';
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
      (select count(*)::int from people where kind = 'alderperson' and current) as alders,
      (select count(*)::int from roll_calls) as roll_calls,
      (select count(*)::int from roll_calls where tallies_published) as published,
      (select count(*)::int from votes) as votes,
      (select count(*)::int from meetings) as meetings,
      (select count(*)::int from committees) as committees,
      (select count(*)::int from expenditures) as expenditures,
      (select count(*) from lobbying_compensation) > 0 as compensation`.execute(t.ctx.db);
  // No real expenditure of an aldermanic committee was found: none is shown.
  assert.deepEqual(counts.rows[0], {
    alders: 50,
    roll_calls: 224,
    published: 224,
    votes: 10_950,
    meetings: 99,
    committees: 63,
    expenditures: 0,
    compensation: true,
  });
  assert.ok(lines.some((l) => /2015-11 uses the ids from before the City's 2020 renumbering/.test(l)));
  assert.ok(lines.some((l) => /elms: finished/.test(l)));
  assert.equal(await t.ctx.services.ingest.loadSampleIfEmpty(() => {}), false);
  const fresh = await t.ctx.services.ingest.freshness();
  assert.deepEqual(
    fresh.map((f) => f.source),
    ['campaign_finance', 'committee_history', 'elms', 'lobbying', 'sample'],
  );
});

test('published tallies are kept; votes the source left out are not reported, never invented', async () => {
  // The sample's roll calls as the bundled file states them: published counts and the votes listed by name.
  const file = JSON.parse(readFileSync(new URL('../../../../sample/elms/matter.json', import.meta.url), 'utf8'));
  const actions = file.data.flatMap((m: any) => m.actions.filter((a: any) => a.tallies));
  const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
  const short = actions.filter((a: any) => sum(a.tallies) > a.votes.length);
  assert.equal(actions.length, 224);
  assert.equal(short.length, 136, 'the roll calls that omit ward 27 and/or 35 while their totals still add up to 50');
  const rows = await sql<{ total: number; reported: number; over: number; mismatched: number }>`
    with counted as (
      select r.id, r.yea + r.nay + r.absent + r.not_voting + r.present + r.recused + r.vacant + r.rising_vote as total,
        (select count(*)::int from votes v where v.roll_call_id = r.id) as reported,
        r.yea - (select count(*) from votes v where v.roll_call_id = r.id and v.value = 'Yea') as yea_gap,
        r.nay - (select count(*) from votes v where v.roll_call_id = r.id and v.value = 'Nay') as nay_gap,
        r.absent - (select count(*) from votes v where v.roll_call_id = r.id and v.value = 'Absent') as absent_gap,
        r.not_voting - (select count(*) from votes v where v.roll_call_id = r.id and v.value = 'Not Voting') as nv_gap
      from roll_calls r)
    select total, reported,
      (yea_gap < 0 or nay_gap < 0 or absent_gap < 0 or nv_gap < 0)::int as over,
      (total = reported and (yea_gap <> 0 or nay_gap <> 0 or absent_gap <> 0 or nv_gap <> 0))::int as mismatched
    from counted`.execute(t.ctx.db);
  assert.equal(rows.rows.length, 224);
  assert.ok(rows.rows.every((r) => r.total === 50));
  // Wherever every vote is reported, each tally equals its per-person sum; nowhere does a value count more votes than published.
  assert.equal(rows.rows.filter((r) => r.mismatched).length, 0);
  assert.equal(rows.rows.filter((r) => r.over).length, 0);
  assert.equal(rows.rows.filter((r) => r.reported < r.total).length, 136);
  assert.equal(
    rows.rows.reduce((n, r) => n + r.total - r.reported, 0),
    short.reduce((n: number, a: any) => n + sum(a.tallies) - a.votes.length, 0),
  );
});

test('every committee of the export arrives with its chair, vice chair and members, each membership once', async () => {
  const file = JSON.parse(readFileSync(new URL('../../../../sample/elms/body.json', import.meta.url), 'utf8'));
  const committees = file.data.filter((b: any) => !/^city council$/i.test(b.body));
  assert.equal(committees.length, 41);
  const r = await sql<Record<string, number>>`select
      (select count(*)::int from bodies where kind in ('committee', 'joint_committee') and source = 'elms') as committees,
      (select count(distinct body_id)::int from body_memberships where role = 'Chair') as with_chair,
      (select count(distinct body_id)::int from body_memberships where role = 'Vice Chair') as with_vice_chair,
      (select count(*)::int from body_memberships m join bodies b on b.id = m.body_id where b.kind <> 'council') as memberships,
      (select count(*)::int from (select body_id, person_id from body_memberships group by 1, 2 having count(*) > 1) d) as twice`.execute(t.ctx.db);
  // 995 memberships as published: 3 listed twice, and ward 18 both chair and member of two joint committees.
  assert.deepEqual(r.rows[0], { committees: 41, with_chair: 41, with_vice_chair: 41, memberships: 990, twice: 0 });
  const finance = await sql<{ role: string; ward: number }>`select m.role, p.ward from body_memberships m join people p on p.id = m.person_id
      join bodies b on b.id = m.body_id where b.name = 'Committee on Finance' and m.role <> 'Member' order by m.role`.execute(t.ctx.db);
  assert.deepEqual(finance.rows, [
    { role: 'Chair', ward: 3 },
    { role: 'Vice Chair', ward: 34 },
  ]);
});

test('each matter keeps the date of its latest action upstream, for feeds to date it by', async () => {
  const r = await sql<{ with_actions: number; wrong: number; later: number }>`select
      (select count(*)::int from matters where last_action_date is not null) as with_actions,
      (select count(*)::int from matters m where m.last_action_date is distinct from (select max(a.action_date) from matter_actions a where a.matter_id = m.id)) as wrong,
      (select count(*)::int from matters where last_action_date > introduction_date) as later`.execute(t.ctx.db);
  assert.equal(r.rows[0]!.wrong, 0);
  assert.ok(r.rows[0]!.with_actions >= 222, 'every matter with a roll call has an action');
  assert.ok(r.rows[0]!.later > 0, 'some matters moved after their introduction');
});

const sampleCsv = (path: string) => parseTable(readFileSync(new URL(`../../../../sample/lobbying/${path}`, import.meta.url), 'utf8'));
const letters = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();

test('lobbying through mid-2021: the 2021 snapshot’s gifts and hosting expenditures, every row kept, gifts to alderpersons linked', async () => {
  const gifts = sampleCsv('2021-07/Gifts.csv');
  const hosting = sampleCsv('2021-07/Expenditures_Hosting.csv');
  const r = await sql<Record<string, number>>`select
      (select count(*)::int from lobbying_gifts) as gifts,
      (select count(*)::int from lobbying_gifts where recipient_person_id is not null) as linked,
      (select count(*)::int from lobbying_expenditures where kind = 'hosting') as hosting,
      (select count(*)::int from lobbying_gifts where source <> 'lobbying' or source_id is null or source_url is null) as without_provenance`.execute(t.ctx.db);
  // Every published row, also those the export gives the same GIFT_ID (told apart by a hash of the row).
  const counts = r.rows[0]!;
  assert.deepEqual(counts, { gifts: gifts.length, linked: counts.linked, hosting: hosting.length, without_provenance: 0 });
  assert.ok((counts.linked ?? 0) > 0);
  // Each linked gift names its alderperson as the report does, and was reported as one to the City Council.
  const linked = await sql<{ recipient: string; department: string | null; title: string | null; family: string; given: string }>`
    select g.recipient, g.department, g.recipient_title as title, p.family_name as family, p.given_name as given
    from lobbying_gifts g join people p on p.id = g.recipient_person_id`.execute(t.ctx.db);
  for (const g of linked.rows) {
    // (Some reports swap the name fields: "REILLY BRENDAN" is Ald. Brendan Reilly.)
    assert.ok(` ${letters(g.recipient)} `.includes(` ${letters(g.family)} `), `${g.recipient} → ${g.given} ${g.family}`);
    assert.ok(/city council/i.test(g.department ?? '') || /^ald/i.test(g.title ?? ''), g.recipient);
  }
});

test('ids the City renumbered in 2020 never merge two people: each snapshot is read in its own numbering', async () => {
  // The same LOBBYIST_ID names one person in the 2023 export and another in the 2015 one.
  const current = new Map(sampleCsv('2023-06/Lobbyist_Data_-_Lobbyists.csv').map((r) => [r.LOBBYIST_ID!, r]));
  const legacy = sampleCsv('2015-11/Lobbyist_Data_-_Contributions.csv').filter((r) => {
    const now = current.get(r.LOBBYIST_ID!);
    return now && letters(now.LAST_NAME!) !== letters(r.LOBBYIST_LAST_NAME!);
  });
  assert.ok(legacy.length > 100, 'the sample holds renumbered lobbyist ids');
  const stored = await sql<{ id: string; lobbyist_id: string; family: string }>`
    select c.source_id as id, c.lobbyist_id, p.family_name as family from lobbying_contributions c join people p on p.id = c.lobbyist_id
    where c.source_id in (${sql.join(legacy.map((r) => `legacy:${r.CONTRIBUTION_ID}`))})`.execute(t.ctx.db);
  const byId = new Map(stored.rows.map((x) => [x.id, x]));
  for (const r of legacy) {
    const row = byId.get(`legacy:${r.CONTRIBUTION_ID}`);
    assert.ok(row, `contribution ${r.CONTRIBUTION_ID} is stored`);
    assert.notEqual(row.lobbyist_id, `lobbyist-${r.LOBBYIST_ID}`, `contribution ${r.CONTRIBUTION_ID} went to the 2023 holder of id ${r.LOBBYIST_ID}`);
    assert.equal(letters(row.family), letters(r.LOBBYIST_LAST_NAME!), `contribution ${r.CONTRIBUTION_ID}`);
  }
  // The 2023 holders keep their ids and names.
  const sample = legacy[0]!;
  const holder = await sql<{ family_name: string }>`select family_name from people where id = ${`lobbyist-${sample.LOBBYIST_ID}`}`.execute(t.ctx.db);
  assert.equal(letters(holder.rows[0]!.family_name), letters(current.get(sample.LOBBYIST_ID!)!.LAST_NAME!));
  // Legacy ids are matched to a current lobbyist only by name (and employer, where the rows give one); the rest stay apart.
  const kinds = await sql<{ apart: number; legacy_rows: number }>`select
      (select count(*)::int from people where id like 'lobbyist-legacy-%') as apart,
      (select count(*)::int from lobbying_contributions where source_id like 'legacy:%') as legacy_rows`.execute(t.ctx.db);
  assert.ok(kinds.rows[0]!.apart > 0);
  assert.equal(kinds.rows[0]!.legacy_rows, sampleCsv('2015-11/Lobbyist_Data_-_Contributions.csv').length);
  // The 2021 Combinations name employers by their legacy ids: every engagement still names the organisations the row names.
  const combos = sampleCsv('2021-07/Lobbyist_Employer_Client_Combinations.csv');
  const want = new Set(combos.map((c) => `lobbyist-${c.LOBBYIST_ID}|${letters(c.EMPLOYER_NAME!)}|${letters(c.CLIENT_NAME!)}`));
  const got = await sql<{ k: string }>`select e.lobbyist_id || '|' || em.name || '|' || cl.name as k from lobbying_engagements e
      join lobbying_employers em on em.id = e.employer_id join lobbying_clients cl on cl.id = e.client_id where e.year = 2021`.execute(t.ctx.db);
  const have = new Set(
    got.rows.map((x) =>
      x.k
        .split('|')
        .map((p, i) => (i ? letters(p) : p))
        .join('|'),
    ),
  );
  assert.deepEqual(
    [...have].filter((k) => !want.has(k)),
    [],
    'an engagement names an organisation its row does not',
  );
  assert.equal(have.size, want.size);
});

test('committee history of the Legistar era: every term and attendance row of the files (bare CR line endings), dated, people matched or kept apart', async () => {
  const lines = (f: string) =>
    readFileSync(new URL(`../../../../sample/committee-history/${f}`, import.meta.url), 'utf8')
      .split('\r')
      .filter((l) => l !== '');
  const terms = lines('committee_terms_clean.csv');
  const attendance = lines('attendance_clean.csv').slice(1);
  assert.equal(terms.length, 2524);
  assert.equal(attendance.length, 15_448);
  const r = await sql<Record<string, number>>`select
      (select count(*)::int from committee_terms) as terms,
      (select count(*)::int from committee_attendance) as attendance,
      (select count(*)::int from committee_attendance where present) as present,
      (select count(distinct person_id)::int from committee_terms) as people,
      (select count(*)::int from people where id like 'council-flow-%' and (current or kind <> 'alderperson')) as wrongly_current,
      (select count(*)::int from committee_terms where start_date is null or end_date is null or start_date > end_date) as undated`.execute(t.ctx.db);
  assert.deepEqual(r.rows[0], {
    terms: 2524,
    attendance: 15_448,
    present: attendance.filter((l) => l.endsWith(',1')).length,
    people: 80,
    wrongly_current: 0,
    undated: 0,
  });
  // "Burnett, Jr., Walter" of the files is the alderperson of the roster, not a second person.
  const burnett = await sql<{ id: string; terms: number }>`select p.id, count(*)::int as terms from committee_terms t join people p on p.id = t.person_id
      where p.family_name = 'Burnett' group by p.id`.execute(t.ctx.db);
  assert.equal(burnett.rows.length, 1);
  assert.ok(!burnett.rows[0]!.id.startsWith('council-flow-'));
  assert.equal(burnett.rows[0]!.terms, terms.filter((l) => l.startsWith('"Burnett, Jr., Walter"')).length);
  assert.deepEqual(
    [shortUsDate('5/16/11'), shortUsDate('3/11/69'), shortUsDate('8/31/16 0:00'), shortUsDate('31/8/2016x')],
    ['2011-05-16', '1969-03-11', '2016-08-31', null],
  );
});

test('a second ingest of the sample changes nothing', async () => {
  const before = await sql<{ at: string }>`select max(updated_at)::text as at from roll_calls`.execute(t.ctx.db);
  const report = await t.ctx.services.ingest.run('sample', {});
  assert.ok(report.seen > 0);
  assert.equal(report.changed, 0);
  const after = await sql<{ at: string }>`select max(updated_at)::text as at from roll_calls`.execute(t.ctx.db);
  assert.deepEqual(after.rows, before.rows);
});
