// SQL of the committee history of the Legistar era (committee_terms, committee_attendance): a
// person's or a body's terms, and attendance counted per person and committee.
import { sql } from 'kysely';
import type { Db } from './repo-sql.ts';

export interface HistoryFilter {
  person?: string | undefined;
  body?: string | undefined;
}

const where = (alias: string, f: HistoryFilter) =>
  f.person !== undefined ? sql`${sql.ref(`${alias}.person_id`)} = ${f.person}` : sql`${sql.ref(`${alias}.body_id`)} = ${f.body!}`;

export async function committeeTerms(db: Db, f: HistoryFilter) {
  const { rows } = await sql<{ personId: string; name: string; bodyId: string; bodyName: string; startDate: string | null; endDate: string | null }>`
    select t.person_id as "personId", p.name, t.body_id as "bodyId", b.name as "bodyName",
      t.start_date::text as "startDate", t.end_date::text as "endDate"
    from committee_terms t join people p on p.id = t.person_id join bodies b on b.id = t.body_id
    where ${where('t', f)}
    order by t.start_date desc nulls last, b.name, p.sort_name`.execute(db);
  return rows;
}

/** Meetings of each committee the person was expected at (on the committee by its terms), and how many they were recorded at. */
export async function committeeAttendance(db: Db, f: HistoryFilter) {
  const { rows } = await sql<{
    personId: string;
    name: string;
    bodyId: string;
    bodyName: string;
    meetings: number;
    present: number;
    firstDate: string;
    lastDate: string;
  }>`
    select a.person_id as "personId", p.name, a.body_id as "bodyId", b.name as "bodyName",
      count(*)::int as meetings, count(*) filter (where a.present)::int as present,
      min(a.date)::text as "firstDate", max(a.date)::text as "lastDate"
    from committee_attendance a join people p on p.id = a.person_id join bodies b on b.id = a.body_id
    where ${where('a', f)}
    group by a.person_id, p.name, p.sort_name, a.body_id, b.name
    order by b.name, p.sort_name`.execute(db);
  return rows;
}
