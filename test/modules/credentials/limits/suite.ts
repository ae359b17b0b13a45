// The behaviour every counter store must show (spec "Limits", decisions.md "Envelopes and
// limits"), run against PostgreSQL/PGlite and against Redis by the two *.test.ts files here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Actor } from '../../../../src/kernel/actor.ts';
import { type Clock, ManualClock } from '../../../../src/kernel/clock.ts';
import { AppError } from '../../../../src/kernel/errors.ts';
import type { Limits } from '../../../../src/modules/credentials/limits/index.ts';
import { actorFor, ownerId } from './helpers.ts';

export interface Backend {
  /** A limits instance on the shared store; closed by the caller. */
  create(clock: Clock): Promise<Limits>;
  /** An instance standing for another copy of the service on the same store. */
  createOther(clock: Clock): Promise<Limits>;
  /** Whatever a restart of the service closes and opens again besides the limits themselves. */
  restart(): Promise<void>;
}

/** Asserts that `p` is refused with `code`, returns the error for further checks. */
export async function refused(p: Promise<unknown>, code: string): Promise<AppError> {
  let caught: unknown;
  await p.then(
    () => assert.fail(`expected ${code}, but the request was counted`),
    (err: unknown) => {
      caught = err;
    },
  );
  assert.ok(caught instanceof AppError, `expected an AppError, got ${String(caught)}`);
  assert.equal(caught.code, code);
  assert.equal(caught.status, 429);
  return caught;
}

const account = (limits: Parameters<typeof actorFor>[1] = {}): Actor => actorFor({ type: 'account', id: ownerId('acc') }, limits);

/** Two Limits instances of one backend on one store, both closed afterwards. */
export async function twoInstances(backend: Backend, clock: Clock, fn: (one: Limits, two: Limits) => Promise<void>): Promise<void> {
  const one = await backend.create(clock);
  const two = await backend.createOther(clock);
  try {
    await fn(one, two);
  } finally {
    await one.close();
    await two.close();
  }
}

export function limitsSuite(backend: () => Backend): void {
  async function using<T>(clock: Clock, fn: (limits: Limits) => Promise<T>): Promise<T> {
    const limits = await backend().create(clock);
    try {
      return await fn(limits);
    } finally {
      await limits.close();
    }
  }

  test('the last request of the day is allowed, the next is daily_limit with Retry-After to midnight UTC', async () => {
    const clock = new ManualClock('2025-03-10T12:00:00Z');
    await using(clock, async (limits) => {
      const a = account({ requestsPerDay: 5 });
      for (let i = 1; i <= 5; i++) {
        const s = await limits.consume(a, 'data');
        assert.equal(s.day.remaining, 5 - i);
        assert.equal(s.day.limit, 5);
        assert.equal(s.day.reset, 43_200);
      }
      const err = await refused(limits.consume(a, 'data'), 'daily_limit');
      assert.equal(err.headers['Retry-After'], '43200');
      assert.equal(err.headers['RateLimit-Remaining'], '0');
      assert.equal(err.headers['RateLimit-Limit'], '5');
      assert.match(err.headers['RateLimit-Policy']!, /"day";q=5;w=86400/);
      assert.match(err.message, /5 requests a day.*midnight UTC \(2025-03-11T00:00:00Z\), in 43200 seconds/);
      const peek = await limits.peek(a);
      assert.equal(peek.usage.requestsToday, 5, 'the refused request is not counted toward the day');
      assert.equal(peek.minute.remaining, 55, 'nor toward the minute');
      assert.equal(peek.usage.resetsAt, '2025-03-11T00:00:00.000Z');
    });
  });

  test('the minute limit refuses with a short Retry-After and allows again in the next minute', async () => {
    const clock = new ManualClock('2025-03-10T12:00:45Z');
    await using(clock, async (limits) => {
      const a = account({ requestsPerMinute: 3 });
      for (let i = 1; i <= 3; i++) assert.equal((await limits.consume(a, 'data')).minute.remaining, 3 - i);
      const err = await refused(limits.consume(a, 'data'), 'rate_limited');
      assert.equal(err.headers['Retry-After'], '15');
      assert.match(err.headers.RateLimit!, /"minute";r=0;t=15/);
      assert.match(err.message, /3 requests a minute.*15 seconds/);
      clock.advance(15_000);
      const s = await limits.consume(a, 'data');
      assert.equal(s.minute.remaining, 2);
      assert.equal(s.day.remaining, 996, 'three counted, one refused, one counted');
    });
  });

  test('GET /me counts toward the minute only, and keeps working when the day is used up', async () => {
    const clock = new ManualClock('2025-03-10T08:00:00Z');
    await using(clock, async (limits) => {
      const a = account({ requestsPerDay: 2, requestsPerMinute: 5 });
      const me = await limits.consume(a, 'me');
      assert.equal(me.day.remaining, 2);
      assert.equal(me.minute.remaining, 4);
      await limits.consume(a, 'data');
      await limits.consume(a, 'data');
      await refused(limits.consume(a, 'data'), 'daily_limit');
      assert.equal((await limits.consume(a, 'me')).minute.remaining, 1);
      assert.equal((await limits.consume(a, 'me')).minute.remaining, 0);
      const err = await refused(limits.consume(a, 'me'), 'rate_limited');
      assert.equal(err.headers['Retry-After'], '60');
      assert.equal((await limits.peek(a)).usage.requestsToday, 2);
    });
  });

  test('AI answers count toward their own daily limit and the day; data keeps working when only AI is used up', async () => {
    const clock = new ManualClock('2025-03-10T18:00:00Z');
    await using(clock, async (limits) => {
      const a = account({ requestsPerDay: 10, aiAnswersPerDay: 2 });
      assert.equal((await limits.consume(a, 'ai')).ai.remaining, 1);
      const second = await limits.consume(a, 'ai');
      assert.equal(second.ai.remaining, 0);
      assert.equal(second.day.remaining, 8);
      const err = await refused(limits.consume(a, 'ai'), 'ai_daily_limit');
      assert.equal(err.headers['Retry-After'], '21600');
      assert.equal(err.headers['X-AI-Calls-Remaining'], '0');
      assert.match(err.message, /2 answers a day.*data and search requests keep working/);
      const data = await limits.consume(a, 'data');
      assert.equal(data.day.remaining, 7, 'the refused AI request did not use a request of the day');
      assert.equal(data.ai.remaining, 0);
      const peek = await limits.peek(a);
      assert.deepEqual([peek.usage.requestsToday, peek.usage.aiAnswersToday], [3, 2]);
    });
  });

  test('when the day and the minute are both used up, the daily limit is the one reported', async () => {
    const clock = new ManualClock('2025-03-10T12:00:00Z');
    await using(clock, async (limits) => {
      const a = account({ requestsPerDay: 2, requestsPerMinute: 2 });
      await limits.consume(a, 'data');
      await limits.consume(a, 'data');
      const err = await refused(limits.consume(a, 'data'), 'daily_limit');
      assert.equal(err.headers['Retry-After'], '43200');
      assert.match(err.headers.RateLimit!, /"minute";r=0;t=60, "day";r=0;t=43200, "ai";r=50;t=43200/);
    });
  });

  test('the daily windows reset at midnight UTC', async () => {
    const clock = new ManualClock('2025-12-31T23:59:58Z');
    await using(clock, async (limits) => {
      const a = account({ requestsPerDay: 2, aiAnswersPerDay: 1 });
      await limits.consume(a, 'ai');
      await limits.consume(a, 'data');
      const err = await refused(limits.consume(a, 'data'), 'daily_limit');
      assert.equal(err.headers['Retry-After'], '2');
      clock.advance(2_000);
      const s = await limits.consume(a, 'ai');
      assert.equal(s.day.remaining, 1);
      assert.equal(s.ai.remaining, 0);
      assert.equal(s.day.reset, 86_400);
      const peek = await limits.peek(a);
      assert.equal(peek.usage.resetsAt, '2026-01-02T00:00:00.000Z');
      assert.equal(peek.usage.requestsToday, 1);
    });
  });

  test('a limit of zero refuses and counts nothing; class none counts nothing', async () => {
    const clock = new ManualClock('2025-03-10T12:00:00Z');
    await using(clock, async (limits) => {
      const a = account({ aiAnswersPerDay: 0 });
      await refused(limits.consume(a, 'ai'), 'ai_daily_limit');
      const s = await limits.consume(a, 'none');
      assert.deepEqual([s.day.remaining, s.minute.remaining, s.ai.remaining], [1000, 60, 0]);
      assert.equal((await limits.peek(a)).usage.requestsToday, 0);
    });
  });

  test('team credentials share the team counters, apart from each member account', async () => {
    const clock = new ManualClock('2025-03-10T12:00:00Z');
    await using(clock, async (limits) => {
      const teamId = ownerId('team');
      const alice = actorFor({ type: 'account', id: ownerId('acc') }, { requestsPerDay: 2 });
      const aliceTeamKey = actorFor({ type: 'team', id: teamId }, { requestsPerDay: 3 });
      const bobTeamKey = actorFor({ type: 'team', id: teamId }, { requestsPerDay: 3 });
      await limits.consume(alice, 'data');
      await limits.consume(alice, 'data');
      await refused(limits.consume(alice, 'data'), 'daily_limit');
      assert.equal((await limits.consume(aliceTeamKey, 'data')).day.remaining, 2);
      assert.equal((await limits.consume(bobTeamKey, 'data')).day.remaining, 1);
      assert.equal((await limits.consume(aliceTeamKey, 'data')).day.remaining, 0);
      await refused(limits.consume(bobTeamKey, 'data'), 'daily_limit');
      assert.equal((await limits.peek(alice)).usage.requestsToday, 2);
      assert.equal((await limits.peek(bobTeamKey)).usage.requestsToday, 3);
    });
  });

  test('two instances on one store: concurrent requests from both, exactly the daily limit succeed', async () => {
    await twoInstances(backend(), new ManualClock('2025-03-10T12:00:00Z'), async (one, two) => {
      // AI refusals come while the day still has room: what they counted in the day must be given back.
      const a = account({ requestsPerDay: 12, requestsPerMinute: 100, aiAnswersPerDay: 2 });
      const calls = Array.from({ length: 30 }, (_, i) => (i % 2 ? one : two).consume(a, i % 3 ? 'data' : 'ai'));
      const results = await Promise.allSettled(calls);
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 12);
      for (const r of results) {
        if (r.status === 'rejected') assert.ok(['daily_limit', 'ai_daily_limit'].includes((r.reason as AppError).code), String(r.reason));
      }
      const peek = await two.peek(a);
      assert.equal(peek.usage.requestsToday, 12);
      assert.ok(peek.usage.aiAnswersToday <= 2);
      assert.equal(peek.minute.remaining, 88, 'refused requests gave back what they counted in the minute');
    });
  });

  test('two instances on one store: concurrent requests from both, exactly the minute limit succeed', async () => {
    await twoInstances(backend(), new ManualClock('2025-03-10T12:00:00Z'), async (one, two) => {
      const a = account({ requestsPerDay: 100, requestsPerMinute: 5 });
      const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).consume(a, 'data')));
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 5);
      assert.equal(results.filter((r) => r.status === 'rejected' && (r.reason as AppError).code === 'rate_limited').length, 15);
      assert.equal((await one.peek(a)).usage.requestsToday, 5, 'requests refused by the minute gave back their count of the day');
    });
  });

  test('counters survive a restart', async () => {
    const clock = new ManualClock('2025-03-10T12:00:00Z');
    const a = account({ requestsPerDay: 4, aiAnswersPerDay: 3 });
    await using(clock, async (limits) => {
      await limits.consume(a, 'data');
      await limits.consume(a, 'ai');
    });
    await backend().restart();
    await using(clock, async (limits) => {
      const peek = await limits.peek(a);
      assert.deepEqual([peek.usage.requestsToday, peek.usage.aiAnswersToday], [2, 1]);
      assert.equal((await limits.consume(a, 'data')).day.remaining, 1);
    });
  });
}
