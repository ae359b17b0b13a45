// Block reservation for busy owners (limits/blocks.ts), run against PostgreSQL/PGlite and Redis
// by the two *.test.ts files here. Busy traffic is sent in waves of concurrent requests, with
// checks between waves: one instance alone stays exact in what it serves, refuses and shows;
// several instances never pass the limit; unused units go back to the store.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Actor } from '../../../../src/kernel/actor.ts';
import { ManualClock } from '../../../../src/kernel/clock.ts';
import type { AppError } from '../../../../src/kernel/errors.ts';
import type { Limits } from '../../../../src/modules/credentials/limits/index.ts';
import type { LimitClass } from '../../../../src/kernel/access.ts';
import type { LimitState } from '../../../../src/kernel/limit-state.ts';
import { actorFor, ownerId } from './helpers.ts';
import { type Backend, twoInstances } from './suite.ts';

export interface BlocksBackend extends Backend {
  /** The store's own count of a bucket (`day:2025-03-10`), block units not yet used included. */
  storeCount(owner: Actor['limitsOwner'], bucket: string): Promise<number>;
}

const WAVE = 50;

interface Wave {
  served: LimitState[];
  /** How many of the served were AI answers. */
  ai: number;
  refused: AppError[];
  /** How many of the served were counted without waiting (consumeNow). */
  fromMemory: number;
}

/**
 * `n` requests at once, spread over the instances in turn, request i of class `classOf(i)`, each
 * counted as the HTTP guard counts it: without waiting when the instance can (consumeNow), else
 * through consume.
 */
async function wave(instances: readonly Limits[], a: Actor, classOf: (i: number) => LimitClass = () => 'data', n = WAVE): Promise<Wave> {
  let fromMemory = 0;
  const one = async (limits: Limits, limitClass: LimitClass) => {
    const now = limits.consumeNow(a, limitClass);
    if (now) fromMemory += 1;
    return now ?? limits.consume(a, limitClass);
  };
  const results = await Promise.allSettled(Array.from({ length: n }, (_, i) => one(instances[i % instances.length]!, classOf(i))));
  const out: Wave = { served: [], ai: 0, refused: [], fromMemory };
  for (const [i, r] of results.entries()) {
    if (r.status === 'fulfilled') {
      out.served.push(r.value);
      if (classOf(i) === 'ai') out.ai += 1;
    } else out.refused.push(r.reason as AppError);
  }
  return out;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const ascending = (values: number[]) => [...values].sort((x, y) => x - y);

export function blocksSuite(backend: () => BlocksBackend): void {
  const busyAccount = (limits: Parameters<typeof actorFor>[1]) =>
    actorFor({ type: 'account', id: ownerId('busy') }, { requestsPerMinute: 1_000_000, aiAnswersPerDay: 100_000, ...limits });

  /** Waves until a block is out (the store counts more than was served); returns what was served. */
  async function busyUntilBlockOut(limits: Limits, a: Actor, day: string, classOf?: (i: number) => LimitClass): Promise<{ served: number; ai: number }> {
    let served = 0;
    let ai = 0;
    for (let w = 0; w < 40; w++) {
      const result = await wave([limits], a, classOf);
      assert.equal(result.refused.length, 0);
      served += result.served.length;
      ai += result.ai;
      if ((await backend().storeCount(a.limitsOwner, `day:${day}`)) > served) return { served, ai };
    }
    assert.fail('busy traffic never reserved a block ahead of use');
  }

  async function storeReaches(a: Actor, bucket: string, expected: number): Promise<number> {
    // The idle sweep runs on a real timer; wait for it (bounded), the outcome is what is checked.
    let count = -1;
    for (let i = 0; i < 500; i++) {
      count = await backend().storeCount(a.limitsOwner, bucket);
      if (count === expected) break;
      await sleep(10);
    }
    return count;
  }

  test('blocks, one instance: exactly the daily limit served, headers exact and falling, /me exact, store exact once closed', async () => {
    const clock = new ManualClock('2025-03-10T12:00:10Z');
    const limits = await backend().create(clock);
    const limit = 1000;
    const a = busyAccount({ requestsPerDay: limit });
    let served = 0;
    let meCalls = 0;
    let blocksSeen = 0;
    let fromMemory = 0;
    let lowestSoFar = Number.POSITIVE_INFINITY;
    const remaining: number[] = [];
    try {
      for (let w = 0; w < 60; w++) {
        const servedBefore = served;
        const { served: ok, refused, fromMemory: now } = await wave([limits], a);
        fromMemory += now;
        for (const err of refused) {
          assert.equal(err.code, 'daily_limit');
          assert.equal(err.headers['RateLimit-Remaining'], '0');
        }
        for (const s of ok) {
          // Day and minute both count every request served, and GET /me (between waves) only in the minute.
          assert.equal(s.minute.limit - s.minute.remaining, s.day.limit - s.day.remaining + meCalls);
        }
        const values = ok.map((s) => s.day.remaining);
        if (values.length) {
          assert.ok(
            Math.max(...values) < lowestSoFar,
            `wave ${w}: remaining went up ${lowestSoFar} ${JSON.stringify(ok.map((s) => [s.day.remaining, s.ai.remaining, s.minute.remaining]))}`,
          );
          lowestSoFar = Math.min(...values);
        }
        remaining.push(...values);
        served += ok.length;

        const peek = await limits.peek(a);
        assert.equal(peek.usage.requestsToday, served, `wave ${w}: /me usage`);
        assert.equal(peek.day.remaining, limit - served);
        const me = await limits.consume(a, 'me');
        meCalls += 1;
        assert.equal(me.day.remaining, limit - served);
        assert.equal(me.minute.remaining, 1_000_000 - served - meCalls);
        const stored = await backend().storeCount(a.limitsOwner, 'day:2025-03-10');
        // A block out now was reserved in this wave, with at most a tenth of the room left then.
        assert.ok(stored >= served && stored - served <= (limit - servedBefore) / 10, `wave ${w}: store ${stored}, served ${served}`);
        if (stored > served) blocksSeen += 1;
      }
      assert.equal(served, limit);
      assert.deepEqual(ascending(remaining), range(0, limit - 1), 'each remaining value shown once, none skipped');
      assert.ok(blocksSeen > 0, 'busy traffic was counted in blocks');
      assert.ok(fromMemory > 0, 'requests were counted from a block without waiting');
    } finally {
      await limits.close();
    }
    assert.equal(await backend().storeCount(a.limitsOwner, 'day:2025-03-10'), limit);
    assert.equal(await backend().storeCount(a.limitsOwner, `minute:${Math.floor(clock.now().getTime() / 60_000)}`), limit + meCalls);
  });

  test('blocks: AI answers counted exactly beside them; unused units go back to the store on close()', async () => {
    const clock = new ManualClock('2025-03-10T12:00:10Z');
    const a = busyAccount({ requestsPerDay: 100_000 });
    const limits = await backend().create(clock);
    let served: number;
    try {
      const busy = await busyUntilBlockOut(limits, a, '2025-03-10', (i) => (i % 10 === 9 ? 'ai' : 'data'));
      served = busy.served;
      assert.ok(busy.ai > 0);
      const peek = await limits.peek(a);
      assert.deepEqual([peek.usage.requestsToday, peek.usage.aiAnswersToday], [served, busy.ai]);
      assert.equal(await backend().storeCount(a.limitsOwner, 'ai:2025-03-10'), busy.ai);
    } finally {
      await limits.close();
    }
    assert.equal(await backend().storeCount(a.limitsOwner, 'day:2025-03-10'), served);
  });

  test('blocks: unused units go back to the store once the owner is idle', async () => {
    const clock = new ManualClock('2025-03-10T12:00:10Z');
    const a = busyAccount({ requestsPerDay: 100_000 });
    const limits = await backend().create(clock);
    try {
      const { served } = await busyUntilBlockOut(limits, a, '2025-03-10');
      clock.advance(1000);
      assert.equal(await storeReaches(a, 'day:2025-03-10', served), served);
      assert.equal((await limits.peek(a)).usage.requestsToday, served);
      const next = await limits.consume(a, 'data');
      assert.equal(next.day.remaining, 100_000 - served - 1, 'counting goes on from the given-back count');
    } finally {
      await limits.close();
    }
  });

  test('blocks across midnight UTC: the old day gets its unused units back, the new day counts from 0', async () => {
    const clock = new ManualClock('2025-03-10T23:59:59Z');
    const limit = 10_000;
    const a = busyAccount({ requestsPerDay: limit });
    const limits = await backend().create(clock);
    let newDay = 0;
    try {
      const { served: oldDay } = await busyUntilBlockOut(limits, a, '2025-03-10');
      clock.set('2025-03-11T00:00:00.500Z');
      const remaining: number[] = [];
      for (let w = 0; w < 5; w++) {
        const { served, refused } = await wave([limits], a);
        assert.equal(refused.length, 0);
        remaining.push(...served.map((s) => s.day.remaining));
        newDay += served.length;
        for (const s of served) assert.equal(s.day.reset, 86_400);
        assert.equal(await backend().storeCount(a.limitsOwner, 'day:2025-03-10'), oldDay, 'the old day holds only what it served');
        assert.equal((await limits.peek(a)).usage.requestsToday, newDay);
      }
      assert.deepEqual(ascending(remaining), range(limit - newDay, limit - 1));
    } finally {
      await limits.close();
    }
    assert.equal(await backend().storeCount(a.limitsOwner, 'day:2025-03-11'), newDay);
  });

  test('blocks, two instances under busy traffic: never more than the limit in total; once idle, the store holds what was served', async () => {
    const clock = new ManualClock('2025-03-10T12:00:10Z');
    const limit = 1000;
    const a = busyAccount({ requestsPerDay: limit });
    await twoInstances(backend(), clock, async (one, two) => {
      let served = 0;
      for (let w = 0; w < 60; w++) {
        const { served: ok, refused } = await wave([one, two], a);
        for (const err of refused) assert.equal(err.code, 'daily_limit');
        for (const s of ok) assert.ok(s.day.remaining >= 0 && s.day.remaining < limit);
        served += ok.length;
        assert.ok(served <= limit, `wave ${w}: ${served} served`);
      }
      assert.ok(served > limit - 2 * (limit / 10), `${served} served: blocks out at the end are at most a tenth of the room each`);
      clock.advance(1000);
      assert.equal(await storeReaches(a, 'day:2025-03-10', served), served);
      assert.equal((await one.peek(a)).usage.requestsToday, served);
      assert.equal((await two.peek(a)).usage.requestsToday, served);
    });
  });

  test('blocks, two instances under light traffic: counted exactly per request, both see the same usage at once', async () => {
    await twoInstances(backend(), new ManualClock('2025-03-10T12:00:10Z'), async (one, two) => {
      const a = busyAccount({ requestsPerDay: 100 });
      for (let n = 1; n <= 6; n++) {
        const s = await (n % 2 ? one : two).consume(a, 'data');
        assert.equal(s.day.remaining, 100 - n);
        assert.equal(await backend().storeCount(a.limitsOwner, 'day:2025-03-10'), n, 'nothing reserved ahead');
        assert.equal((await one.peek(a)).usage.requestsToday, n);
        assert.equal((await two.peek(a)).usage.requestsToday, n);
      }
    });
  });
}
