// Clients nobody uses, deleted on the job queue (kernel/jobs.ts): open registration (RFC 7591 §5)
// lets anyone add clients, and a client that never got a grant within
// OAUTH_UNUSED_CLIENT_TTL_SECONDS (24 h) is abandoned. Cached client ID metadata documents that
// never got a grant and are past their cache lifetime go too (the next authorization request
// fetches the document again). Clients with a grant, even a revoked one, are kept: the grant
// lists the app and keeps its history. `oauth.unused-clients` runs hourly on whichever instance
// claims it; stately, so at most one waits and one runs.
import type { ModuleDeps } from '../../../kernel/deps.ts';
import { defineJob, type JobKind, type Jobs } from '../../../kernel/jobs.ts';
import * as repo from './repo.ts';

export const unusedClientsKind: JobKind<{ reason: string }> = defineJob('oauth.unused-clients', {
  policy: 'stately',
  retry: { limit: 3, delaySeconds: 60, backoff: true },
});

const CLEANUP_CRON = '41 * * * *';
/** Clients deleted per statement: short transactions, however many piled up. */
const BATCH = 500;
/** A code that expired less than this long ago may be being redeemed into a grant right now. */
const CODE_MARGIN_MS = 3600_000;

export function createClientCleanup(deps: Pick<ModuleDeps, 'db' | 'clock' | 'config'>, jobs: Pick<Jobs, 'work' | 'schedule'>) {
  const { db, clock, config } = deps;

  /** Deletes every unused client old enough; how many went. */
  async function deleteUnused(): Promise<{ deleted: number }> {
    const now = clock.now();
    const at = { before: new Date(now.getTime() - config.oauth.unusedClientTtlSeconds * 1000), codesAfter: new Date(now.getTime() - CODE_MARGIN_MS), now };
    let deleted = 0;
    for (;;) {
      const n = await repo.deleteUnusedClients(db, at, BATCH);
      deleted += n;
      if (n < BATCH) return { deleted };
    }
  }

  return {
    deleteUnused,
    async start(): Promise<void> {
      await jobs.work(unusedClientsKind, () => deleteUnused());
      await jobs.schedule(unusedClientsKind, 'hourly', CLEANUP_CRON, { reason: 'schedule' }, { singletonKey: 'unused-clients' });
    },
  };
}
