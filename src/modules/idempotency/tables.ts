// Kysely types of the idempotency module's table (migrations 0045, 0225).
import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface IdempotencyKeysTable {
  owner_type: 'account' | 'team';
  owner_id: string;
  key: string;
  fingerprint: string;
  status: number;
  headers: ColumnType<Record<string, string> | null, string | null, string | null>;
  body: string | null;
  created_at: Timestamp;
  completed_at: Timestamp | null;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}
