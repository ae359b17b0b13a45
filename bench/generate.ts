// Builds the benchmark's synthetic council in a PostgreSQL database of its own, once: later runs
// find the marker row and reuse the data. Everything is marked source = 'bench'.
//
//   node bench/generate.ts            (DATABASE_URL, default the local server's council_bench)
import pg from 'pg';
import type { DB } from '../src/db-schema.ts';
import { openDatabase } from '../src/kernel/db.ts';
import { migrate } from '../src/kernel/migrate.ts';
import { rollCalls, sizes, steps, votes } from './synthetic-sql.ts';

/** Bump when the generated data changes shape: older data is then replaced. */
// 3: the matters' postings (migration 0230) are written after the matters and vacuumed with them.
export const GENERATOR_VERSION = 3;
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/council_bench';

export interface Generated {
  databaseUrl: string;
  reused: boolean;
  /** Seconds the generation took (when reused: the original generation's). */
  seconds: number;
  counts: Record<string, number>;
  databaseBytes: number;
  serverVersion: string;
}

type Log = (line: string) => void;

/** Creates the database named by the URL when the server does not have it yet. */
async function ensureDatabase(databaseUrl: string, log: Log): Promise<void> {
  const probe = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  try {
    await probe.connect();
    await probe.end();
    return;
  } catch (err) {
    await probe.end().catch(() => {});
    if ((err as { code?: string }).code !== '3D000') throw err; // 3D000: invalid_catalog_name
  }
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  // Any database the user may connect to can issue CREATE DATABASE; try the usual ones.
  let lastError: unknown = null;
  for (const maintenance of ['postgres', 'test', 'template1']) {
    url.pathname = `/${maintenance}`;
    const admin = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5000 });
    try {
      await admin.connect();
      await admin.query(`create database ${pg.escapeIdentifier(name)}`);
      log(`created database ${name}`);
      return;
    } catch (err) {
      lastError = err;
    } finally {
      await admin.end().catch(() => {});
    }
  }
  throw new Error(`cannot create database ${name}: ${(lastError as Error).message}`);
}

const countedTables = ['bodies', 'people', 'meetings', 'matters', 'matter_sponsors', 'matter_actions', 'roll_calls', 'votes', 'agenda_items', 'attendance'];

async function facts(client: pg.Client): Promise<{ bytes: number; version: string }> {
  const r = await client.query<{ bytes: string; version: string }>(
    "select pg_database_size(current_database())::text as bytes, current_setting('server_version') as version",
  );
  return { bytes: Number(r.rows[0]!.bytes), version: r.rows[0]!.version };
}

async function readMarker(client: pg.Client): Promise<{ version: number; seconds: number; counts: Record<string, number> } | null> {
  await client.query(`create table if not exists bench_meta (
    name          text primary key,
    version       integer not null,
    generated_at  timestamptz not null default now(),
    seconds       double precision not null,
    counts        jsonb not null
  )`);
  const r = await client.query<{ version: number; seconds: number; counts: Record<string, number> }>(
    "select version, seconds, counts from bench_meta where name = 'council'",
  );
  return r.rows[0] ?? null;
}

async function timed<T>(label: string, fn: () => Promise<T>, log: Log): Promise<T> {
  const t = performance.now();
  const result = await fn();
  log(`  ${label.padEnd(24)} ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return result;
}

/**
 * The generated rows are consistent by construction, so the per-row foreign key triggers only
 * cost time. Switching them off needs a superuser; without one the load just runs slower.
 */
async function skipForeignKeyChecks(client: pg.Client, log: Log): Promise<void> {
  await client.query('savepoint replica');
  try {
    await client.query('set local session_replication_role = replica');
    await client.query('release savepoint replica');
  } catch {
    await client.query('rollback to savepoint replica');
    log('  (not a superuser: foreign keys are checked row by row, which is slower)');
  }
}

/** Refuses a database holding anything but benchmark data: the generator truncates tables. */
async function assertBenchOnly(client: pg.Client): Promise<void> {
  for (const table of ['bodies', 'people', 'matters', 'meetings', 'committees']) {
    const r = await client.query(`select 1 from ${table} where source <> 'bench' limit 1`);
    if (r.rowCount) {
      throw new Error(`the database holds real public data (${table}); point DATABASE_URL at a database of its own for the benchmark`);
    }
  }
}

export async function generate(databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL, log: Log = console.log): Promise<Generated> {
  await ensureDatabase(databaseUrl, log);
  const database = await openDatabase<DB>({ databaseUrl, dataDir: '' });
  try {
    await migrate(database);
  } finally {
    await database.close();
  }

  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const marker = await readMarker(client);
    if (marker && marker.version === GENERATOR_VERSION) {
      const f = await facts(client);
      log(`reusing the synthetic council generated earlier (version ${GENERATOR_VERSION})`);
      return { databaseUrl, reused: true, seconds: marker.seconds, counts: marker.counts, databaseBytes: f.bytes, serverVersion: f.version };
    }
    await assertBenchOnly(client);
    log(`generating a synthetic council: ${sizes.matters} matters, ${sizes.meetings} meetings, ${rollCalls} roll calls, ${votes} votes`);
    const started = performance.now();
    // One transaction: an interrupted generation leaves nothing behind and the next run starts over.
    await client.query('begin');
    try {
      await client.query("set local statement_timeout = '15min'");
      await client.query('set local synchronous_commit = off');
      await client.query("set local work_mem = '64MB'");
      await client.query('truncate bodies, people, matters, meetings restart identity cascade');
      await skipForeignKeyChecks(client, log);
      // Building the votes indexes once after loading is several times faster than maintaining
      // them row by row; they are recreated from their own definitions, whatever migrations made.
      const indexes = await client.query<{ name: string; definition: string }>(
        `select indexname as name, indexdef as definition from pg_indexes
         where schemaname = current_schema() and tablename = 'votes'
           and indexname not in (select conname from pg_constraint where conrelid = 'votes'::regclass)`,
      );
      for (const index of indexes.rows) await client.query(`drop index ${pg.escapeIdentifier(index.name)}`);
      for (const step of steps()) await timed(step.label, () => client.query(step.sql), log);
      // The matters' postings (migration 0230) are written by triggers, off during this load.
      await timed('matter postings', () => client.query('select matter_postings_rebuild()'), log);
      await timed(
        `${indexes.rows.length} votes indexes`,
        async () => {
          await client.query(`set local maintenance_work_mem = '512MB'`);
          for (const index of indexes.rows) await client.query(index.definition);
        },
        log,
      );
      const counts: Record<string, number> = {};
      for (const table of countedTables) {
        const r = await client.query<{ n: string }>(`select count(*)::text as n from ${table}`);
        counts[table] = Number(r.rows[0]!.n);
      }
      const seconds = (performance.now() - started) / 1000;
      await client.query(
        `insert into bench_meta (name, version, seconds, counts) values ('council', $1, $2, $3)
         on conflict (name) do update set version = excluded.version, seconds = excluded.seconds, counts = excluded.counts, generated_at = now()`,
        [GENERATOR_VERSION, seconds, JSON.stringify(counts)],
      );
      await client.query('commit');
      // Fresh statistics for the planner and a visibility map for index-only scans.
      const t = performance.now();
      await client.query("set statement_timeout = '15min'");
      await client.query(`vacuum (analyze) ${[...countedTables, 'matter_postings'].join(', ')}`);
      log(`  ${'vacuum analyze'.padEnd(24)} ${((performance.now() - t) / 1000).toFixed(1)} s`);
      const total = (performance.now() - started) / 1000;
      await client.query("update bench_meta set seconds = $1 where name = 'council'", [total]);
      const f = await facts(client);
      log(`generated in ${total.toFixed(0)} s; database size ${(f.bytes / 2 ** 30).toFixed(2)} GiB`);
      return { databaseUrl, reused: false, seconds: total, counts, databaseBytes: f.bytes, serverVersion: f.version };
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    }
  } finally {
    await client.end();
  }
}

if (import.meta.main) {
  const result = await generate();
  console.log(JSON.stringify(result));
}
