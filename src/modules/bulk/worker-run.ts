// Starts the export's worker thread (worker.ts) and relays it: progress lines as they come, then
// the manifest, or the worker's error (with its code, so a lost database is still `unavailable`).
// An abort is passed on, and the worker discards its unfinished export before it exits.
import { workerWithOwnHeap } from '../../kernel/worker-heap.ts';
import type { ExportOptions } from './export.ts';
import type { BulkManifestOut } from './schema.ts';
import type { WorkerInput, WorkerMessage } from './worker.ts';

/**
 * The worker's heap: rows die young, and what stays (the driver, the export's state) is a few
 * megabytes; the old generation's ceiling makes V8 collect instead of growing. Measured with the
 * benchmark's council (README "The whole public record in bulk"). Made by workerWithOwnHeap, or the
 * service's --max-semi-space-size would give the worker its 32 MB semi-spaces instead.
 */
const LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 8 };

export function exportInWorker(input: WorkerInput, options: ExportOptions = {}): Promise<BulkManifestOut> {
  return new Promise((resolve, reject) => {
    const worker = workerWithOwnHeap(new URL('./worker.ts', import.meta.url), { workerData: input, resourceLimits: LIMITS });
    let outcome: WorkerMessage | null = null;
    const abort = () => worker.postMessage('abort');
    options.signal?.addEventListener('abort', abort, { once: true });
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress') options.onProgress?.(m.line);
      else outcome = m;
    });
    worker.on('error', (err) => {
      outcome ??= { type: 'failed', message: err.message, code: (err as NodeJS.ErrnoException).code };
    });
    worker.on('exit', (code) => {
      options.signal?.removeEventListener('abort', abort);
      const o = outcome as WorkerMessage | null;
      if (o?.type === 'done') return resolve(o.manifest as BulkManifestOut);
      const failed = o?.type === 'failed' ? o : { message: `the export's worker stopped (exit code ${code})`, code: undefined };
      reject(Object.assign(new Error(failed.message), failed.code ? { code: failed.code } : {}));
    });
  });
}
