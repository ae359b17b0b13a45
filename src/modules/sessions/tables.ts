// Kysely types of the sessions module's tables (migrations 0050, 0160).
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
  /** The client address group it was asked for from (migration 0160); null on older rows. */
  client_ip: string | null;
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
