// SQL of the alerts tables (migration 0130): the only code touching them. Functions take the
// database or a transaction, so detection can claim items and queue deliveries in one.
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db-schema.ts';
import type { Channel, Frequency, StoredItem } from './tables.ts';

export type Db = Kysely<DB>;

export async function findSubscription(db: Db, followId: string, accountId: string) {
  return db.selectFrom('alert_subscriptions').selectAll().where('follow_id', '=', followId).where('account_id', '=', accountId).executeTakeFirst();
}

export async function findSubscriptionById(db: Db, id: string) {
  return db.selectFrom('alert_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

export type SubscriptionRow = NonNullable<Awaited<ReturnType<typeof findSubscription>>>;

/** Creates a subscription, or changes its channels (its unsubscribe key stays, so sent links keep working). */
export async function upsertSubscription(
  db: Db,
  row: {
    id: string;
    followId: string;
    accountId: string;
    teamId: string | null;
    emailFrequency: Frequency | null;
    webhook: boolean;
    unsubscribeKey: string;
    at: Date;
  },
) {
  const r = await db
    .insertInto('alert_subscriptions')
    .values({
      id: row.id,
      follow_id: row.followId,
      account_id: row.accountId,
      team_id: row.teamId,
      email_frequency: row.emailFrequency,
      webhook: row.webhook,
      unsubscribe_key: row.unsubscribeKey,
      created_at: row.at,
      updated_at: row.at,
    })
    .onConflict((oc) => oc.columns(['follow_id', 'account_id']).doUpdateSet({ email_frequency: row.emailFrequency, webhook: row.webhook, updated_at: row.at }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return r.id;
}

export async function deleteSubscription(db: Db, followId: string, accountId: string): Promise<boolean> {
  const r = await db.deleteFrom('alert_subscriptions').where('follow_id', '=', followId).where('account_id', '=', accountId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Email off for one subscription (the unsubscribe link); its waiting digest items go too. */
export async function stopEmail(db: Db, id: string, at: Date): Promise<void> {
  await db.updateTable('alert_subscriptions').set({ email_frequency: null, updated_at: at }).where('id', '=', id).execute();
  await clearPending(db, id);
}

export async function clearPending(db: Db, subscriptionId: string): Promise<void> {
  await db.deleteFrom('alert_pending').where('subscription_id', '=', subscriptionId).execute();
}

export async function deleteTeamSubscriptions(db: Db, teamId: string, accountId: string): Promise<void> {
  await db.deleteFrom('alert_subscriptions').where('team_id', '=', teamId).where('account_id', '=', accountId).execute();
}

/** Whether anyone else has alerts on for this follow (it is being watched for them). */
export async function othersSubscribe(db: Db, followId: string, accountId: string): Promise<boolean> {
  const r = await db
    .selectFrom('alert_subscriptions')
    .select('id')
    .where('follow_id', '=', followId)
    .where('account_id', '<>', accountId)
    .where((e) => e.or([e('email_frequency', 'is not', null), e('webhook', '=', true)]))
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

/** Starts (or restarts) watching a follow from the database's now(). */
export async function watchFrom(db: Db, followId: string): Promise<Date> {
  const r = await db
    .insertInto('alert_watches')
    .values({ follow_id: followId, since: sql<Date>`now()` })
    .onConflict((oc) => oc.column('follow_id').doUpdateSet({ since: sql<Date>`now()` }))
    .returning('since')
    .executeTakeFirstOrThrow();
  return new Date(r.since);
}

/** Follows someone subscribes to, with the instant each is watched from. */
export async function watchedFollows(db: Db): Promise<{ followId: string; since: Date }[]> {
  const rows = await db
    .selectFrom('alert_watches as w')
    .select(['w.follow_id', 'w.since'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('alert_subscriptions as s')
          .select('s.id')
          .whereRef('s.follow_id', '=', 'w.follow_id')
          .where((e) => e.or([e('s.email_frequency', 'is not', null), e('s.webhook', '=', true)])),
      ),
    )
    .execute();
  return rows.map((r) => ({ followId: r.follow_id, since: new Date(r.since) }));
}

/** Claims items for a follow: the keys that were not seen before (exactly once across instances). */
export async function claim(db: Db, followId: string, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .insertInto('alert_seen')
    .values(keys.map((k) => ({ follow_id: followId, item_key: k, seen_at: sql<Date>`now()` })))
    .onConflict((oc) => oc.doNothing())
    .returning('item_key')
    .execute();
  return new Set(rows.map((r) => r.item_key));
}

export async function activeSubscriptions(db: Db, followId: string) {
  return db
    .selectFrom('alert_subscriptions')
    .selectAll()
    .where('follow_id', '=', followId)
    .where((e) => e.or([e('email_frequency', 'is not', null), e('webhook', '=', true)]))
    .execute();
}

export async function insertDelivery(
  db: Db,
  row: {
    id: string;
    subscriptionId: string;
    followId: string;
    accountId: string;
    channel: Channel;
    frequency: Frequency | null;
    items: StoredItem[];
    at: Date;
  },
): Promise<void> {
  await db
    .insertInto('alert_deliveries')
    .values({
      id: row.id,
      subscription_id: row.subscriptionId,
      follow_id: row.followId,
      account_id: row.accountId,
      channel: row.channel,
      frequency: row.frequency,
      items: JSON.stringify(row.items),
      status: 'queued',
      created_at: row.at,
    })
    .execute();
}

export async function addPending(db: Db, subscriptionId: string, items: readonly StoredItem[], at: Date): Promise<void> {
  if (items.length === 0) return;
  await db
    .insertInto('alert_pending')
    .values(items.map((item) => ({ subscription_id: subscriptionId, item_key: item.key, item: JSON.stringify(item), created_at: at })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Takes a subscription's waiting items (deleting them: whoever takes them sends them). */
export async function takePending(db: Db, subscriptionId: string): Promise<StoredItem[]> {
  const rows = await db.deleteFrom('alert_pending').where('subscription_id', '=', subscriptionId).returning(['item', 'created_at']).execute();
  return rows.sort((a, b) => new Date(a.created_at).getTime() - new Date(b.created_at).getTime()).map((r) => r.item);
}

/** Subscriptions with items waiting whose email frequency is `frequency`. */
export async function digestDue(db: Db, frequency: Frequency): Promise<string[]> {
  const rows = await db
    .selectFrom('alert_subscriptions as s')
    .select('s.id')
    .where('s.email_frequency', '=', frequency)
    .where((eb) => eb.exists(eb.selectFrom('alert_pending as p').select('p.item_key').whereRef('p.subscription_id', '=', 's.id')))
    .execute();
  return rows.map((r) => r.id);
}

export async function countPending(db: Db, subscriptionId: string): Promise<number> {
  const r = await db
    .selectFrom('alert_pending')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('subscription_id', '=', subscriptionId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function findDelivery(db: Db, id: string) {
  return db.selectFrom('alert_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
}

export type DeliveryRow = NonNullable<Awaited<ReturnType<typeof findDelivery>>>;

export async function recordAttempt(db: Db, id: string, outcome: { status: 'queued' | 'sent' | 'failed'; error: string | null; at: Date }): Promise<void> {
  await db
    .updateTable('alert_deliveries')
    .set({
      status: outcome.status,
      last_error: outcome.error,
      attempts: sql<number>`attempts + 1`,
      ...(outcome.status === 'sent' ? { sent_at: outcome.at } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function listDeliveries(db: Db, followId: string, accountId: string, limit: number) {
  return db
    .selectFrom('alert_deliveries')
    .selectAll()
    .where('follow_id', '=', followId)
    .where('account_id', '=', accountId)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
}

/** Email deliveries still queued that were made before `before` (their job may never have been sent). */
export async function queuedBefore(db: Db, before: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('alert_deliveries')
    .select('id')
    .where('status', '=', 'queued')
    .where('channel', '=', 'email')
    .where('created_at', '<', before)
    .execute();
  return rows.map((r) => r.id);
}
