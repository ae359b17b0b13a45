// The Kysely database type, composed from each module's own tables (each table has one owner). The
// kernel declares `Tables` knowing only its own; binding the modules' tables into it here keeps the
// kernel free of any module (test/architecture/boundaries.test.ts).
import type { Tables } from './kernel/deps.ts';
import type { AccountTables } from './modules/accounts/tables.ts';
import type { AgentTaskTables } from './modules/agent-tasks/tables.ts';
import type { AlertTables } from './modules/alerts/tables.ts';
import type { OAuthTables } from './modules/credentials/oauth/tables.ts';
import type { CredentialTables } from './modules/credentials/tables.ts';
import type { SecurityLogTables } from './modules/security-log/tables.ts';
import type { IdempotencyTables } from './modules/idempotency/tables.ts';
import type { PublicDataTables } from './modules/public-data/tables.ts';
import type { SessionTables } from './modules/sessions/tables.ts';
import type { TeamDataTables } from './modules/team-data/tables.ts';
import type { WebhookTables } from './modules/webhooks/tables.ts';

declare module './kernel/deps.ts' {
  interface Tables
    extends PublicDataTables,
      AccountTables,
      CredentialTables,
      SessionTables,
      IdempotencyTables,
      TeamDataTables,
      OAuthTables,
      WebhookTables,
      SecurityLogTables,
      AlertTables,
      AgentTaskTables {}
}

export type DB = Tables;
