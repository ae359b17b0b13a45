// SQL of a public person's record as the website summarises it: how they voted (attendance, and
// agreement with the council's majority), who votes most like them, and how far the legislation
// they sponsored got; and the council compared side by side on the same measures.
import { type RawBuilder, sql } from 'kysely';
import type { Db } from './repo-sql.ts';
import type { compareSortKeys } from './schema-record.ts';

export interface VotingRecordRow {
  total: number;
  yea: number;
  nay: number;
  absent: number;
  other: number;
  decided: number;
  with_majority: number;
  in_minority: number;
  first: string | null;
  last: string | null;
}

/** Values that mean the person missed the roll call; every other value is attendance. */
const MISSED = sql`('Absent', 'Not Voting')`;

/**
 * A person's record as aggregates over their votes `v` joined to the roll calls `r`. The majority
 * of a roll call is the side with more yeas or nays (its tallies as published); a tie has none, so
 * it is not "decided". Only a Yea or Nay on a decided roll call counts for or against the majority.
 * The person's page and the answers' ranking of the council (repo-aggregates.ts) both count with it.
 */
export const recordColumns = sql`count(*)::int as total,
      count(*) filter (where v.value = 'Yea')::int as yea,
      count(*) filter (where v.value = 'Nay')::int as nay,
      count(*) filter (where v.value in ${MISSED})::int as absent,
      count(*) filter (where v.value not in ('Yea', 'Nay', 'Absent', 'Not Voting'))::int as other,
      count(*) filter (where v.value in ('Yea', 'Nay') and r.yea <> r.nay)::int as decided,
      count(*) filter (where r.yea <> r.nay and ((v.value = 'Yea' and r.yea > r.nay) or (v.value = 'Nay' and r.nay > r.yea)))::int as with_majority,
      count(*) filter (where r.yea <> r.nay and ((v.value = 'Yea' and r.yea < r.nay) or (v.value = 'Nay' and r.nay < r.yea)))::int as in_minority,
      min(v.date)::text as first, max(v.date)::text as last`;

/** One pass over the person's votes (index votes_person) joined to their roll calls. */
export async function votingRecord(db: Db, personId: string): Promise<VotingRecordRow> {
  const { rows } = await sql<VotingRecordRow>`
    select ${recordColumns}
    from votes v join roll_calls r on r.id = v.roll_call_id
    where v.person_id = ${personId}`.execute(db);
  return rows[0]!;
}

export interface ComparisonRow extends VotingRecordRow {
  id: string;
  name: string;
  ward: number | null;
  sponsored: number;
  passed: number;
}

/** A matter's status that says it passed (eLMS and Legistar action names). */
const PASSED = sql`'^(passed|adopted|approved)'`;

/** The sort keys of the comparison (nulls, i.e. no roll calls, last either way). */
const compareKeys: Record<(typeof compareSortKeys)[number], RawBuilder<unknown>> = {
  ward: sql`p.ward`,
  name: sql`p.sort_name`,
  attendance: sql`(vr.total - vr.absent)::float8 / nullif(vr.total, 0)`,
  alignment: sql`vr.with_majority::float8 / nullif(vr.decided, 0)`,
  minority: sql`vr.in_minority`,
  sponsored: sql`sp.sponsored`,
  passed: sql`sp.passed`,
};

/**
 * Every current alderperson's record side by side, in one statement: the same aggregates as
 * `votingRecord` per person (a lateral pass over their votes), and the matters they sponsored and
 * how many of those passed. `sort` is a key of compareOrder, "-" first for descending; ties go by ward.
 */
export async function councilComparison(db: Db, sort: string): Promise<ComparisonRow[]> {
  const desc = sort.startsWith('-');
  const key = compareKeys[(desc ? sort.slice(1) : sort) as (typeof compareSortKeys)[number]] ?? compareKeys.ward;
  const order = sql`${key} ${sql.raw(desc ? 'desc' : 'asc')} nulls last`;
  const { rows } = await sql<ComparisonRow>`
    select p.id, p.name, p.ward, vr.*, sp.sponsored, sp.passed
    from people p
    cross join lateral (select ${recordColumns} from votes v join roll_calls r on r.id = v.roll_call_id where v.person_id = p.id) vr
    cross join lateral (
      select count(distinct m.id)::int as sponsored, count(distinct m.id) filter (where m.status ~* ${PASSED})::int as passed
      from matter_sponsors s join matters m on m.id = s.matter_id where s.person_id = p.id) sp
    where p.kind = 'alderperson' and p.current
    order by ${order}, p.ward asc nulls last, p.sort_name, p.id`.execute(db);
  return rows;
}

export interface AlikeRow {
  id: string;
  name: string;
  ward: number | null;
  together: number;
  agreed: number;
}

/**
 * The people who vote most like this one: over the roll calls both attended (neither absent nor
 * not voting), the share on which they cast the same vote. Only pairs with at least `min` such
 * roll calls are ranked, so a handful of shared votes cannot top the list.
 */
export async function mostAlike(db: Db, personId: string, limit: number, min: number): Promise<AlikeRow[]> {
  const { rows } = await sql<AlikeRow>`
    select o.person_id as id, p.name, p.ward, count(*)::int as together, count(*) filter (where o.value = v.value)::int as agreed
    from votes v
    join votes o on o.roll_call_id = v.roll_call_id and o.person_id <> v.person_id
    join people p on p.id = o.person_id
    where v.person_id = ${personId} and v.value not in ${MISSED} and o.value not in ${MISSED}
    group by o.person_id, p.name, p.ward, p.sort_name
    having count(*) >= ${min}
    order by count(*) filter (where o.value = v.value)::float8 / count(*) desc, count(*) desc, p.sort_name, o.person_id
    limit ${limit}`.execute(db);
  return rows;
}

/** The statuses of the matters the person sponsored or co-sponsored, most common first. */
export async function sponsoredStatuses(db: Db, personId: string): Promise<{ status: string; count: number }[]> {
  const { rows } = await sql<{ status: string; count: number }>`
    select coalesce(m.status, 'Unknown') as status, count(distinct m.id)::int as count
    from matter_sponsors s join matters m on m.id = s.matter_id
    where s.person_id = ${personId}
    group by 1 order by 2 desc, 1`.execute(db);
  return rows;
}

/** The ids of the campaign committees of a person (an alderperson's committees). */
export async function committeeIdsOf(db: Db, personId: string): Promise<string[]> {
  const rows = await db.selectFrom('committees').select('id').where('person_id', '=', personId).orderBy('id').execute();
  return rows.map((r) => r.id);
}
