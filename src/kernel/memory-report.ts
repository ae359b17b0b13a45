// Where the service's memory goes, on request: SIGUSR2 logs one line (warn level, so production
// logs show it) with the resident set and its peak, V8's heap in use and committed, the young
// generation's committed size, memory outside the heap (array buffers: request bodies, kept
// answers' bytes and, on the embedded database, PGlite's WebAssembly heap), and whatever the
// caller adds (the kept answers' own count). `npm run bench` reads it at the end of a run.
// Started with --expose-gc (the bench's BENCH_HEAP setting, never `npm start`), it then runs a full
// collection and adds what is still in use after it: live data, as against garbage not yet collected.
import { readFileSync } from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';
import type { FastifyBaseLogger } from 'fastify';

const kb = (status: string, field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;

export function memoryBreakdown(extra: () => Record<string, number> = () => ({})): Record<string, number> {
  let status = '';
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    // Not Linux: no peak from the kernel.
  }
  const usage = process.memoryUsage();
  const space = (name: string) => getHeapSpaceStatistics().find((s) => s.space_name === name);
  const breakdown = {
    rssBytes: usage.rss,
    peakRssBytes: kb(status, 'VmHWM'),
    heapUsedBytes: usage.heapUsed,
    heapCommittedBytes: usage.heapTotal,
    youngGenerationCommittedBytes: space('new_space')?.space_size ?? 0,
    oldGenerationUsedBytes: space('old_space')?.space_used_size ?? 0,
    externalBytes: usage.external,
    arrayBufferBytes: usage.arrayBuffers,
    ...extra(),
  };
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') return breakdown;
  gc();
  const after = process.memoryUsage();
  return {
    ...breakdown,
    heapUsedAfterGcBytes: after.heapUsed,
    oldGenerationUsedAfterGcBytes: space('old_space')?.space_used_size ?? 0,
    rssAfterGcBytes: after.rss,
    arrayBufferAfterGcBytes: after.arrayBuffers,
  };
}

/** Logs the breakdown on SIGUSR2 (SIGUSR1 is Node's debugger). */
export function reportMemoryOnSignal(log: FastifyBaseLogger, extra?: () => Record<string, number>): () => void {
  const handler = () => log.warn({ memory: memoryBreakdown(extra) }, 'memory');
  process.on('SIGUSR2', handler);
  return () => process.off('SIGUSR2', handler);
}
