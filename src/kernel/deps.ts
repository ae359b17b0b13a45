// What every module is built from: the database, the clock, the configuration and the log. Modules
// import this from the kernel, never from the app's composition root (src/context.ts).
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';

/**
 * The database's tables. The kernel knows only its own; each module owns its tables, and the
 * composition root (src/db-schema.ts) merges them all into this interface, so the kernel imports
 * no module while every module's queries are typed against the whole database.
 */
export interface Tables {
  schema_migrations: { name: string; applied_at: Date };
}

export interface ModuleDeps {
  db: Kysely<Tables>;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
}
