// The only SQL touching idempotency_keys.
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { IdempotencyOwner, StoredAnswer } from './schema.ts';
import type { IdempotencyTables } from './tables.ts';

export interface KeyRow {
  fingerprint: string;
  claim: string;
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
  created_at: Date;
}

export function idempotencyRepo(db: Kysely<IdempotencyTables>) {
  // A claim still running (no stored answer): only its holder may complete, release or replace it.
  const openClaim = (owner: IdempotencyOwner, key: string, claim: string) => (eb: ExpressionBuilder<IdempotencyTables, 'idempotency_keys'>) =>
    eb.and([eb('owner_type', '=', owner.type), eb('owner_id', '=', owner.id), eb('key', '=', key), eb('claim', '=', claim), eb('status', 'is', null)]);
  const byKey = (owner: IdempotencyOwner, key: string) =>
    db.selectFrom('idempotency_keys').where('owner_type', '=', owner.type).where('owner_id', '=', owner.id).where('key', '=', key);
  return {
    /** The claim itself: exactly one concurrent insert of (owner, key) succeeds, on any instance. */
    async insertClaim(owner: IdempotencyOwner, key: string, fingerprint: string, claim: string, now: Date): Promise<boolean> {
      const row = await db
        .insertInto('idempotency_keys')
        .values({ owner_type: owner.type, owner_id: owner.id, key, fingerprint, claim, created_at: now })
        .onConflict((oc) => oc.columns(['owner_type', 'owner_id', 'key']).doNothing())
        .returning('claim')
        .executeTakeFirst();
      return row !== undefined;
    },

    async find(owner: IdempotencyOwner, key: string): Promise<KeyRow | undefined> {
      return byKey(owner, key).select(['fingerprint', 'claim', 'status', 'headers', 'body', 'created_at']).executeTakeFirst();
    },

    /**
     * Takes over a claim whose run is presumed dead. Compare-and-set on the old claim: of several
     * instances trying at once, one wins.
     */
    async takeOver(owner: IdempotencyOwner, key: string, oldClaim: string, claim: string, now: Date): Promise<boolean> {
      const row = await db
        .updateTable('idempotency_keys')
        .set({ claim, created_at: now })
        .where(openClaim(owner, key, oldClaim))
        .returning('claim')
        .executeTakeFirst();
      return row !== undefined;
    },

    async complete(owner: IdempotencyOwner, key: string, claim: string, answer: StoredAnswer, now: Date): Promise<void> {
      await db
        .updateTable('idempotency_keys')
        .set({ status: answer.status, headers: JSON.stringify(answer.headers), body: answer.body, completed_at: now })
        .where(openClaim(owner, key, claim))
        .execute();
    },

    async release(owner: IdempotencyOwner, key: string, claim: string): Promise<void> {
      await db
        .deleteFrom('idempotency_keys')
        .where(openClaim(owner, key, claim))
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
