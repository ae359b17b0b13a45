// Bulk exports of the whole public record (README "The whole public record in bulk"): a nightly job
// on the queue (BULK_CRON) and the operator's `council bulk` write one CSV per public table and one
// SQLite file, gzipped, with a manifest, from one snapshot (export.ts), into BULK_DIR (files.ts);
// the service serves the current one at /bulk/. The tables and their SQL belong to public-data
// (bulk-tables.ts); this module only reads them through it.
import { join } from 'node:path';
import type { ModuleDeps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { defineJob, type Jobs } from '../../kernel/jobs.ts';
import { BULK_SCHEMA_VERSION, bulkTables } from '../public-data/index.ts';
import { type ExportOptions, writeExport } from './export.ts';
import { currentExport, readManifestFile } from './files.ts';
import { exportInWorker } from './worker-run.ts';
import type { BulkManifestOut } from './schema.ts';

export { BulkManifest, type BulkManifestOut } from './schema.ts';

/** The export job: queued nightly by the schedule, or by anyone who wants one now. */
export const bulkExportJob = defineJob<{ reason: string }>('bulk.export', {
  policy: 'exclusive',
  retry: { limit: 2, delaySeconds: 900, backoff: true },
  // No heartbeat: on the embedded database the snapshot holds the one connection, so a heartbeat
  // could not be written while it reads; a run that died is retried once it expires.
  expireInSeconds: 4 * 3600,
  keepSeconds: 7 * 86_400,
});

/** A file of the export served now. */
export interface BulkFile {
  name: string;
  /** Where it is on disk, inside the export it was resolved in. */
  path: string;
  bytes: number;
  sha256: string;
  /** When its export was written (Last-Modified). */
  modifiedAt: Date;
}

export interface Bulk {
  /** Writes a new export from one snapshot and makes it the one served; its manifest. */
  export(options?: ExportOptions): Promise<BulkManifestOut>;
  /** The manifest of the export served now, with every file's URL; not_found before the first. */
  manifest(): Promise<BulkManifestOut>;
  /** A file of the export served now, by name; null for a name it does not hold. */
  file(name: string): Promise<BulkFile | null>;
  /** Registers the export worker and the nightly schedule (the running service only). */
  start(): Promise<void>;
  /** Queues an export now (once: a queued or running one is enough), e.g. after a first load. */
  queue(reason: string): Promise<void>;
}

export function createBulk(
  deps: Pick<ModuleDeps, 'db' | 'config' | 'log'>,
  others: { jobs: Pick<Jobs, 'work' | 'schedule' | 'unschedule' | 'nextOccurrence' | 'send'> },
): Bulk {
  const { db, config, log } = deps;
  const { dir, cron } = config.bulk;
  const base = `${config.baseUrl.replace(/\/$/, '')}/bulk`;
  // The manifest of the export last read, by its resolved directory: a new export is a new directory.
  let kept: { dir: string; manifest: BulkManifestOut } | null = null;

  async function current(): Promise<{ dir: string; manifest: BulkManifestOut } | null> {
    const exportDir = await currentExport(dir);
    if (!exportDir) return null;
    if (kept?.dir !== exportDir) kept = { dir: exportDir, manifest: (await readManifestFile(exportDir)) as BulkManifestOut };
    return kept;
  }

  // On a server the export runs in a worker thread with its own connection and a bounded heap
  // (worker.ts). The embedded database can be read only by this thread, so there it runs here, on
  // the connection the requests share (`shared`: they run between its pages, export.ts).
  function run(options: ExportOptions = {}): Promise<BulkManifestOut> {
    if (config.databaseUrl) return exportInWorker({ databaseUrl: config.databaseUrl, tables: bulkTables, dir, schemaVersion: BULK_SCHEMA_VERSION }, options);
    return writeExport(db, bulkTables, dir, BULK_SCHEMA_VERSION, { ...options, shared: true });
  }

  return {
    export: run,
    async manifest() {
      const found = await current();
      if (!found) {
        const next = cron ? others.jobs.nextOccurrence(cron, 'UTC') : null;
        throw new AppError(
          'not_found',
          `No bulk export has been written yet${next ? `; the next is due at ${next.toISOString()}` : ''}. An operator writes one with the command npx council bulk.`,
        );
      }
      const { manifest } = found;
      return { ...manifest, files: manifest.files.map((f) => ({ ...f, url: `${base}/${f.name}` })) };
    },
    async file(name) {
      const found = await current();
      const f = found?.manifest.files.find((x) => x.name === name);
      if (!found || !f) return null;
      return { name: f.name, path: join(found.dir, f.name), bytes: f.bytes, sha256: f.sha256, modifiedAt: new Date(found.manifest.finishedAt) };
    },
    async start() {
      await others.jobs.work(bulkExportJob, async (job) => {
        const manifest = await run({ signal: job.signal, onProgress: (line) => log.debug({ job: job.id }, `bulk export: ${line}`) });
        log.info({ snapshotAt: manifest.snapshotAt, files: manifest.files.length }, 'bulk export written');
        return { snapshotAt: manifest.snapshotAt, files: manifest.files.length };
      });
      if (cron) await others.jobs.schedule(bulkExportJob, 'nightly', cron, { reason: 'schedule' }, { singletonKey: 'bulk' });
      else await others.jobs.unschedule(bulkExportJob, 'nightly');
    },
    async queue(reason) {
      await others.jobs.send(bulkExportJob, { reason }, { singletonKey: 'bulk' });
    },
  };
}
