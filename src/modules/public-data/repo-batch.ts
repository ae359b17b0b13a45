// The parts of many records in one query each: what a nested read (GraphQL's matters with their
// sponsors, roll calls and votes) loads per level instead of once per record. Each part is ordered
// as in the record's detail document, so both read the same.
import { sql } from 'kysely';
import { matterColumns } from './repo-matters.ts';
import { meetingColumns } from './repo-meetings.ts';
import { type Db, votesJson } from './repo-sql.ts';
import { rollCallColumns } from './repo-votes.ts';

export function sponsorsOf(db: Db, matterIds: readonly string[]) {
  return db
    .selectFrom('matter_sponsors as s')
    .select(['s.matter_id as of', 's.person_id as personId', 's.name', 's.role'])
    .where('s.matter_id', 'in', matterIds)
    .orderBy(sql`s.matter_id, s.sort, s.name`)
    .execute();
}

export function actionsOf(db: Db, matterIds: readonly string[]) {
  return db
    .selectFrom('matter_actions as a')
    .select([
      'a.matter_id as of',
      'a.id',
      'a.sort',
      'a.action_date as date',
      'a.action_name as name',
      'a.action_text as text',
      'a.body_id as bodyId',
      'a.body_name as bodyName',
      'a.meeting_id as meetingId',
      'a.result',
    ])
    .where('a.matter_id', 'in', matterIds)
    .orderBy(sql`a.matter_id, a.sort, a.action_date, a.id`)
    .execute();
}

/**
 * Roll calls of matters (`by: 'matter'`) or of meetings (`by: 'meeting'`), with the matter's record
 * number, and with every vote when `withVotes` (one round trip for two levels of a nested read).
 */
export function rollCallsOf(db: Db, by: 'matter' | 'meeting', ids: readonly string[], withVotes = false) {
  const key = by === 'matter' ? 'r.matter_id' : 'r.meeting_id';
  let qb: any = db
    .selectFrom('roll_calls as r')
    .leftJoin('matters as m', 'm.id', 'r.matter_id')
    .select([...rollCallColumns, 'm.record_number', sql.ref(key).as('of')]);
  if (withVotes) qb = qb.select(votesJson.as('votes'));
  return qb
    .where(key, 'in', ids)
    .orderBy(sql`${sql.ref(key)}, r.date, r.id`)
    .execute() as Promise<Record<string, any>[]>;
}

export function votesOfRollCalls(db: Db, rollCallIds: readonly string[]) {
  return db
    .selectFrom('votes as v')
    .innerJoin('people as p', 'p.id', 'v.person_id')
    .select(['v.roll_call_id as of', 'v.person_id as personId', 'p.name', 'p.ward', 'v.value'])
    .where('v.roll_call_id', 'in', rollCallIds)
    .orderBy(sql`v.roll_call_id, p.sort_name, v.person_id`)
    .execute();
}

export function mattersByIds(db: Db, ids: readonly string[]) {
  return db
    .selectFrom('matters as m')
    .select([...matterColumns])
    .where('m.id', 'in', ids)
    .execute();
}

export function meetingsByIds(db: Db, ids: readonly string[]) {
  return db
    .selectFrom('meetings as g')
    .select([...meetingColumns])
    .where('g.id', 'in', ids)
    .execute();
}
