// What every module is built from: the database, the clock, the configuration and the log. Modules
// import this from the kernel, never from the app's composition root (src/context.ts).
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db-schema.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';

export interface ModuleDeps {
  db: Kysely<DB>;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
}
