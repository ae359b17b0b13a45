// Roll calls and individual votes.
import { sql } from 'kysely';
import { col, type SortPlan } from './keyset.ts';
import { type Db, updatedSince, votesJson } from './repo-sql.ts';
import type { VoteValue } from './tables.ts';

export const rollCallColumns = [
  'r.id',
  'r.matter_id',
  'r.meeting_id',
  'r.body_id',
  'r.date',
  'r.action_name',
  'r.result',
  'r.yea',
  'r.nay',
  'r.absent',
  'r.not_voting',
  'r.present',
  'r.recused',
  'r.vacant',
  'r.rising_vote',
  'r.tallies_published',
  'r.source_url',
  'r.updated_at',
  // The votes listed person by person; lower than the tally's total where the source left some out.
  sql<number>`(select count(*)::int from votes vr where vr.roll_call_id = r.id)`.as('votes_reported'),
] as const;

export function rollCallSortPlan(sort: string): SortPlan {
  const dir = sort === 'date' ? 'asc' : 'desc';
  return {
    name: sort === 'date' ? 'date' : '-date',
    keys: [
      { expr: col('r.date'), dir, cast: 'date', alias: 'date' },
      { expr: col('r.id'), dir: 'asc', cast: 'text', alias: 'id' },
    ],
  };
}

export interface RollCallFilters {
  matterId?: string | undefined;
  meeting?: string | undefined;
  body?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  split?: boolean | undefined;
  updatedSince?: string | undefined;
}

export function rollCallListQuery(db: Db, f: RollCallFilters) {
  let qb: any = db
    .selectFrom('roll_calls as r')
    .leftJoin('matters as m', 'm.id', 'r.matter_id')
    .select([...rollCallColumns, 'm.record_number']);
  if (f.matterId !== undefined) qb = qb.where('r.matter_id', '=', f.matterId);
  if (f.meeting !== undefined) qb = qb.where('r.meeting_id', '=', f.meeting);
  if (f.body !== undefined) qb = qb.where('r.body_id', '=', f.body);
  if (f.from !== undefined) qb = qb.where('r.date', '>=', f.from);
  if (f.to !== undefined) qb = qb.where('r.date', '<=', f.to);
  if (f.split === true) qb = qb.where('r.yea', '>', 0).where('r.nay', '>', 0);
  if (f.split === false) qb = qb.where((eb: any) => eb.or([eb('r.yea', '=', 0), eb('r.nay', '=', 0)]));
  return updatedSince(qb, 'r.updated_at', f.updatedSince);
}

export async function rollCallDetail(db: Db, id: string) {
  const row = await db
    .selectFrom('roll_calls as r')
    .leftJoin('matters as m', 'm.id', 'r.matter_id')
    .select([...rollCallColumns, 'm.record_number', 'm.title as matter_title'])
    .select(votesJson.as('votes'))
    .where('r.id', '=', id)
    .executeTakeFirst();
  return row;
}

/**
 * Votes newest first. The order (date desc, roll_call_id, person_id) matches the index
 * votes_person (person_id, date desc, roll_call_id): "how did this alderperson vote" pages by an
 * index range scan that starts at the cursor.
 */
export const votesSortPlan: SortPlan = {
  name: '-date',
  keys: [
    { expr: col('v.date'), dir: 'desc', cast: 'date', alias: 'date' },
    { expr: col('v.roll_call_id'), dir: 'asc', cast: 'text', alias: 'roll_call_id' },
    { expr: col('v.person_id'), dir: 'asc', cast: 'text', alias: 'person_id' },
  ],
};

export interface VoteFilters {
  matterId?: string | undefined;
  person?: string | undefined;
  meeting?: string | undefined;
  rollCall?: string | undefined;
  value?: VoteValue | undefined;
  from?: string | undefined;
  to?: string | undefined;
  updatedSince?: string | undefined;
}

/** Votes (alias `v`) matching the filters, the table's own columns: page it, then read the page through votePageRows. */
export function voteListQuery(db: Db, f: VoteFilters) {
  let qb: any = db.selectFrom('votes as v').select(['v.roll_call_id', 'v.person_id', 'v.value', 'v.date', 'v.matter_id', 'v.updated_at']);
  if (f.person !== undefined) qb = qb.where('v.person_id', '=', f.person);
  if (f.matterId !== undefined) qb = qb.where('v.matter_id', '=', f.matterId);
  if (f.rollCall !== undefined) qb = qb.where('v.roll_call_id', '=', f.rollCall);
  if (f.meeting !== undefined) qb = qb.where('v.roll_call_id', 'in', db.selectFrom('roll_calls as r').select('r.id').where('r.meeting_id', '=', f.meeting));
  if (f.value !== undefined) qb = qb.where('v.value', '=', f.value);
  if (f.from !== undefined) qb = qb.where('v.date', '>=', f.from);
  if (f.to !== undefined) qb = qb.where('v.date', '<=', f.to);
  return updatedSince(qb, 'v.updated_at', f.updatedSince);
}

/**
 * A page of votes (voteListQuery's, paged, as `v`) with who voted and what each roll call was
 * about, joined on the page's rows alone. Joined before the page was cut, the join was planned
 * for every vote of the filter (a person has about 100,000): PostgreSQL sized a Memoize cache
 * for that many on every run, ten times the cost of the page's own reads, and never settled on
 * one plan for the prepared statement.
 */
export function votePageRows(db: Db, paged: any) {
  return (db as any)
    .selectFrom(paged.as('v'))
    .innerJoin('people as p', 'p.id', 'v.person_id')
    .innerJoin('roll_calls as r', 'r.id', 'v.roll_call_id')
    .leftJoin('matters as m', 'm.id', 'v.matter_id')
    .select([
      'v.roll_call_id',
      'v.person_id',
      'p.name as person_name',
      'p.ward',
      'v.value',
      'v.date',
      'v.matter_id',
      'm.record_number',
      'r.action_name',
      'r.meeting_id',
      'v.updated_at',
    ]);
}
