// Search by relevance ranks the most recent RANKED_CANDIDATES matches of a query. The plan that
// finds them (repo-matters.ts: the candidates' keys only, ranked, then the page's columns) must
// answer exactly what the plain definition answers — every match ranked, the newest 500 kept,
// ordered by rank then id, as the service answered before — for the benchmark's queries, on the
// bundled sample and on made-up matters that pass the cap, through the matters list (every page)
// and the /search results (the page of matters); and through the postings (migration 0230), whichever
// of a query's requirements is walked.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { matterListQuery } from '../../../src/modules/public-data/repo-matters.ts';
import { RANKED_CANDIDATES } from '../../../src/modules/public-data/schema-legislation.ts';
import { tsQuery } from '../../../src/modules/public-data/repo-sql.ts';
import { createPostingsPlanner, parseTsquery, requirementsOf } from '../../../src/modules/public-data/search-postings.ts';
import { searchQueryText } from '../../../src/modules/public-data/search-text.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

/** The benchmark's default queries (bench/run.ts), and a few shapes besides. */
const queries = [
  'speed humps',
  'tavern',
  'lead service line replacement',
  'affordable housing',
  'city -budget',
  '"street repair" or zoning',
  'nonexistentword',
];

let t: TestContext;
before(async () => {
  t = await startTestContext({ sample: true });
  // Made-up matters (source 'test') so that common terms pass the cap: dates shared by pairs (the
  // order's tie-break), some missing (they sort last).
  await sql`
    insert into matters (id, record_number, type, title, introduction_date, source, source_id)
    select 'test-' || i, 'O2000-' || lpad(i::text, 7, '0'), case when i % 4 = 0 then 'Resolution' else 'Ordinance' end,
           (array['Zoning change', 'Tavern license', 'Speed humps on the street', 'Budget transfer', 'Lead service line replacement',
             'Affordable housing', 'Street repair'])[i % 7 + 1] || case when i % 10 <> 0 then ' for the city' else '' end,
           case when i % 50 = 0 then null else date '2000-01-01' + (i / 2) end, 'test', 'test-' || i
      from generate_series(1, 2500) as i`.execute(t.ctx.db);
});
after(() => t.close());

/** The plain definition: every match ranked, the 500 most recent kept, by rank then id. */
async function reference(q: string, type?: string): Promise<string[]> {
  const { rows } = await sql<{ id: string; rank: number }>`
    select id, rank from (
      select m.id, cast(ts_rank(m.search, ${tsQuery(q)}) as real) as rank from matters m
       where m.search @@ ${tsQuery(q)} ${type ? sql`and m.type = ${type}` : sql``}
       order by m.introduction_date desc nulls last, m.id limit ${RANKED_CANDIDATES}) c
    order by rank desc, id`.execute(t.ctx.db);
  return rows.map((r) => r.id);
}

/** Every page of the matters list by relevance, as the API serves it. */
async function listed(q: string, type?: string): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await t.ctx.services.publicData.matters.list({ q, limit: 200, ...(type ? { type } : {}), ...(cursor ? { cursor } : {}) } as never);
    out.push(...page.data.map((m: any) => m.id as string));
    cursor = page.meta.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

test('the matters list by relevance answers the plain definition for the benchmark queries (every page, same set and order)', async () => {
  let capped = 0;
  for (const q of queries) {
    const expected = await reference(q);
    if (expected.length === RANKED_CANDIDATES) capped++;
    const got = await listed(q);
    assert.deepEqual(got, expected, `"${q}"`);
  }
  assert.ok(capped >= 2, 'some queries match more than the cap');
  // With a filter the candidates are the filter's matches.
  assert.deepEqual(await listed('city', 'Ordinance'), await reference('city', 'Ordinance'));
});

test('the /search results hold the same matters in the same order', async () => {
  for (const q of queries) {
    const expected = (await reference(q)).slice(0, 50);
    const page = await t.ctx.services.publicData.search({ q, type: 'matter', limit: 50 } as never);
    assert.deepEqual(
      page.data.map((r: any) => r.id),
      expected,
      `"${q}"`,
    );
  }
});

/** Matches of `q` among the `window` newest matters. */
async function matchesAmongNewest(q: string, window: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from (select search from matters order by introduction_date desc nulls last, id limit ${window}) m
     where m.search @@ ${tsQuery(q)}`.execute(t.ctx.db);
  return rows[0]!.n;
}

test('every way of finding the candidates (the newest matters, a wider walk, every match) gives the same answer', async () => {
  const branches = { near: 0, wide: 0, all: 0 };
  for (const q of queries) {
    const expected = await reference(q);
    for (const window of [1, 150, 300, 700, 1500, 1_000_000]) {
      const rows = await matterListQuery(t.ctx.db, { q }, 'relevance', window).orderBy('m.rank', 'desc').orderBy('m.id').execute();
      assert.deepEqual(
        rows.map((r: { id: string }) => r.id),
        expected,
        `"${q}" with a window of ${window}`,
      );
      // Which branch answered, by the rule of recentMatches.
      const near = await matchesAmongNewest(q, window);
      if (near >= RANKED_CANDIDATES) branches.near++;
      else if (near >= Math.ceil((RANKED_CANDIDATES / 4) * 1.25) && (await matchesAmongNewest(q, window * 4)) >= RANKED_CANDIDATES) branches.wide++;
      else branches.all++;
    }
  }
  assert.ok(branches.near > 0 && branches.wide > 0 && branches.all > 0, JSON.stringify(branches));
});

test('walking the postings gives the same answer whichever requirement is walked', async () => {
  let walked = 0;
  for (const q of [...queries, 'city', 'street or humps', '"speed humps" -budget']) {
    const expected = await reference(q);
    const { rows } = await sql<{ t: string }>`select ${tsQuery(q)}::text as t`.execute(t.ctx.db);
    const tree = parseTsquery(rows[0]!.t);
    for (const walk of tree ? requirementsOf(tree) : []) {
      const got = await matterListQuery(t.ctx.db, { q }, 'relevance', undefined, { walk, tsquery: rows[0]!.t })
        .orderBy('m.rank', 'desc')
        .orderBy('m.id')
        .execute();
      assert.deepEqual(
        got.map((r: { id: string }) => r.id),
        expected,
        `"${q}" walking ${walk.join('|')}`,
      );
      walked++;
    }
  }
  assert.ok(walked >= 12, `${walked} walks`);
});

test('the service walks the postings for a search: the rarer requirement of a common query', async () => {
  const planner = createPostingsPlanner(t.ctx.db);
  const plan = await planner.plan(searchQueryText('speed humps'));
  assert.ok(plan);
  // Its requirements: "speed", and "hump" or "humps" ('english' stems the word, 'simple' keeps it).
  // The walk is the one fewer matters hold.
  const count = async (lexemes: string[]) =>
    Number((await sql<{ n: string }>`select count(*)::text as n from matter_postings where lexeme = any(${lexemes})`.execute(t.ctx.db)).rows[0]!.n);
  const walked = [...plan.walk].sort().join('|');
  assert.ok(walked === 'speed' || walked === 'hump|humps', walked);
  const other = walked === 'speed' ? ['hump', 'humps'] : ['speed'];
  assert.ok((await count([...plan.walk])) <= (await count(other)));
  assert.equal(await planner.plan(searchQueryText('-budget')), null);
});
