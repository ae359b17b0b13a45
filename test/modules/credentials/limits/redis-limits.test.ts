// The limits with their counters in Redis (REDIS_URL, or a Redis on 127.0.0.1:6379). Each run
// uses its own key prefix and deletes its keys afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import type { Actor } from '../../../../src/kernel/actor.ts';
import { type Clock, ManualClock } from '../../../../src/kernel/clock.ts';
import { createLimits } from '../../../../src/modules/credentials/limits/index.ts';
import { actorFor, ownerId, openTestDatabase, type TestDatabase } from './helpers.ts';
import { blocksSuite } from './blocks-suite.ts';
import { limitsSuite } from './suite.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `council-test:${process.pid}:${Math.random().toString(36).slice(2, 10)}:`;
let database: TestDatabase;
let redis: Redis;

before(async () => {
  database = await openTestDatabase();
  redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
});
after(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
  await database.close();
});

describe('limits on Redis', () => {
  const options = { redisUrl, redisKeyPrefix: prefix };
  const backend = () => ({
    create: async (clock: Clock) => createLimits(database.deps(clock), options),
    createOther: async (clock: Clock) => createLimits(database.deps(clock), options),
    restart: async () => {},
    storeCount: async (owner: Actor['limitsOwner'], bucket: string) => Number((await redis.get(`${prefix}{${owner.type}:${owner.id}}:${bucket}`)) ?? 0),
  });
  limitsSuite(backend);
  blocksSuite(backend);

  test('counters are Redis keys that expire after their bucket ends', async () => {
    const clock = new ManualClock('2025-03-10T23:00:00Z');
    const owner = ownerId('acc');
    const limits = createLimits(database.deps(clock), options);
    await limits.consume(actorFor({ type: 'account', id: owner }), 'ai');
    await limits.close();
    const dayTtl = await redis.pttl(`${prefix}{account:${owner}}:day:2025-03-10`);
    assert.ok(dayTtl > 3_600_000 && dayTtl <= 3_660_000, `day TTL ${dayTtl}`);
    const minuteTtl = await redis.pttl(`${prefix}{account:${owner}}:minute:${Math.floor(Date.parse('2025-03-10T23:00:00Z') / 60_000)}`);
    assert.ok(minuteTtl > 60_000 && minuteTtl <= 120_000, `minute TTL ${minuteTtl}`);
    assert.equal(await redis.get(`${prefix}{account:${owner}}:ai:2025-03-10`), '1');
  });

  test('an unreachable Redis is 503 unavailable, not a hang or a 500', async () => {
    const limits = createLimits(database.deps(new ManualClock()), { redisUrl: 'redis://127.0.0.1:1', redisKeyPrefix: prefix });
    try {
      await assert.rejects(limits.consume(actorFor({ type: 'account', id: ownerId('acc') }), 'data'), { code: 'unavailable', status: 503 });
    } finally {
      await limits.close();
    }
  });
});
