// Counters in PostgreSQL (table credential_usage_counters, migration 0040). A request or block is
// counted by the conditional upserts of its windows, and what it counted is given back when a
// later window refuses, inside one statement (migration 0071's rules, done per request by the
// batch function of migration 0232); credential_limits_release gives back a block's unused units.
//
// Counting is batched: one statement at a time per instance, and the calls that arrive while it
// runs go together in the next one (credential_limits_consume_batch, migrations 0215 and 0232), each counted
// as if alone and in its order of arrival. Every request is still counted in the store before it
// is answered (exact across instances), but many light callers no longer cost a statement, a
// round trip and a commit each: a public API's traffic of many owners was bound by them. A batch
// serves many requests, so it runs under a budget of its own (kernel/db-budget.ts), taking its
// turns on the request pool as one caller ('limits'), not under the request that happened to send it.
//
// Counting commits asynchronously (kernel/db.ts `asyncCommit`, which says what a crash of the
// server may lose): a light owner's request waited for the WAL flush before its answer, 0.4 ms on a
// quiet machine and 4 ms at the median under load on the benchmark's. A count lost that way lets
// the callers of that instant past a limit by those requests; while the server runs, every
// instance sees each commit at once, so limits stay exact.
import { type Kysely, sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { DbBudget, DEFAULT_REQUEST_DB_BUDGET_MS, withBudget } from '../../../kernel/db-budget.ts';
import { asyncCommit, preparedStatement } from '../../../kernel/db.ts';
import type { WindowSlot } from './policy.ts';
import type { CounterStore } from './store.ts';

/** How often one instance deletes counters of buckets that have ended. */
const SWEEP_INTERVAL_MS = 10 * 60_000;
/** Calls counted in one statement at most (the rest wait for the next). */
const MAX_BATCH = 500;

interface Pending {
  owner: string;
  slots: readonly WindowSlot[];
  amount: number;
  resolve(result: { refused: number; counts: number[] }): void;
  reject(err: unknown): void;
}

export function createPgStore(db: Kysely<any>, log: FastifyBaseLogger, budgetMs = DEFAULT_REQUEST_DB_BUDGET_MS): CounterStore {
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

  let queue: Pending[] = [];
  let running: Promise<void> | null = null;

  /** Sends the waiting calls as one statement; when it ends, the ones that came meanwhile. */
  function flush(): void {
    if (running || queue.length === 0) return;
    const batch = queue.slice(0, MAX_BATCH);
    queue = queue.slice(batch.length);
    running = withBudget(new DbBudget(budgetMs, 'limits'), () => countBatch(batch))
      .catch((err: unknown) => {
        for (const p of batch) p.reject(err);
      })
      .finally(() => {
        running = null;
        flush();
      });
  }

  async function countBatch(batch: Pending[]): Promise<void> {
    // Owners in a fixed order (and each owner's calls in their order of arrival, the sort being
    // stable): every batch locks counter rows in the same order, so two instances never deadlock.
    const order = batch.map((_, i) => i).sort((x, y) => (batch[x]!.owner < batch[y]!.owner ? -1 : batch[x]!.owner > batch[y]!.owner ? 1 : x - y));
    const width = batch[0]!.slots.length;
    if (batch.some((p) => p.slots.length !== width)) throw new Error('limit windows differ within one batch');
    const sorted = order.map((i) => batch[i]!);
    // One text whatever the batch (its parts are arrays), so a named prepared statement: parsed
    // and planned once per connection rather than with every batch.
    const { rows } = await sql<{
      ord: number;
      refused: number;
      counts: number[];
    }>`select ${preparedStatement} ord, refused, counts, ${asyncCommit()} as commit_mode
      from credential_limits_consume_batch(
        ${sorted.flatMap((p) => keys(p.owner, p.slots))}::text[],
        ${sorted.flatMap((p) => p.slots.map((s) => s.limit))}::integer[],
        ${sorted.flatMap((p) => p.slots.map((s) => s.counted))}::boolean[],
        ${sorted.flatMap((p) => p.slots.map((s) => s.endsAt.toISOString()))}::timestamptz[],
        ${sorted.map((p) => p.amount)}::integer[],
        ${width}::integer
      )`.execute(db);
    if (rows.length !== sorted.length) throw new Error(`the limit counters answered ${rows.length} of ${sorted.length} calls`);
    for (const row of rows) sorted[row.ord - 1]!.resolve({ refused: row.refused - 1, counts: row.counts });
  }

  return {
    consume(owner, slots, now, amount = 1) {
      const counted = new Promise<{ refused: number; counts: number[] }>((resolve, reject) => {
        queue.push({ owner, slots, amount, resolve, reject });
      });
      flush();
      maybeSweep(now);
      return counted;
    },
    async release(owner, slots, amounts) {
      await sql`select credential_limits_release(${keys(owner, slots)}::text[], ${[...amounts]}::integer[]), ${asyncCommit()} as commit_mode`.execute(db);
    },
    async read(owner, slots) {
      const list = keys(owner, slots);
      const { rows } = await sql<{ key: string; count: number }>`
        select key, count from credential_usage_counters where key = any (${list}::text[])`.execute(db);
      const byKey = new Map(rows.map((r) => [r.key, r.count]));
      return list.map((k) => byKey.get(k) ?? 0);
    },
    async close() {
      while (running) await running;
      await sweeping;
    },
  };
}
