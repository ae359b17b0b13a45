// Kysely types of agent registrations (migration 0102).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type RegistrationStatus = 'pending' | 'approved' | 'denied' | 'claimed';

export interface AgentRegistrationsTable {
  id: string;
  email: string;
  agent_name: string;
  agent_uri: string | null;
  claim_hash: Buffer;
  approve_hash: Buffer;
  client_ip: string;
  status: Generated<RegistrationStatus>;
  account_id: string | null;
  key_id: string | null;
  interval_seconds: number;
  last_polled_at: Timestamp | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  decided_at: Timestamp | null;
  claimed_at: Timestamp | null;
}
