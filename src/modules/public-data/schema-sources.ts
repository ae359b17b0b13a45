// Each upstream source's freshness (source_sync) and, where this deployment syncs it on a
// schedule, its schedule and its latest sync job on the queue (ingest/schedule.ts).
import { type Static, Type } from 'typebox';
import { Nullable, NullableString } from './schema-common.ts';

const DateTime = (description?: string) => Nullable(Type.String({ format: 'date-time', ...(description ? { description } : {}) }));

export const jobStates = ['queued', 'running', 'retrying', 'completed', 'failed', 'cancelled'] as const;

export const SourceSchedule = Type.Object(
  {
    cron: Type.String({ description: 'When the source syncs: a cron expression (minute hour day-of-month month day-of-week).' }),
    timezone: Type.String({ description: 'The time zone the expression is read in.' }),
    nextRunAt: DateTime('The next scheduled sync.'),
  },
  { description: "This deployment's schedule for the source." },
);

export const SourceJob = Type.Object(
  {
    id: Type.String({ description: 'The job on the queue.' }),
    state: Type.Enum([...jobStates], {
      description:
        'queued (waiting to run), running, retrying (an attempt failed; another follows at nextAttemptAt), completed, failed (every attempt failed), cancelled.',
    }),
    runningSince: DateTime('When the attempt running now started.'),
    progress: NullableString('The latest progress line of this job.'),
    progressCount: Nullable(Type.Integer({ description: 'Records seen so far by this job.' })),
    attempt: Type.Integer({ description: 'Attempts started so far (0 while first queued).' }),
    maxAttempts: Type.Integer({ description: 'Attempts the job may have in all; failed attempts are retried with growing delays.' }),
    nextAttemptAt: DateTime('When a queued or retrying job runs next.'),
    finishedAt: DateTime('When the job completed, or failed for good.'),
    result: Nullable(Type.Object({ seen: Type.Integer(), changed: Type.Integer() }, { description: 'Records the completed sync saw and changed.' })),
    error: NullableString('Why the last attempt failed.'),
  },
  { description: 'The latest sync job of the source.' },
);

export const SourcesQuery = Type.Object({}, { additionalProperties: false });
export const SourceStatus = Type.Object({
  source: Type.String({ description: 'elms, legistar:<client>, lobbying, campaign_finance, sample' }),
  lastStartedAt: Nullable(Type.String({ format: 'date-time' })),
  lastSuccessAt: Nullable(Type.String({ format: 'date-time' })),
  lastError: NullableString(),
  lastErrorAt: Nullable(Type.String({ format: 'date-time' })),
  highWater: NullableString("The source's own watermark of the last sync."),
  recordsSeen: Type.Integer(),
  recordsChanged: Type.Integer(),
  schedule: Nullable(SourceSchedule),
  job: Nullable(SourceJob),
});
export const SourcesList = Type.Object({ data: Type.Array(SourceStatus) });

export type SourceOut = Static<typeof SourceStatus>;
