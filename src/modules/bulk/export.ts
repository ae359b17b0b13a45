// One bulk export: every public table read from ONE snapshot of the database and written, as it is
// read, to a gzipped CSV file per table and to one SQLite file (gzipped at the end), with a
// manifest. Nothing is built in memory: each table is read through a server-side cursor
// (DECLARE … CURSOR, FETCH FORWARD n) a page at a time, and each page is written before the next
// is fetched (the gzip pipeline's backpressure pauses the reader).
//
// The snapshot: one transaction, REPEATABLE READ and READ ONLY, so every statement in it sees the
// database as it was at its first statement, whatever commits meanwhile (PostgreSQL, "Transaction
// Isolation", 13.2.2). On a server this runs in a worker thread with a connection of its own
// (worker.ts), and the rows are read through that transaction's cursors. The embedded database is
// one connection that the service's requests share, and a transaction holds it: read that way, every
// request waited for the whole read (2.5 s on the bundled sample, a 503 for a page asked for then;
// minutes on a large record). There (`shared`) the transaction only declares one cursor WITH HOLD
// per table, which PostgreSQL fills from the transaction's snapshot as it commits ("DECLARE": a
// held cursor outlives its transaction, its rows those of the snapshot it was declared in); the
// pages are then fetched one statement at a time, each taking its turn among the requests.
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import type { BulkTableRead } from '../public-data/index.ts';
import { csvRecord } from './csv.ts';
import { discard, gzipFile, MANIFEST_FILE, publish, startExport, writeGzip, exportId } from './files.ts';
import type { BulkFileOut, BulkManifestOut } from './schema.ts';
import { openSqliteWriter, type SqliteWriter } from './sqlite.ts';
import { writeFile, unlink } from 'node:fs/promises';

/** Rows fetched from the cursor at a time: small enough to bound memory, large enough to be few round trips. */
export const FETCH_ROWS = 500;
/** CSV text handed to gzip at a time (characters): well under V8's large-object threshold. */
const CHUNK_CHARS = 16_384;
export const SQLITE_FILE = 'council.sqlite.gz';

export interface ExportOptions {
  /** A progress line (the CLI prints them). */
  onProgress?: (line: string) => void;
  /** Aborted when the job must stop: the export is discarded. */
  signal?: AbortSignal;
  /** The database is one connection shared with the service's requests (the embedded one): see above. */
  shared?: boolean;
}

type Row = Record<string, unknown>;

/**
 * A table's CSV text, read through a cursor a page at a time; each page goes into the SQLite file
 * too. Memory: a page is dropped before anything is awaited, so it dies young (a page kept across
 * the next round trip would be promoted to the old generation and pile up there until a full
 * collection); the text goes out in pieces under CHUNK_CHARS, small enough to stay out of V8's
 * large-object space.
 */
async function* tableCsv(reader: Kysely<any>, table: BulkTableRead, sqlite: SqliteWriter, counted: (rows: number) => void, signal?: AbortSignal) {
  yield csvRecord(table.columns.map((c) => c.name));
  const cursor = cursorOf(table);
  for (;;) {
    signal?.throwIfAborted();
    const chunks = csvChunks(table, sqlite, (await sql.raw<Row>(`fetch forward ${FETCH_ROWS} from ${cursor}`).execute(reader)).rows, counted);
    if (chunks.length === 0) break;
    // Each chunk is let go as soon as it is handed on.
    while (chunks.length) yield chunks.shift()!;
  }
  // On failure a cursor of the transaction goes with its rollback; a held one is closed by writeExport.
  await sql.raw(`close ${cursor}`).execute(reader);
}

const cursorOf = (table: BulkTableRead) => `bulk_${table.name}`;

/** Declares each table's cursor in the snapshot's transaction: held past its commit when `held`. */
async function declareCursors(trx: Kysely<any>, tables: readonly BulkTableRead[], held: boolean): Promise<void> {
  for (const table of tables) {
    await sql.raw(`declare ${cursorOf(table)} no scroll cursor${held ? ' with hold' : ''} for ${table.select}`).execute(trx);
  }
}

/** A page written to SQLite and turned into CSV pieces; nothing of the rows outlives the call. */
function csvChunks(table: BulkTableRead, sqlite: SqliteWriter, rows: Row[], counted: (rows: number) => void): string[] {
  if (rows.length === 0) return [];
  sqlite.insert(table, rows);
  counted(rows.length);
  const chunks: string[] = [];
  let chunk = '';
  for (const row of rows) {
    chunk += csvRecord(table.columns.map((c) => row[c.name]));
    if (chunk.length >= CHUNK_CHARS) {
      chunks.push(chunk);
      chunk = '';
    }
  }
  if (chunk) chunks.push(chunk);
  return chunks;
}

interface Snapshot {
  at: Date;
  migration: string;
}

/** Writes one export under `dir` and makes it the one served; its manifest (without URLs). */
export async function writeExport(db: Kysely<any>, tables: readonly BulkTableRead[], dir: string, schemaVersion: number, options: ExportOptions = {}) {
  const { signal } = options;
  const progress = options.onProgress ?? (() => {});
  const started = new Date();
  const id = exportId(started);
  const partial = await startExport(dir, id);
  const sqlitePath = join(partial, 'council.sqlite');
  const sqlite = openSqliteWriter(sqlitePath, tables);
  try {
    const files: BulkFileOut[] = [];
    const counts = new Map<string, number>();
    const open = new Set(tables.map(cursorOf));
    const readTables = async (reader: Kysely<any>) => {
      for (const table of tables) {
        let rows = 0;
        const name = `${table.name}.csv.gz`;
        const written = await writeGzip(
          join(partial, name),
          tableCsv(reader, table, sqlite, (n) => (rows += n), signal),
          signal,
        );
        open.delete(cursorOf(table));
        counts.set(table.name, rows);
        files.push({ name, format: 'csv', table: table.name, mediaType: 'text/csv; charset=utf-8; header=present', encoding: 'gzip', ...written, rows });
        progress(`${table.name}: ${rows} rows`);
      }
    };
    const held = options.shared === true;
    const snapshot = await db.transaction().execute(async (trx): Promise<Snapshot> => {
      // First statement of the transaction, so the snapshot is the one every read below sees.
      await sql`set transaction isolation level repeatable read, read only`.execute(trx);
      const first = await sql<{ at: Date; migration: string | null }>`select statement_timestamp() as at,
        (select max(name) from schema_migrations) as migration`.execute(trx);
      await declareCursors(trx, tables, held);
      if (!held) await readTables(trx);
      return { at: new Date(first.rows[0]!.at), migration: first.rows[0]!.migration ?? '' };
    });
    if (held) {
      try {
        await readTables(db);
      } finally {
        // Held cursors outlive the transaction: each is closed once read, any left (a failure, an abort) here.
        for (const cursor of open)
          await sql
            .raw(`close ${cursor}`)
            .execute(db)
            .catch(() => {});
      }
    }
    progress('snapshot read; building the SQLite indexes');
    sqlite.finish({ snapshot_at: snapshot.at.toISOString(), schema_version: String(schemaVersion), database_schema: snapshot.migration });
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    const packed = await gzipFile(sqlitePath, join(partial, SQLITE_FILE), signal);
    await unlink(sqlitePath);
    files.push({ name: SQLITE_FILE, format: 'sqlite', mediaType: 'application/vnd.sqlite3', encoding: 'gzip', ...packed, rows: total });
    const manifest: BulkManifestOut = {
      schemaVersion,
      databaseSchema: snapshot.migration,
      snapshotAt: snapshot.at.toISOString(),
      finishedAt: new Date().toISOString(),
      files,
      tables: tables.map((t) => ({
        name: t.name,
        description: t.description,
        rows: counts.get(t.name) ?? 0,
        file: `${t.name}.csv.gz`,
        columns: t.columns.map((c) => ({ name: c.name, type: c.type, description: c.description, ...(c.references ? { references: c.references } : {}) })),
        primaryKey: [...t.primaryKey],
        search: [...(t.search ?? [])],
      })),
    };
    await writeFile(join(partial, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    await publish(dir, partial, id);
    progress(`export ${id}: ${files.length} files, ${total} rows`);
    return manifest;
  } catch (err) {
    sqlite.abandon();
    await discard(partial);
    throw err;
  }
}
