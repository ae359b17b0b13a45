// The kernel's database layer: migrations (once, atomically, safe when two instances start at
// once), the embedded database's one-at-a-time connection, and 503 when the database is gone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Socket as NetSocket, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { createContext } from '../../src/context.ts';
import { openDatabase } from '../../src/kernel/db.ts';
import { listMigrations, migrate } from '../../src/kernel/migrate.ts';
import { freshDatabase } from '../helpers/context.ts';
import { tcpRelay } from '../helpers/tcp-relay.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

async function open(env: Record<string, string>) {
  return openDatabase<any>({ databaseUrl: env.DATABASE_URL ?? null, dataDir: env.DATA_DIR ?? '' });
}

test('migrations apply every file once; a second run finds nothing to do', async () => {
  const fresh = await freshDatabase({ empty: true });
  const database = await open(fresh.env);
  try {
    const first = await migrate(database);
    assert.deepEqual(first.applied, listMigrations());
    const second = await migrate(database);
    assert.deepEqual(second.applied, []);
    assert.equal(second.alreadyApplied, listMigrations().length);
  } finally {
    await database.close();
    await fresh.drop();
  }
});

test('a failing migration leaves nothing half-applied', async () => {
  const fresh = await freshDatabase({ empty: true });
  const dir = mkdtempSync(join(tmpdir(), 'council-migrations-'));
  writeFileSync(join(dir, '0001_test_good.sql'), 'create table migration_good (id int);');
  writeFileSync(join(dir, '0002_test_bad.sql'), 'create table migration_half (id int);\nselect no_such_function();');
  const database = await open(fresh.env);
  try {
    await assert.rejects(migrate(database, dir), /0002_test_bad\.sql failed/);
    const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_name like 'migration_%'`.execute(
      database.db,
    );
    assert.deepEqual(
      tables.rows.map((r) => r.name),
      ['migration_good'],
    );
    const recorded = await sql<{ name: string }>`select name from schema_migrations order by name`.execute(database.db);
    assert.deepEqual(
      recorded.rows.map((r) => r.name),
      ['0001_test_good.sql'],
    );
  } finally {
    await database.close();
    await fresh.drop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two instances migrating one PostgreSQL database at once apply each file exactly once', { skip: !onPostgres && 'needs DATABASE_URL' }, async () => {
  const fresh = await freshDatabase({ empty: true });
  const a = await open(fresh.env);
  const b = await open(fresh.env);
  try {
    const [ra, rb] = await Promise.all([migrate(a), migrate(b)]);
    assert.deepEqual([...ra.applied, ...rb.applied].sort(), listMigrations());
    const count = await sql<{ n: number }>`select count(*) as n from schema_migrations`.execute(a.db);
    assert.equal(count.rows[0]!.n, listMigrations().length);
  } finally {
    await a.close();
    await b.close();
    await fresh.drop();
  }
});

test("on the embedded database a query never runs inside another caller's open transaction", { skip: onPostgres && 'embedded only' }, async () => {
  const fresh = await freshDatabase({ empty: true });
  const database = await open(fresh.env);
  try {
    await sql`create table serial_probe (id int)`.execute(database.db);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const tx = database.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into serial_probe values (1)`.execute(trx);
        await held;
        throw new Error('roll back');
      })
      .catch(() => 'rolled back');
    // Issued while the transaction is open: it must wait for it, not join it and be rolled back.
    const outside = sql`insert into serial_probe values (2)`.execute(database.db);
    setTimeout(release, 50);
    assert.equal(await tx, 'rolled back');
    await outside;
    const rows = await sql<{ id: number }>`select id from serial_probe order by id`.execute(database.db);
    assert.deepEqual(
      rows.rows.map((r) => r.id),
      [2],
    );
  } finally {
    await database.close();
    await fresh.drop();
  }
});

test('both backends return the same JS values: int8 as number, date as YYYY-MM-DD, numeric as string', async () => {
  const fresh = await freshDatabase({ empty: true });
  const database = await open(fresh.env);
  try {
    const row = (
      await sql<{ n: number; d: string; m: string }>`select 5000000000::int8 as n, date '2026-09-29' as d, 12.5::numeric(14,2) as m`.execute(database.db)
    ).rows[0]!;
    assert.deepEqual(row, { n: 5000000000, d: '2026-09-29', m: '12.50' });
  } finally {
    await database.close();
    await fresh.drop();
  }
});

test('when the database server goes away, API requests answer 503 unavailable, not 500', { skip: !onPostgres && 'needs DATABASE_URL' }, async () => {
  const fresh = await freshDatabase({ empty: true });
  const target = new URL(fresh.env.DATABASE_URL!);
  // A TCP relay in front of PostgreSQL that the test can cut.
  const sockets = new Set<Socket>();
  const relay = createServer((client) => {
    const upstream = new NetSocket();
    sockets.add(client);
    sockets.add(upstream);
    upstream.connect(Number(target.port || 5432), target.hostname);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  const port = (relay.address() as { port: number }).port;
  const viaRelay = new URL(target);
  viaRelay.host = `127.0.0.1:${port}`;
  const config = loadConfig({ NODE_ENV: 'test', LOAD_SAMPLE: 'false', DATABASE_URL: viaRelay.toString() });
  const ctx = await createContext(config);
  const app = await buildApp(ctx);
  try {
    const account = await ctx.services.accounts.create({ email: 'down@example.org' });
    const { key } = await ctx.services.credentials.keys.create({ accountId: account.id, name: 'k', scopes: ['public.read'] });
    const ok = await app.inject({ url: '/api/v1/matters', headers: { authorization: `Bearer ${key}` } });
    assert.equal(ok.statusCode, 200);
    relay.close();
    for (const s of sockets) s.destroy();
    for (const url of ['/api/v1/matters', '/api/v2/matters']) {
      const res = await app.inject({ url, headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.statusCode, 503, `${url}: ${res.body}`);
      assert.equal(url.startsWith('/api/v1') ? res.json().code : res.json().error.code, 'unavailable');
    }
  } finally {
    await app.close();
    await ctx.close().catch(() => {});
    await fresh.drop();
  }
});

test('a connection refused for too many connections (53300) is tried again, then fails as unavailable', {
  skip: !onPostgres && 'needs DATABASE_URL',
}, async () => {
  const fresh = await freshDatabase({ empty: true });
  // The role is the cluster's, made from the suite's own database, which the test does not drop.
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  // A role allowed two connections: the server refuses its third with SQLSTATE 53300, as it
  // refuses any client past max_connections.
  const role = `ct_limited_${process.pid}_${Date.now()}`;
  await admin.query(`create role ${role} login connection limit 2`);
  const asRole = new URL(fresh.env.DATABASE_URL!);
  asRole.username = role;
  asRole.password = '';
  const holder = () => new pg.Client({ connectionString: asRole.toString() });
  const holders = [holder(), holder()];
  const databases: Awaited<ReturnType<typeof open>>[] = [];
  // The service reaches the server through a relay that tells when a connection closes: the first
  // to close is the refused one, and only then is a held connection freed, so the statement has
  // been refused once and must wait for the slot (a timer instead let a loaded machine free it
  // after the tries were spent).
  let tries = 0;
  const link = tcpRelay(new URL(fresh.env.DATABASE_URL!), {
    onClientClosed: () => {
      if (++tries === 1) void holders[1]!.end();
    },
  });
  try {
    for (const h of holders) await h.connect();
    // Both connections held; one is freed once the first try is refused: the statement waits for it instead of failing.
    databases.push(await open({ DATABASE_URL: await link.via(asRole.toString()) }));
    assert.equal((await sql<{ one: number }>`select 1 as one`.execute(databases[0]!.db)).rows[0]!.one, 1);
    assert.ok(tries >= 1, 'the first try was refused');
    await databases[0]!.close();
    // Both held again and never freed: it fails after its tries, as an error the service answers
    // 503 unavailable (kernel/errors.ts).
    holders[1] = holder();
    await holders[1].connect();
    databases.push(await open({ DATABASE_URL: asRole.toString() }));
    await assert.rejects(sql`select 1`.execute(databases[1]!.db), (err: { code?: string }) => err.code === '53300');
  } finally {
    for (const d of databases) await d.close().catch(() => {});
    for (const h of holders) await h.end().catch(() => {});
    link.server.close();
    await fresh.drop();
    await admin.query(`drop role if exists ${role}`).catch(() => {});
    await admin.end();
  }
});

test('LISTEN survives a dropped connection: notifications arrive again after it reconnects', { skip: !onPostgres && 'needs DATABASE_URL' }, async () => {
  const fresh = await freshDatabase({ empty: true });
  const database = await open(fresh.env);
  try {
    const received: string[] = [];
    await database.listen('kernel_probe', (p) => received.push(p));
    const notify = (p: string) => sql`select pg_notify('kernel_probe', ${p})`.execute(database.db);
    const waitFor = async (p: string) => {
      for (let i = 0; i < 100 && !received.includes(p); i++) {
        await notify(p);
        await new Promise((r) => setTimeout(r, 100));
      }
      return received.includes(p);
    };
    assert.equal(await waitFor('before'), true);
    // Cut the listening session from the server side, as a restart or a network fault would.
    const cut = await sql<{
      ok: boolean;
    }>`select pg_terminate_backend(pid) as ok from pg_stat_activity where query like 'LISTEN %' and datname = current_database()`.execute(database.db);
    assert.deepEqual(cut.rows, [{ ok: true }]);
    assert.equal(await waitFor('after'), true);
  } finally {
    await database.close();
    await fresh.drop();
  }
});
