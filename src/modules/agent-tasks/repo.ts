// The only code that touches a2a_tasks: the SDK's own task store, pointed at the table, for the
// tasks themselves, and the deletion of old ones.
import type { OwnerResolver } from '@a2a-js/sdk/server';
import { DatabaseTaskStore } from '@a2a-js/sdk/server/database';
import type { Kysely } from 'kysely';
import type { AgentTaskTables } from './tables.ts';

export const TASKS_TABLE = 'a2a_tasks';

/** The SDK's store over the table; `owner` names whose tasks a call may see (kept in every row). */
export function taskStore(db: Kysely<AgentTaskTables>, owner: OwnerResolver): DatabaseTaskStore<AgentTaskTables> {
  return new DatabaseTaskStore(db, { tableName: TASKS_TABLE, ownerResolver: owner });
}

/** Deletes at most `limit` tasks last updated before `before` (ms since the epoch); how many went. */
export async function deleteTasksUpdatedBefore(db: Kysely<AgentTaskTables>, before: number, limit: number): Promise<number> {
  const old = db.selectFrom('a2a_tasks').select(['tenant', 'owner', 'id']).where('status_last_updated', '<', before).limit(limit);
  const result = await db
    .deleteFrom('a2a_tasks')
    .where(({ eb, refTuple, selectFrom }) =>
      eb(refTuple('tenant', 'owner', 'id'), 'in', selectFrom(old.as('old')).select(['old.tenant', 'old.owner', 'old.id']) as never),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
