// A body's actions on matters, newest first (index matter_actions_body_date, migration 0082),
// each with its matter; `updated_since` and the action's `updatedAt` follow the matter's
// updated_at, since an action changes only with its matter.
import { col, type SortPlan } from './keyset.ts';
import { type Db, isoTs, updatedSince } from './repo-sql.ts';

export const bodyActionsSortPlan: SortPlan = {
  name: '-date',
  keys: [
    { expr: col('a.action_date'), dir: 'desc', nullable: true, cast: 'date', alias: 'action_date' },
    { expr: col('a.id'), dir: 'asc', cast: 'text', alias: 'id' },
  ],
};

export function bodyActionsQuery(db: Db, f: { bodyId: string; from?: string | undefined; to?: string | undefined; updatedSince?: string | undefined }) {
  let qb: any = db
    .selectFrom('matter_actions as a')
    .innerJoin('matters as m', 'm.id', 'a.matter_id')
    .select([
      'a.id',
      'a.action_date',
      'a.action_name',
      'a.action_text',
      'a.result',
      'a.meeting_id',
      'a.matter_id',
      'm.record_number',
      'm.title',
      isoTs('m.updated_at').as('updated_at'),
    ])
    .where('a.body_id', '=', f.bodyId);
  if (f.from !== undefined) qb = qb.where('a.action_date', '>=', f.from);
  if (f.to !== undefined) qb = qb.where('a.action_date', '<=', f.to);
  return updatedSince(qb, 'm.updated_at', f.updatedSince);
}

export async function bodyExists(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom('bodies').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}
