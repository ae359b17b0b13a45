// One bulk export: every public table read from ONE snapshot of the database and written, as it is
// read, to a gzipped CSV file per table and to one SQLite file (gzipped at the end), with a
// manifest. Nothing is built in memory: each table is read through a server-side cursor
// (DECLARE … CURSOR, FETCH FORWARD n) a page at a time, and each page is written before the next
// is fetched (the gzip pipeline's backpressure pauses the reader).
//
// The snapshot: one transaction, REPEATABLE READ and READ ONLY, so every statement in it sees the
// database as it was at its first statement, whatever commits meanwhile (PostgreSQL, "Transaction
// Isolation", 13.2.2). On the embedded database the transaction holds the one connection, so the
// service's other queries wait until the rows are read (indexes and compression come after); on a
// server this runs in a worker thread with a connection of its own (worker.ts).
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
}

type Row = Record<string, unknown>;

/**
 * A table's CSV text, read through a cursor a page at a time; each page goes into the SQLite file
 * too. Memory: a page is dropped before anything is awaited, so it dies young (a page kept across
 * the next round trip would be promoted to the old generation and pile up there until a full
 * collection); the text goes out in pieces under CHUNK_CHARS, small enough to stay out of V8's
 * large-object space.
 */
async function* tableCsv(trx: Kysely<any>, table: BulkTableRead, sqlite: SqliteWriter, counted: (rows: number) => void, signal?: AbortSignal) {
  yield csvRecord(table.columns.map((c) => c.name));
  const cursor = `bulk_${table.name}`;
  await sql.raw(`declare ${cursor} no scroll cursor for ${table.select}`).execute(trx);
  for (;;) {
    signal?.throwIfAborted();
    const chunks = csvChunks(table, sqlite, (await sql.raw<Row>(`fetch forward ${FETCH_ROWS} from ${cursor}`).execute(trx)).rows, counted);
    if (chunks.length === 0) break;
    // Each chunk is let go as soon as it is handed on.
    while (chunks.length) yield chunks.shift()!;
  }
  // On failure the transaction is rolled back, which closes the cursor with it.
  await sql.raw(`close ${cursor}`).execute(trx);
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
    const snapshot = await db.transaction().execute(async (trx): Promise<Snapshot> => {
      // First statement of the transaction, so the snapshot is the one every read below sees.
      await sql`set transaction isolation level repeatable read, read only`.execute(trx);
      const first = await sql<{ at: Date; migration: string | null }>`select statement_timestamp() as at,
        (select max(name) from schema_migrations) as migration`.execute(trx);
      const at = new Date(first.rows[0]!.at);
      for (const table of tables) {
        let rows = 0;
        const name = `${table.name}.csv.gz`;
        const written = await writeGzip(
          join(partial, name),
          tableCsv(trx, table, sqlite, (n) => (rows += n), signal),
          signal,
        );
        counts.set(table.name, rows);
        files.push({ name, format: 'csv', table: table.name, mediaType: 'text/csv; charset=utf-8; header=present', encoding: 'gzip', ...written, rows });
        progress(`${table.name}: ${rows} rows`);
      }
      return { at, migration: first.rows[0]!.migration ?? '' };
    });
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
