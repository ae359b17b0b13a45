// Kysely types of the alerts tables (migration 0130). Only this module's repo touches them.
import type { ColumnType, JSONColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
type Seq = ColumnType<number, never, never>;

export type Frequency = 'immediate' | 'daily' | 'weekly';
export type DeliveryStatus = 'queued' | 'sent' | 'failed';
export type Channel = 'email' | 'webhook';

/** An item as kept for a delivery: what changed, in one line, and where to read about it. */
export interface StoredItem {
  key: string;
  title: string;
  path: string;
  date: string | null;
}

export interface AlertSubscriptionsTable {
  id: string;
  follow_id: string;
  account_id: string;
  team_id: string | null;
  email_frequency: Frequency | null;
  webhook: boolean;
  unsubscribe_key: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface AlertWatchesTable {
  follow_id: string;
  since: Timestamp;
}

export interface AlertSeenTable {
  follow_id: string;
  item_key: string;
  seen_at: Timestamp;
}

export interface AlertPendingTable {
  subscription_id: string;
  item_key: string;
  item: JSONColumnType<StoredItem, string, string>;
  created_at: Timestamp;
}

export interface AlertDeliveriesTable {
  id: string;
  seq: Seq;
  subscription_id: string | null;
  follow_id: string;
  account_id: string;
  channel: Channel;
  frequency: Frequency | null;
  items: JSONColumnType<StoredItem[], string, string>;
  status: DeliveryStatus;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  created_at: Timestamp;
  sent_at: Timestamp | null;
}

export interface AlertTables {
  alert_subscriptions: AlertSubscriptionsTable;
  alert_watches: AlertWatchesTable;
  alert_seen: AlertSeenTable;
  alert_pending: AlertPendingTable;
  alert_deliveries: AlertDeliveriesTable;
}
