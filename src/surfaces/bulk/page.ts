// The /bulk page (and /bulk.md): the current export's files with their row counts, sizes and
// SHA-256, how to use them, and every table's documented columns, from the manifest the
// `bulk.read` operation answers (the same document as /bulk/index.json).
import { normalizeError } from '../../kernel/errors.ts';
import type { BulkManifestOut } from '../../modules/bulk/index.ts';
import { facts, link, list, type PageModel, paragraph, section, table } from '../pages/model.ts';
import type { PageDef, Reader } from '../pages/page-route.ts';

const ABOUT =
  'The whole public record of the Chicago City Council — legislation, votes, meetings, people, committees, campaign money and lobbying — as one CSV file per table (RFC 4180, UTF-8, a header row) and one SQLite database of the same tables with indexes and full-text search (FTS5; it opens in sqlite3 and Datasette), each gzip-compressed, all from one snapshot of the database. No credential is needed. A new export is written on the operator’s schedule, nightly by default.';

/** "1.2 MB" from a byte count. */
export function size(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB'];
  let n = bytes;
  let u = 0;
  while (n >= 1000 && u < units.length - 1) {
    n /= 1000;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${n.toFixed(1)} ${units[u]}`;
}

const count = (n: number) => n.toLocaleString('en-US');

function usage(m: BulkManifestOut): string[] {
  return [
    'Download: curl -O <file URL>; each file is gzip: gunzip it, or read it compressed (zcat, or your CSV reader’s gzip option).',
    'Check: sha256sum on the downloaded file gives the SHA-256 listed here and in /bulk/index.json (also each file’s ETag).',
    'Resume a download with a Range request and If-Range set to the ETag: if a new export replaced the file meanwhile, the answer is the whole new file instead of a mismatched piece.',
    "SQLite: gunzip council.sqlite.gz, then sqlite3 council.sqlite (or datasette council.sqlite). Full text: select record_number, title from matters where rowid in (select rowid from matters_fts where matters_fts match 'parking');",
    `CSV: an empty field is null, "" an empty text; booleans are true and false; timestamps ISO 8601 in UTC; amounts decimal strings with two decimals; JSON arrays as text. Columns keep their names and meaning within schema version ${m.schemaVersion}.`,
  ];
}

function bulkPage(m: BulkManifestOut): PageModel {
  return {
    title: 'The whole public record in bulk',
    description: 'Every public table of the Chicago City Council record as CSV and as one SQLite database with full-text search, from one snapshot.',
    path: '/bulk',
    updatedAt: m.finishedAt,
    feeds: [],
    blocks: [
      paragraph(ABOUT),
      facts([
        ['Snapshot taken', m.snapshotAt],
        ['Written', m.finishedAt],
        ['Schema version', `${m.schemaVersion} (database ${m.databaseSchema})`],
        ['Manifest', link('/bulk/index.json', '/bulk/index.json')],
      ]),
      table(
        'Files of this export',
        ['File', 'Rows', 'Size', 'SHA-256'],
        m.files.map((f) => [link(f.name, `/bulk/${f.name}`), count(f.rows), size(f.bytes), f.sha256]),
        'No files.',
        [1, 2],
        [3],
      ),
      section('Using the files', [list(usage(m))]),
      section(
        'Tables',
        m.tables.map((t) =>
          section(t.name, [
            paragraph([
              `${t.description} ${count(t.rows)} rows in `,
              link(t.file, `/bulk/${t.file}`),
              t.search.length ? `; full-text index ${t.name}_fts over ${t.search.join(', ')} in the SQLite file.` : '.',
            ]),
            table(
              `Columns of ${t.name}`,
              ['Column', 'Type', 'Meaning'],
              t.columns.map((c) => [c.name, c.type, c.references ? `${c.description} (an id of ${c.references})` : c.description]),
              'No columns.',
            ),
          ]),
        ),
      ),
    ],
  };
}

/** Before the first export: what the page will hold, and when. */
function noExportPage(message: string): PageModel {
  return {
    title: 'The whole public record in bulk',
    description: 'Every public table of the Chicago City Council record as CSV and as one SQLite database with full-text search, from one snapshot.',
    path: '/bulk',
    updatedAt: null,
    feeds: [],
    blocks: [paragraph(ABOUT), paragraph(message)],
  };
}

async function build(read: Reader): Promise<PageModel> {
  try {
    return bulkPage(await read('bulk.read', {}));
  } catch (err) {
    const e = normalizeError(err);
    if (e.code !== 'not_found') throw err;
    return noExportPage(e.message);
  }
}

// Made from the files on disk, which change with an export, not with the record: never kept.
export const bulkPages: PageDef[] = [{ path: '/bulk', keep: false, build: (read) => build(read) }];
