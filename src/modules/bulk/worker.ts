// The export on a PostgreSQL server runs in a worker thread (worker-run.ts starts it): its own V8
// heap with small, fixed limits and its own connection, so reading millions of rows cannot grow
// the service's heap, and building the SQLite indexes (synchronous, seconds on a large record)
// never holds up the service's requests. It reports progress lines and then its manifest or error.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../../kernel/db.ts';
import type { BulkTableRead } from '../public-data/index.ts';
import { writeExport } from './export.ts';

export interface WorkerInput {
  databaseUrl: string;
  tables: readonly BulkTableRead[];
  dir: string;
  schemaVersion: number;
}

export type WorkerMessage =
  | { type: 'progress'; line: string }
  | { type: 'done'; manifest: unknown }
  | { type: 'failed'; message: string; code: string | undefined };

const input = workerData as WorkerInput;
const port = parentPort!;
const stop = new AbortController();
port.on('message', (m: unknown) => {
  if (m === 'abort') stop.abort(new Error('the export was stopped before it finished'));
});
const send = (m: WorkerMessage) => port.postMessage(m);

const database = await openDatabase({ databaseUrl: input.databaseUrl, dataDir: '', poolSize: 1 });
try {
  const manifest = await writeExport(database.db, input.tables, input.dir, input.schemaVersion, {
    signal: stop.signal,
    onProgress: (line) => send({ type: 'progress', line }),
  });
  send({ type: 'done', manifest });
} catch (err) {
  const e = err as { message?: unknown; code?: unknown };
  send({ type: 'failed', message: String(e?.message ?? err), code: typeof e?.code === 'string' ? e.code : undefined });
} finally {
  await database.close();
  port.close();
}
