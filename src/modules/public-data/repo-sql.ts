// SQL fragments shared by the public-data repos.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { DB } from '../../db-schema.ts';
import { searchQueryText } from './search-text.ts';

export type Db = Kysely<DB>;

/**
 * The tsquery for a free-text `q`, the one place a person's search reaches the text-search
 * parser: read once as web search syntax into a query no input can make PostgreSQL refuse
 * (./search-text.ts). The search columns index names and record numbers with the 'simple'
 * configuration and prose with 'english' (stemmed); OR-ing both parses of the query matches
 * either kind of token, and both forms are answered by the GIN index.
 */
export function tsQuery(q: string): RawBuilder<unknown> {
  const text = searchQueryText(q);
  return sql`(to_tsquery('english', ${text}) || to_tsquery('simple', ${text}))`;
}

/**
 * `ts_rank`'s weights of the labels D, C, B and A (PostgreSQL's "Ranking Search Results"; its
 * default is {0.1, 0.2, 0.4, 1.0}) with B counted as A: a matter's title is labelled B, below its
 * record number (A), where a committee's name, a meeting's body and a person's name are A. Across
 * kinds (the search of every kind, ./repo-search.ts) a record's own title or name then weighs the
 * same whatever its kind.
 */
export const TITLE_AS_NAME = sql`'{0.1, 0.2, 1.0, 1.0}'::real[]`;

/**
 * A relevance expression typed as real, so cursor values compare exactly with it. `query` is the
 * tsquery when it is at hand already parsed (a search walking the postings), else `q`'s; `weights`,
 * `ts_rank`'s weights of the labels when not its default.
 */
export function rank(
  searchColumn: string,
  q: string,
  boost?: RawBuilder<boolean>,
  query: RawBuilder<unknown> = tsQuery(q),
  weights?: RawBuilder<unknown>,
): RawBuilder<number> {
  const base = weights ? sql`ts_rank(${weights}, ${sql.ref(searchColumn)}, ${query})` : sql`ts_rank(${sql.ref(searchColumn)}, ${query})`;
  return boost ? sql<number>`cast(${base} + case when ${boost} then 10 else 0 end as real)` : sql<number>`cast(${base} as real)`;
}

/** A timestamptz rendered as ISO 8601 UTC inside JSON built by the database. */
export function isoTs(ref: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(ref)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** JSON array of a subquery's rows, `[]` when there are none. */
export function jsonRows(subquery: RawBuilder<unknown>): RawBuilder<unknown[]> {
  return sql<unknown[]>`coalesce((select json_agg(x) from (${subquery}) x), '[]'::json)`;
}

/** Each field of a roll call as presented (alias `r`), as json_build_object arguments, in the order of its presentation. */
const rollCallField = {
  id: sql`'id', r.id`,
  matterId: sql`'matterId', r.matter_id`,
  recordNumber: sql`'recordNumber', (select mx.record_number from matters mx where mx.id = r.matter_id)`,
  meetingId: sql`'meetingId', r.meeting_id`,
  bodyId: sql`'bodyId', r.body_id`,
  date: sql`'date', r.date`,
  actionName: sql`'actionName', r.action_name`,
  result: sql`'result', r.result`,
  tallies: sql`'tallies', json_build_object('yea', r.yea, 'nay', r.nay, 'absent', r.absent, 'notVoting', r.not_voting,
    'present', r.present, 'recused', r.recused, 'vacant', r.vacant, 'risingVote', r.rising_vote)`,
  talliesPublished: sql`'talliesPublished', r.tallies_published`,
  votesReported: sql`'votesReported', (select count(*)::int from votes vr where vr.roll_call_id = r.id)`,
  sourceUrl: sql`'sourceUrl', r.source_url`,
  updatedAt: sql`'updatedAt', ${isoTs('r.updated_at')}`,
} as const;
type RollCallField = keyof typeof rollCallField;

/**
 * A roll call's core fields: its own columns as stored, without what PostgreSQL computes for each
 * (the matter's record number, the tallies object, the count of votes reported, the ISO time). A
 * nested read asking for no more builds only these: PostGraphile's way, about a seventh of the
 * benchmark's nested read. Two shapes, not any set of fields, so a caller cannot make a prepared
 * statement per combination (kernel/db.ts `preparedStatement`).
 */
export const coreRollCallFields: readonly RollCallField[] = [
  'id',
  'matterId',
  'meetingId',
  'bodyId',
  'date',
  'actionName',
  'result',
  'talliesPublished',
  'sourceUrl',
];
export type RollCallShape = 'full' | 'core';

/** Each shape's json_build_object arguments, joined once: statements are built per request. */
const shapes: Record<RollCallShape, RawBuilder<unknown>> = {
  full: sql.join(Object.values(rollCallField)),
  core: sql.join(coreRollCallFields.map((f) => rollCallField[f])),
};

/** One roll call as presented (alias `r`), for the detail documents built in one round trip; `core`, its core fields only. */
export const rollCallObject = (shape: RollCallShape = 'full') => sql`json_build_object(${shapes[shape]})`;
export const rollCallJson = rollCallObject();

/** Votes of roll call `r` as JSON rows of `columns`, ordered as the roll call's detail orders them. */
const voteRows = (columns: RawBuilder<unknown>) =>
  jsonRows(sql`select ${columns} from votes v join people p on p.id = v.person_id where v.roll_call_id = r.id order by p.sort_name, v.person_id`);

/**
 * Every vote of roll call `r` as JSON: rows of a sorted subquery, which PostgreSQL turns into JSON
 * faster than objects built one by one and sorted inside the aggregate (a seventh less for the
 * benchmark's nested read).
 */
export const votesJson = voteRows(sql`v.person_id as "personId", p.name, p.ward, v.value`);

/** Each vote's person and value only, in the same order: for a reader that asks for no names (half the JSON to build). */
export const voteValuesJson = voteRows(sql`v.person_id as "personId", v.value`);

/**
 * One roll call with its votes (alias `r`), built as one JSON object: merging two (jsonb `||`)
 * costs PostgreSQL about half its throughput on a nested read. `shape`: all its fields or its core.
 */
export const rollCallWithVotesJson = (votes: RawBuilder<unknown> = votesJson, shape: RollCallShape = 'full') =>
  sql`json_build_object(${shapes[shape]}, 'votes', ${votes})`;

/** Lower-cased equality on record numbers (index matters_record_lower). */
export function recordEquals(ref: string, record: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(ref)}) = lower(${record})`;
}

/** Applies `updated_since` (records changed at or after the instant). */
export function updatedSince(qb: any, ref: string, since: string | undefined): any {
  return since === undefined ? qb : qb.where(sql.ref(ref), '>=', new Date(since));
}
