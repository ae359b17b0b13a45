// The postings of matters (migration 0230) and what a search requires of them
// (src/modules/public-data/search-postings.ts): the requirements read from PostgreSQL's own
// tsquery text, and the postings the triggers keep, compared with those recomputed
// from the matters after every kind of write.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { preparedSearch } from '../../../src/modules/public-data/repo-matters.ts';
import { parseTsquery, planFor, requirementsOf } from '../../../src/modules/public-data/search-postings.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

const required = (text: string) => {
  const tree = parseTsquery(text);
  return tree
    ? requirementsOf(tree)
        .map((r) => [...r].sort().join('|'))
        .sort()
    : [];
};

test('requirements: & and phrases require each side, | one of each side, ! and prefixes nothing', () => {
  assert.deepEqual(required("'speed' & 'hump' | 'speed' & 'humps'"), ['hump|humps', 'speed']);
  assert.deepEqual(required("'lead' <-> 'servic' & !'tavern' | 'zone'"), ['lead|zone', 'servic|zone']);
  assert.deepEqual(required("'lead' <2> 'line'"), ['lead', 'line']);
  assert.deepEqual(required("!'budget'"), []);
  assert.deepEqual(required("'budget' | !'tax'"), []);
  assert.deepEqual(required("'bud':* & 'tax'"), ['tax']);
  assert.deepEqual(required("'tax':AB & ( 'a' | 'b' )"), ['a|b', 'tax']);
  assert.deepEqual(required("'it''s' & 'c\\\\d'"), ['c\\d', "it's"]);
  assert.deepEqual(required(''), []);
  // Two long sides (a long query's two parses): at most 16 requirements a side, so at most 256 unions.
  const words = Array.from({ length: 40 }, (_, i) => `'w${i}'`);
  const long = required(`${words.join(' & ')} | ${words.map((w) => w.replace("'w", "'v")).join(' & ')}`);
  assert.ok(long.length > 0 && long.length <= 16 && long.every((r) => r.split('|').length === 2), String(long));
  assert.equal(required(`${words.slice(0, 10).join(' & ')} | ${words.slice(0, 10).join(' & ')}`).length, 10);
  assert.throws(() => parseTsquery("'a' &"));
  assert.throws(() => parseTsquery("'a"));
});

test('the walk is the requirement fewest matters hold; nothing required is no plan', () => {
  const counts = new Map([
    ['speed', 8686],
    ['hump', 5054],
  ]);
  assert.deepEqual(planFor([['speed'], ['hump', 'humps']], counts, "'speed' & 'hump'"), { walk: ['hump', 'humps'], tsquery: "'speed' & 'hump'" });
  assert.equal(planFor([], counts, ''), null);
});

test('only the common search is prepared: a walk of at most four lexemes, no filter but updated_since', () => {
  // Each prepared text is a statement kept on every pooled connection, so the texts must stay few
  // whatever callers send (repo-matters.ts preparedSearch).
  const plan = (walk: string[]) => ({ walk, tsquery: "'x'" });
  assert.equal(preparedSearch({ q: 'speed humps' }, plan(['hump', 'humps'])), true);
  assert.equal(preparedSearch({ q: 'speed humps', updatedSince: '2026-01-01T00:00:00Z' }, plan(['speed'])), true);
  assert.equal(preparedSearch({ q: 'a or b or c or d' }, plan(['a', 'b', 'c', 'd'])), true);
  assert.equal(preparedSearch({ q: 'a or b or c or d or e' }, plan(['a', 'b', 'c', 'd', 'e'])), false);
  for (const filter of ['type', 'status', 'sponsor', 'body', 'introducedFrom', 'introducedTo']) {
    assert.equal(preparedSearch({ q: 'speed humps', [filter]: 'x' }, plan(['speed'])), false, filter);
  }
  // No plan (nothing required), or a record number (found by its own index): not a walk.
  assert.equal(preparedSearch({ q: '-budget' }, null), false);
  assert.equal(preparedSearch({ q: 'O2023-0001234' }, plan(['o2023'])), false);
  assert.equal(preparedSearch({}, plan(['speed'])), false);
});

let t: TestContext;
before(async () => {
  t = await startTestContext({ sample: true });
});
after(() => t?.close());

async function assertPostingsMatch(when: string) {
  const { rows } = await sql<{ missing: number; extra: number }>`
    with want as (
      select l as lexeme, coalesce(m.introduction_date, '-infinity'::date) as introduced, m.id as matter_id
        from matters m, unnest(tsvector_to_array(m.search)) l
    ), have as (select lexeme, introduced, matter_id from matter_postings)
    select (select count(*)::int from (select * from want except all select * from have) d) as missing,
           (select count(*)::int from (select * from have except all select * from want) d) as extra`.execute(t.ctx.db);
  assert.deepEqual(rows[0], { missing: 0, extra: 0 }, when);
}

test('the triggers keep the postings equal to the matters through inserts, upserts, updates and deletes; a rebuild makes them again', async () => {
  const db = t.ctx.db;
  const before = await sql<{ n: number }>`select count(*)::int as n from matter_postings`.execute(db);
  assert.ok(before.rows[0]!.n > 1000, 'the sample is posted');
  await assertPostingsMatch('after the sample load');
  await sql`insert into matters (id, record_number, type, title, introduction_date, source, source_id)
    select 'post-' || i, 'O1999-' || lpad(i::text, 7, '0'), 'Ordinance', 'Sidewalk cafe permit ' || i, case when i % 3 = 0 then null else date '1999-01-01' + i end, 'test', 'post-' || i
      from generate_series(1, 40) as i`.execute(db);
  await assertPostingsMatch('after an insert');
  await sql`update matters set title = 'Zoning reclassification ' || id where id in ('post-1', 'post-2')`.execute(db);
  await assertPostingsMatch('after a title change');
  await sql`update matters set introduction_date = null where id = 'post-4'`.execute(db);
  await sql`update matters set introduction_date = date '2001-02-03' where id = 'post-3'`.execute(db);
  await assertPostingsMatch('after date changes');
  await sql`update matters set last_synced_at = now() where source = 'test'`.execute(db);
  await assertPostingsMatch('after an update that changes no search');
  await sql`insert into matters (id, record_number, type, title, introduction_date, source, source_id)
    values ('post-5', 'O1999-0000005', 'Ordinance', 'Driveway permit', '1999-06-01', 'test', 'post-5'),
           ('post-99', 'O1999-0000099', 'Ordinance', 'Sidewalk cafe permit', null, 'test', 'post-99')
    on conflict (id) do update set title = excluded.title, introduction_date = excluded.introduction_date`.execute(db);
  await assertPostingsMatch('after an upsert that inserts and updates');
  await sql`update matters set sponsor_names = 'Ald. Example' where id = 'post-6'`.execute(db);
  await assertPostingsMatch('after a sponsor change');
  await sql`delete from matters where source = 'test' and id <> 'post-7'`.execute(db);
  await assertPostingsMatch('after a delete');
  // A load that ran with triggers off left no postings; the rebuild makes them all again.
  await sql`delete from matter_postings`.execute(db);
  await sql`select matter_postings_rebuild()`.execute(db);
  await assertPostingsMatch('after a rebuild');
});
