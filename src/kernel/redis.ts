// A Redis connection for commands that must fail fast while Redis is away (limit counters, live
// publishes): the first command waits for the first connection; once Redis has been reached, a
// command sent while it is lost fails at once instead of waiting in ioredis's offline queue for
// reconnects (seconds per request), and ioredis keeps reconnecting in the background.
import { Redis } from 'ioredis';

export interface FailFastRedis {
  redis: Redis;
  /** Resolves when a command may be sent now; rejects when Redis cannot be reached. */
  connected(): Promise<void>;
}

export function failFastRedis(url: string): FailFastRedis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 2000, lazyConnect: true });
  redis.on('error', () => {});
  let first: Promise<void> | null = null;
  let reached = false;
  redis.once('ready', () => {
    reached = true;
  });
  return {
    redis,
    async connected() {
      if (redis.status === 'ready') return;
      if (reached) throw new Error(`Redis is ${redis.status}`);
      // The first connection: every command until it is made waits for it (or fails with it).
      first ??= redis.status === 'wait' ? redis.connect() : Promise.reject(new Error(`Redis is ${redis.status}`));
      await first;
    },
  };
}
