// Scheduled ingestion on the job queue, through the whole service (startServer), against eLMS
// answers recorded in test/fixtures and served from a local HTTP server (INGEST_BASE_URL_ELMS):
// once per occurrence across two instances, retries with backoff while the API keeps answering,
// a sync cut off by a stop finished after the restart, and nothing scheduled unless asked.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../../../../src/kernel/config.ts';
import { freshDatabase } from '../../../helpers/context.ts';
import { getJson, readerKey, startService, type TestService, until } from '../../../helpers/service.ts';
import { FIXTURES, onceAt, type Replay, startReplay } from './replay-server.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

let replay: Replay;

before(async () => {
  replay = await startReplay(`${FIXTURES}elms`);
  // Five of the 50 recorded alderpersons and two of the 99 meetings keep a sync (which asks for
  // each one's detail, a quarter of a second apart) to about fifteen requests.
  const recorded = (name: string) => JSON.parse(readFileSync(`${FIXTURES}elms/${name}.json`, 'utf8'));
  replay.override('/person', { data: recorded('person').data.slice(0, 5), meta: {} });
  replay.override('/meeting', { data: recorded('meeting').data.slice(0, 2), meta: {} });
});
after(() => replay.close());

const elmsFrom = (url: string) => ({ INGEST_BASE_URL_ELMS: url, INGEST_CRON_LOBBYING: 'off', INGEST_CRON_CAMPAIGN_FINANCE: 'off' });
const requestsTo = (path: string) => replay.requests.filter((u) => u.pathname === path).length;

/** The elms entry of the service's own sources answer (no HTTP, so polling counts against no limit). */
async function elms(service: TestService) {
  const { data } = await service.ctx.services.publicData.sources();
  return data.find((s) => s.source === 'elms');
}

test('INGEST_* settings say which sources sync when; a mistake stops the start', () => {
  assert.deepEqual(loadConfig({}).ingest.schedules, []);
  const on = loadConfig({
    INGEST_SCHEDULE: 'on',
    INGEST_CRON_LOBBYING: 'off',
    INGEST_LEGISTAR_CLIENTS: 'Chicago, sanjose',
    INGEST_CRON_LEGISTAR: '0 */2 * * *',
  });
  assert.deepEqual(on.ingest.schedules, [
    { source: 'elms', cron: '7 * * * *' },
    { source: 'campaign_finance', cron: '40 6 * * *' },
    { source: 'legistar:chicago', cron: '0 */2 * * *' },
    { source: 'legistar:sanjose', cron: '0 */2 * * *' },
  ]);
  assert.deepEqual(loadConfig({ INGEST_BASE_URL_LEGISTAR: 'http://127.0.0.1:9/' }).ingest.baseUrls, { legistar: 'http://127.0.0.1:9/' });
  for (const env of [
    { INGEST_SCHEDULE: 'yes' },
    { INGEST_CRON_ELMS: 'hourly' },
    { INGEST_TIMEZONE: 'Chicago' },
    { INGEST_LEGISTAR_CLIENTS: 'san jose' },
    { INGEST_BASE_URL_ELMS: 'ftp://x' },
  ]) {
    assert.throws(() => loadConfig(env), ConfigError, JSON.stringify(env));
  }
});

test('no sync is scheduled unless INGEST_SCHEDULE=on (alert digests are, always); the queue starts and stops with the service', async () => {
  const database = await freshDatabase();
  // Should a default occurrence fall due meanwhile, its sync reads the local server, never the live source.
  const local = { INGEST_BASE_URL_ELMS: replay.url, INGEST_BASE_URL_LOBBYING: replay.url, INGEST_BASE_URL_CAMPAIGN_FINANCE: replay.url };
  let service = await startService(database.env, local);
  try {
    assert.equal(service.ctx.jobs.running, true);
    const stored = await sql<{ n: number }>`select count(*)::int as n from pgboss.schedule where name = 'public-data.ingest'`.execute(service.ctx.db);
    assert.equal(stored.rows[0]!.n, 0);
    assert.deepEqual((await service.ctx.services.publicData.sources()).data, []);
    await service.close();
    assert.equal(service.ctx.jobs.running, false);

    // On: every source family with a default cron; off again: the stored schedules go.
    service = await startService(database.env, { ...local, INGEST_SCHEDULE: 'on' });
    const key = await readerKey(service.ctx);
    const listed = await getJson(service, '/api/v1/sources', key);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.data.map((s: any) => [s.source, s.schedule.cron, s.schedule.timezone]),
      [
        ['campaign_finance', '40 6 * * *', 'UTC'],
        ['elms', '7 * * * *', 'UTC'],
        ['lobbying', '20 6 * * *', 'UTC'],
      ],
    );
    for (const s of listed.body.data) {
      assert.ok(Date.parse(s.schedule.nextRunAt) > Date.now(), s.schedule.nextRunAt);
      assert.equal(s.lastSuccessAt, null);
    }
    await service.close();
    service = await startService(database.env, local);
    assert.equal(
      (await sql<{ n: number }>`select count(*)::int as n from pgboss.schedule where name = 'public-data.ingest'`.execute(service.ctx.db)).rows[0]!.n,
      0,
    );
  } finally {
    await service.close();
    await database.drop();
  }
});

test('a scheduled sync runs once per occurrence on two instances sharing the database', { skip: !onPostgres && 'needs DATABASE_URL' }, async () => {
  const database = await freshDatabase();
  const { cron, at } = onceAt();
  const env = { INGEST_SCHEDULE: 'on', INGEST_CRON_ELMS: cron, ...elmsFrom(replay.url) };
  const before = requestsTo('/body');
  const [a, b] = await Promise.all([startService(database.env, env), startService(database.env, env)]);
  try {
    const done = await until(
      'the scheduled sync completed',
      async () => {
        const s = await elms(b);
        return s?.job?.state === 'completed' ? s : undefined;
      },
      120,
    );
    assert.equal(done.job!.attempt, 1);
    assert.ok(done.job!.result!.seen > 0 && done.job!.result!.changed > 0, JSON.stringify(done.job!.result));
    assert.match(done.job!.progress!, /elms: finished/);
    assert.equal(done.job!.progressCount, done.job!.result!.seen);
    assert.ok(done.lastSuccessAt);
    // Both instances keep running passes; wait out the occurrence's due window (60 s) and one
    // more pass (10 s): a second sync would have been sent by now.
    await new Promise((r) => setTimeout(r, Math.max(0, at.getTime() + 72_000 - Date.now())));
    assert.equal(requestsTo('/body') - before, 1, 'one sync fetched the bodies');
    const jobs = await sql<{ n: number }>`select count(*)::int as n from pgboss.job where name = 'public-data.ingest'`.execute(a.ctx.db);
    assert.equal(jobs.rows[0]!.n, 1);
    const key = await readerKey(a.ctx);
    for (const instance of [a, b]) {
      const { body } = await getJson(instance, '/api/v1/sources', key);
      const entry = body.data.find((s: any) => s.source === 'elms');
      assert.equal(entry.job.id, done.job!.id);
      assert.equal(entry.schedule.cron, cron);
    }
  } finally {
    await Promise.all([a.close(), b.close()]);
    await database.drop();
  }
});

test('a failing source is retried with backoff and reported at /api/v1/sources; the API keeps answering', async () => {
  // Every request answers 500 (Retry-After: 0, so the client's own five retries go quickly).
  let failing = 0;
  const down = createServer((_req, res) => {
    failing++;
    res.writeHead(500, { 'retry-after': '0' }).end('upstream down');
  });
  await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
  const downUrl = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
  const database = await freshDatabase();
  const service = await startService(database.env, { ...elmsFrom(downUrl), INGEST_RETRY_LIMIT: '2', INGEST_RETRY_DELAY_SECONDS: '1' });
  try {
    const key = await readerKey(service.ctx);
    const id = await service.ctx.services.ingestSchedule.enqueue('elms');
    assert.ok(id);
    // Only one sync of a source waits or runs at a time.
    assert.equal(await service.ctx.services.ingestSchedule.enqueue('elms'), null);

    await until('the first attempt failed', async () => ((await elms(service))?.job?.state === 'retrying' ? true : undefined));
    const retrying = (await getJson(service, '/api/v1/sources', key)).body.data.find((s: any) => s.source === 'elms');
    assert.equal(retrying.job.id, id);
    assert.equal(retrying.job.attempt, 1);
    assert.equal(retrying.job.maxAttempts, 3);
    assert.match(retrying.job.error, /answered 500/);
    assert.ok(retrying.job.nextAttemptAt, 'a retrying job says when it runs next');
    assert.match(retrying.lastError, /answered 500/);
    assert.equal((await getJson(service, '/api/v1/matters', key)).status, 200);

    await until('every attempt failed', async () => ((await elms(service))?.job?.state === 'failed' ? true : undefined));
    const failed = (await getJson(service, '/api/v1/sources', key)).body.data.find((s: any) => s.source === 'elms');
    assert.equal(failed.job.attempt, 3);
    assert.equal(failed.job.nextAttemptAt, null);
    assert.ok(failed.job.finishedAt);
    assert.match(failed.job.error, /answered 500/);
    assert.equal(failed.lastSuccessAt, null);
    // Three attempts, each the first request and its five retries, then given up.
    assert.equal(failing, 18);
    assert.equal((await getJson(service, '/api/v1/matters', key)).status, 200);
  } finally {
    await service.close();
    await database.drop();
    await new Promise((resolve) => down.close(resolve));
  }
});

test('the service stops cleanly mid-sync, and the sync finishes after the restart', async () => {
  const database = await freshDatabase();
  const env = { ...elmsFrom(replay.url), JOBS_STOP_GRACE_SECONDS: '1', INGEST_RETRY_DELAY_SECONDS: '1' };
  const first = await startService(database.env, env);
  const persons = requestsTo('/person');
  const held = replay.hold('/body');
  let second: TestService | null = null;
  try {
    const key = await readerKey(first.ctx);
    const id = await first.ctx.services.ingestSchedule.enqueue('elms');
    await held.reached;
    const running = (await getJson(first, '/api/v1/sources', key)).body.data.find((s: any) => s.source === 'elms');
    assert.equal(running.job.id, id);
    assert.equal(running.job.state, 'running');
    assert.ok(running.job.runningSince);
    assert.match(running.job.progress, /elms: /);
    // The sync waits on /body past the grace period: it is cut off, and close() still returns.
    await first.close();
    held.release();

    second = await startService(database.env, env);
    const done = await until('the sync finished after the restart', async () => {
      const s = await elms(second!);
      return s?.job?.state === 'completed' ? s : undefined;
    });
    assert.equal(done.job!.id, id);
    assert.equal(done.job!.attempt, 2);
    assert.ok(done.job!.result!.seen > 0);
    assert.ok(done.lastSuccessAt);
    assert.equal(requestsTo('/person') - persons, 2, 'one request per attempt');
  } finally {
    held.release();
    await first.close();
    await second?.close();
    await database.drop();
  }
});
