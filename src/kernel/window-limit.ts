// Limits counted from the rows a limited action leaves behind (agent registrations per address and
// per client address, OAuth clients registered per client address): at most `limit` in a sliding
// window. Exact across instances: the count and the insert run in one transaction that holds an
// advisory lock per limited key (PostgreSQL "Advisory Locks"), so two requests at the same moment,
// on any instance, cannot both take the last slot. A refusal rolls back: nothing is stored.
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Tables } from './deps.ts';
import { AppError } from './errors.ts';

export interface WindowCount {
  /** Rows in the window for one limited key. */
  count: number;
  limit: number;
  /** When the oldest of them was made: the window has room again once that one leaves it. */
  oldest: Date | null;
}

/** A limit counted in some of the database's tables (by default all of them, as ./deps.ts binds them). */
export interface WindowLimit<DB = Tables> {
  /** What is limited (`oauth.register:203.0.113.9`): one advisory lock each. */
  keys: readonly string[];
  windowSeconds: number;
  now: Date;
  /** Each key's count since the window's start, with its limit. */
  count(trx: Transaction<DB>, since: Date): Promise<WindowCount[]>;
  /** The refusal's message, and its code in the surface's protocol vocabulary. */
  message: string;
  protocolCode?: string;
}

/**
 * Takes the limit's slot inside a transaction the caller already holds (an invitation is counted in
 * the transaction that adds the member): 429 `rate_limited` with Retry-After when a count is full,
 * which rolls the caller's transaction back.
 */
export async function holdWindowSlot<DB = Tables>(trx: Transaction<DB>, limit: WindowLimit<DB>): Promise<void> {
  const windowMs = limit.windowSeconds * 1000;
  // In one order, so two requests that lock the same keys never wait on each other.
  for (const key of [...new Set(limit.keys)].sort()) await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  const full = (await limit.count(trx, new Date(limit.now.getTime() - windowMs))).filter((c) => c.count >= c.limit);
  if (full.length === 0) return;
  // RFC 9110 §10.2.3: seconds until the oldest counted row leaves the window (the latest of those that are full).
  const waits = full.map((c) => (c.oldest ? new Date(c.oldest).getTime() + windowMs - limit.now.getTime() : windowMs));
  const retryAfter = Math.max(1, Math.ceil(Math.max(...waits) / 1000));
  throw new AppError('rate_limited', limit.message, { 'Retry-After': String(retryAfter) }, limit.protocolCode);
}

/** Runs `act` (the insert that uses a slot) unless a count is at its limit: then 429 `rate_limited` with Retry-After. */
export async function withinWindowLimit<T, DB = Tables>(db: Kysely<DB>, limit: WindowLimit<DB>, act: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await holdWindowSlot(trx, limit);
    return act(trx);
  });
}
