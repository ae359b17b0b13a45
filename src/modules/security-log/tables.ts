// Kysely types of the security-log module's table (migration 0101).
import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface SecurityLogTable {
  id: string;
  account_id: string;
  type: string;
  occurred_at: Timestamp;
  summary: string;
  data: ColumnType<unknown, string, string>;
}

export interface SecurityLogTables {
  security_log: SecurityLogTable;
}
