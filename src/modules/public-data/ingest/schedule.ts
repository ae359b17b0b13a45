// Scheduled ingestion: with INGEST_SCHEDULE=on each configured source syncs on its cron schedule,
// as a job on the queue (kernel/jobs.ts) that whichever instance claims it runs.
//   - Once per occurrence, however many instances hold the schedule: pg-boss files each
//     occurrence once, the queue's exclusive policy keyed by source keeps at most one sync of a
//     source waiting, retrying or running anywhere (a sync still running when the next occurrence
//     comes swallows that occurrence), and one worker claims a job.
//   - A run that fails (after its HTTP client's own retries) is retried with exponential backoff
//     (INGEST_RETRY_*) while the API keeps serving what it has; source_sync records the error.
//   - A run writes its progress to ingest_progress as it goes; status() joins that with the
//     queue's record of the job and the schedule's next occurrence, for /api/v1/sources.
// Schedules live in the database: start() removes any this configuration no longer names, so
// every instance of a deployment must share INGEST_* settings.
import type { FastifyBaseLogger } from 'fastify';
import type { ModuleDeps } from '../../../kernel/deps.ts';
import type { Clock } from '../../../kernel/clock.ts';
import { defineJob, type JobKind, type JobRecord, type Jobs, type RunningJob } from '../../../kernel/jobs.ts';
import { canonicalSource, type Ingest } from './index.ts';

export interface IngestPayload {
  /** As recorded in source_sync: elms, lobbying, campaign_finance, legistar:<client>. */
  source: string;
}

/** What /api/v1/sources adds to a source's freshness. */
export interface SourceSync {
  schedule: { cron: string; timezone: string; nextRunAt: Date | null } | null;
  job: JobRecord<IngestPayload> | null;
  /** The job's own progress (null when the latest progress belongs to another job). */
  progress: { message: string; records: number } | null;
}

export interface IngestSchedule {
  /** Registers the sync worker and brings the stored schedules in line with the configuration. */
  start(): Promise<void>;
  /** Queues a sync of `source` now, off schedule; null when one is already waiting or running. */
  enqueue(source: string): Promise<string | null>;
  /** For these sources and every scheduled one: schedule, latest job and its progress. */
  status(sources: readonly string[]): Promise<Map<string, SourceSync>>;
}

/** Job and schedule keys allow letters, digits and _ . - /: `legistar:chicago` → `legistar/chicago`. */
const keyOf = (source: string) => source.replace(':', '/');

export function createIngestSchedule(deps: ModuleDeps, { jobs, ingest }: { jobs: Jobs; ingest: Ingest }): IngestSchedule {
  const { db, clock, log } = deps;
  const { schedules, timezone, retry } = deps.config.ingest;
  const kind: JobKind<IngestPayload> = defineJob<IngestPayload>('public-data.ingest', {
    policy: 'exclusive',
    retry: { limit: retry.limit, delaySeconds: retry.delaySeconds, backoff: true, maxDelaySeconds: 3600 },
    // A first full sync of a large source takes hours; a dead worker is noticed by its heartbeat.
    expireInSeconds: 12 * 3600,
    heartbeatSeconds: 60,
    keepSeconds: 2 * 86_400,
  });

  async function sync(job: RunningJob<IngestPayload>): Promise<object> {
    const { source } = job.payload;
    const progress = progressWriter(db, clock, log, source, job.id);
    progress.note(`${source}: attempt ${job.attempt} started`);
    try {
      const report = await ingest.run(source, { signal: job.signal, onProgress: progress.note, onCount: progress.count });
      return { seen: report.seen, changed: report.changed };
    } finally {
      await progress.flush();
    }
  }

  return {
    async start() {
      const wanted = new Map(schedules.map((s) => [keyOf(s.source), s]));
      for (const key of await jobs.scheduled(kind)) if (!wanted.has(key)) await jobs.unschedule(kind, key);
      // The worker runs whether or not anything is scheduled here, so a sync queued by enqueue()
      // (or by an instance whose schedule is on) is run; with nothing queued it only polls.
      await jobs.work(kind, sync);
      for (const [key, s] of wanted) await jobs.schedule(kind, key, s.cron, { source: s.source }, { timezone, singletonKey: key });
      if (schedules.length > 0) log.info({ schedules, timezone }, 'scheduled ingestion is on');
      else log.info('scheduled ingestion is off (INGEST_SCHEDULE)');
    },
    async enqueue(source) {
      const name = canonicalSource(source);
      return jobs.send(kind, { source: name }, { singletonKey: keyOf(name) });
    },
    async status(sources) {
      const configured = new Map(schedules.map((s) => [s.source, s]));
      const names = [...new Set([...sources, ...configured.keys()])].filter((s) => s !== 'sample');
      const progress = new Map((await db.selectFrom('ingest_progress').selectAll().execute()).map((p) => [p.source, p]));
      const latest = await Promise.all(names.map((s) => (jobs.running ? jobs.latest(kind, keyOf(s)) : null)));
      return new Map(
        names.map((source, i): [string, SourceSync] => {
          const s = configured.get(source);
          const job = latest[i] ?? null;
          const p = progress.get(source);
          return [
            source,
            {
              schedule: s ? { cron: s.cron, timezone, nextRunAt: jobs.nextOccurrence(s.cron, timezone) } : null,
              job,
              progress: job && p && p.job_id === job.id ? { message: p.message, records: p.records } : null,
            },
          ];
        }),
      );
    },
  };
}

/**
 * Keeps a job's progress in ingest_progress: the latest line and the running count of records.
 * Lines come faster than writes on a busy run, so only the latest waiting line is written.
 */
function progressWriter(db: ModuleDeps['db'], clock: Clock, log: FastifyBaseLogger, source: string, jobId: string) {
  let records = 0;
  let waiting: string | null = null;
  let writing: Promise<void> | null = null;
  async function drain(): Promise<void> {
    while (waiting !== null) {
      const message = waiting;
      waiting = null;
      const row = { job_id: jobId, message: message.slice(0, 2000), records, updated_at: clock.now() };
      await db
        .insertInto('ingest_progress')
        .values({ source, ...row })
        .onConflict((oc) => oc.column('source').doUpdateSet(row))
        .execute()
        .catch((err) => log.warn({ err, source }, 'could not record ingest progress'));
    }
    writing = null;
  }
  return {
    note(line: string): void {
      waiting = line;
      writing ??= drain();
    },
    count(seen: number): void {
      records += seen;
    },
    flush: (): Promise<void> => writing ?? Promise.resolve(),
  };
}
