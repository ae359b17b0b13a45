// PostgreSQL everywhere: an embedded PGlite under DATA_DIR by default, a server through
// DATABASE_URL. Both sit behind one Kysely instance so every module runs the same SQL on both.
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import {
  type CompiledQuery,
  type DialectAdapter,
  type Driver,
  Kysely,
  PGliteAdapter,
  PGliteDialect,
  PostgresDialect,
  type QueryResult,
  type RawBuilder,
  sql,
} from 'kysely';
import pg from 'pg';
import { currentBudget, DEFAULT_REQUEST_DB_BUDGET_MS } from './db-budget.ts';
import { FairDriver } from './db-turns.ts';
import { parseTextArray } from './pg-array.ts';
import type { RequestUnit } from './db-unit.ts';

export type DatabaseKind = 'pglite' | 'postgres';

export interface Database<DB> {
  db: Kysely<DB>;
  kind: DatabaseKind;
  /**
   * Runs `fn` with one database session that executes multi-statement SQL scripts (simple query
   * protocol). Used by migrations, which need a session-level advisory lock.
   */
  session<T>(fn: (exec: (script: string) => Promise<void>) => Promise<T>): Promise<T>;
  /**
   * Subscribe to NOTIFY on a channel; resolves (once listening) to an unsubscribe function.
   * `onState(false)` says the listening connection was lost, so notifications may be missed until
   * `onState(true)` says it listens again: a cache kept coherent by notifications must not be
   * trusted in between.
   */
  listen(channel: string, onPayload: (payload: string) => void, onState?: (listening: boolean) => void): Promise<() => Promise<void>>;
  /**
   * The embedded database only (absent on a server, where a library opens its own pool): runs SQL
   * a library brings with it (the job queue) — one statement with parameters, or a script of
   * several without — as one turn of its own on the single connection, never inside another
   * caller's transaction. A script that failed inside BEGIN is rolled back before the turn ends,
   * as a pool would discard its connection.
   */
  embeddedSql?(text: string, values?: readonly unknown[]): Promise<{ rows: any[] }>;
  /** Opens the current request's unit of work (./db-unit.ts); only inside a request. */
  openUnit(): Promise<RequestUnit>;
  close(): Promise<void>;
}

// Type parsers, set once so both backends return the same JS values:
// int8/count(*) → number (our counts stay far below 2^53), date → 'YYYY-MM-DD' string, numeric → string,
// text[] and varchar[] → arrays of strings and nulls, read in one pass (./pg-array.ts).
const INT8 = 20;
const DATE = 1082;
const NUMERIC = 1700;
const TEXT_ARRAY = 1009;
const VARCHAR_ARRAY = 1015;
const textArrayOf = (oid: number) => {
  const fallback = pg.types.getTypeParser(oid, 'text') as (v: string) => unknown;
  return (v: string) => parseTextArray(v, fallback);
};
const parsers = {
  [INT8]: (v: string) => Number(v),
  [DATE]: (v: string) => v,
  [NUMERIC]: (v: string) => v,
  [TEXT_ARRAY]: textArrayOf(TEXT_ARRAY),
  [VARCHAR_ARRAY]: textArrayOf(VARCHAR_ARRAY),
};

/**
 * The turns on the one connection are FairDriver's: Kysely's own lock for single-connection
 * databases (taken before a connection is asked for, in arrival order) would queue callers
 * before they reach the fair turns, and is never given back when a turn is refused.
 */
class FairPGliteAdapter extends PGliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/**
 * PGlite is one connection. Kysely's PGlite driver hands that connection to every caller, so a
 * query issued while another caller's transaction is open would run inside it. Callers take
 * turns on it (./db-turns.ts), fairly between callers and yielding the event loop between turns.
 */
class FairPGliteDialect extends PGliteDialect {
  readonly driver = new FairDriver(super.createDriver(), { capacity: 1, yieldBetweenTurns: true, backgroundApart: false });
  override createAdapter(): DialectAdapter {
    return new FairPGliteAdapter();
  }
  override createDriver(): Driver {
    return this.driver;
  }
}

/** A server's request pool, in fair turns; background work (no request's budget) goes to its own pool, outside the turns. */
class FairPostgresDialect extends PostgresDialect {
  readonly driver: FairDriver;
  constructor(config: ConstructorParameters<typeof PostgresDialect>[0], capacity: number) {
    super(config);
    this.driver = new FairDriver(super.createDriver(), { capacity, yieldBetweenTurns: false, backgroundApart: true });
  }
  override createDriver(): Driver {
    return this.driver;
  }
}

/**
 * How long one statement of background work (jobs, ingest, migrations, the CLI) may run on a
 * server: the longer class. A request's statements get its budget (REQUEST_DB_BUDGET_MS).
 */
export const BACKGROUND_STATEMENT_TIMEOUT_MS = 15 * 60_000;

export interface OpenOptions {
  databaseUrl: string | null;
  dataDir: string;
  /** Pool size on a server for requests (default 10); background work has a pool of 5 beside it. */
  poolSize?: number;
  /** A request's statement_timeout on a server (kernel/db-budget.ts; default 2 s). */
  requestBudgetMs?: number;
}

export async function openDatabase<DB>(options: OpenOptions): Promise<Database<DB>> {
  if (options.databaseUrl) return openPostgres<DB>(options.databaseUrl, options.poolSize ?? 10, options.requestBudgetMs ?? DEFAULT_REQUEST_DB_BUDGET_MS);
  return openPglite<DB>(options.dataDir);
}

/**
 * Makes every file under `dir` 0600 and every directory 0700: the embedded database unpacks its
 * initial catalogs, config and commit log 0666, and its data is what the 0600 admin socket guards.
 * Links are not followed; a file removed meanwhile is skipped.
 */
function makePrivate(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isSymbolicLink()) continue;
    try {
      chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o700 : 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

async function openPglite<DB>(dataDir: string): Promise<Database<DB>> {
  // The directory is closed to others first, so nothing in it is reachable while it is tightened.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const pglite = new PGlite({ dataDir: `${dataDir}/pgdata`, parsers });
  await pglite.waitReady;
  makePrivate(dataDir);
  const dialect = new FairPGliteDialect({ pglite });
  const db = new Kysely<DB>({ dialect });
  return {
    db,
    kind: 'pglite',
    openUnit: () => dialect.driver.openUnit(),
    // One process owns the embedded database, so no other session can interleave here.
    session: (fn) =>
      fn(async (script) => {
        await pglite.exec(script);
      }),
    embeddedSql: (text, values) =>
      // Kysely's connection() takes a turn (./db-turns.ts), as a query or transaction does.
      db.connection().execute(async () => {
        try {
          if (values?.length) return { rows: (await pglite.query(text, values as unknown[])).rows };
          // Without parameters the text may be several statements (BEGIN … COMMIT): simple protocol.
          return { rows: (await pglite.exec(text)).flatMap((r) => r.rows) };
        } catch (err) {
          await pglite.exec('rollback').catch(() => {});
          throw err;
        }
      }),
    // In-process: the embedded database cannot be lost while the process runs, so onState never fires.
    async listen(channel, onPayload) {
      const unlisten = await pglite.listen(channel, onPayload);
      return async () => {
        await unlisten();
      };
    },
    async close() {
      await db.destroy();
    },
  };
}

/**
 * A select-list item (or RETURNING item) that makes the statement's own transaction commit without
 * waiting for its WAL to reach the disk (PostgreSQL "Asynchronous Commit", §28.4 in the v15
 * manual): `set_config(…, true)` lasts until that transaction ends, so nothing after it on the
 * connection is affected. Only for a statement that is its own transaction and whose write may be
 * lost in a crash of the database server (the last moments' commits, at most three times
 * wal_writer_delay): limit counts, a key's last use. Other sessions see the commit at once, as
 * any other. Inside a request's unit of work (./db-unit.ts) the statement runs in the unit's
 * transaction, whose writes must not be lost, so there the item is a plain null.
 */
export function asyncCommit(): RawBuilder<unknown> {
  return currentBudget()?.unit?.open ? sql`null` : sql`set_config('synchronous_commit', 'off', true)`;
}

/**
 * Marks a select (`qb.modifyFront(preparedStatement)`, or a raw one written
 * sql`select ${preparedStatement} …`) that runs often with the same text and whose
 * best plan does not depend on its parameters' values. On a server it runs as a named prepared
 * statement of each pooled connection, so PostgreSQL plans it once per connection (after its first
 * five runs, when the generic plan costs no more than the custom ones) instead of on every request:
 * the nested GraphQL read of matters with their parts spends as long planning as executing. The
 * embedded database ignores the mark (a comment).
 */
export const preparedStatement = sql`/* prepared */`;
const PREPARED_TEXT = 'select /* prepared */ ';

/** The marked texts' names, kept: the digest of a long text took 1 to 3 µs of every run of it. */
const statementNames = new Map<string, string>();
/** Marked texts are a few per kind of read; the bound only stops a caller making the map grow without end. */
const MAX_STATEMENT_NAMES = 1000;

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `ct_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    if (statementNames.size >= MAX_STATEMENT_NAMES) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/**
 * A pooled client that runs a marked select as a named statement: the name is a digest of the
 * text, so one text is one statement on each connection, and a statement is never reused for a
 * different text.
 *
 * It also answers (text, values), as Kysely's driver calls it, through pg's callback form with a
 * promise of its own. Through pg's own promise, about a third of what a query allocates (its rows)
 * outlived a young-generation collection and was promoted to the old one, although nothing kept
 * it: a loop of the votes page's statement promoted 44 % of its allocation that way and 0 % through
 * the callback (V8's --trace-gc-nvp), and the old generation's collections are the search p99's tail.
 */
class PreparingClient extends pg.Client {
  // pg's other overloads, kept as they are.
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && callback === undefined && typeof values !== 'function') {
      const query = config.startsWith(PREPARED_TEXT) ? { name: statementName(config), text: config, values } : { text: config, values };
      return new Promise((resolve, reject) => {
        super.query(query, (err: Error, result: pg.QueryResult) => (err ? reject(err) : resolve(result)));
      });
    }
    return super.query(config, values, callback);
  }
}

/**
 * The server refuses a connection past its `max_connections` (or a role's connection limit) with
 * SQLSTATE 53300, too_many_connections: a passing state while other clients hold theirs (several
 * instances sharing one server, one of them restarting with a fresh pool, a burst filling every
 * pool at once). A new connection refused so is tried again, a little later each time, before
 * the statement fails as `unavailable`: 50, 100, 200 and 400 ms, 750 ms in all.
 */
const TOO_MANY_CONNECTIONS = '53300';
const RECONNECT_PAUSES_MS = [50, 100, 200, 400];

async function connectPatiently(pool: pg.Pool): Promise<pg.PoolClient> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await pool.connect();
    } catch (err) {
      const pause = RECONNECT_PAUSES_MS[attempt];
      if ((err as { code?: unknown })?.code !== TOO_MANY_CONNECTIONS || pause === undefined) throw err;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

async function openPostgres<DB>(connectionString: string, max: number, requestBudgetMs: number): Promise<Database<DB>> {
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      const own = (parsers as Record<number, (v: string) => unknown>)[oid];
      return own ?? pg.types.getTypeParser(oid, format ?? 'text');
    }) as typeof pg.types.getTypeParser,
  };
  // Two classes of work, each its own pool whose connections carry its statement_timeout (sent at
  // start-up, so no statement pays a round trip for it): requests, within their budget; and
  // background work, which may run longer (kernel/db-budget.ts).
  //
  // A request's connections also run with JIT compilation off (`-c jit=off` at start-up). JIT pays
  // off for long analytic statements; a request's statements are short, and PostgreSQL's estimate
  // of a walk that stops early (a search's postings, migration 0230) can pass `jit_above_cost`
  // while the walk itself takes a few milliseconds: compiling it took 30 ms of a 53 ms search.
  const poolOf = (size: number, statementTimeout: number, options?: string) => {
    const pool = new pg.Pool({
      connectionString,
      max: size,
      types,
      connectionTimeoutMillis: 5000,
      Client: PreparingClient,
      statement_timeout: statementTimeout,
      ...(options ? { options } : {}),
    });
    // A client losing its server must not crash the process: idle clients report through the
    // pool, busy ones through their own 'error' event (their query fails too, and becomes a 503).
    pool.on('error', () => {});
    pool.on('connect', (client) => {
      client.on('error', () => {});
    });
    return pool;
  };
  const requests = poolOf(max, requestBudgetMs, '-c jit=off');
  const background = poolOf(5, BACKGROUND_STATEMENT_TIMEOUT_MS);
  const pool = {
    // What Kysely reads of a pool besides connect and end (to cancel a query on a connection of its own).
    Client: PreparingClient,
    options: requests.options,
    connect: () => connectPatiently(currentBudget() ? requests : background),
    async end() {
      await Promise.all([requests.end(), background.end()]);
    },
  };
  const dialect = new FairPostgresDialect({ pool }, max);
  const db = new Kysely<DB>({ dialect });
  // One LISTEN connection per process. If it drops, it reconnects (with a growing pause) and
  // listens on every channel again, so live updates resume without a restart.
  let listener: Promise<pg.Client> | null = null;
  let closed = false;
  let retryMs = 250;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const stateHandlers = new Set<(listening: boolean) => void>();
  let listening = false;
  const tellState = (now: boolean) => {
    listening = now;
    for (const h of stateHandlers) h(now);
  };
  const connectListener = (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString, types });
    const lost = () => {
      if (closed || listener === null) return;
      listener = null;
      tellState(false);
      client.end().catch(() => {});
      setTimeout(() => {
        if (closed || listener || handlers.size === 0) return;
        listener = connectListener();
        listener.then(() => {
          retryMs = 250;
          tellState(true);
        }, lost);
      }, retryMs).unref();
      retryMs = Math.min(retryMs * 2, 10_000);
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (msg) => {
      for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
    });
    return client.connect().then(async () => {
      for (const channel of handlers.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return client;
    });
  };
  return {
    db,
    kind: 'postgres',
    openUnit: () => dialect.driver.openUnit(),
    async session(fn) {
      // Migrations and start-up work: the background class.
      const client = await background.connect();
      try {
        return await fn(async (script) => {
          await client.query(script);
        });
      } finally {
        client.release();
      }
    },
    async listen(channel, onPayload, onState) {
      let set = handlers.get(channel);
      const isNew = !set;
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(onPayload);
      try {
        if (!listener) listener = connectListener();
        const client = await listener;
        if (isNew) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        // A listener made here after a loss (rather than by the retry timer) is news too.
        if (!listening) tellState(true);
      } catch (err) {
        listener = null;
        set.delete(onPayload);
        if (set.size === 0) handlers.delete(channel);
        throw err;
      }
      if (onState) stateHandlers.add(onState);
      return async () => {
        set.delete(onPayload);
        if (onState) stateHandlers.delete(onState);
      };
    },
    async close() {
      closed = true;
      const client = await listener?.catch(() => null);
      await client?.end().catch(() => {});
      await db.destroy();
    },
  };
}

export type { CompiledQuery, QueryResult };
