// The bulk module's operation: the manifest of the export served now, which /bulk/index.json, the
// /bulk/ page (and its Markdown variant) and MCP bind. Writing an export is the operator's (the
// CLI's `bulk`) and the nightly job's, not an operation anyone may call.
import { Type } from 'typebox';
import { type OperationDef, operationsOf } from '../../kernel/catalogue.ts';
import { access } from '../../kernel/access.ts';
import type { Bulk } from './index.ts';
import { BulkManifest } from './schema.ts';

const op = operationsOf<Bulk>();

export const bulkOperations = {
  'bulk.read': op({
    summary: 'The whole public record in bulk: the current export’s files (one CSV per table and a SQLite file, gzipped), sizes, row counts and SHA-256',
    description:
      'Every file comes from one snapshot of the database, taken at `snapshotAt`; `tables` documents each table’s columns. The files are open to download at their `url` without a credential (with ETag and range requests). 404 before the first export.',
    tags: ['bulk'],
    access: access.open(),
    limit: 'data',
    effect: 'read',
    // Made from the files on disk, which change with an export, not with the record.
    cached: false,
    input: Type.Object({}, { additionalProperties: false }),
    output: BulkManifest,
    run: (bulk) => bulk.manifest(),
  }),
} satisfies Record<string, OperationDef<Bulk, any, any>>;
