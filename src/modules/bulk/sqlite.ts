// The SQLite copy of the bulk tables, written with Node's built-in node:sqlite (DatabaseSync) to a
// file on disk, row by row: SQLite keeps only its page cache in memory, however large the record.
// Tables get their primary keys, foreign keys (declared for readers such as Datasette, which links
// them; not enforced), the indexes their definition names and, where it names search columns, an
// FTS5 index `<table>_fts` over them with `content="<table>"` (an external-content table, the
// layout Datasette and sqlite-utils recognise). Indexes and full-text indexes are built once the
// rows are in, which is faster than keeping them up to date on every insert.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { BulkColumn, BulkTable, BulkType } from '../public-data/index.ts';

const storage: Record<BulkType, string> = {
  text: 'TEXT',
  integer: 'INTEGER',
  boolean: 'INTEGER',
  date: 'TEXT',
  timestamp: 'TEXT',
  // NUMERIC affinity stores "2500.00" as the number 2500, so amounts sort and sum as numbers.
  money: 'NUMERIC',
  json: 'TEXT',
};

/** An identifier quoted for SQLite (the names are ours, but quoting keeps keywords such as `date` safe). */
const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

function columnSql(c: BulkColumn): string {
  return `${q(c.name)} ${storage[c.type]}${c.references ? ` REFERENCES ${q(c.references)}(id)` : ''}`;
}

function createTableSql(t: BulkTable): string {
  const columns = t.columns.map(columnSql);
  if (t.primaryKey.length) columns.push(`PRIMARY KEY (${t.primaryKey.map(q).join(', ')})`);
  return `CREATE TABLE ${q(t.name)} (\n  ${columns.join(',\n  ')}\n)`;
}

type SqliteValue = string | number | null;
const toSqlite = (v: unknown): SqliteValue => (v === null || v === undefined ? null : typeof v === 'boolean' ? (v ? 1 : 0) : (v as string | number));

export interface SqliteWriter {
  /** Adds a table's rows (call once per table, in any number of batches). */
  insert(table: BulkTable, rows: readonly Record<string, unknown>[]): void;
  /** Builds indexes and full-text indexes, records `info`, and closes the file. */
  finish(info: Record<string, string>): void;
  /** Closes the file without finishing (after a failure). */
  abandon(): void;
}

export function openSqliteWriter(path: string, tables: readonly BulkTable[]): SqliteWriter {
  const db = new DatabaseSync(path);
  // A file made in one go by one writer: no journal to keep and no fsync per transaction; a
  // failed export discards the file anyway.
  db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA foreign_keys = OFF;');
  for (const t of tables) db.exec(createTableSql(t));
  const statements = new Map<string, StatementSync>();
  const statement = (t: BulkTable) => {
    let s = statements.get(t.name);
    if (!s) {
      s = db.prepare(`INSERT INTO ${q(t.name)} (${t.columns.map((c) => q(c.name)).join(', ')}) VALUES (${t.columns.map(() => '?').join(', ')})`);
      statements.set(t.name, s);
    }
    return s;
  };
  let open = true;
  return {
    insert(t, rows) {
      const s = statement(t);
      db.exec('BEGIN');
      try {
        for (const row of rows) s.run(...t.columns.map((c) => toSqlite(row[c.name])));
        db.exec('COMMIT');
      } catch (err) {
        db.exec('ROLLBACK');
        throw err;
      }
    },
    finish(info) {
      for (const t of tables) {
        for (const columns of t.indexes) db.exec(`CREATE INDEX ${q(`${t.name}_${columns.join('_')}`)} ON ${q(t.name)} (${columns.map(q).join(', ')})`);
        if (t.search?.length) {
          const fts = q(`${t.name}_fts`);
          db.exec(
            `CREATE VIRTUAL TABLE ${fts} USING fts5(${t.search.map(q).join(', ')}, content=${q(t.name)}, tokenize='porter unicode61 remove_diacritics 2')`,
          );
          db.exec(`INSERT INTO ${fts}(${fts}) VALUES ('rebuild')`);
          db.exec(`INSERT INTO ${fts}(${fts}) VALUES ('optimize')`);
        }
      }
      db.exec('CREATE TABLE "export_info" ("key" TEXT PRIMARY KEY, "value" TEXT)');
      const put = db.prepare('INSERT INTO "export_info" ("key", "value") VALUES (?, ?)');
      for (const [k, v] of Object.entries(info)) put.run(k, v);
      // Statistics for the query planner of whoever opens the file.
      db.exec('ANALYZE');
      db.close();
      open = false;
    },
    abandon() {
      if (open) db.close();
      open = false;
    },
  };
}
