// A real service context for tests: a fresh database per call — a temporary PGlite directory by
// default, or a new database on the PostgreSQL server named by DATABASE_URL (CI runs both).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/kernel/config.ts';
import { type AppContext, createContext } from '../../src/context.ts';
import type { Clock } from '../../src/kernel/clock.ts';

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

async function freshPostgres(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ct_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
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

/** A database for one test file: returns its config env and a drop function. */
export async function freshDatabase(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL;
  if (server) {
    const db = await freshPostgres(server);
    return { env: { DATABASE_URL: db.url }, drop: db.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'council-test-'));
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
