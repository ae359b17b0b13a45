// The manifest of a bulk export (`/bulk/index.json`): what was written, from which snapshot, and
// how to check each file. Written beside the files as index.json (without URLs, which depend on
// where the service is reached); served with every file's absolute URL added.
import { type Static, Type } from 'typebox';

const Column = Type.Object({
  name: Type.String(),
  type: Type.Enum(['text', 'integer', 'boolean', 'date', 'timestamp', 'money', 'json'], {
    description:
      'text; integer; boolean (CSV `true`/`false`, SQLite 1/0); date (YYYY-MM-DD); timestamp (ISO 8601, UTC); money (CSV a decimal string with two decimals, SQLite NUMERIC); json (a JSON array as text).',
  }),
  description: Type.String(),
  references: Type.Optional(Type.String({ description: 'The table whose `id` this column holds.' })),
});

export const BulkTableInfo = Type.Object({
  name: Type.String(),
  description: Type.String(),
  rows: Type.Integer({ minimum: 0 }),
  /** Its CSV file. */
  file: Type.String({ description: 'Its CSV file (gzip).' }),
  columns: Type.Array(Column),
  primaryKey: Type.Array(Type.String()),
  search: Type.Array(Type.String(), { description: 'Columns of its full-text index `<name>_fts` in the SQLite file (FTS5).' }),
});

export const BulkFileInfo = Type.Object({
  name: Type.String({ description: 'File name under /bulk/.' }),
  url: Type.Optional(Type.String({ description: 'Where to download it.' })),
  format: Type.Enum(['csv', 'sqlite']),
  table: Type.Optional(Type.String({ description: 'The table a CSV file holds.' })),
  mediaType: Type.String({ description: 'What the file holds once decompressed.' }),
  encoding: Type.Literal('gzip'),
  bytes: Type.Integer({ minimum: 0, description: 'Size of the file as served (compressed).' }),
  sha256: Type.String({ description: 'SHA-256 of the file as served (hex); also its ETag.' }),
  rows: Type.Integer({ minimum: 0, description: 'Data rows (a CSV file’s records after its header; all tables’ rows for the SQLite file).' }),
});

export const BulkManifest = Type.Object({
  schemaVersion: Type.Integer({ description: 'Version of the bulk tables’ columns; it changes only when a column is renamed, retyped or removed.' }),
  databaseSchema: Type.String({ description: 'The last database migration applied when the snapshot was taken.' }),
  snapshotAt: Type.String({ description: 'When the snapshot was taken (ISO 8601, UTC): every file holds the record as it was then.' }),
  finishedAt: Type.String({ description: 'When the export was written.' }),
  files: Type.Array(BulkFileInfo),
  tables: Type.Array(BulkTableInfo),
});

export type BulkManifestOut = Static<typeof BulkManifest>;
export type BulkFileOut = Static<typeof BulkFileInfo>;
