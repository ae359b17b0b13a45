// What every source adapter receives and returns.
import type { Clock } from '../../../kernel/clock.ts';
import type { Db } from './store.ts';
import type { Query, Transport } from './transport.ts';

export interface AdapterRun {
  db: Db;
  clock: Clock;
  transport: Transport;
  /** Sync records changed after this instant (--since, else the stored watermark); null = all. */
  since: string | null;
  /** The source name as recorded in source_sync ('elms', 'legistar:chicago', …). */
  source: string;
  progress(line: string): void;
  /** Told of every batch counted (records seen, changed), for a running total. */
  counted?: ((seen: number, changed: number) => void) | undefined;
}

export interface AdapterOutcome {
  seen: number;
  changed: number;
  /** The watermark the next incremental run starts from (null keeps the stored one). */
  highWater: string | null;
}

export type Adapter = (run: AdapterRun) => Promise<AdapterOutcome>;

/** Reports on long runs without flooding short ones: every `every` records and at the end. */
export function counter(run: AdapterRun, label: string, every = 500) {
  let seen = 0;
  let changed = 0;
  let lastReported = 0;
  return {
    add(s: number, c: number) {
      seen += s;
      changed += c;
      run.counted?.(s, c);
      if (seen - lastReported >= every) {
        lastReported = seen;
        run.progress(`${run.source}: ${label} ${seen} seen, ${changed} changed`);
      }
    },
    done() {
      run.progress(`${run.source}: ${label} done, ${seen} seen, ${changed} changed`);
      return { seen, changed };
    },
  };
}

/**
 * Pages through a list endpoint. eLMS answers `{ meta: { count }, data: [...] }` with top/skip and
 * may return fewer rows than asked, so it pages until `count`; Legistar answers a bare array with
 * $top/$skip and may cap a page below $top, so it pages until an empty page.
 */
export async function* pages<T>(
  transport: Transport,
  path: string,
  query: Query,
  style: { top: string; skip: string; size: number; max?: number },
): AsyncGenerator<T[]> {
  let skip = 0;
  while (skip < (style.max ?? 100_000)) {
    const body = await transport.json<T[] | { data?: T[]; meta?: { count?: number } }>(path, {
      ...query,
      [style.top]: style.size,
      [style.skip]: skip,
    });
    if (body === null) return;
    const rows = Array.isArray(body) ? body : (body.data ?? []);
    if (rows.length === 0) return;
    yield rows;
    skip += rows.length;
    const count = Array.isArray(body) ? undefined : body.meta?.count;
    if (count !== undefined && skip >= count) return;
  }
}

/** An ISO instant `days` before `iso` (for look-back windows on watermarks). */
export function daysBefore(iso: string, days: number): string {
  return new Date(new Date(iso).getTime() - days * 86_400_000).toISOString().slice(0, 19);
}
