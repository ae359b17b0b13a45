// Relevance ranks the most recent matches of a query. Looking among the newest matters first
// (and falling back to every match when they hold too few) must give exactly the same answer as
// fetching every match: compared here for several windows, including one where the newest rows
// suffice and one where the query always falls back.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { matterListQuery, RANKED_CANDIDATES } from '../../../src/modules/public-data/repo-matters.ts';
import { tsQuery } from '../../../src/modules/public-data/repo-sql.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

let t: TestContext;
before(async () => {
  t = await startTestContext();
  // Made-up matters for this test alone (source 'test'), enough to exceed the candidate cap: some
  // terms common, some sparse, dates shared by pairs (the order's tie-break) and some missing.
  await sql`
    insert into matters (id, record_number, type, title, introduction_date, source, source_id)
    select 'test-' || i, 'O2000-' || lpad(i::text, 7, '0'), case when i % 4 = 0 then 'Resolution' else 'Ordinance' end,
           (array['Zoning change', 'Tavern license', 'Street repair', 'Budget transfer'])[i % 4 + 1]
             || case when i % 10 <> 0 then ' for the city' else '' end,
           case when i % 50 = 0 then null else date '2000-01-01' + (i / 2) end, 'test', 'test-' || i
      from generate_series(1, 1500) as i`.execute(t.ctx.db);
});
after(() => t.close());

async function ranked(term: string, window: number, filters: Record<string, string> = {}) {
  const rows = await matterListQuery(t.ctx.db, { q: term, ...filters }, 'relevance', window)
    .orderBy('m.rank', 'desc')
    .orderBy('m.id')
    .execute();
  return rows.map((r: { id: string; rank: number }) => `${r.id}:${r.rank}`);
}

/** Matches of `term` among the `window` newest matters. */
async function matchesAmongNewest(term: string, window: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from (select search from matters order by introduction_date desc nulls last, id limit ${window}) m
     where m.search @@ ${tsQuery(term)}`.execute(t.ctx.db);
  return rows[0]!.n;
}

test('the newest-first search ranks the same candidates as fetching every match', async () => {
  const { rows } = await sql<{ n: number }>`select count(*) as n from matters`.execute(t.ctx.db);
  const total = rows[0]!.n;
  assert.ok(total > RANKED_CANDIDATES, `the seed holds ${total} matters, more than ${RANKED_CANDIDATES}`);
  const window = RANKED_CANDIDATES + Math.ceil((total - RANKED_CANDIDATES) / 2);
  const terms = ['city', 'street', 'tavern license', 'zoning', 'budget', 'nonexistentword'];
  let nearSufficed = 0;
  for (const term of terms) {
    const everything = await ranked(term, total + 1);
    if ((await matchesAmongNewest(term, window)) >= RANKED_CANDIDATES) nearSufficed++;
    assert.deepEqual(await ranked(term, window), everything, `"${term}" with a window of ${window}`);
    assert.deepEqual(await ranked(term, 1), everything, `"${term}" falling back at once`);
    assert.ok(everything.length <= RANKED_CANDIDATES);
  }
  assert.ok(nearSufficed > 0, 'at least one term is answered by the newest matters alone');
  // With a filter the newest rows hold fewer matches; the answer is still the same.
  assert.deepEqual(await ranked('city', window, { type: 'Ordinance' }), await ranked('city', total + 1, { type: 'Ordinance' }));
});
