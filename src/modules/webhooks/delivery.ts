// Webhook deliveries on the job queue. One job per delivery (policy 'exclusive', keyed by the
// delivery id: one queued, retrying or running job per delivery across every instance); pg-boss
// retries a failed attempt after a delay that doubles with jitter. Every attempt is recorded
// before the job ends, and the delivery row, not the job, says whether it is done, so a job sent
// twice (the sweep and publish racing) sends nothing twice. A sweep on each instance hands the
// queue any pending delivery without a job: those filed inside a transaction, or while the queue
// was down (the CLI files events without running it), so deliveries survive restarts.
import { Webhook } from 'standardwebhooks';
import { recordAfterEffect } from '../../kernel/after-effect.ts';
import type { ModuleDeps } from '../../kernel/deps.ts';
import { defineJob, type Jobs, type RunningJob } from '../../kernel/jobs.ts';
import { SafeFetchError, safeFetch } from '../../kernel/safe-fetch.ts';
import * as repo from './repo.ts';

type DeliveryPayload = { deliveryId: string };

/** Receivers answer with a short acknowledgement; more than this is not read. */
const MAX_ANSWER_BYTES = 64 * 1024;
const SWEEP_BATCH = 100;

export function createDelivery(deps: Pick<ModuleDeps, 'db' | 'clock' | 'config' | 'log'>, jobs: Jobs) {
  const { db, clock, config, log } = deps;
  const settings = config.webhooks;
  const maxAttempts = settings.retry.limit + 1;
  const kind = defineJob<DeliveryPayload>('webhooks.deliver', {
    policy: 'exclusive',
    retry: { limit: settings.retry.limit, delaySeconds: settings.retry.delaySeconds, backoff: true, maxDelaySeconds: settings.retry.maxDelaySeconds },
    // An attempt is bounded by its own timeout; the job's limit only catches a stuck worker.
    expireInSeconds: Math.ceil(settings.timeoutMs / 1000) + 60,
  });
  let sweeper: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | null = null;

  async function send(ids: readonly string[]): Promise<void> {
    if (!jobs.running) return;
    for (const id of ids) await jobs.send(kind, { deliveryId: id }, { singletonKey: id });
  }

  /** One attempt: sign (Standard Webhooks), POST through the SSRF guard, record what happened. */
  async function attempt(job: RunningJob<DeliveryPayload>): Promise<object> {
    const delivery = await repo.findDelivery(db, job.payload.deliveryId);
    if (delivery?.status !== 'pending') return { skipped: 'not pending' };
    const number = await repo.startAttempt(db, delivery.id, clock.now());
    if (number === null) return { skipped: 'not pending' };
    const at = clock.now();
    if (number > maxAttempts) {
      await repo.failDelivery(db, delivery.id, at);
      return { skipped: 'no attempts left' };
    }
    // Standard Webhooks §"Signature scheme": HMAC-SHA256 over `${id}.${timestamp}.${body}` with
    // the secret's bytes, sent as "v1,<base64>"; the timestamp is this attempt's, in seconds.
    const signature = new Webhook(delivery.secret).sign(delivery.event_id, at, delivery.payload);
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const answer = await safeFetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'CouncilTracker-Webhooks/1',
          'webhook-id': delivery.event_id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: delivery.payload,
        maxBytes: MAX_ANSWER_BYTES,
        timeoutMs: settings.timeoutMs,
        maxRedirects: 3,
        allowLoopback: config.outbound.allowLoopback,
      });
      statusCode = answer.status;
      // Any 2xx acknowledges the event; everything else is retried.
      if (answer.status < 200 || answer.status > 299) error = `The endpoint answered ${answer.status}.`;
    } catch (err) {
      // A body over the cap still means the endpoint answered; anything else is no answer.
      error = err instanceof SafeFetchError ? `${err.code}: ${err.message}` : `The request failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    const finished = error === null ? 'delivered' : number >= maxAttempts ? 'failed' : null;
    // An acknowledged event is recorded even through a brief database outage (it would go again).
    const record = () => repo.recordAttempt(db, { delivery_id: delivery.id, attempt: number, at, status_code: statusCode, error }, finished);
    await (error === null ? recordAfterEffect(record, log, { deliveryId: delivery.id }) : record());
    // Throwing hands the job back to pg-boss, which retries it after the backoff delay.
    if (error !== null) throw new Error(`Attempt ${number} of ${maxAttempts}: ${error}`);
    return { delivered: true, attempt: number, status: statusCode };
  }

  async function sweep(): Promise<void> {
    if (!jobs.running) return;
    // An attempt in flight is left alone: only its own end may finish the delivery.
    await repo.failExhausted(db, maxAttempts, clock.now(), settings.timeoutMs + 60_000);
    const pending = await repo.pendingDeliveries(db, maxAttempts, SWEEP_BATCH);
    await send(pending.map((p) => p.id));
  }

  function sweepOnce(): void {
    if (sweeping) return;
    sweeping = sweep()
      .catch((err) => log.warn({ err }, 'webhook sweep failed; it runs again shortly'))
      .finally(() => {
        sweeping = null;
      });
  }

  return {
    kind,
    /** Hands new deliveries to the queue now; without a running queue, the next sweep does it. */
    async kick(ids: readonly string[]): Promise<void> {
      try {
        await send(ids);
      } catch (err) {
        log.warn({ err }, 'webhook deliveries filed; the queue takes them on its next sweep');
      }
    },
    /** Starts this instance's worker and sweep (the running service only: workers.ts). */
    async start(): Promise<void> {
      await jobs.work(kind, attempt, { concurrency: 4 });
      sweepOnce();
      sweeper = setInterval(sweepOnce, settings.sweepSeconds * 1000);
      sweeper.unref();
    },
    async stop(): Promise<void> {
      clearInterval(sweeper);
      sweeper = undefined;
      await sweeping;
    },
  };
}
