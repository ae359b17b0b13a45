// Alerts on the job queue (kernel/jobs.ts):
//   - `alerts.scan` looks at every watched follow (detect.ts). It is sent when an ingest finishes
//     with changes, and runs every ten minutes besides, so changes written by another process (the
//     CLI on a server database) are found too. Stately: at most one waiting and one running.
//   - `alerts.email` sends one delivery, retried with exponential backoff; the delivery row records
//     each attempt, so the follow's page shows what was sent, when, and how it went.
//   - `alerts.digest` runs on the daily and weekly schedules (ALERT_DAILY_CRON, ALERT_WEEKLY_CRON) and turns each subscription's waiting
//     items into one delivery (taking them deletes them, so two runs cannot both send them).
import type { FastifyBaseLogger } from 'fastify';
import { recordAfterEffect } from '../../kernel/after-effect.ts';
import type { Clock } from '../../kernel/clock.ts';
import type { Config } from '../../kernel/config.ts';
import { defineJob, type JobKind, type Jobs, type RunningJob } from '../../kernel/jobs.ts';
import type { Mailer } from '../../kernel/mail.ts';
import type { FollowLookup } from '../team-data/index.ts';
import type { Detector } from './detect.ts';
import { alertMessageId, composeAlertMail } from './mail-text.ts';
import * as repo from './repo.ts';
import type { Frequency } from './tables.ts';
import { unsubscribeToken } from './token.ts';

export const scanKind: JobKind<{ reason: string }> = defineJob('alerts.scan', { policy: 'stately', retry: { limit: 3, delaySeconds: 30, backoff: true } });
export const digestKind: JobKind<{ frequency: 'daily' | 'weekly' }> = defineJob('alerts.digest', {
  policy: 'exclusive',
  retry: { limit: 3, delaySeconds: 60, backoff: true },
});

const SWEEP_CRON = '*/10 * * * *';

export interface DeliveryDeps {
  db: repo.Db;
  clock: Clock;
  log: FastifyBaseLogger;
  jobs: Jobs;
  mailer: Mailer;
  baseUrl: string;
  follows: FollowLookup;
  detector: Detector;
  emailOf(accountId: string): Promise<string | null>;
  /** ALERT_* settings: email retries, digest schedules (UTC). */
  settings: Config['alerts'];
}

export function createDelivery(deps: DeliveryDeps) {
  const { db, clock, jobs, settings } = deps;
  const emailRetry = { limit: settings.retry.limit, delaySeconds: settings.retry.delaySeconds, backoff: true, maxDelaySeconds: 6 * 3600 };
  // The heartbeat: a job whose end could not be recorded (the database lost past the after-effect's
  // wait, so pg-boss could not mark it failed either) stays active; without a heartbeat it would run
  // again only at its expiry (15 minutes), with one within about a minute of the database's return.
  const emailKind: JobKind<{ deliveryId: string }> = defineJob('alerts.email', { retry: emailRetry, keepSeconds: 14 * 86_400, heartbeatSeconds: 30 });
  const digestSchedules = { daily: settings.dailyCron, weekly: settings.weeklyCron };

  /** Sends the jobs of these deliveries (a delivery's id is its job's id, so sending twice is harmless). */
  async function dispatch(ids: readonly string[]): Promise<void> {
    for (const id of ids) await jobs.send(emailKind, { deliveryId: id }, { id });
  }

  async function scan(): Promise<{ follows: number; items: number; deliveries: number }> {
    await dispatch(await repo.queuedBefore(db, new Date(clock.now().getTime() - 120_000)));
    const r = await deps.detector.scan();
    await dispatch(r.deliveries);
    return { follows: r.follows, items: r.items, deliveries: r.deliveries.length };
  }

  async function sendEmail(job: RunningJob<{ deliveryId: string }>): Promise<object> {
    const d = await repo.findDelivery(db, job.payload.deliveryId);
    if (!d) return { skipped: 'gone' };
    if (d.status !== 'queued') return { skipped: d.status };
    const sub = d.subscription_id ? await repo.findSubscriptionById(db, d.subscription_id) : undefined;
    const at = clock.now();
    if (!sub?.email_frequency) {
      await repo.recordAttempt(db, d.id, { status: 'failed', error: 'Not sent: email alerts were turned off before it went out.', at });
      return { skipped: 'unsubscribed' };
    }
    const [to, follow] = await Promise.all([deps.emailOf(d.account_id), deps.follows.find(d.follow_id)]);
    if (!to || !follow) {
      await repo.recordAttempt(db, d.id, { status: 'failed', error: 'Not sent: the account or the follow no longer exists.', at });
      return { skipped: 'gone' };
    }
    const mail = composeAlertMail({
      to,
      followLabel: follow.label,
      frequency: d.frequency,
      items: d.items,
      baseUrl: deps.baseUrl,
      unsubscribeUrl: `${deps.baseUrl}/alerts/unsubscribe/${unsubscribeToken(sub)}`,
      manage: follow.teamId
        ? { kind: 'page', url: `${deps.baseUrl}/dashboard/${encodeURIComponent(follow.teamId)}/follows/${encodeURIComponent(follow.id)}` }
        : { kind: 'api', url: `${deps.baseUrl}/api/v2/me/follows/${encodeURIComponent(follow.id)}/alerts` },
      messageId: alertMessageId(d.id, deps.baseUrl),
    });
    try {
      await deps.mailer.send(mail);
    } catch (err) {
      const last = job.attempt >= emailRetry.limit + 1;
      await repo.recordAttempt(db, d.id, { status: last ? 'failed' : 'queued', error: (err as Error).message.slice(0, 500), at: clock.now() });
      throw err;
    }
    // Accepted by the relay: recorded even through a brief database outage, else it would go twice.
    const sentAt = clock.now();
    await recordAfterEffect(() => repo.recordAttempt(db, d.id, { status: 'sent', error: null, at: sentAt }), deps.log, { deliveryId: d.id });
    return { sent: d.items.length };
  }

  /** Turns a subscription's waiting items into one delivery; its id, or null when none waited. */
  async function gather(subscriptionId: string, frequency: Frequency): Promise<string | null> {
    return db.transaction().execute(async (trx) => {
      const sub = await repo.findSubscriptionById(trx, subscriptionId);
      if (!sub) return null;
      const items = await repo.takePending(trx, subscriptionId);
      if (items.length === 0) return null;
      const id = crypto.randomUUID();
      await repo.insertDelivery(trx, {
        id,
        subscriptionId,
        followId: sub.follow_id,
        accountId: sub.account_id,
        channel: 'email',
        frequency,
        items,
        at: clock.now(),
      });
      return id;
    });
  }

  async function digest(frequency: 'daily' | 'weekly'): Promise<{ deliveries: number }> {
    const made: string[] = [];
    for (const subId of await repo.digestDue(db, frequency)) {
      const id = await gather(subId, frequency);
      if (id) made.push(id);
    }
    await dispatch(made);
    return { deliveries: made.length };
  }

  return {
    scan,
    dispatch,
    gather,
    digest,
    async start(): Promise<void> {
      await jobs.work(scanKind, () => scan());
      await jobs.work(emailKind, sendEmail, { concurrency: 2 });
      await jobs.work(digestKind, (job) => digest(job.payload.frequency));
      await jobs.schedule(scanKind, 'sweep', SWEEP_CRON, { reason: 'sweep' }, { singletonKey: 'scan' });
      for (const frequency of ['daily', 'weekly'] as const) {
        await jobs.schedule(digestKind, frequency, digestSchedules[frequency], { frequency }, { singletonKey: frequency });
      }
    },
    /** Asks for a look at the watched follows (after an ingest); false when the queue is not running here. */
    async requestScan(reason: string): Promise<boolean> {
      if (!jobs.running) return false;
      await jobs.send(scanKind, { reason }, { singletonKey: 'scan' });
      return true;
    },
  };
}

export type Delivery = ReturnType<typeof createDelivery>;
