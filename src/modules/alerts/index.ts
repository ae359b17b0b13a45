// Alerts on follows: subscriptions per (follow, person) by email — immediately, daily or weekly —
// and/or webhook (`follow.changed` events through modules/webhooks), change detection after each
// ingest, deliveries through the job queue, and the unsubscribe link.
// Tables: alert_subscriptions, alert_watches, alert_seen, alert_pending, alert_deliveries
// (migration 0130).
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { Jobs } from '../../kernel/jobs.ts';
import type { Mailer } from '../../kernel/mail.ts';
import type { Accounts } from '../accounts/index.ts';
import type { Webhooks } from '../webhooks/index.ts';
import { createChangeFeed } from '../public-data/index.ts';
import { createFollowLookup } from '../team-data/index.ts';
import { createDelivery } from './deliver.ts';
import { createDetector } from './detect.ts';
import * as repo from './repo.ts';
import { createAlertsService } from './service.ts';

export function createAlerts(deps: ModuleDeps, others: { jobs: Jobs; mailer: Mailer; accounts: Accounts; webhooks: Webhooks }) {
  const { db, clock, log } = deps;
  const baseUrl = deps.config.baseUrl;
  const follows = createFollowLookup(db);
  const detector = createDetector({
    db,
    clock,
    log,
    feed: createChangeFeed(deps),
    follows,
    baseUrl,
    publish: (accountId, event, options) => others.webhooks.publish(accountId, event, options),
  });
  const delivery = createDelivery({
    db,
    clock,
    log,
    jobs: others.jobs,
    mailer: others.mailer,
    baseUrl,
    follows,
    detector,
    settings: deps.config.alerts,
    emailOf: async (accountId) => (await others.accounts.get(accountId).catch(() => null))?.email ?? null,
  });
  // A member who leaves a team stops getting alerts on its follows (in the same transaction).
  others.accounts.onMembershipEnded(async (trx, ended) => {
    await repo.deleteTeamSubscriptions(trx, ended.teamId, ended.accountId);
  });
  return {
    service: createAlertsService({
      db,
      clock,
      baseUrl,
      follows,
      detector,
      delivery,
      eventStatuses: (accountId, ids) => others.webhooks.eventStatuses(accountId, ids),
    }),
    /** Registers the workers and the digest and sweep schedules (the running service only). */
    start: () => delivery.start(),
    /** Told when an ingest finished: asks for a look at the watched follows when anything changed. */
    async ingested(report: { source: string; changed: number }): Promise<void> {
      if (report.changed > 0) await delivery.requestScan(`ingest ${report.source}`);
    },
    /** One look at every watched follow now (what the scan job runs). */
    scan: () => delivery.scan(),
    /** The daily or weekly digest now (what its schedule runs). */
    digest: (frequency: 'daily' | 'weekly') => delivery.digest(frequency),
  };
}

export type Alerts = ReturnType<typeof createAlerts>;
export { unsubscribeToken } from './token.ts';
