// The job queue (kernel/jobs.ts) on its own, with kinds of job of the tests' making: a job is
// worked and its result kept, "once per key" holds, a failing job is retried with backoff, and
// stop() gives running jobs their grace period, then cuts them off to be retried after a restart.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { defineJob, type RunningJob } from '../../src/kernel/jobs.ts';
import { startTestContext, type TestContext } from '../helpers/context.ts';
import { until } from '../helpers/service.ts';

let t: TestContext;

before(async () => {
  t = await startTestContext({ env: { JOBS_STOP_GRACE_SECONDS: '1' } });
  await t.ctx.jobs.start();
});
after(() => t.close());

const latestWhen = <P extends object>(kind: ReturnType<typeof defineJob<P>>, key: string, state: string) =>
  until(`the ${kind.name} job is ${state}`, async () => {
    const job = await t.ctx.jobs.latest(kind, key);
    return job?.state === state ? job : undefined;
  });

test('a job is worked once and its result kept; an exclusive kind holds one job per key', async () => {
  const echo = defineJob<{ n: number }>('test.echo', { policy: 'exclusive' });
  const seen: number[] = [];
  await t.ctx.jobs.work(echo, async (job) => {
    seen.push(job.payload.n);
    return { doubled: job.payload.n * 2 };
  });
  const id = await t.ctx.jobs.send(echo, { n: 21 }, { singletonKey: 'a' });
  assert.ok(id);
  assert.equal(await t.ctx.jobs.send(echo, { n: 22 }, { singletonKey: 'a' }), null);
  const done = await latestWhen(echo, 'a', 'completed');
  assert.equal(done.id, id);
  assert.deepEqual(done.output, { doubled: 42 });
  assert.equal(done.attempt, 1);
  assert.equal(done.error, null);
  assert.ok(done.finishedAt);
  // Once the job has finished, the key is free again.
  assert.ok(await t.ctx.jobs.send(echo, { n: 1 }, { singletonKey: 'a' }));
  await until('the second job ran', async () => (seen.length === 2 ? true : undefined));
  assert.deepEqual(seen, [21, 1]);
});

test('a failing job is retried with backoff until it succeeds', async () => {
  const flaky = defineJob<{ key: string }>('test.flaky', { retry: { limit: 3, delaySeconds: 1, backoff: true } });
  const attempts: number[] = [];
  await t.ctx.jobs.work(flaky, async (job) => {
    attempts.push(job.attempt);
    if (job.attempt < 3) throw new Error(`upstream down (attempt ${job.attempt})`);
    return { ok: true };
  });
  await t.ctx.jobs.send(flaky, { key: 'x' }, { singletonKey: 'x' });
  const retrying = await latestWhen(flaky, 'x', 'retrying');
  assert.match(retrying.error!, /upstream down \(attempt 1\)/);
  assert.equal(retrying.maxAttempts, 4);
  assert.ok(retrying.runAfter, 'a retrying job says when it runs next');
  const done = await latestWhen(flaky, 'x', 'completed');
  assert.deepEqual(attempts, [1, 2, 3]);
  assert.equal(done.attempt, 3);
  assert.deepEqual(done.output, { ok: true });
});

test('stop() lets a job finish within the grace period, cuts off one that does not, and the cut one is retried after a restart', async () => {
  const slow = defineJob<{ finish: boolean }>('test.slow', { retry: { limit: 2, delaySeconds: 1 } });
  const release = Promise.withResolvers<void>();
  const started = { quick: Promise.withResolvers<void>(), stuck: Promise.withResolvers<void>() };
  let cutReason: unknown = null;
  await t.ctx.jobs.work(
    slow,
    async (job: RunningJob<{ finish: boolean }>) => {
      if (job.payload.finish) {
        started.quick.resolve();
        await release.promise;
        return { finished: true };
      }
      started.stuck.resolve();
      // Never finishes on its own: it waits for its signal, as a handler that respects shutdown does.
      await new Promise<void>((_resolve, reject) =>
        job.signal.addEventListener(
          'abort',
          () => {
            cutReason = job.signal.reason;
            reject(cutReason);
          },
          { once: true },
        ),
      );
      return undefined;
    },
    { concurrency: 2 },
  );
  await t.ctx.jobs.send(slow, { finish: true }, { singletonKey: 'quick' });
  await t.ctx.jobs.send(slow, { finish: false }, { singletonKey: 'stuck' });
  await Promise.all([started.quick.promise, started.stuck.promise]);

  const stopping = t.ctx.jobs.stop();
  release.resolve();
  await stopping;
  assert.equal(t.ctx.jobs.running, false);
  assert.match(String((cutReason as Error)?.message), /stopped before it finished/);
  const states = await sql<{
    key: string;
    state: string;
  }>`select singleton_key as key, state::text from pgboss.job where name = 'test.slow' order by singleton_key`.execute(t.ctx.db);
  assert.deepEqual(states.rows, [
    { key: 'quick', state: 'completed' },
    { key: 'stuck', state: 'retry' },
  ]);

  await t.ctx.jobs.start();
  await t.ctx.jobs.work(slow, async () => ({ finished: true }));
  const done = await latestWhen(slow, 'stuck', 'completed');
  assert.equal(done.attempt, 2);
});
