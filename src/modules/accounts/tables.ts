// Kysely types of the accounts module's tables (migration 0003).
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface AccountsTable {
  id: string;
  email: string;
  name: string | null;
  requests_per_day: number | null;
  requests_per_minute: number | null;
  ai_answers_per_day: number | null;
  created_at: Generated<Timestamp>;
  email_verified_at: Timestamp | null;
}

export interface TeamsTable {
  id: string;
  name: string;
  features: Generated<string[]>;
  requests_per_day: number | null;
  requests_per_minute: number | null;
  ai_answers_per_day: number | null;
  created_at: Generated<Timestamp>;
}

export interface MembershipsTable {
  team_id: string;
  account_id: string;
  role: 'owner' | 'admin' | 'member';
  created_at: Generated<Timestamp>;
}

export interface AccountTables {
  accounts: AccountsTable;
  teams: TeamsTable;
  memberships: MembershipsTable;
}
