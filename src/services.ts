// The module services, wired once. Surfaces and the CLI call these, never SQL of their own.
import type { ModuleDeps } from './kernel/deps.ts';
import type { DB } from './db-schema.ts';
import type { Coherence } from './kernel/coherence.ts';
import type { Database } from './kernel/db.ts';
import type { Jobs } from './kernel/jobs.ts';
import { createMailer, type Mailer } from './kernel/mail.ts';
import { type Accounts, createAccounts } from './modules/accounts/index.ts';
import { type AgentTasks, createAgentTasks } from './modules/agent-tasks/index.ts';
import { type Alerts, createAlerts } from './modules/alerts/index.ts';
import { type Answers, createAnswers } from './modules/answers/index.ts';
import { type Bulk, createBulk } from './modules/bulk/index.ts';
import { type Credentials, createCredentials } from './modules/credentials/index.ts';
import { createIdempotency, type Idempotency } from './modules/idempotency/index.ts';
import { createPublicData, createRetrieval, type PublicData } from './modules/public-data/index.ts';
import { createIngest, type Ingest } from './modules/public-data/ingest/index.ts';
import { createIngestSchedule, type IngestSchedule } from './modules/public-data/ingest/schedule.ts';
import { createLive, type Live } from './modules/live/index.ts';
import { createOAuth, type OAuth } from './modules/credentials/oauth/index.ts';
import { createSessions, type Sessions } from './modules/sessions/index.ts';
import { createTeamData, type TeamData } from './modules/team-data/index.ts';
import { createSecurityLog, type SecurityLog } from './modules/security-log/index.ts';
import { createWebhooks, type Webhooks } from './modules/webhooks/index.ts';

export interface Services {
  publicData: PublicData;
  ingest: Ingest;
  /** Scheduled ingestion on the job queue. */
  ingestSchedule: IngestSchedule;
  accounts: Accounts;
  credentials: Credentials;
  /** The OAuth 2.1 authorization server: clients, consent, tokens, connected apps. */
  oauth: OAuth;
  idempotency: Idempotency;
  mailer: Mailer;
  sessions: Sessions;
  teamData: TeamData;
  live: Live;
  answers: Answers;
  /** An account's webhook endpoints and signed deliveries of its events. */
  webhooks: Webhooks;
  /** Credential events: the security log and webhooks (modules/security-log). */
  securityLog: SecurityLog;
  /** Alerts on follows: subscriptions, change detection after ingests, email and webhook deliveries. */
  alerts: Alerts;
  /** The A2A agent's tasks, kept per owner. */
  agentTasks: AgentTasks;
  /** Bulk exports of the public record: written nightly and by the operator, served at /bulk/. */
  bulk: Bulk;
  close(): Promise<void>;
}

export function createServices(deps: ModuleDeps, database: Database<DB>, caches: Coherence, jobs: Jobs): Services {
  const accounts = createAccounts(deps, { settlePower: caches.settlePower });
  const mailer = createMailer(deps.config, deps.log);
  const sessions = createSessions(deps, { accounts, mailer });
  const webhooks = createWebhooks(deps, { jobs });
  const securityLog = createSecurityLog(deps, webhooks);
  const credentials = createCredentials(deps, { accounts, sessions, database, caches, securityLog, mailer });
  // Alerts are told when an ingest finishes (they queue a look at the watched follows).
  let alerts: Alerts | undefined;
  const ingest = createIngest(deps, { finished: async (report) => alerts?.ingested(report) });
  const ingestSchedule = createIngestSchedule(deps, { jobs, ingest });
  const publicData = createPublicData(deps, { searches: caches.publicData, syncStatus: ingestSchedule.status });
  const live = createLive(deps, { database, accounts });
  alerts = createAlerts(deps, { jobs, mailer, accounts, webhooks });
  return {
    publicData,
    ingest,
    ingestSchedule,
    accounts,
    credentials,
    oauth: createOAuth(deps, { accounts, keys: credentials.keys, settlePower: caches.settlePower, securityLog, jobs }),
    idempotency: createIdempotency(deps),
    mailer,
    sessions,
    teamData: createTeamData(deps, {
      changes: live.bus,
      accountName: async (id) =>
        accounts.get(id).then(
          (a) => a.name ?? a.email,
          () => null,
        ),
    }),
    live,
    answers: createAnswers(deps, { retrieval: createRetrieval(deps) }),
    webhooks,
    securityLog,
    alerts,
    agentTasks: createAgentTasks(deps, { jobs }),
    bulk: createBulk(deps, { jobs }),
    async close() {
      await webhooks.close();
      await live.close();
      await credentials.close();
      await mailer.close();
    },
  };
}
