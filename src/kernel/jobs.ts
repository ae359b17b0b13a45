// The job queue: pg-boss 12 in the service's own database, started and stopped with the service.
// On the embedded database pg-boss runs on its PGlite backend through `embeddedSql` (so its SQL
// takes turns with every other caller of the one connection); on a server it keeps a small pool of
// its own. The same queue code runs on both, as does everything built on it.
//
// The kernel knows no domain. A module defines its kinds of job (name, payload type, policy,
// retries) with defineJob(), registers a worker with work(), and sends or schedules jobs. What pg-boss
// guarantees, and this module relies on (pgboss.io, "Queues", "Workers", "Scheduling"):
//   - a job is claimed by one worker (SELECT … FOR UPDATE SKIP LOCKED), whichever instance it runs on;
//   - policy 'exclusive' allows one job per singleton key created, retrying or running, across every
//     instance (a unique index), so "once per X" is a singleton key;
//   - one instance per interval runs a scheduling pass, and each occurrence of a schedule is filed
//     in a slot of its own (another unique index), so every instance may hold the same schedules;
//   - a failed job is retried after retry.delaySeconds, doubled with jitter each time when backoff is on;
//   - stop() lets running jobs finish for the grace period, then fails the rest (they are retried,
//     here after a restart or at once on another instance) and aborts their handler's signal; a
//     job whose process died is failed by any instance once its heartbeat is older than heartbeatSeconds.
import type { FastifyBaseLogger } from 'fastify';
import { PgBoss, type ConstructorOptions, type JobWithMetadata, type Queue } from 'pg-boss';
import type { Config } from './config.ts';
import type { Database } from './db.ts';
import { inBackground } from './db-budget.ts';
import { AppError } from './errors.ts';

export type JobPolicy = 'standard' | 'exclusive' | 'singleton' | 'stately' | 'short';

export interface JobKindOptions {
  /** 'exclusive': one job per singleton key created, retrying or running (default 'standard'). */
  policy?: JobPolicy;
  /** Attempts after the first, the first delay, whether it doubles, and its ceiling. */
  retry?: { limit: number; delaySeconds: number; backoff?: boolean; maxDelaySeconds?: number };
  /** The longest a run may take before it is failed (at most 24 hours; default 15 minutes). */
  expireInSeconds?: number;
  /** A running job's worker proves it is alive this often; a silent one is failed (at least 10). */
  heartbeatSeconds?: number;
  /** How long a finished job stays readable (default 7 days). */
  keepSeconds?: number;
}

/** A kind of job: its queue's name and policy, and (as a type only) its payload. */
export interface JobKind<P extends object> extends JobKindOptions {
  readonly name: string;
  /** Never set: carries the payload type to send(), work() and schedule(). */
  readonly payload?: P;
}

export function defineJob<P extends object>(name: string, options: JobKindOptions = {}): JobKind<P> {
  return { name, ...options };
}

export interface RunningJob<P> {
  id: string;
  payload: P;
  /** 1 for the first attempt. */
  attempt: number;
  /** Aborted when the service stops before the job finishes (it will be retried). */
  signal: AbortSignal;
}

export type JobState = 'queued' | 'retrying' | 'running' | 'completed' | 'failed' | 'cancelled';

/** A job as the queue records it. */
export interface JobRecord<P> {
  id: string;
  payload: P;
  state: JobState;
  singletonKey: string | null;
  /** Attempts started so far, and how many it may have in all. */
  attempt: number;
  maxAttempts: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** When a queued or retrying job may start. */
  runAfter: Date | null;
  /** What the handler returned, on a completed job. */
  output: unknown;
  /** Why the last attempt failed, on a job that is not completed. */
  error: string | null;
}

export interface Jobs {
  readonly running: boolean;
  start(): Promise<void>;
  /** Stops fetching, lets running jobs finish for the grace period, then cuts them off. */
  stop(): Promise<void>;
  /**
   * Queues a job; null when the kind's policy already holds one for this singleton key, or a job
   * with this `id` (a UUID) exists: a caller that records its own id can send again safely.
   */
  send<P extends object>(kind: JobKind<P>, payload: P, options?: { singletonKey?: string; id?: string }): Promise<string | null>;
  /** Runs jobs of this kind in this process, `concurrency` at a time (default 1). */
  work<P extends object>(kind: JobKind<P>, handler: (job: RunningJob<P>) => Promise<object | undefined>, options?: { concurrency?: number }): Promise<void>;
  /** Sends `payload` on every occurrence of `cron` (key: one schedule of several of a kind). */
  schedule<P extends object>(kind: JobKind<P>, key: string, cron: string, payload: P, options?: { timezone?: string; singletonKey?: string }): Promise<void>;
  unschedule(kind: JobKind<object>, key: string): Promise<void>;
  /** The keys of the schedules stored for this kind. */
  scheduled(kind: JobKind<object>): Promise<string[]>;
  /** The next occurrence of a cron expression after now, or null when it has none. */
  nextOccurrence(cron: string, timezone: string): Date | null;
  /** The most recently created job of this kind with this singleton key. */
  latest<P extends object>(kind: JobKind<P>, singletonKey: string): Promise<JobRecord<P> | null>;
}

const states: Record<JobWithMetadata['state'], JobState> = {
  created: 'queued',
  retry: 'retrying',
  active: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** A failed job's output is its error, serialized (or the string pg-boss fails it with at shutdown). */
function errorOf(output: unknown): string | null {
  if (output == null) return null;
  if (typeof output === 'string') return output;
  const o = output as { message?: unknown; value?: unknown };
  if (typeof o.message === 'string') return o.message;
  return typeof o.value === 'string' ? o.value : JSON.stringify(output);
}

function record<P>(job: JobWithMetadata<P>): JobRecord<P> {
  const state = states[job.state];
  const done = state === 'completed' || state === 'failed' || state === 'cancelled';
  return {
    id: job.id,
    payload: job.data,
    state,
    singletonKey: job.singletonKey,
    // retryCount rises when a job is claimed again after an attempt started (pg-boss Job.retryCount).
    attempt: job.startedOn ? job.retryCount + 1 : 0,
    maxAttempts: job.retryLimit + 1,
    createdAt: job.createdOn,
    startedAt: job.startedOn,
    finishedAt: done ? job.completedOn : null,
    runAfter: state === 'queued' || state === 'retrying' ? job.startAfter : null,
    output: state === 'completed' ? job.output : null,
    error: state === 'completed' ? null : errorOf(job.output),
  };
}

function queueOptions(kind: JobKind<object>): Omit<Queue, 'name'> {
  return {
    policy: kind.policy ?? 'standard',
    ...(kind.retry
      ? {
          retryLimit: kind.retry.limit,
          retryDelay: kind.retry.delaySeconds,
          retryBackoff: kind.retry.backoff ?? false,
          ...(kind.retry.maxDelaySeconds ? { retryDelayMax: kind.retry.maxDelaySeconds } : {}),
        }
      : {}),
    ...(kind.expireInSeconds ? { expireInSeconds: kind.expireInSeconds } : {}),
    ...(kind.heartbeatSeconds ? { heartbeatSeconds: kind.heartbeatSeconds } : {}),
    ...(kind.keepSeconds ? { deleteAfterSeconds: kind.keepSeconds } : {}),
  };
}

/** How long stop() waits, after the grace period, for a cut-off handler to let go of the database. */
const SETTLE_MS = 10_000;

export function createJobs(database: Database<any>, config: Pick<Config, 'databaseUrl' | 'jobs'>, log: FastifyBaseLogger): Jobs {
  const common: ConstructorOptions = {
    schema: 'pgboss',
    // A scheduling pass every 10 seconds (default 30): a schedule fires within ~10 s of its minute.
    cronMonitorIntervalSeconds: 10,
  };
  const options: ConstructorOptions = database.embeddedSql
    ? { ...common, backend: 'pglite', db: { executeSql: (text, values) => database.embeddedSql!(text, values) } }
    : { ...common, connectionString: config.databaseUrl!, max: 3, application_name: 'council-tracker-jobs' };
  const boss = new PgBoss(options);
  // An 'error' event nobody listens to would throw; pg-boss reports failed polls and handlers here.
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  boss.on('warning', (w) => log.warn({ data: w.data }, `job queue: ${w.message}`));

  let running = false;
  const ensured = new Map<string, Promise<void>>();
  const inFlight = new Set<Promise<unknown>>();

  function mustRun(): void {
    if (!running) throw new AppError('unavailable', 'The job queue is not running.');
  }

  /** Creates the kind's queue, or brings a stored one's retry and expiry in line (policy is fixed at creation). */
  function ensure(kind: JobKind<object>): Promise<void> {
    let done = ensured.get(kind.name);
    if (!done) {
      const { policy, ...settings } = queueOptions(kind);
      done = (async () => {
        await boss.createQueue(kind.name, { policy, ...settings });
        if (Object.keys(settings).length > 0) await boss.updateQueue(kind.name, settings);
      })();
      done.catch(() => ensured.delete(kind.name));
      ensured.set(kind.name, done);
    }
    return done;
  }

  return {
    get running() {
      return running;
    },
    async start() {
      if (running) return;
      try {
        await boss.start();
      } catch (err) {
        await boss.stop({ graceful: false }).catch(() => {});
        throw err;
      }
      running = true;
    },
    async stop() {
      if (!running) return;
      running = false;
      ensured.clear();
      try {
        await boss.stop({ graceful: true, timeout: config.jobs.stopGraceSeconds * 1000 });
      } finally {
        // A handler cut off at the deadline was told through its signal; let it unwind before the
        // database closes under it.
        const settled = Promise.allSettled([...inFlight]);
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<'late'>((resolve) => {
          timer = setTimeout(() => resolve('late'), SETTLE_MS);
        });
        if ((await Promise.race([settled, late])) === 'late') log.warn({ jobs: inFlight.size }, 'job handlers still running after the queue stopped');
        clearTimeout(timer);
      }
    },
    async send<P extends object>(kind: JobKind<P>, payload: P, options: { singletonKey?: string; id?: string } = {}) {
      mustRun();
      await ensure(kind);
      return boss.send(kind.name, payload, {
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options.id ? { id: options.id } : {}),
      });
    },
    async work<P extends object>(kind: JobKind<P>, handler: (job: RunningJob<P>) => Promise<object | undefined>, options: { concurrency?: number } = {}) {
      mustRun();
      await ensure(kind);
      await boss.work<P>(kind.name, { localConcurrency: options.concurrency ?? 1 }, async ([job]) => {
        if (!job) return undefined;
        // pg-boss aborts the job's signal when it cuts the job off (shutdown, or past its time
        // limit); the handler sees why in the reason, and the error it ends with says so.
        const cut = new AbortController();
        const stopped = () => cut.abort(new Error('stopped before it finished (the service is stopping, or it ran past its time limit); it is retried'));
        if (job.signal.aborted) stopped();
        else job.signal.addEventListener('abort', stopped, { once: true });
        // A job is no request's work: the background class, with no request budget (kernel/db-budget.ts).
        const run = inBackground(() => handler({ id: job.id, payload: job.data, attempt: job.retryCount + 1, signal: cut.signal }));
        inFlight.add(run);
        try {
          return await run;
        } finally {
          inFlight.delete(run);
        }
      });
    },
    async schedule<P extends object>(kind: JobKind<P>, key: string, cron: string, payload: P, options: { timezone?: string; singletonKey?: string } = {}) {
      mustRun();
      await ensure(kind);
      // `missed: 'once'`: occurrences that came due while no instance ran send one job at the next pass.
      await boss.schedule(kind.name, cron, payload, {
        key,
        tz: options.timezone ?? 'UTC',
        missed: 'once',
        ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      });
    },
    async unschedule(kind, key) {
      mustRun();
      await boss.unschedule(kind.name, key);
    },
    async scheduled(kind) {
      mustRun();
      return (await boss.getSchedules(kind.name)).map((s) => s.key);
    },
    nextOccurrence(cron, timezone) {
      return boss.previewSchedule(cron, { tz: timezone, count: 1 })[0] ?? null;
    },
    async latest<P extends object>(kind: JobKind<P>, singletonKey: string) {
      mustRun();
      await ensure(kind);
      const found = await boss.findJobs<P>(kind.name, { key: singletonKey });
      let newest: JobWithMetadata<P> | undefined;
      for (const job of found) if (!newest || job.createdOn > newest.createdOn) newest = job;
      return newest ? record(newest) : null;
    },
  };
}
