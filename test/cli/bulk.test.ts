// `council bulk` as the operator runs it, and the nightly job: with no service running the CLI
// writes the export itself; with the service running it reaches the service (through the admin
// socket on the embedded database, directly on PostgreSQL, both into the same BULK_DIR) and the
// service serves the new export; the schedule is on the queue and a queued job writes an export.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/kernel/config.ts';
import { bulkExportJob } from '../../src/modules/bulk/index.ts';
import { bulkTables } from '../../src/modules/public-data/index.ts';
import { runCli } from '../helpers/cli.ts';
import { freshDatabase } from '../helpers/context.ts';
import { startService, type TestService, until } from '../helpers/service.ts';

const pglite = !process.env.DATABASE_URL;
const bulkDir = mkdtempSync(join(tmpdir(), 'council-bulk-cli-'));
let db: Awaited<ReturnType<typeof freshDatabase>>;
let env: NodeJS.ProcessEnv;

before(async () => {
  db = await freshDatabase();
  env = { ...process.env, NODE_ENV: 'test', LOAD_SAMPLE: 'false', LOG_LEVEL: 'silent', BULK_DIR: bulkDir, ...db.env };
  if (pglite) delete env.DATABASE_URL;
});
after(async () => {
  await db.drop();
  rmSync(bulkDir, { recursive: true, force: true });
});

const cli = (...args: string[]) => runCli(env, args);

const onDisk = () => JSON.parse(readFileSync(join(bulkDir, 'current', 'index.json'), 'utf8'));

test('BULK_CRON: a cron expression, or off; BULK_DIR defaults to DATA_DIR/bulk', () => {
  assert.equal(loadConfig({ BULK_CRON: 'off' }).bulk.cron, null);
  assert.equal(loadConfig({}).bulk.cron, '30 7 * * *');
  assert.equal(loadConfig({ BULK_CRON: '5 2 * * 0' }).bulk.cron, '5 2 * * 0');
  assert.throws(() => loadConfig({ BULK_CRON: 'nightly' }), ConfigError);
  assert.equal(loadConfig({ DATA_DIR: '/srv/council' }).bulk.dir, '/srv/council/bulk');
  assert.equal(loadConfig({ DATA_DIR: '/srv/council', BULK_DIR: '/srv/public' }).bulk.dir, '/srv/public');
});

test('with no service running, council bulk writes an export and prints its files', async () => {
  const json = await cli('bulk', '--json');
  assert.equal(json.code, 0, json.stderr);
  const result = JSON.parse(json.stdout);
  assert.equal(result.dir, bulkDir);
  assert.deepEqual(
    result.files.map((f: any) => f.name),
    [...bulkTables.map((t) => `${t.name}.csv.gz`), 'council.sqlite.gz'],
  );
  assert.equal(onDisk().snapshotAt, result.snapshotAt);
  // Progress goes to stderr, one line a table.
  assert.match(json.stderr, /^matters: 0 rows$/m);
  const text = await cli('bulk');
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^bulk export of the snapshot taken \S+ \(schema version 1\) in /);
  assert.match(text.stdout, /^ {2}votes\.csv\.gz: 0 rows, \d+ bytes, sha256 [0-9a-f]{64}$/m);
  const bad = await cli('bulk', '--tables', 'matters');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^council: bulk: /);
});

describe('with the service running', () => {
  let service: TestService;
  before(async () => {
    service = await startService(db.env, { BULK_DIR: bulkDir, BULK_CRON: '0 3 * * *' });
  });
  after(async () => {
    await service.close();
  });
  const served = async () => (await fetch(`${service.url}/bulk/index.json`)).json() as Promise<any>;

  test('council bulk reaches the service, whose next request serves the new export', async () => {
    const before = (await served()).snapshotAt;
    const run = await cli('bulk', '--json');
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.notEqual(result.snapshotAt, before);
    assert.equal((await served()).snapshotAt, result.snapshotAt);
  });

  test('the nightly export is scheduled on the queue, and a queued export job writes an export', async () => {
    assert.deepEqual(await service.ctx.jobs.scheduled(bulkExportJob), ['nightly']);
    const before = (await served()).snapshotAt;
    assert.ok(await service.ctx.jobs.send(bulkExportJob, { reason: 'test' }, { singletonKey: 'bulk' }));
    const next = await until('the job wrote a new export', async () => {
      const m = await served();
      return m.snapshotAt !== before ? m : undefined;
    });
    assert.equal(next.files.length, bulkTables.length + 1);
    // The job completes once its handler has returned, just after the new export is served.
    await until('the job is completed', async () => ((await service.ctx.jobs.latest(bulkExportJob, 'bulk'))?.state === 'completed' ? true : undefined));
  });
});
