// Kysely types of the credentials module's tables (migration 0003 and later).
import type { ColumnType, Generated } from 'kysely';
import type { AgentRegistrationsTable } from './agent-registration/tables.ts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface ApiKeysTable {
  id: string;
  account_id: string;
  team_id: string | null;
  name: string;
  kind: Generated<'scoped' | 'registration' | 'legacy'>;
  prefix: string;
  hash: Buffer;
  scopes: string[] | null;
  allowed_ips: Generated<string[]>;
  expires_at: Timestamp | null;
  created_at: Generated<Timestamp>;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_reason: string | null;
}

export interface CredentialTables {
  api_keys: ApiKeysTable;
  agent_registrations: AgentRegistrationsTable;
}
