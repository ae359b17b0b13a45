// Counters in PostgreSQL (table credential_usage_counters, migration 0040). One round trip per
// request or block: the function credential_limits_consume (migration 0071) does the conditional
// upserts and gives back what it counted when a later window refuses, inside one statement;
// credential_limits_release gives back a block's unused units.
import { type Kysely, sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { WindowSlot } from './policy.ts';
import type { CounterStore } from './store.ts';

/** How often one instance deletes counters of buckets that have ended. */
const SWEEP_INTERVAL_MS = 10 * 60_000;

export function createPgStore(db: Kysely<any>, log: FastifyBaseLogger): CounterStore {
  let lastSweep = Number.NEGATIVE_INFINITY;
  let sweeping: Promise<void> | null = null;

  // Old buckets are removed now and then, off the request's path, not on every request.
  function maybeSweep(now: Date): void {
    if (sweeping || now.getTime() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = now.getTime();
    sweeping = sql`delete from credential_usage_counters where expires_at < ${now.toISOString()}::timestamptz`
      .execute(db)
      .then(
        () => {},
        (err: unknown) => log.warn({ err }, 'deleting old limit counters failed'),
      )
      .finally(() => {
        sweeping = null;
      });
  }

  const keys = (owner: string, slots: readonly WindowSlot[]) => slots.map((s) => `${owner}:${s.bucket}`);

  return {
    async consume(owner, slots, now, amount = 1) {
      const { rows } = await sql<{ refused: number; counts: number[] }>`
        select refused, counts from credential_limits_consume(
          ${keys(owner, slots)}::text[],
          ${slots.map((s) => s.limit)}::integer[],
          ${slots.map((s) => s.counted)}::boolean[],
          ${slots.map((s) => s.endsAt.toISOString())}::timestamptz[],
          ${amount}::integer
        )`.execute(db);
      maybeSweep(now);
      const row = rows[0]!;
      return { refused: row.refused - 1, counts: row.counts };
    },
    async release(owner, slots, amounts) {
      await sql`select credential_limits_release(${keys(owner, slots)}::text[], ${[...amounts]}::integer[])`.execute(db);
    },
    async read(owner, slots) {
      const list = keys(owner, slots);
      const { rows } = await sql<{ key: string; count: number }>`
        select key, count from credential_usage_counters where key = any (${list}::text[])`.execute(db);
      const byKey = new Map(rows.map((r) => [r.key, r.count]));
      return list.map((k) => byKey.get(k) ?? 0);
    },
    async close() {
      await sweeping;
    },
  };
}
