// Module dependencies for the limits tests over a fresh, migrated database (PGlite by default,
// the PostgreSQL server named by DATABASE_URL otherwise), with a second connection to the same
// data standing for another instance of the service. The database is made here rather than by
// test/helpers/context.ts, which loads the whole app: these tests need only the kernel.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from '../../../../src/kernel/config.ts';
import type { ModuleDeps } from '../../../../src/kernel/deps.ts';
import type { DB } from '../../../../src/db-schema.ts';
import type { Actor, Limits as LimitValues } from '../../../../src/kernel/actor.ts';
import type { Clock } from '../../../../src/kernel/clock.ts';
import { type Database, openDatabase } from '../../../../src/kernel/db.ts';
import { migrate } from '../../../../src/kernel/migrate.ts';

export interface TestDatabase {
  kind: 'pglite' | 'postgres';
  deps(clock: Clock): ModuleDeps;
  /** Dependencies of another instance on the same data: its own pool on a server; PGlite has one owner. */
  otherInstance(clock: Clock): Promise<ModuleDeps>;
  /** Closes every connection and opens the database again, as a restarted service would. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

async function freshDatabase(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const server = process.env.DATABASE_URL;
  if (!server) {
    const dir = mkdtempSync(join(tmpdir(), 'council-limits-'));
    return { env: { DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `ct_limits_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { env: { DATABASE_URL: url.toString() }, drop: () => admin(`drop database if exists ${name} with (force)`) };
}

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

export async function openTestDatabase(): Promise<TestDatabase> {
  const fresh = await freshDatabase();
  const config = loadConfig({ NODE_ENV: 'test', LOAD_SAMPLE: 'false', ...fresh.env });
  const open = () => openDatabase<DB>({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let main: Database<DB> = await open();
  await migrate(main);
  const others: Database<DB>[] = [];
  return {
    kind: main.kind,
    deps: (clock) => ({ db: main.db, clock, config, log }),
    async otherInstance(clock) {
      if (main.kind === 'pglite') return { db: main.db, clock, config, log };
      const other = await open();
      others.push(other);
      return { db: other.db, clock, config, log };
    },
    async restart() {
      for (const o of others.splice(0)) await o.close();
      await main.close();
      main = await open();
    },
    async close() {
      for (const o of others.splice(0)) await o.close();
      await main.close();
      await fresh.drop();
    },
  };
}

let serial = 0;

/** An actor whose counters belong to `owner`, with the given limits. */
export function actorFor(owner: Actor['limitsOwner'], limits: Partial<LimitValues> = {}): Actor {
  serial += 1;
  return {
    account: { id: owner.type === 'account' ? owner.id : `acc_member_${serial}`, email: `user${serial}@example.org`, name: null },
    team: owner.type === 'team' ? { id: owner.id, name: 'Ward Watchers', role: 'member', features: [] } : null,
    credential: { id: `key_${serial}`, type: 'api_key', name: 'test', kind: 'scoped', expiresAt: null },
    scopes: ['public.read', 'public.ai'],
    limitsOwner: owner,
    limits: { requestsPerDay: 1000, requestsPerMinute: 60, aiAnswersPerDay: 50, ...limits },
  };
}

/** A fresh owner id, so tests sharing a store never share counters by accident. */
export function ownerId(prefix: string): string {
  return `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
}
