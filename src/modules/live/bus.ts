// The LiveBus: how team events reach every instance. PostgreSQL NOTIFY on `team_events` by
// default (every instance shares the database); Redis pub/sub when REDIS_URL is set. team-data
// publishes through it (it satisfies team-data's TeamChanges); the live hub subscribes once.
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { DB } from '../../db-schema.ts';
import type { Database } from '../../kernel/db.ts';
import { failFastRedis } from '../../kernel/redis.ts';
import { TEAM_CHANGES_CHANNEL } from '../team-data/index.ts';
import type { LiveEvent } from './events.ts';

export interface LiveBus {
  readonly kind: 'postgres' | 'redis';
  publish(event: LiveEvent): Promise<void>;
  /** Every payload published by any instance, as text; resolves once subscribed. */
  subscribe(onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export function pgLiveBus(database: Database<DB>): LiveBus {
  return {
    kind: 'postgres',
    async publish(event) {
      await sql`select pg_notify(${TEAM_CHANGES_CHANNEL}, ${JSON.stringify(event)})`.execute(database.db);
    },
    subscribe: (onPayload) => database.listen(TEAM_CHANGES_CHANNEL, onPayload),
    // The LISTEN connection belongs to the database and ends with it.
    async close() {},
  };
}

/** Redis pub/sub on one channel; a subscribed connection can do nothing else, hence two. */
export function redisLiveBus(url: string, channel = `council:${TEAM_CHANGES_CHANNEL}`): LiveBus {
  // Fail fast when Redis is away: a write has already committed; its event is logged as lost.
  const { redis: publisher, connected } = failFastRedis(url);
  let subscriber: Redis | null = null;
  const handlers = new Set<(payload: string) => void>();
  return {
    kind: 'redis',
    async publish(event) {
      await connected();
      await publisher.publish(channel, JSON.stringify(event));
    },
    async subscribe(onPayload) {
      if (!subscriber) {
        // Keeps retrying in the background: after an outage it resubscribes on its own.
        subscriber = new Redis(url, { lazyConnect: true });
        subscriber.on('error', () => {});
        subscriber.on('message', (ch: string, message: string) => {
          if (ch === channel) for (const h of handlers) h(message);
        });
        await subscriber.connect();
        await subscriber.subscribe(channel);
      }
      handlers.add(onPayload);
      return async () => {
        handlers.delete(onPayload);
      };
    },
    async close() {
      handlers.clear();
      await subscriber?.quit().catch(() => subscriber?.disconnect());
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}
