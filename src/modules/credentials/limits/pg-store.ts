// Counters in PostgreSQL: one row per owner and UTC day holding the day's requests, its AI answers
// and the current minute's requests (table credential_usage_days, migration 0233). A request or
// block is counted in all its windows by one conditional upsert of that row, or refused by it with
// nothing counted (credential_limits_count_batch, 0233); a block's unused units go back with one
// update of the same row.
//
// Counting is batched: one statement at a time per instance, and the calls that arrive while it
// runs go together in the next one (migrations 0215 and 0233), each counted as if alone and in its
// order of arrival. Every request is still counted in the store before it is answered (exact across
// instances), but many light callers no longer cost a statement, a round trip and a commit each: a
// public API's traffic of many owners was bound by them. A batch serves many requests, so it runs
// under a budget of its own (kernel/db-budget.ts), taking its turns on the request pool as one
// caller ('limits'), not under the request that happened to send it.
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
import { type WindowSlot, windowOrder } from './policy.ts';
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

/** What a call's row takes from its slots, in `windowOrder` (day, ai, minute). */
interface Figures {
  /** The UTC date of the day window: the row's key is `owner:YYYY-MM-DD`. */
  day: string;
  /** The epoch minute of the minute window. */
  minute: number;
  /** The day's end (ISO 8601), when the row expires. */
  expires: string;
  /** The limits and whether each window counts, in `windowOrder`, as array literal elements. */
  limits: string;
  counted: string;
}

const figuresOfSlots = new WeakMap<readonly WindowSlot[], Figures>();

/** The figures of a set of slots, kept per slots array (policy.ts reuses one for a second of the clock). */
function figuresOf(slots: readonly WindowSlot[]): Figures {
  let figures = figuresOfSlots.get(slots);
  if (!figures) {
    if (slots.length !== windowOrder.length || slots.some((s, i) => s.window !== windowOrder[i])) {
      throw new Error(`the limit windows must come as ${windowOrder.join(', ')}; got ${slots.map((s) => s.window).join(', ')}`);
    }
    const [day, , minute] = slots as [WindowSlot, WindowSlot, WindowSlot];
    figures = {
      day: day.bucket.slice('day:'.length),
      minute: Math.floor(minute.endsAt.getTime() / 60_000) - 1,
      expires: day.endsAt.toISOString(),
      limits: slots.map((s) => integer(s.limit)).join(','),
      counted: slots.map((s) => (s.counted ? 't' : 'f')).join(','),
    };
    figuresOfSlots.set(slots, figures);
  }
  return figures;
}

/** The owner's row of the day. */
const rowKey = (owner: string, figures: Figures) => `${owner}:${figures.day}`;

/**
 * The batch's arrays go as PostgreSQL array literals made here (the manual's "Array Value Input"):
 * the driver quotes and escapes every element of an array it is given, 1.5 µs a counted request
 * in a profile of 1,000 owners' counting, where a key of letters, digits and `_:.@+-`, a number
 * or a boolean needs neither. Anything else is quoted as the manual says.
 */
function element(text: string): string {
  return /^[\w:.@+-]+$/.test(text) && !/^null$/i.test(text) ? text : `"${text.replace(/[\\"]/g, '\\$&')}"`;
}
function integer(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`a limit figure must be an integer; got ${n}`);
  return String(n);
}
const literal = (elements: readonly string[]) => `{${elements.join(',')}}`;

export function createPgStore(db: Kysely<any>, log: FastifyBaseLogger, budgetMs = DEFAULT_REQUEST_DB_BUDGET_MS): CounterStore {
  let lastSweep = Number.NEGATIVE_INFINITY;
  let sweeping: Promise<void> | null = null;

  // Old buckets are removed now and then, off the request's path, not on every request.
  function maybeSweep(now: Date): void {
    if (sweeping || now.getTime() - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = now.getTime();
    sweeping = sql`delete from credential_usage_days where expires_at < ${now.toISOString()}::timestamptz`
      .execute(db)
      .then(
        () => {},
        (err: unknown) => log.warn({ err }, 'deleting old limit counters failed'),
      )
      .finally(() => {
        sweeping = null;
      });
  }

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
    // Calls in a fixed order of their rows (and each row's calls in their order of arrival, the sort
    // being stable): every batch locks counter rows in the same order, so two instances never deadlock.
    const figures = batch.map((p) => figuresOf(p.slots));
    const keys = batch.map((p, i) => rowKey(p.owner, figures[i]!));
    const order = batch.map((_, i) => i).sort((x, y) => (keys[x]! < keys[y]! ? -1 : keys[x]! > keys[y]! ? 1 : x - y));
    const sorted = order.map((i) => batch[i]!);
    const at = order.map((i) => figures[i]!);
    // One text whatever the batch (its parts are arrays), so a named prepared statement: parsed
    // and planned once per connection rather than with every batch.
    // The counts come as three integer columns: an integer[] is parsed from its text by the driver.
    const { rows: counted } = await sql<{
      ord: number;
      refused: number;
      day: number;
      ai: number;
      minute: number;
    }>`select ${preparedStatement} ord, refused, counts[1] as day, counts[2] as ai, counts[3] as minute, ${asyncCommit()} as commit_mode
      from credential_limits_count_batch(
        ${literal(order.map((i) => element(keys[i]!)))}::text[],
        ${literal(at.map((r) => integer(r.minute)))}::integer[],
        ${literal(at.map((r) => element(r.expires)))}::timestamptz[],
        ${literal(at.map((r) => r.limits))}::integer[],
        ${literal(at.map((r) => r.counted))}::boolean[],
        ${literal(sorted.map((p) => integer(p.amount)))}::integer[]
      )`.execute(db);
    if (counted.length !== sorted.length) throw new Error(`the limit counters answered ${counted.length} of ${sorted.length} calls`);
    for (const row of counted) sorted[row.ord - 1]!.resolve({ refused: row.refused - 1, counts: [row.day, row.ai, row.minute] });
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
      const figures = figuresOf(slots);
      const key = rowKey(owner, figures);
      const { minute } = figures;
      const [day = 0, ai = 0, ofMinute = 0] = amounts;
      await sql`update credential_usage_days set
          requests = greatest(requests - ${day}::integer, 0),
          ai = greatest(ai - ${ai}::integer, 0),
          minute_count = case when minute = ${minute}::integer then greatest(minute_count - ${ofMinute}::integer, 0) else minute_count end
        where key = ${key}
        returning ${asyncCommit()} as commit_mode`.execute(db);
    },
    async read(owner, slots) {
      const figures = figuresOf(slots);
      const key = rowKey(owner, figures);
      const { minute } = figures;
      const { rows } = await sql<{ counts: number[] }>`
        select array[requests, ai, case when minute = ${minute}::integer then minute_count else 0 end] as counts
        from credential_usage_days where key = ${key}`.execute(db);
      return rows[0]?.counts ?? [0, 0, 0];
    },
    async close() {
      while (running) await running;
      await sweeping;
    },
  };
}
