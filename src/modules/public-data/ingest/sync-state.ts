// Per-source freshness in `source_sync`: when a run started, when one last succeeded, the last
// error, and the source's own watermark for the next incremental run.
import { sql } from 'kysely';
import type { Clock } from '../../../kernel/clock.ts';
import type { Db } from './store.ts';

export interface SyncState {
  highWater: string | null;
}

export async function startSync(db: Db, clock: Clock, source: string): Promise<SyncState> {
  const now = clock.now();
  const result = await sql<{ high_water: string | null }>`
    insert into source_sync (source, last_started_at) values (${source}, ${now})
    on conflict (source) do update set last_started_at = excluded.last_started_at
    returning high_water`.execute(db);
  return { highWater: result.rows[0]?.high_water ?? null };
}

export async function finishSync(db: Db, clock: Clock, source: string, outcome: { highWater: string | null; seen: number; changed: number }): Promise<void> {
  await sql`update source_sync set last_success_at = ${clock.now()}, last_error = null, last_error_at = null,
      high_water = coalesce(${outcome.highWater}, high_water), records_seen = ${outcome.seen}, records_changed = ${outcome.changed}
    where source = ${source}`.execute(db);
}

export async function failSync(db: Db, clock: Clock, source: string, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  await sql`update source_sync set last_error = ${message.slice(0, 2000)}, last_error_at = ${clock.now()}
    where source = ${source}`.execute(db);
}

/** The later of two ISO-ish timestamps or dates (either may be null). */
export function later(a: string | null, b: string | null): string | null {
  if (!a) return b;
  if (!b) return a;
  return a >= b ? a : b;
}

/**
 * The sources that finished within a run of `run` that started and never finished (its process
 * was killed): those whose last success came after that run's start. Empty when its last run finished.
 */
export async function finishedWithinCutRun(db: Db, run: string): Promise<Set<string>> {
  const result = await sql<{ source: string }>`
    select s.source from source_sync s join source_sync r on r.source = ${run}
    where s.source <> r.source and s.last_success_at >= r.last_started_at
      and (r.last_success_at is null or r.last_success_at < r.last_started_at)`.execute(db);
  return new Set(result.rows.map((r) => r.source));
}
