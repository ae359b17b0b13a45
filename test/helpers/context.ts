// A real service context for tests: a fresh database per call — a temporary PGlite directory by
// default, or a new database on the PostgreSQL server named by DATABASE_URL (CI runs both).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import type { Clock } from '../../src/kernel/clock.ts';
import { type Config, loadConfig } from '../../src/kernel/config.ts';
import { inBackground } from '../../src/kernel/db-budget.ts';
import { openDatabase } from '../../src/kernel/db.ts';
import { listMigrations, migrate, migrationsDir } from '../../src/kernel/migrate.ts';
import { SAMPLE_DIR } from '../../src/modules/public-data/ingest/index.ts';

export interface TestContext {
  ctx: AppContext;
  app: FastifyInstance;
  config: Config;
  /** Closes the app and context and removes the database. */
  close(): Promise<void>;
}

export interface TestOptions {
  clock?: Clock;
  env?: Record<string, string>;
  /** Reuse an existing database (a second instance on the same data). */
  databaseUrl?: string;
  /** Start on a copy of a database that holds the bundled sample, loaded by the service's own ingest. */
  sample?: boolean;
}

// Every test database starts as a copy of one migrated template, made once per set of migrations
// (and PGlite version) and shared by the suite's processes: creating the embedded database and
// running every migration takes seconds, a copy a fraction of that. The service itself still
// migrates at start; on a copy it finds nothing to do, as a restarted instance does. The key holds
// the lockfile too: another PGlite is another data directory format.
const templateKey = createHash('sha256')
  .update(readFileSync(new URL('../../package-lock.json', import.meta.url)))
  .update(listMigrations().join('\n'))
  .update(
    listMigrations()
      .map((file) => readFileSync(join(migrationsDir, file)))
      .join('\n'),
  )
  .digest('hex')
  .slice(0, 16);

// The bundled sample, loaded once by the service's own ingest into a copy of the migrated template
// and shared the same way: a test of the open pages, feeds or answers reads the sample rather than
// tests its loading (test/modules/public-data/ingest and test/deploy load it themselves), and
// loading it costs each test file about ten seconds of CPU on the embedded database. The key
// holds the sample and every source file, so a change to the ingest makes a new one. Tests that
// set the clock load the sample themselves: what the ingest writes may depend on the time.
// Worked out only by a process that needs the sample (it reads the sample and the source tree).
let sampleKeyMemo: string | undefined;
function sampleKey(): string {
  if (sampleKeyMemo) return sampleKeyMemo;
  const files = [...filesUnder(SAMPLE_DIR), ...filesUnder(new URL('../../src/', import.meta.url).pathname)];
  const hash = createHash('sha256').update(templateKey).update(files.join('\n'));
  for (const file of files) hash.update(readFileSync(file));
  sampleKeyMemo = hash.digest('hex').slice(0, 16);
  return sampleKeyMemo;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Loads the bundled sample into the database the env names, through a context of the service. */
async function loadSample(env: Record<string, string>): Promise<void> {
  const ctx = await createContext(loadConfig({ NODE_ENV: 'test', LOAD_SAMPLE: 'false', LOG_LEVEL: 'silent', ...env }), { caches: false });
  try {
    await ctx.services.ingest.loadSampleIfEmpty(() => {});
  } finally {
    await ctx.close();
  }
}

/** A name no other process of the suite picks. */
const unique = (prefix: string) => `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;

/** The migrated embedded database to copy: made by the first process that needs it, renamed into place whole. */
async function pgliteTemplate(): Promise<string> {
  const dir = join(tmpdir(), `council-test-template-${templateKey}`);
  if (existsSync(join(dir, 'migrated'))) return dir;
  const build = mkdtempSync(join(tmpdir(), 'council-test-template-build-'));
  const database = await openDatabase({ databaseUrl: null, dataDir: build });
  await inBackground(() => migrate(database));
  await database.close();
  writeFileSync(join(build, 'migrated'), '');
  return moveInto(build, dir);
}

/** Renames a built directory into place; when another process put its own there first, uses that one. */
function moveInto(build: string, dir: string): string {
  try {
    renameSync(build, dir);
  } catch {
    rmSync(build, { recursive: true, force: true });
  }
  return dir;
}

/** The embedded database with the sample loaded: made like the migrated template, from a copy of it. */
async function pgliteSampleTemplate(): Promise<string> {
  const dir = join(tmpdir(), `council-test-sample-${sampleKey()}`);
  if (existsSync(join(dir, 'loaded'))) return dir;
  const build = mkdtempSync(join(tmpdir(), 'council-test-sample-build-'));
  cpSync(join(await pgliteTemplate(), 'pgdata'), join(build, 'pgdata'), { recursive: true });
  await loadSample({ DATA_DIR: build });
  writeFileSync(join(build, 'loaded'), '');
  return moveInto(build, dir);
}

/** The migrated template database on the PostgreSQL server: made once, then only copied (never connected to). */
async function postgresTemplate(admin: pg.Client, serverUrl: string): Promise<string> {
  const name = `ct_template_${templateKey}`;
  if (await databaseExists(admin, name)) return name;
  const build = unique('ct_template_build');
  await admin.query(`create database ${build}`);
  const database = await openDatabase({ databaseUrl: databaseUrl(serverUrl, build), dataDir: '' });
  await inBackground(() => migrate(database));
  await database.close();
  return renameInto(admin, build, name);
}

/** The server's database with the sample loaded: made from the migrated template, renamed into place whole. */
async function postgresSampleTemplate(admin: pg.Client, serverUrl: string): Promise<string> {
  const name = `ct_sample_${sampleKey()}`;
  if (await databaseExists(admin, name)) return name;
  const build = unique('ct_sample_build');
  await admin.query(`create database ${build} template ${await postgresTemplate(admin, serverUrl)}`);
  await loadSample({ DATABASE_URL: databaseUrl(serverUrl, build) });
  return renameInto(admin, build, name);
}

async function databaseExists(admin: pg.Client, name: string): Promise<boolean> {
  return (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
}

/**
 * Renames a built template into place; when another process renamed its own first, uses that one.
 * PostgreSQL says so with 42P04 (duplicate_database), or, when both renames pass its check at the
 * same moment, with 23505 (unique_violation on pg_database's name index): seen when four test
 * files built the template at once on a new machine.
 */
async function renameInto(admin: pg.Client, build: string, name: string): Promise<string> {
  try {
    await admin.query(`alter database ${build} rename to ${name}`);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== '42P04' && code !== '23505') throw err;
    await admin.query(`drop database if exists ${build} with (force)`);
  }
  return name;
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function freshPostgres(serverUrl: string, from: 'empty' | 'migrated' | 'sample'): Promise<{ url: string; drop(): Promise<void> }> {
  const name = unique('ct_test');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  // Closed whatever happens: an open connection would keep the test file's process alive after a failure.
  try {
    const template = from === 'empty' ? null : from === 'sample' ? await postgresSampleTemplate(admin, serverUrl) : await postgresTemplate(admin, serverUrl);
    await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: databaseUrl(serverUrl, name),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * A database for one test file: returns its config env and a drop function. Migrated (a copy of
 * the template) unless `empty`, for the tests of the migrations themselves; with the bundled
 * sample loaded when `sample`.
 */
export async function freshDatabase(options: { empty?: boolean; sample?: boolean } = {}): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const from = options.empty ? 'empty' : options.sample ? 'sample' : 'migrated';
  const server = process.env.DATABASE_URL;
  if (server) {
    const db = await freshPostgres(server, from);
    return { env: { DATABASE_URL: db.url }, drop: db.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'council-test-'));
  if (from !== 'empty')
    cpSync(join(from === 'sample' ? await pgliteSampleTemplate() : await pgliteTemplate(), 'pgdata'), join(dir, 'pgdata'), { recursive: true });
  return { env: { DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startTestContext(options: TestOptions = {}): Promise<TestContext> {
  const fresh = options.databaseUrl ? null : await freshDatabase({ sample: options.sample === true });
  const env: NodeJS.ProcessEnv = {
    NODE_ENV: 'test',
    LOAD_SAMPLE: 'false',
    BASE_URL: 'http://council.test',
    // A loaded CI machine can make one request's database work slow; the budget's own tests set
    // theirs (security/db-budget). Elsewhere a 503 over_budget would be the machine, not the code.
    REQUEST_DB_BUDGET_MS: '60000',
    ...(fresh?.env ?? {}),
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...(options.env ?? {}),
  };
  if (!env.DATABASE_URL) delete env.DATABASE_URL;
  const config = loadConfig(env);
  const ctx = await createContext(config, { ...(options.clock ? { clock: options.clock } : {}) });
  const app = await buildApp(ctx);
  await app.ready();
  return {
    ctx,
    app,
    config,
    async close() {
      await app.close();
      await ctx.close();
      await fresh?.drop();
    },
  };
}
