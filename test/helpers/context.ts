// A real service context for tests: a fresh database per call — a temporary PGlite directory by
// default, or a new database on the PostgreSQL server named by DATABASE_URL (CI runs both).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
  try {
    renameSync(build, dir);
  } catch {
    rmSync(build, { recursive: true, force: true }); // another process put its template there first
  }
  return dir;
}

/** The migrated template database on the PostgreSQL server: made once, then only copied (never connected to). */
async function postgresTemplate(admin: pg.Client, serverUrl: string): Promise<string> {
  const name = `ct_template_${templateKey}`;
  const exists = async () => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (await exists()) return name;
  const build = unique('ct_template_build');
  await admin.query(`create database ${build}`);
  const url = new URL(serverUrl);
  url.pathname = `/${build}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
  await inBackground(() => migrate(database));
  await database.close();
  try {
    await admin.query(`alter database ${build} rename to ${name}`);
  } catch (err) {
    // Another process renamed its template first (42P04 duplicate_database): use that one.
    if ((err as { code?: string }).code !== '42P04') throw err;
    await admin.query(`drop database if exists ${build} with (force)`);
  }
  return name;
}

async function freshPostgres(serverUrl: string, empty: boolean): Promise<{ url: string; drop(): Promise<void> }> {
  const name = unique('ct_test');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(empty ? `create database ${name}` : `create database ${name} template ${await postgresTemplate(admin, serverUrl)}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
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
 * the template) unless `empty`, for the tests of the migrations themselves.
 */
export async function freshDatabase(options: { empty?: boolean } = {}): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL;
  if (server) {
    const db = await freshPostgres(server, options.empty === true);
    return { env: { DATABASE_URL: db.url }, drop: db.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'council-test-'));
  if (!options.empty) cpSync(join(await pgliteTemplate(), 'pgdata'), join(dir, 'pgdata'), { recursive: true });
  return { env: { DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startTestContext(options: TestOptions = {}): Promise<TestContext> {
  const fresh = options.databaseUrl ? null : await freshDatabase();
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
