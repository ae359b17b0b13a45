// The limits with their counters in PostgreSQL (PGlite by default, the server with DATABASE_URL).
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Actor } from '../../../../src/kernel/actor.ts';
import { type Clock, ManualClock } from '../../../../src/kernel/clock.ts';
import { openDatabase } from '../../../../src/kernel/db.ts';
import { listMigrations, migrate, migrationsDir } from '../../../../src/kernel/migrate.ts';
import { createLimits } from '../../../../src/modules/credentials/limits/index.ts';
import { freshDatabase } from '../../../helpers/context.ts';
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
      // A bucket is a column of the owner's row of its day: `day:<date>`, `ai:<date>`, or `minute:<n>`
      // (its count while the row's minute is n).
      const [window, at] = bucket.split(':') as [string, string];
      const minute = window === 'minute' ? Number(at) : null;
      const day = minute === null ? at : new Date(minute * 60_000).toISOString().slice(0, 10);
      const { rows } = await sql<{ count: number }>`
        select case ${window} when 'day' then requests when 'ai' then ai else case when minute = ${minute}::integer then minute_count else 0 end end as count
        from credential_usage_days where key = ${`${owner.type}:${owner.id}:${day}`}`.execute(database.deps(new ManualClock()).db);
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
    const counted = await sql<{ n: number }>`select count(*)::int as n from credential_usage_days where key like ${'account:%async%'} and requests = 1`.execute(
      db,
    );
    assert.equal(counted.rows[0]!.n, owners.length, 'each owner counted once');
  });

  test('counters of ended buckets are deleted now and then, current ones kept', async () => {
    const clock = new ManualClock('2025-03-10T12:00:00Z');
    const owner = ownerId('acc');
    const a = actorFor({ type: 'account', id: owner });
    const first = createLimits(database.deps(clock), { redisUrl: null });
    await first.consume(a, 'ai');
    await first.close();
    const rows = async () =>
      (
        await sql<{ key: string; requests: number; ai: number; minute: number; minute_count: number }>`
          select key, requests, ai, minute, minute_count from credential_usage_days where key like ${`account:${owner}:%`} order by key`.execute(
          database.deps(clock).db,
        )
      ).rows;
    const minuteOf = (at: string) => Math.floor(Date.parse(at) / 60_000);
    // One row per owner and day holds the day's requests, its AI answers and the current minute's requests.
    assert.deepEqual(await rows(), [{ key: `account:${owner}:2025-03-10`, requests: 1, ai: 1, minute: minuteOf('2025-03-10T12:00:00Z'), minute_count: 1 }]);
    clock.set('2025-03-12T09:30:00Z');
    const second = createLimits(database.deps(clock), { redisUrl: null });
    await second.consume(a, 'data');
    await second.close();
    assert.deepEqual(await rows(), [{ key: `account:${owner}:2025-03-12`, requests: 1, ai: 0, minute: minuteOf('2025-03-12T09:30:00Z'), minute_count: 1 }]);
  });

  test("migration 0233 carries each owner's counts of the day over from the counters of 0040, its latest minute with them", async () => {
    const fresh = await freshDatabase({ empty: true });
    const dir = mkdtempSync(join(tmpdir(), 'council-migrations-'));
    const database = await openDatabase<any>({ databaseUrl: fresh.env.DATABASE_URL ?? null, dataDir: fresh.env.DATA_DIR ?? '' });
    try {
      for (const f of listMigrations()) if (f < '0233') copyFileSync(join(migrationsDir, f), join(dir, f));
      await migrate(database, dir);
      const now = Date.now();
      const day = new Date(now).toISOString().slice(0, 10);
      const midnight = new Date(`${day}T00:00:00Z`).getTime() + 86_400_000;
      const minute = Math.floor(now / 60_000);
      const at = (ms: number) => new Date(ms).toISOString();
      const rows: Array<[string, number, string]> = [
        [`account:acc_1:day:${day}`, 5, at(midnight)],
        [`account:acc_1:ai:${day}`, 2, at(midnight)],
        [`account:acc_1:minute:${minute - 1}`, 7, at(now + 60_000)],
        [`account:acc_1:minute:${minute}`, 3, at(now + 60_000)],
        [`team:team_1:day:${day}`, 4, at(midnight)],
        // Ended: not carried.
        ['account:acc_2:day:2025-01-31', 9, '2025-02-01T00:00:00Z'],
      ];
      for (const [key, count, expires] of rows) {
        await sql`insert into credential_usage_counters (key, count, expires_at) values (${key}, ${count}, ${expires}::timestamptz)`.execute(database.db);
      }
      for (const f of listMigrations()) if (f.startsWith('0233')) copyFileSync(join(migrationsDir, f), join(dir, f));
      await migrate(database, dir);
      const carried = await sql<{ key: string; requests: number; ai: number; minute: number; minute_count: number; expires: string }>`
        select key, requests, ai, minute, minute_count, to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as expires
        from credential_usage_days order by key`.execute(database.db);
      const ends = at(midnight).replace('.000Z', 'Z');
      assert.deepEqual(carried.rows, [
        { key: `account:acc_1:${day}`, requests: 5, ai: 2, minute, minute_count: 3, expires: ends },
        { key: `team:team_1:${day}`, requests: 4, ai: 0, minute: 0, minute_count: 0, expires: ends },
      ]);
    } finally {
      await database.close();
      await fresh.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a request whose minute is earlier than its row's counts in the row's minute (another instance's clock ran ahead)", async () => {
    const owner = ownerId('late');
    const a = actorFor({ type: 'account', id: owner }, { requestsPerMinute: 2 });
    const ahead = new ManualClock('2025-03-10T12:01:00Z');
    const behind = new ManualClock('2025-03-10T12:00:59Z');
    const first = createLimits(database.deps(ahead), { redisUrl: null });
    const late = createLimits(database.deps(behind), { redisUrl: null });
    try {
      await first.consume(a, 'data');
      const state = await late.consume(a, 'data');
      assert.equal(state.minute.remaining, 0, "counted in 12:01, the row's minute, beside the first request");
      await assert.rejects(first.consume(a, 'data'), (err: any) => err.code === 'rate_limited');
    } finally {
      await first.close();
      await late.close();
    }
  });

  test('owners whose keys an array literal must quote are counted under their own keys, each apart', async () => {
    // The counting statement takes its keys as an array literal made by pg-store.ts, which leaves
    // the service's own ids unquoted; these are quoted and escaped as the manual says.
    const clock = new ManualClock('2025-03-10T12:00:00Z');
    const limits = createLimits(database.deps(clock), { redisUrl: null });
    const odd = [`quote " comma, {brace} back\\slash ${ownerId('q')}`, `NULL ${ownerId('n')}`, `space ${ownerId('s')}`, ownerId('plain')];
    const owners = odd.map((id) => ({ type: 'account' as const, id }));
    try {
      for (let round = 1; round <= 2; round++) {
        const states = await Promise.all(owners.map((o, i) => limits.consume(actorFor(o, { requestsPerMinute: 10 + i }), 'data')));
        assert.deepEqual(
          states.map((s) => s.minute.remaining),
          owners.map((_, i) => 10 + i - round),
        );
      }
      const { rows } = await sql<{ key: string; requests: number }>`
        select key, requests from credential_usage_days where key = any(${owners.map((o) => `account:${o.id}:2025-03-10`)}::text[]) order by key`.execute(
        database.deps(clock).db,
      );
      assert.deepEqual(
        rows.map((r) => [r.key, r.requests]),
        owners.map((o) => [`account:${o.id}:2025-03-10`, 2]).sort((x, y) => ((x[0] as string) < (y[0] as string) ? -1 : 1)),
      );
    } finally {
      await limits.close();
    }
  });
});
