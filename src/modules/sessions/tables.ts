// Kysely types of the sessions module's tables (migration 0050).
import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
// A timestamp the database fills in when the insert leaves it out.
type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface SigninLinksTable {
  id: string;
  email: string;
  hash: Buffer;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: DefaultTimestamp;
}

export interface SessionsTable {
  id: string;
  account_id: string;
  hash: Buffer;
  created_at: DefaultTimestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

export interface SessionTables {
  signin_links: SigninLinksTable;
  sessions: SessionsTable;
}
