// SQL of follows, notes and dashboards (migration 0060): the only code touching those tables.
// Every statement names the owner (account or team) so another team's id simply finds nothing.
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db-schema.ts';
import { AppError } from '../../kernel/errors.ts';
import type { FollowsTable, TeamDashboardsTable, TeamNotesTable } from './tables.ts';

export type Db = Kysely<DB>;
export type Owner = { accountId: string } | { teamId: string };

const malformed = () => new AppError('invalid_request', 'The cursor is malformed; pass meta.nextCursor from the previous page unchanged.');

/** Opaque keyset cursors over `seq`: rows added later never shift a page already handed out. */
export function encodeCursor(seq: number): string {
  return Buffer.from(JSON.stringify({ q: seq })).toString('base64url');
}

export function decodeCursor(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(raw)) throw malformed();
  try {
    const v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (v && typeof v === 'object' && Number.isSafeInteger(v.q) && v.q >= 0) return v.q;
  } catch {
    // falls through to the 400 below
  }
  throw malformed();
}

/** Cuts a `limit + 1` fetch to a page and the cursor after its last row. */
export function page<R extends { seq: number }, T>(rows: R[], limit: number, present: (r: R) => T) {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  return { data: kept.map(present), meta: { nextCursor: more ? encodeCursor(kept[kept.length - 1]!.seq) : null } };
}

function whereOwner<Q extends { where: (...a: any[]) => Q }>(qb: Q, owner: Owner): Q {
  return 'teamId' in owner ? qb.where('team_id', '=', owner.teamId) : qb.where('account_id', '=', owner.accountId);
}

// Follows

export async function listFollows(db: Db, owner: Owner, limit: number, after: number | null) {
  let qb = whereOwner(db.selectFrom('follows').selectAll(), owner);
  if (after !== null) qb = qb.where('seq', '>', after);
  return qb
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
}

/** Inserts a follow; null when the owner already follows that record. */
export async function insertFollow(
  db: Db,
  row: { id: string; owner: Owner; type: FollowsTable['type']; refId: string; label: string; createdBy: string; at: Date },
) {
  const r = await db
    .insertInto('follows')
    .values({
      id: row.id,
      account_id: 'accountId' in row.owner ? row.owner.accountId : null,
      team_id: 'teamId' in row.owner ? row.owner.teamId : null,
      type: row.type,
      ref_id: row.refId,
      label: row.label,
      created_by: row.createdBy,
      created_at: row.at,
    })
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  return r ?? null;
}

/** The record ids an owner follows of one type (the team's followed bills). */
export async function followedRefs(db: Db, owner: Owner, type: FollowsTable['type']): Promise<string[]> {
  const rows = await whereOwner(db.selectFrom('follows').select('ref_id'), owner).where('type', '=', type).orderBy('seq').execute();
  return rows.map((r) => r.ref_id);
}

export async function findFollowByRef(db: Db, owner: Owner, type: string, refId: string) {
  return whereOwner(db.selectFrom('follows').select('id'), owner)
    .where('type', '=', type as FollowsTable['type'])
    .where('ref_id', '=', refId)
    .executeTakeFirst();
}

/** How many follows (personal and team) name this record; index follows_ref (migration 0120). */
export async function countFollowers(db: Db, type: FollowsTable['type'], refId: string): Promise<number> {
  const row = await db
    .selectFrom('follows')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('type', '=', type)
    .where('ref_id', '=', refId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function deleteFollow(db: Db, owner: Owner, id: string): Promise<boolean> {
  const r = await whereOwner(db.deleteFrom('follows'), owner).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

// Notes

export async function listNotes(db: Db, teamId: string, limit: number, before: number | null) {
  let qb = db.selectFrom('team_notes').selectAll().where('team_id', '=', teamId);
  if (before !== null) qb = qb.where('seq', '<', before);
  return qb
    .orderBy('seq', 'desc')
    .limit(limit + 1)
    .execute();
}

export async function findNote(db: Db, teamId: string, id: string, lock = false) {
  const qb = db.selectFrom('team_notes').selectAll().where('team_id', '=', teamId).where('id', '=', id);
  return (lock ? qb.forUpdate() : qb).executeTakeFirst();
}

export async function insertNote(db: Db, row: Omit<TeamNotesTable, 'seq' | 'created_at' | 'updated_at'> & { at: Date }) {
  const { at, ...rest } = row;
  return db
    .insertInto('team_notes')
    .values({ ...rest, created_at: at, updated_at: at })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateNote(
  db: Db,
  teamId: string,
  id: string,
  set: { body?: string; subject_type?: TeamNotesTable['subject_type']; subject_ref?: string | null; updated_at: Date },
) {
  return db.updateTable('team_notes').set(set).where('team_id', '=', teamId).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteNote(db: Db, teamId: string, id: string): Promise<void> {
  await db.deleteFrom('team_notes').where('team_id', '=', teamId).where('id', '=', id).execute();
}

// Dashboards

const layoutJson = (layout: unknown) => sql<string>`cast(${JSON.stringify(layout)} as jsonb)`;

export async function listDashboards(db: Db, teamId: string, limit: number, after: number | null) {
  let qb = db.selectFrom('team_dashboards').selectAll().where('team_id', '=', teamId);
  if (after !== null) qb = qb.where('seq', '>', after);
  return qb
    .orderBy('seq')
    .limit(limit + 1)
    .execute();
}

export async function findDashboard(db: Db, teamId: string, id: string) {
  return db.selectFrom('team_dashboards').selectAll().where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
}

export async function insertDashboard(db: Db, row: { id: string; teamId: string; name: string; layout: unknown; createdBy: string; at: Date }) {
  return db
    .insertInto('team_dashboards')
    .values({
      id: row.id,
      team_id: row.teamId,
      name: row.name,
      layout: layoutJson(row.layout),
      version: 1,
      created_by: row.createdBy,
      created_at: row.at,
      updated_at: row.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * One statement decides a layout save: with `baseVersion` it only matches while the version is
 * unchanged, so of two saves on the same base exactly one updates (the other finds no row).
 */
export async function updateDashboard(
  db: Db,
  teamId: string,
  id: string,
  change: { name?: string; layout?: unknown; baseVersion?: number; at: Date },
): Promise<TeamDashboardsRow | undefined> {
  let qb = db
    .updateTable('team_dashboards')
    .set({
      updated_at: change.at,
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.layout !== undefined ? { layout: layoutJson(change.layout), version: sql<number>`version + 1` } : {}),
    })
    .where('team_id', '=', teamId)
    .where('id', '=', id);
  if (change.baseVersion !== undefined) qb = qb.where('version', '=', change.baseVersion);
  return qb.returningAll().executeTakeFirst();
}

export type TeamDashboardsRow = Awaited<ReturnType<typeof findDashboard>> & {};
export type TeamNoteRow = Awaited<ReturnType<typeof findNote>> & {};
export type { TeamDashboardsTable };

export async function deleteDashboard(db: Db, teamId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('team_dashboards').where('team_id', '=', teamId).where('id', '=', id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/**
 * Creates the dashboard only while the team has none. Two first visits at once queue on a
 * transaction lock named after the team, so the second finds the first's dashboard.
 */
export async function insertDashboardIfNone(db: Db, row: { id: string; teamId: string; name: string; layout: unknown; createdBy: string; at: Date }) {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`team_dashboards:${row.teamId}`}))`.execute(trx);
    const made = await sql<{ id: string }>`insert into team_dashboards (id, team_id, name, layout, version, created_by, created_at, updated_at)
    select ${row.id}, ${row.teamId}, ${row.name}, ${layoutJson(row.layout)}, 1, ${row.createdBy}, ${row.at}, ${row.at}
    where not exists (select 1 from team_dashboards where team_id = ${row.teamId}) returning id`.execute(trx);
    return made.rows.length > 0;
  });
}
