// A source_sync row, with the source's schedule and latest sync job, → SourceStatus.
import type { SourceSync } from './ingest/schedule.ts';
import { iso } from './presenters.ts';
import type { SourceOut } from './schema.ts';

type Row = Record<string, any>;

function presentResult(output: unknown): { seen: number; changed: number } | null {
  const o = output as { seen?: unknown; changed?: unknown } | null;
  return o && typeof o.seen === 'number' && typeof o.changed === 'number' ? { seen: o.seen, changed: o.changed } : null;
}

export function presentSource(r: Row, sync: SourceSync | null): SourceOut {
  const job = sync?.job ?? null;
  return {
    source: r.source,
    lastStartedAt: iso(r.last_started_at),
    lastSuccessAt: iso(r.last_success_at),
    lastError: r.last_error ?? null,
    lastErrorAt: iso(r.last_error_at),
    highWater: r.high_water ?? null,
    recordsSeen: r.records_seen ?? 0,
    recordsChanged: r.records_changed ?? 0,
    schedule: sync?.schedule ? { cron: sync.schedule.cron, timezone: sync.schedule.timezone, nextRunAt: iso(sync.schedule.nextRunAt) } : null,
    job: job && {
      id: job.id,
      state: job.state,
      runningSince: job.state === 'running' ? iso(job.startedAt) : null,
      progress: sync?.progress?.message ?? null,
      progressCount: sync?.progress?.records ?? null,
      attempt: job.attempt,
      maxAttempts: job.maxAttempts,
      nextAttemptAt: iso(job.runAfter),
      finishedAt: iso(job.finishedAt),
      result: presentResult(job.output),
      error: job.error,
    },
  };
}
