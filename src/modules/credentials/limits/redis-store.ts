// Counters in Redis (when REDIS_URL is set): one key per owner, window and bucket, expiring when
// its bucket ends. A Lua script checks every window and then counts in all of them or in none;
// Redis runs a script as one step, so instances sharing the Redis stay exact.
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { AppError } from '../../../kernel/errors.ts';
import type { WindowSlot } from './policy.ts';
import type { CounterStore } from './store.ts';

// KEYS: one per window. ARGV: the limits, then '1'/'0' for counted, then each key's TTL in ms.
// Returns { refused position (0 = counted), count of each key after }.
const CONSUME = `
local n = #KEYS
local counts = {}
local refused = 0
for i = 1, n do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  if refused == 0 and ARGV[n + i] == '1' and counts[i] >= tonumber(ARGV[i]) then refused = i end
end
if refused == 0 then
  for i = 1, n do
    if ARGV[n + i] == '1' then
      counts[i] = redis.call('INCR', KEYS[i])
      if counts[i] == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[2 * n + i]) end
    end
  end
end
local out = { refused }
for i = 1, n do out[i + 1] = counts[i] end
return out
`;
const CONSUME_SHA = createHash('sha1').update(CONSUME).digest('hex');

/** Counters outlive their bucket by this much, so clocks a little apart still agree. */
const EXPIRY_MARGIN_MS = 60_000;

function unavailable(err: unknown): never {
  if (err instanceof AppError) throw err;
  throw new AppError('unavailable', 'The limits store (Redis) cannot be reached; try again shortly.');
}

export function createRedisStore(url: string, keyPrefix: string): CounterStore {
  // Fail fast when Redis is away: a request should get 503, not wait for reconnects.
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: true });
  redis.on('error', () => {});
  // Keys of one owner share a hash tag, so a Redis Cluster keeps them in one slot for the script.
  const keys = (owner: string, slots: readonly WindowSlot[]) => slots.map((s) => `${keyPrefix}{${owner}}:${s.bucket}`);

  async function run(list: string[], args: string[]): Promise<number[]> {
    try {
      return (await redis.evalsha(CONSUME_SHA, list.length, ...list, ...args)) as number[];
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return (await redis.eval(CONSUME, list.length, ...list, ...args)) as number[];
    }
  }

  return {
    async consume(owner, slots, now) {
      const args = [
        ...slots.map((s) => String(s.limit)),
        ...slots.map((s) => (s.counted ? '1' : '0')),
        ...slots.map((s) => String(Math.max(1, s.endsAt.getTime() - now.getTime()) + EXPIRY_MARGIN_MS)),
      ];
      const out = await run(keys(owner, slots), args).catch(unavailable);
      return { refused: out[0]! - 1, counts: out.slice(1) };
    },
    async read(owner, slots) {
      const values = await redis.mget(...keys(owner, slots)).catch(unavailable);
      return values.map((v) => (v === null ? 0 : Number(v)));
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
