// Matters: the list with its filters and text search, and the detail document in one query.
import { type RawBuilder, sql } from 'kysely';
import { col, type SortPlan } from './keyset.ts';
import { RANKED_CANDIDATES } from './schema-legislation.ts';
import type { PostingsPlan, Requirement } from './search-postings.ts';
import {
  type Db,
  jsonRows,
  type RollCallShape,
  rank,
  recordEquals,
  rollCallObject,
  rollCallWithVotesJson,
  tsQuery,
  updatedSince,
  voteValuesJson,
  votesJson,
} from './repo-sql.ts';

export interface MatterFilters {
  type?: string | undefined;
  status?: string | undefined;
  sponsor?: string | undefined;
  body?: string | undefined;
  introducedFrom?: string | undefined;
  introducedTo?: string | undefined;
  q?: string | undefined;
  updatedSince?: string | undefined;
}

export const matterColumns = [
  'm.id',
  'm.record_number',
  'm.legacy_record_number',
  'm.type',
  'm.title',
  'm.status',
  'm.category',
  'm.key_legislation',
  'm.introduction_date',
  'm.final_action_date',
  'm.last_action_date',
  'm.controlling_body_id',
  'm.topics',
  'm.sponsor_names',
  'm.source_url',
  'm.updated_at',
] as const;

/** A candidate of a search with the list's columns (the answers' retrieval reads them). */
const candidateColumns = [...matterColumns, 'm.search'] as const;
/** A candidate of the list's search: what ranking it needs; the page's columns are read for its rows only (matterPageRows). */
const rankedColumns: readonly CandidateColumn[] = ['m.id', 'm.search'];
type CandidateColumn = (typeof candidateColumns)[number];

const id = { expr: col('m.id'), dir: 'asc', cast: 'text', alias: 'id' } as const;
const intro = (dir: 'asc' | 'desc') => ({ expr: col('m.introduction_date'), dir, nullable: true, cast: 'date', alias: 'introduction_date' }) as const;
const record = (dir: 'asc' | 'desc') => ({ expr: col('m.record_number'), dir, cast: 'text', alias: 'record_number' }) as const;

export function matterSortPlan(sort: string): SortPlan {
  switch (sort) {
    case 'relevance':
      return { name: sort, keys: [{ expr: col('m.rank'), dir: 'desc', cast: 'real', alias: 'rank' }, id] };
    case 'introduced':
      return { name: sort, keys: [intro('asc'), id] };
    case 'record':
      return { name: sort, keys: [record('asc')] };
    case '-record':
      return { name: sort, keys: [record('desc')] };
    default:
      return { name: '-introduced', keys: [intro('desc'), id] };
  }
}

// Record numbers look like O2023-0001234, SO2026-0025407, Or2026-0028321, CL2023-0003511.
export const recordNumberPattern = /^[A-Za-z]{1,4}\d{4}-\d{1,10}$/;

const byRecency = sql`m.introduction_date desc nulls last, m.id`;

/**
 * Ranking first looks among the newest matters only: if they hold RANKED_CANDIDATES matches,
 * those are exactly the most recent matches overall (any other match is older than all of them),
 * found by walking the date index instead of fetching every match of a common term. Otherwise
 * the query falls back to every match, which is then cheap because there are few.
 */
export const RECENT_WINDOW = 10_000;

/**
 * The second walk covers this many times the first window. It is taken when the first window held
 * at least PROMISING matches: at that density the wider walk is expected to reach
 * RANKED_CANDIDATES (with a quarter to spare) and stops there, reading consecutive pages, where
 * fetching every match of a term in 2–3 % of matters through the GIN index reads as many scattered
 * pages as it has matches (measured on the benchmark's 200,000 matters, PostgreSQL 15, warm:
 * "lead service line replacement" 2,045 pages and 25 ms walking against 4,916 pages through the
 * index; "speed humps" 2,413 against 4,274). A sparser term still goes to the index at once.
 */
const WIDER = 4;
const PROMISING = Math.ceil((RANKED_CANDIDATES / WIDER) * 1.25);

/**
 * The RANKED_CANDIDATES most recent matches of the filters, with `columns` (by default the list's columns and the tsvector). A common term is
 * answered by walking the date index over the newest RECENT_WINDOW matters (they are stored
 * nearly in date order, so that walk reads few pages), then, at a density that promises enough, over
 * the newest WIDER × RECENT_WINDOW; a sparse one, which those rows hold too few of, by its matches
 * through the GIN index, the newest 500 kept. Only those 500 are ranked, after
 * they are chosen: before, the rank was computed for every match of a sparse term (thousands).
 * (Measured on PostgreSQL 15 with the benchmark's 200,000 matters: letting the planner choose
 * between the two plans in one statement read up to ten times the pages for these terms — a
 * bitmap over 18,000 matches for a common one, a walk of 40,000 rows for a sparse one. Joining
 * the page's columns after ranking only id and tsvector then read 2,000 pages more than carrying
 * them; with the postings, the hash index on ids and generic plans it is the cheaper way, and the
 * list takes it: matterListQuery.)
 */
export function recentMatches(
  db: Db,
  f: MatterFilters,
  recentWindow = RECENT_WINDOW,
  postings?: PostingsPlan | null,
  columns: readonly CandidateColumn[] = candidateColumns,
) {
  if (walksPostings(f, postings)) return postingsMatches(db, f, postings, columns);
  const keys = (from: any) => filtersOf(db, from.select([...columns]), f);
  const walk = (window: number) =>
    keys(db.selectFrom(db.selectFrom('matters as m').selectAll('m').orderBy(byRecency).limit(window).as('m')))
      .orderBy(byRecency)
      .limit(RANKED_CANDIDATES);
  // Few matches among the newest rows means a sparse term: fetching its matches through the text
  // index beats walking the date index further, so the order is given on an expression (`+ 0`,
  // same order) that the date index cannot serve, and the planner cannot choose that walk.
  const all = keys(db.selectFrom('matters as m')).orderBy(sql`m.introduction_date + 0 desc nulls last, m.id`).limit(RANKED_CANDIDATES);
  // Exactly one branch answers, each guarded by one-time filters evaluated left to right: the wider
  // walk runs only when the first fell short with PROMISING matches or more, every match only when
  // the walks fell short. Whichever answers holds RANKED_CANDIDATES matches with no other match
  // newer than them, or every match: the same 500 in each case.
  return sql`(with near as (${walk(recentWindow)}), found as (select count(*) as n from near),
    wide as (${walk(recentWindow * WIDER)}), wide_found as (select count(*) as n from wide)
    select * from near where (select n from found) >= ${RANKED_CANDIDATES}
    union all
    select * from wide where (select n from found) < ${RANKED_CANDIDATES} and (select n from found) >= ${PROMISING}
      and (select n from wide_found) >= ${RANKED_CANDIDATES}
    union all
    select * from (${all}) a where (select n from found) < ${RANKED_CANDIDATES}
      and ((select n from found) < ${PROMISING} or (select n from wide_found) < ${RANKED_CANDIDATES}))`;
}

/** Whether a search of these filters walks the postings with this plan. */
function walksPostings(f: MatterFilters, postings: PostingsPlan | null | undefined): postings is PostingsPlan {
  return Boolean(postings) && f.q !== undefined && !recordNumberPattern.test(f.q.trim());
}

/** The walk's query: PostgreSQL's own parse, one parameter (see PostingsPlan.tsquery). */
const parsedQuery = (plan: PostingsPlan) => sql`${plan.tsquery}::tsquery`;

/**
 * Whether the list's statement for these filters is worth preparing (kernel/db.ts
 * `preparedStatement`): a search walking the postings of at most four lexemes with no filter but
 * `updated_since`, the common search. Its plan is the fenced walk whatever the values, and its text
 * one of a few per connection (the walk's length, `updated_since` or not, a cursor or not), so
 * PostgreSQL plans it once per connection instead of on every search (0.6 ms of PostgreSQL's 3 ms).
 */
export function preparedSearch(f: MatterFilters, postings: PostingsPlan | null | undefined): boolean {
  const { q, updatedSince, ...others } = f;
  return walksPostings(f, postings) && postings.walk.length <= 4 && Object.values(others).every((v) => v === undefined);
}

/** Whether the postings hold, for the matter of posting `p`, one of these lexemes. */
const holds = (r: Requirement) =>
  sql`(select true from matter_postings x where x.lexeme in (${sql.join([...r])}) and x.introduced = p.introduced and x.matter_id = p.matter_id limit 1)`;

/**
 * The same RANKED_CANDIDATES most recent matches, found through the postings (migration 0230,
 * ./search-postings.ts): the walked requirement's postings newest first (one index range per
 * lexeme, merged in order; a matter holding two of its lexemes is taken from the first), then
 * each matter's row, checked against the query and the filters, until RANKED_CANDIDATES are
 * found. Postings are keyed by the date ('-infinity' for none) and then the id: the order
 * `byRecency` gives the rows.
 *
 * Each step is fenced (`offset 0`) so that PostgreSQL keeps the walk: left to itself it judged a
 * hash join of every match cheaper (measured on the benchmark's 200,000 matters, PostgreSQL 15:
 * 90 ms and 41,000 buffers for "speed humps" against 4.6 ms and 3,500 walking); the look-up that
 * skips a lexeme taken already is a scalar subquery, which is never turned into a join.
 */
function postingsMatches(db: Db, f: MatterFilters, plan: PostingsPlan, columns: readonly CandidateColumn[]) {
  const branches = plan.walk.map((lexeme, i) => {
    const conditions = [sql`p.lexeme = ${lexeme}`];
    if (i > 0) conditions.push(sql`${holds(plan.walk.slice(0, i))} is null`);
    return sql`(select p.matter_id, p.introduced from matter_postings p where ${sql.join(conditions, sql` and `)} order by p.introduced desc, p.matter_id)`;
  });
  const row = filtersOf(db, db.selectFrom('matters as m').select([...columns]), f, parsedQuery(plan)).where(sql<boolean>`m.id = c.matter_id`);
  return sql`(select m.* from (select w.matter_id, w.introduced from (${sql.join(branches, sql` union all `)}) w
      order by w.introduced desc, w.matter_id offset 0) c
    cross join lateral (${row} offset 0) m
    order by c.introduced desc, c.matter_id limit ${RANKED_CANDIDATES})`;
}

/**
 * The rank of a candidate (alias `c`): an exact record number ranks first, as it always matched.
 * A search walking the postings ranks with the walk's parsed query; `weights`, ts_rank's weights
 * of the labels when not its default (repo-sql.ts TITLE_AS_NAME).
 */
export function candidateRank(q: string, alias = 'c', walked?: PostingsPlan, weights?: RawBuilder<unknown>) {
  const exact = recordNumberPattern.test(q.trim());
  return rank(`${alias}.search`, q.trim(), exact ? sql<boolean>`true` : undefined, walked ? parsedQuery(walked) : undefined, weights);
}

/**
 * The list's rows for `sort`. By relevance they are the candidates' ids and ranks only (`m.id`,
 * `m.rank`): the page's keyset and order read them, and `matterPageRows` reads the page's columns
 * for the rows of the page. Carrying every column of the 500 candidates through the ranking and
 * its sort cost PostgreSQL 11–15 % more for the same rows (measured on the benchmark's 200,000
 * matters, PostgreSQL 15, generic plans: 0.70 against 0.83 ms a search in `EXPLAIN ANALYZE`, 0.79–0.84
 * against 0.92–0.94 ms under pgbench).
 */
export function matterListQuery(db: Db, f: MatterFilters, sort: string, recentWindow = RECENT_WINDOW, postings?: PostingsPlan | null) {
  if (sort !== 'relevance') return filtersOf(db, db.selectFrom('matters as m').select([...matterColumns]), f);
  const ranked = (db as any)
    .selectFrom(recentMatches(db, f, recentWindow, postings, rankedColumns).as('c'))
    .select([sql.ref('c.id').as('id'), candidateRank(f.q ?? '', 'c', walksPostings(f, postings) ? postings : undefined).as('rank')]);
  return db.selectFrom(ranked.as('m')).selectAll('m' as never);
}

/**
 * The page of a search by relevance (`paged`, the ranked ids and ranks of `matterListQuery` with
 * their keyset, order and limit) with the list's columns, each row read by its id after the page
 * is cut (fenced, so the 51 look-ups stay look-ups). `m` stays the page's alias: the sort plan's
 * keys and a nested read's parts (`matterParts`) read `m.id` and `m.rank`.
 */
export function matterPageRows(db: Db, paged: any) {
  const row = (db as any)
    .selectFrom('matters as t')
    .select(matterColumns.map((c) => `t.${c.slice(2)}`))
    .where(sql<boolean>`t.id = m.id`)
    .offset(sql.lit(0));
  return (db as any)
    .selectFrom(paged.as('m'))
    .innerJoinLateral(row.as('t'), (join: any) => join.onTrue())
    .selectAll('t')
    .select('m.rank');
}

/** The filters of the matter list, over `from` (the matters table as `m`); `query`, the text query when already parsed. */
function filtersOf(db: Db, from: any, f: MatterFilters, query?: RawBuilder<unknown>) {
  let qb: any = from;
  if (f.q !== undefined) {
    const q = f.q.trim();
    // A record number typed exactly is found through its own index and ranked first.
    // Its tokens ("o2023", "-0001234") are common to thousands of records, so it skips the
    // full-text index entirely.
    qb = qb.where(recordNumberPattern.test(q) ? recordEquals('m.record_number', q) : sql<boolean>`m.search @@ ${query ?? tsQuery(q)}`);
  }
  if (f.type !== undefined) qb = qb.where('m.type', '=', f.type);
  if (f.status !== undefined) qb = qb.where('m.status', '=', f.status);
  if (f.body !== undefined) qb = qb.where('m.controlling_body_id', '=', f.body);
  if (f.sponsor !== undefined) {
    qb = qb.where('m.id', 'in', db.selectFrom('matter_sponsors').select('matter_id').where('person_id', '=', f.sponsor));
  }
  if (f.introducedFrom !== undefined) qb = qb.where('m.introduction_date', '>=', f.introducedFrom);
  if (f.introducedTo !== undefined) qb = qb.where('m.introduction_date', '<=', f.introducedTo);
  return updatedSince(qb, 'm.updated_at', f.updatedSince);
}

/** The distinct values of an open vocabulary column, by a loose index scan (cheap on big tables). */
export async function distinctValues(db: Db, column: 'type' | 'status'): Promise<string[]> {
  const c = sql.ref(column);
  const rows = await sql<{ v: string | null }>`
    with recursive t(v) as (
      (select ${c} from matters where ${c} is not null order by ${c} limit 1)
      union all
      select (select ${c} from matters where ${c} > t.v order by ${c} limit 1) from t where t.v is not null
    ) select v from t where v is not null`.execute(db);
  return rows.rows.map((r) => r.v!);
}

export async function matterIdByRecord(db: Db, record: string): Promise<string | undefined> {
  const row = await db.selectFrom('matters as m').select('m.id').where(recordEquals('m.record_number', record)).executeTakeFirst();
  return row?.id;
}

/** A matter's (alias `m`) sponsors, actions and roll calls as JSON: its detail's parts, which a list may carry too. */
export const matterParts = {
  sponsors: () => jsonRows(sql`select s.person_id as "personId", s.name, s.role from matter_sponsors s where s.matter_id = m.id order by s.sort, s.name`),
  actions: () =>
    jsonRows(
      sql`select a.id, a.sort, a.action_date as date, a.action_name as name, a.action_text as text, a.body_id as "bodyId",
        a.body_name as "bodyName", a.meeting_id as "meetingId", a.result
        from matter_actions a where a.matter_id = m.id order by a.sort, a.action_date, a.id`,
    ),
  /**
   * Each roll call as `{ j }`; with `votes` `all`, every vote of it too (as the roll call's detail
   * has them), with `values` each vote's person id and value only; `shape`, every field of the roll
   * call or its core (./repo-sql.ts).
   */
  rollCalls: (votes: 'none' | 'all' | 'values' = 'none', shape: RollCallShape = 'full') => {
    const j = votes === 'none' ? rollCallObject(shape) : rollCallWithVotesJson(votes === 'all' ? votesJson : voteValuesJson, shape);
    return jsonRows(sql`select ${j} as j from roll_calls r where r.matter_id = m.id order by r.date, r.id`);
  },
};

/** The whole detail document in one round trip: the matter row plus JSON arrays of its parts. */
export function matterDetailQuery(db: Db, record: string) {
  return db
    .selectFrom('matters as m')
    .select([...matterColumns])
    .select([
      matterParts.sponsors().as('sponsors'),
      matterParts.actions().as('actions'),
      jsonRows(sql`select t.name, t.kind, t.url from matter_attachments t where t.matter_id = m.id order by t.sort, t.name`).as('attachments'),
      sql<unknown>`(select json_build_object('id', o.id, 'recordNumber', o.record_number, 'title', o.title) from matters o where o.id = m.substitute_of_id)`.as(
        'substitute_of',
      ),
      jsonRows(sql`select s.id, s.record_number as "recordNumber", s.title from matters s where s.substitute_of_id = m.id order by s.record_number`).as(
        'substitutes',
      ),
      jsonRows(sql`select x.related_record_number as v from matter_relations x where x.matter_id = m.id order by 1`).as('relations'),
      matterParts.rollCalls().as('roll_calls'),
    ])
    .where(recordEquals('m.record_number', record));
}

export async function matterDetail(db: Db, record: string) {
  return matterDetailQuery(db, record).executeTakeFirst();
}
