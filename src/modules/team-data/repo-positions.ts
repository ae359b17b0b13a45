// SQL of positions (the team's stance on each bill), their stance history and target lists
// (migration 0060): the only code touching those tables. Writes run inside the caller's
// transaction; the position row is locked before it changes so concurrent changes queue.
import type { Db } from './repo.ts';
import type { Insertable } from 'kysely';
import type { TeamStanceHistoryTable } from './tables.ts';

export async function listPositions(db: Db, teamId: string, limit: number, after: number | null) {
  let qb = db.selectFrom('team_positions').selectAll().where('team_id', '=', teamId);
  if (after !== null) qb = qb.where('seq', '>', after);
  return qb
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
}

export async function allPositions(db: Db, teamId: string, lock = false) {
  const qb = db.selectFrom('team_positions').selectAll().where('team_id', '=', teamId).orderBy('seq');
  return (lock ? qb.forUpdate() : qb).execute();
}

export async function findPosition(db: Db, teamId: string, by: { matterId: string } | { id: string }, lock = false) {
  let qb = db.selectFrom('team_positions').selectAll().where('team_id', '=', teamId);
  qb = 'id' in by ? qb.where('id', '=', by.id) : qb.where('matter_id', '=', by.matterId);
  return (lock ? qb.forUpdate() : qb).executeTakeFirst();
}

export type PositionRow = NonNullable<Awaited<ReturnType<typeof findPosition>>>;

/** Inserts or updates the team's one row for a bill. */
export async function upsertPosition(
  db: Db,
  row: { id: string; teamId: string; matterId: string; recordNumber: string; label: string; stance: 'supports' | 'opposes'; at: Date },
) {
  return db
    .insertInto('team_positions')
    .values({
      id: row.id,
      team_id: row.teamId,
      matter_id: row.matterId,
      record_number: row.recordNumber,
      label: row.label,
      stance: row.stance,
      updated_at: row.at,
    })
    .onConflict((oc) =>
      oc.columns(['team_id', 'matter_id']).doUpdateSet({ label: row.label, stance: row.stance, record_number: row.recordNumber, updated_at: row.at }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deletePosition(db: Db, teamId: string, id: string): Promise<void> {
  await db.deleteFrom('team_positions').where('team_id', '=', teamId).where('id', '=', id).execute();
}

export type HistoryInsert = Insertable<TeamStanceHistoryTable>;

export async function insertHistory(db: Db, rows: HistoryInsert[]): Promise<void> {
  if (rows.length) await db.insertInto('team_stance_history').values(rows).execute();
}

export async function historyOf(db: Db, teamId: string, matterId: string) {
  return db.selectFrom('team_stance_history').selectAll().where('team_id', '=', teamId).where('matter_id', '=', matterId).orderBy('seq', 'desc').execute();
}

export type HistoryRow = Awaited<ReturnType<typeof historyOf>>[number];

export async function targetsOf(db: Db, teamId: string, matterId: string) {
  return db
    .selectFrom('team_targets')
    .select(['person_id', 'contacted'])
    .where('team_id', '=', teamId)
    .where('matter_id', '=', matterId)
    .orderBy('seq')
    .execute();
}

export async function addTargets(db: Db, teamId: string, matterId: string, personIds: readonly string[]): Promise<number> {
  if (!personIds.length) return 0;
  const r = await db
    .insertInto('team_targets')
    .values(personIds.map((person_id) => ({ team_id: teamId, matter_id: matterId, person_id })))
    .onConflict((oc) => oc.doNothing())
    .returning('person_id')
    .execute();
  return r.length;
}

export async function removeTarget(db: Db, teamId: string, matterId: string, personId: string): Promise<boolean> {
  const r = await db
    .deleteFrom('team_targets')
    .where('team_id', '=', teamId)
    .where('matter_id', '=', matterId)
    .where('person_id', '=', personId)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Moves a person on the list into (true) or out of (false) contacted; false when nothing moved. */
export async function setContacted(db: Db, teamId: string, matterId: string, personId: string, contacted: boolean): Promise<boolean> {
  const r = await db
    .updateTable('team_targets')
    .set({ contacted })
    .where('team_id', '=', teamId)
    .where('matter_id', '=', matterId)
    .where('person_id', '=', personId)
    .where('contacted', '=', !contacted)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function isTarget(db: Db, teamId: string, matterId: string, personId: string): Promise<boolean> {
  return !!(await db
    .selectFrom('team_targets')
    .select('person_id')
    .where('team_id', '=', teamId)
    .where('matter_id', '=', matterId)
    .where('person_id', '=', personId)
    .executeTakeFirst());
}

/** Every target of the team on a bill it has a stance on, with that bill's record number and the stance. */
export async function targetsWithStances(db: Db, teamId: string) {
  return db
    .selectFrom('team_targets as t')
    .innerJoin('team_positions as p', (j) => j.onRef('p.team_id', '=', 't.team_id').onRef('p.matter_id', '=', 't.matter_id'))
    .select(['t.person_id', 'p.record_number', 'p.stance'])
    .where('t.team_id', '=', teamId)
    .orderBy('t.seq')
    .execute();
}
