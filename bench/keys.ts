// Many light callers: 1,000 accounts (reused between runs), each with a fresh public.read key,
// sent in rotation so that every request comes from another limits owner — the real traffic of a
// public API, where no owner is busy enough for blocks and every request is counted exactly.
// Each key's answered requests are counted here, and after the run compared with what the store
// counted for its owner: the limits stay exact.
import { Redis } from 'ioredis';
import pg from 'pg';
import { loadConfig } from '../src/kernel/config.ts';
import { REDIS_KEY_PREFIX } from '../src/modules/credentials/limits/redis-store.ts';
import { createContext } from '../src/context.ts';
import { operator } from '../src/kernel/actor.ts';

export const KEY_COUNT = 1000;
const HIGH_LIMIT = 1_000_000_000;
const emailOf = (i: number) => `bench-key-${i}@bench.invalid`;

export interface ManyKeys {
  keys: string[];
  accountIds: string[];
  /** 2xx answers seen per key (same index as `keys`), filled by the measurement. */
  answered: number[];
}

export async function prepareKeys(databaseUrl: string, count = KEY_COUNT): Promise<ManyKeys> {
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, LOAD_SAMPLE: 'false', NODE_ENV: 'production', LOG_LEVEL: 'warn' });
  const ctx = await createContext(config, { migrate: false, caches: false });
  try {
    const { accounts, credentials } = ctx.services;
    const keys: string[] = [];
    const accountIds: string[] = [];
    for (let i = 0; i < count; i++) {
      let account = await accounts.findByEmail(emailOf(i));
      if (!account) {
        account = await accounts.create({ email: emailOf(i), name: `Benchmark caller ${i}` });
        // Limits far above what a run sends: the run measures counting, not refusals.
        await accounts.setLimits(operator, {
          accountId: account.id,
          limits: { requestsPerDay: HIGH_LIMIT, requestsPerMinute: HIGH_LIMIT, aiAnswersPerDay: HIGH_LIMIT },
        });
      }
      const created = await credentials.keys.create({
        accountId: account.id,
        name: 'benchmark caller',
        scopes: ['public.read'],
        expiresAt: new Date(Date.now() + 24 * 3600 * 1000),
      });
      keys.push(created.key);
      accountIds.push(account.id);
    }
    return { keys, accountIds, answered: keys.map(() => 0) };
  } finally {
    await ctx.close();
  }
}

/**
 * Each owner's day counts in the store, by day key. Kept per day, not summed: a run that crosses
 * midnight (UTC) sees the store drop the ended day's counters, which a sum would read as a count
 * going down.
 */
export async function storedCounts(databaseUrl: string, accountIds: readonly string[]): Promise<Map<string, number>[]> {
  if (process.env.REDIS_URL) return redisCounts(process.env.REDIS_URL, accountIds);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; key: string; n: string }>(
      `select split_part(key, ':', 2) as id, key, requests::text as n from credential_usage_days
        where key like 'account:%' and split_part(key, ':', 2) = any ($1::text[])`,
      [accountIds],
    );
    const byId = new Map(accountIds.map((id) => [id, new Map<string, number>()]));
    for (const r of rows) byId.get(r.id)?.set(r.key, Number(r.n));
    return accountIds.map((id) => byId.get(id)!);
  } finally {
    await client.end();
  }
}

/**
 * The same counts when the service counts in Redis (REDIS_URL set for the run): its day counters,
 * `council:limits:{account:<id>}:day:<date>` (modules/credentials/limits/redis-store.ts).
 */
async function redisCounts(url: string, accountIds: readonly string[]): Promise<Map<string, number>[]> {
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  try {
    const byId = new Map(accountIds.map((id) => [id, new Map<string, number>()]));
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${REDIS_KEY_PREFIX}{account:*}:day:*`, 'COUNT', 1000);
      keys.push(...found);
      cursor = next;
    } while (cursor !== '0');
    const values = keys.length === 0 ? [] : await redis.mget(...keys);
    keys.forEach((key, i) => {
      const id = /\{account:([^}]+)\}:day:/.exec(key)?.[1];
      if (id !== undefined) byId.get(id)?.set(key, Number(values[i] ?? 0));
    });
    return accountIds.map((id) => byId.get(id)!);
  } finally {
    redis.disconnect();
  }
}

export interface CountCheck {
  answered: number;
  counted: number;
  /** Owners whose count differs from their answered requests by more than the requests cut at the passes' ends. */
  ownersOff: number;
  exact: boolean;
}

/**
 * Compares, per owner, the requests the store counted during the run with the 2xx answers this
 * process received. The load generator ends each timed pass with up to `connections` requests in
 * flight, which the service answers and counts after the client stopped reading: so per owner
 * counted − answered ≥ 0, and in all at most `cut` (the sum of connections over the passes).
 */
export function checkCounts(
  before: readonly Map<string, number>[],
  after: readonly Map<string, number>[],
  answered: readonly number[],
  cut: number,
): CountCheck {
  let a = 0;
  let c = 0;
  let ownersOff = 0;
  for (const [i, n] of answered.entries()) {
    let counted = 0;
    for (const [day, count] of after[i]!) counted += count - (before[i]!.get(day) ?? 0);
    a += n;
    c += counted;
    if (counted < n || counted > n + cut) ownersOff++;
  }
  return { answered: a, counted: c, ownersOff, exact: ownersOff === 0 && c >= a && c - a <= cut };
}
