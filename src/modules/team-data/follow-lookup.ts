// Follows as other modules see them (alerts): one follow by id with its owner, or several. The
// caller applies its own policy (whose follow it is); this reads the follows table only.
import type { Db } from './repo.ts';
import type { FollowsTable } from './tables.ts';

export interface FollowRef {
  id: string;
  /** The person whose follow it is, or null for a team's. */
  accountId: string | null;
  /** The team whose follow it is, or null for a person's. */
  teamId: string | null;
  type: FollowsTable['type'];
  refId: string;
  label: string;
}

const columns = ['id', 'account_id', 'team_id', 'type', 'ref_id', 'label'] as const;
const present = (r: {
  id: string;
  account_id: string | null;
  team_id: string | null;
  type: FollowsTable['type'];
  ref_id: string;
  label: string;
}): FollowRef => ({
  id: r.id,
  accountId: r.account_id,
  teamId: r.team_id,
  type: r.type,
  refId: r.ref_id,
  label: r.label,
});

export function createFollowLookup(db: Db) {
  return {
    async find(id: string): Promise<FollowRef | null> {
      const row = await db.selectFrom('follows').select(columns).where('id', '=', id).executeTakeFirst();
      return row ? present(row) : null;
    },
    async byIds(ids: readonly string[]): Promise<FollowRef[]> {
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('follows')
        .select(columns)
        .where('id', 'in', [...ids])
        .execute();
      return rows.map(present);
    },
  };
}

export type FollowLookup = ReturnType<typeof createFollowLookup>;
