// The running service's dependencies, built once: configuration, database (migrated), clock and
// the module services. The HTTP app, the admin socket and the CLI all use the same context.
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Config } from './kernel/config.ts';
import type { ModuleDeps } from './kernel/deps.ts';
import type { DB } from './db-schema.ts';
import { type Clock, systemClock } from './kernel/clock.ts';
import { type Coherence, startCoherence, withoutCaches } from './kernel/coherence.ts';
import { type Database, openDatabase } from './kernel/db.ts';
import { inBackground } from './kernel/db-budget.ts';
import { createJobs, type Jobs } from './kernel/jobs.ts';
import { migrate } from './kernel/migrate.ts';
import { createServices, type Services } from './services.ts';
import { createCatalogue, type OperationId } from './catalogue.ts';
import { createPerformer, type Performer } from './kernel/perform.ts';

export interface AppContext extends ModuleDeps {
  database: Database<DB>;
  /** In-memory caches kept coherent with the database and the other instances (kernel/coherence.ts). */
  caches: Coherence;
  /** The job queue: built here, started only by the running service (workers.ts), stopped by close(). */
  jobs: Jobs;
  services: Services;
  /** Every operation, performed through the same gates by every surface (kernel/perform.ts). */
  performer: Performer<OperationId>;
  /** Where the running service is in its life: `/ready` reads it (server.ts sets it). */
  lifecycle: { serving: boolean; draining: boolean };
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  log?: FastifyBaseLogger;
  /** Skip migrations (the CLI's `migrate` runs them itself and reports). */
  migrate?: boolean;
  /**
   * Keep credentials and public documents in memory (default true). A process that serves no
   * requests (the CLI) passes false: it joins no lease, yet still settles the power it changes.
   */
  caches?: boolean;
}

export function createLogger(config: Config): FastifyBaseLogger {
  const level = process.env.LOG_LEVEL ?? (config.nodeEnv === 'test' ? 'silent' : 'info');
  return pino({
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'], remove: true },
    serializers: {
      // Only the path is logged: a query string could hold a credential someone wrongly put there.
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
    },
  }) as unknown as FastifyBaseLogger;
}

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const database = await openDatabase<DB>({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, requestBudgetMs: config.requestDbBudgetMs });
  try {
    if (options.migrate !== false) await inBackground(() => migrate(database));
  } catch (err) {
    await database.close();
    throw err;
  }
  const deps: ModuleDeps = {
    db: database.db,
    clock: options.clock ?? systemClock,
    config,
    log: options.log ?? createLogger(config),
  };
  let caches: Coherence;
  try {
    caches = options.caches === false ? withoutCaches(database.db, deps.log) : await startCoherence(database, deps.log);
  } catch (err) {
    await database.close();
    throw err;
  }
  const jobs = createJobs(database, config, deps.log);
  const services = createServices(deps, database, caches, jobs);
  return {
    ...deps,
    database,
    caches,
    jobs,
    services,
    performer: createPerformer<OperationId>(createCatalogue(services), services.credentials.limits, deps.clock),
    lifecycle: { serving: false, draining: false },
    async close() {
      // First, while the database is still there for the jobs given their grace period.
      await jobs.stop();
      await services.close();
      await caches.close();
      await database.close();
    },
  };
}
