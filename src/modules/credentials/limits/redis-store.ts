// Counters in Redis (when REDIS_URL is set): one key per owner, window and bucket, expiring when
// its bucket ends. A Lua script checks every window and then counts in all of them or in none;
// Redis runs a script as one step, so instances sharing the Redis stay exact.
import { createHash } from 'node:crypto';
import { AppError } from '../../../kernel/errors.ts';
import { failFastRedis } from '../../../kernel/redis.ts';
import type { WindowSlot } from './policy.ts';
import type { CounterStore } from './store.ts';

// KEYS: one per window. ARGV: the limits, then '1'/'0' for counted, then each key's TTL in ms,
// then the amount to count. Returns { refused position (0 = counted), count of each key after }.
const CONSUME = `
local n = #KEYS
local amount = tonumber(ARGV[3 * n + 1])
local counts = {}
local refused = 0
for i = 1, n do
  counts[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  if refused == 0 and ARGV[n + i] == '1' and counts[i] + amount > tonumber(ARGV[i]) then refused = i end
end
if refused == 0 then
  for i = 1, n do
    if ARGV[n + i] == '1' then
      counts[i] = redis.call('INCRBY', KEYS[i], amount)
      if counts[i] == amount then redis.call('PEXPIRE', KEYS[i], ARGV[2 * n + i]) end
    end
  end
end
local out = { refused }
for i = 1, n do out[i + 1] = counts[i] end
return out
`;

// KEYS: one per window. ARGV: the units to give back to each. DECRBY keeps the key's expiry; a
// key that is gone (its bucket ended) is not made again, and no count goes below 0.
const RELEASE = `
for i = 1, #KEYS do
  local give = tonumber(ARGV[i])
  if give > 0 then
    local v = tonumber(redis.call('GET', KEYS[i]) or '0')
    if v > 0 then redis.call('DECRBY', KEYS[i], math.min(v, give)) end
  end
end
return 0
`;

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const scripts = { consume: { text: CONSUME, sha: sha1(CONSUME) }, release: { text: RELEASE, sha: sha1(RELEASE) } };

/** The default prefix of the counters' keys: `council:limits:{<owner>}:<bucket>`. */
export const REDIS_KEY_PREFIX = 'council:limits:';

/** Counters outlive their bucket by this much, so clocks a little apart still agree. */
const EXPIRY_MARGIN_MS = 60_000;

function unavailable(err: unknown): never {
  if (err instanceof AppError) throw err;
  throw new AppError('unavailable', 'The limits store (Redis) cannot be reached; try again shortly.', { 'Retry-After': '5' });
}

export function createRedisStore(url: string, keyPrefix: string): CounterStore {
  // Fail fast when Redis is away: a request should get 503, not wait for reconnects.
  const { redis, connected } = failFastRedis(url);
  // Keys of one owner share a hash tag, so a Redis Cluster keeps them in one slot for the script.
  const keys = (owner: string, slots: readonly WindowSlot[]) => slots.map((s) => `${keyPrefix}{${owner}}:${s.bucket}`);

  async function run(script: { text: string; sha: string }, list: string[], args: string[]): Promise<unknown> {
    await connected();
    try {
      return await redis.evalsha(script.sha, list.length, ...list, ...args);
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return await redis.eval(script.text, list.length, ...list, ...args);
    }
  }

  return {
    async consume(owner, slots, now, amount = 1) {
      const args = [
        ...slots.map((s) => String(s.limit)),
        ...slots.map((s) => (s.counted ? '1' : '0')),
        ...slots.map((s) => String(Math.max(1, s.endsAt.getTime() - now.getTime()) + EXPIRY_MARGIN_MS)),
        String(amount),
      ];
      const out = (await run(scripts.consume, keys(owner, slots), args).catch(unavailable)) as number[];
      return { refused: out[0]! - 1, counts: out.slice(1) };
    },
    async release(owner, slots, amounts) {
      await run(scripts.release, keys(owner, slots), amounts.map(String)).catch(unavailable);
    },
    async read(owner, slots) {
      const values = await connected()
        .then(() => redis.mget(...keys(owner, slots)))
        .catch(unavailable);
      return values.map((v) => (v === null ? 0 : Number(v)));
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
