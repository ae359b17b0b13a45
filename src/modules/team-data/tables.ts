// Kysely types of the team-data tables (migration 0060). Only this module's repos touch them.
import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** bigint identity: read as number (kernel/db.ts parses int8), never written. */
type Seq = ColumnType<number, never, never>;

export interface FollowsTable {
  id: string;
  seq: Seq;
  account_id: string | null;
  team_id: string | null;
  type: 'legislation' | 'person' | 'body' | 'search';
  ref_id: string;
  label: string;
  created_by: string;
  created_at: Timestamp;
}

export interface TeamNotesTable {
  id: string;
  seq: Seq;
  team_id: string;
  author_id: string;
  body: string;
  subject_type: 'matter' | 'person' | 'meeting' | 'body' | null;
  subject_ref: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TeamPositionsTable {
  id: string;
  seq: Seq;
  team_id: string;
  matter_id: string;
  record_number: string;
  label: string;
  stance: 'supports' | 'opposes';
  updated_at: Timestamp;
}

export interface TeamStanceHistoryTable {
  seq: Seq;
  team_id: string;
  matter_id: string;
  stance: 'supports' | 'opposes' | null;
  previous: 'supports' | 'opposes' | null;
  source: 'v2.stance' | 'v2.positions' | 'dashboard';
  at: Timestamp;
  account_id: string;
  account_name: string;
  credential_type: 'api_key' | 'oauth' | 'session';
  credential_id: string;
}

export interface TeamTargetsTable {
  team_id: string;
  matter_id: string;
  person_id: string;
  contacted: Generated<boolean>;
  seq: Seq;
}

export interface TeamDashboardsTable {
  id: string;
  seq: Seq;
  team_id: string;
  name: string;
  layout: ColumnType<unknown, string, string>;
  version: number;
  created_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TeamDataTables {
  follows: FollowsTable;
  team_notes: TeamNotesTable;
  team_positions: TeamPositionsTable;
  team_stance_history: TeamStanceHistoryTable;
  team_targets: TeamTargetsTable;
  team_dashboards: TeamDashboardsTable;
}
