// Recording an effect outside the service that has already happened: an email the relay accepted,
// a webhook event its endpoint acknowledged. If that write fails, the job fails, runs again and
// repeats the effect, so a database that is briefly out (a restart, a failover) is waited for: the
// write is tried again for about half a minute before the failure is let through. Past that, the
// effect may be repeated once its job runs again: at least once, never silently lost; each module
// says how a receiver tells a repeat (an alert's Message-ID, a webhook's `webhook-id`).
import type { FastifyBaseLogger } from 'fastify';

/** Waits between tries: about 30 s in all. */
const WAITS_MS = [250, 500, 1000, 2000, 4000, 8000, 15_000];

export async function recordAfterEffect<T>(
  write: () => Promise<T>,
  log: FastifyBaseLogger,
  about: Record<string, unknown>,
  waitsMs: readonly number[] = WAITS_MS,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (attempt >= waitsMs.length) throw err;
      log.warn({ err, ...about }, 'recording what was already done failed; trying again');
      await new Promise((resolve) => setTimeout(resolve, waitsMs[attempt]));
    }
  }
}
