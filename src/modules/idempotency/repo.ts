// The only SQL touching idempotency_keys.
import { type Kysely, sql } from 'kysely';
import type { IdempotencyOwner, StoredAnswer } from './schema.ts';
import type { IdempotencyTables } from './tables.ts';

export interface KeyRow {
  fingerprint: string;
  status: number;
  headers: Record<string, string> | null;
  body: string | null;
}

export function idempotencyRepo(db: Kysely<IdempotencyTables>) {
  return {
    /**
     * The claim: a transaction-scoped advisory lock on (owner, key) (PostgreSQL "Advisory Locks"),
     * taken without waiting. Of any number of requests on any number of instances, one holds it
     * until its transaction ends — and a process that dies loses it with its connection.
     */
    async tryLock(owner: IdempotencyOwner, key: string): Promise<boolean> {
      const name = `idempotency:${owner.type}:${owner.id}:${key}`;
      const r = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(hashtextextended(${name}, 0)) as locked`.execute(db);
      return r.rows[0]?.locked === true;
    },

    /** The key's answer, unless it is older than `since` (then the key is free again). */
    async find(owner: IdempotencyOwner, key: string, since: Date): Promise<KeyRow | undefined> {
      return db
        .selectFrom('idempotency_keys')
        .where('owner_type', '=', owner.type)
        .where('owner_id', '=', owner.id)
        .where('key', '=', key)
        .where('created_at', '>=', since)
        .select(['fingerprint', 'status', 'headers', 'body'])
        .executeTakeFirst();
    },

    /** Stores the answer (under the claim's lock, so no other run writes this key meanwhile). */
    async store(owner: IdempotencyOwner, key: string, fingerprint: string, answer: StoredAnswer, now: Date): Promise<void> {
      const values = { fingerprint, status: answer.status, headers: JSON.stringify(answer.headers), body: answer.body, created_at: now, completed_at: now };
      await db
        .insertInto('idempotency_keys')
        .values({ owner_type: owner.type, owner_id: owner.id, key, ...values })
        .onConflict((oc) => oc.columns(['owner_type', 'owner_id', 'key']).doUpdateSet(values))
        .execute();
    },

    async purgeOwner(owner: IdempotencyOwner, before: Date): Promise<void> {
      await db.deleteFrom('idempotency_keys').where('owner_type', '=', owner.type).where('owner_id', '=', owner.id).where('created_at', '<', before).execute();
    },

    async purge(before: Date): Promise<number> {
      const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
