// The limits with their counters in PostgreSQL (PGlite by default, the server with DATABASE_URL).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Actor } from '../../../../src/kernel/actor.ts';
import { type Clock, ManualClock } from '../../../../src/kernel/clock.ts';
import { createLimits } from '../../../../src/modules/credentials/limits/index.ts';
import { actorFor, ownerId, openTestDatabase, type TestDatabase } from './helpers.ts';
import { blocksSuite } from './blocks-suite.ts';
import { limitsSuite } from './suite.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(async () => {
  await database.close();
});

describe('limits on PostgreSQL', () => {
  const backend = () => ({
    create: async (clock: Clock) => createLimits(database.deps(clock), { redisUrl: null }),
    createOther: async (clock: Clock) => createLimits(await database.otherInstance(clock), { redisUrl: null }),
    restart: () => database.restart(),
    async storeCount(owner: Actor['limitsOwner'], bucket: string) {
      const { rows } = await sql<{ count: number }>`select count from credential_usage_counters where key = ${`${owner.type}:${owner.id}:${bucket}`}`.execute(
        database.deps(new ManualClock()).db,
      );
      return rows[0]?.count ?? 0;
    },
  });
  limitsSuite(backend);
  blocksSuite(backend);

  test('counting leaves synchronous_commit on for every later statement: its asynchronous commit ends with its own', async () => {
    // pg-store.ts turns synchronous_commit off for each counting statement's own transaction (that
    // the fragment does so is tested with the units of work, idempotency.test.ts); a setting left
    // on the connection would make every later write of the service commit the same way.
    const clock = new ManualClock('2025-03-10T12:00:00Z');
    const limits = createLimits(database.deps(clock), { redisUrl: null });
    const owners = Array.from({ length: 30 }, (_, i) => actorFor({ type: 'account', id: ownerId(`async${i}`) }));
    await Promise.all(owners.map((a) => limits.consume(a, 'data')));
    await limits.close();
    // On the embedded database every statement shares one session, so a setting left behind shows
    // here; on a server, thirty at once over the pool's connections.
    const { db } = database.deps(clock);
    const settings = await Promise.all(
      owners.map(async () => (await sql<{ s: string }>`select current_setting('synchronous_commit') as s`.execute(db)).rows[0]!.s),
    );
    assert.deepEqual(new Set(settings), new Set(['on']));
    const counted = await sql<{ n: number }>`select count(*)::int as n from credential_usage_counters where key like ${'account:%async%:day:%'}`.execute(db);
    assert.equal(counted.rows[0]!.n, owners.length, 'each owner counted once');
  });

  test('counters of ended buckets are deleted now and then, current ones kept', async () => {
    const clock = new ManualClock('2025-03-10T12:00:00Z');
    const owner = ownerId('acc');
    const a = actorFor({ type: 'account', id: owner });
    const first = createLimits(database.deps(clock), { redisUrl: null });
    await first.consume(a, 'ai');
    await first.close();
    const keys = async () =>
      (
        await sql<{ key: string }>`select key from credential_usage_counters where key like ${`account:${owner}:%`} order by key`.execute(
          database.deps(clock).db,
        )
      ).rows.map((r) => r.key);
    assert.deepEqual(await keys(), [
      `account:${owner}:ai:2025-03-10`,
      `account:${owner}:day:2025-03-10`,
      `account:${owner}:minute:${Math.floor(Date.parse('2025-03-10T12:00:00Z') / 60_000)}`,
    ]);
    clock.set('2025-03-12T09:30:00Z');
    const second = createLimits(database.deps(clock), { redisUrl: null });
    await second.consume(a, 'data');
    await second.close();
    assert.deepEqual(await keys(), [`account:${owner}:day:2025-03-12`, `account:${owner}:minute:${Math.floor(Date.parse('2025-03-12T09:30:00Z') / 60_000)}`]);
  });
});
