// A worker thread's own heap limits. `new Worker(…, { resourceLimits })` passes them to V8 as the
// new isolate's resource constraints, but a V8 flag wins over a constraint: with `npm start`'s
// --max-semi-space-size=32 the bulk export's worker grew a 64 MB young generation whatever its
// maxYoungGenerationSizeMb (measured: its new space 64 MiB against 8, and the export's peak RSS
// 102–150 MiB above the idle service against the aim of 100). V8 reads the flag when it makes an
// isolate, and the service's own isolate is made before any code runs, so the flag is cleared once
// the service runs: the service keeps the young generation it started with, and every worker made
// afterwards gets the one its resourceLimits ask for.
import v8 from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';

let cleared = false;

/** A worker whose young generation is the one `options.resourceLimits` asks for, whatever the process's V8 flags. */
export function workerWithOwnHeap(url: URL, options: WorkerOptions): Worker {
  if (!cleared) {
    // 0 is V8's "not set": a new isolate's semi-space then comes from its resource constraints.
    v8.setFlagsFromString('--max-semi-space-size=0');
    cleared = true;
  }
  return new Worker(url, options);
}
