// SQL of a public person's record as the website summarises it: how they voted (attendance, and
// agreement with the council's majority) and how far the legislation they sponsored got.
import { sql } from 'kysely';
import type { Db } from './repo-sql.ts';

export interface VotingRecordRow {
  total: number;
  yea: number;
  nay: number;
  absent: number;
  other: number;
  decided: number;
  with_majority: number;
  first: string | null;
  last: string | null;
}

/**
 * One pass over the person's votes (index votes_person) joined to their roll calls. The
 * majority of a roll call is the side with more yeas or nays; a tie has none, so it is not
 * "decided". Only a Yea or Nay on a decided roll call counts for or against the majority.
 */
export async function votingRecord(db: Db, personId: string): Promise<VotingRecordRow> {
  const { rows } = await sql<VotingRecordRow>`
    select count(*)::int as total,
      count(*) filter (where v.value = 'Yea')::int as yea,
      count(*) filter (where v.value = 'Nay')::int as nay,
      count(*) filter (where v.value in ('Absent', 'Not Voting'))::int as absent,
      count(*) filter (where v.value not in ('Yea', 'Nay', 'Absent', 'Not Voting'))::int as other,
      count(*) filter (where v.value in ('Yea', 'Nay') and r.yea <> r.nay)::int as decided,
      count(*) filter (where r.yea <> r.nay and ((v.value = 'Yea' and r.yea > r.nay) or (v.value = 'Nay' and r.nay > r.yea)))::int as with_majority,
      min(v.date)::text as first, max(v.date)::text as last
    from votes v join roll_calls r on r.id = v.roll_call_id
    where v.person_id = ${personId}`.execute(db);
  return rows[0]!;
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
